package app

import (
	"gioui.org/io/event"

	gioapp "gioui.org/app"
)

// viewEvent keeps the window's handle, the owner of the open dialog.
func (u *ui) viewEvent(e event.Event) {
	if v, ok := e.(gioapp.Win32ViewEvent); ok {
		u.hwnd = v.HWND
	}
}
