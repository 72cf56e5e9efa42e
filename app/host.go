package app

import (
	gioapp "gioui.org/app"
	"gioui.org/io/system"
)

// host is what the window needs of the system window around it. Gio's window is one; the tests
// run frames through Gio's input router with a fake one, with no display at all.
type host interface {
	// Invalidate asks for a frame; any goroutine may call it.
	Invalidate()
	SetTitle(title string)
	// Close ends the session as the window's close button does.
	Close()
}

// gioHost is a real window.
type gioHost struct{ w *gioapp.Window }

func (h gioHost) Invalidate()       { h.w.Invalidate() }
func (h gioHost) SetTitle(t string) { h.w.Option(gioapp.Title(t)) }
func (h gioHost) Close()            { h.w.Perform(system.ActionClose) }
