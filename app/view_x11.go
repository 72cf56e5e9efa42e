//go:build (linux && !android) || freebsd || openbsd

package app

import (
	"gioui.org/io/event"

	gioapp "gioui.org/app"

	"flamedesk/app/wmicon"
	"flamedesk/assets"
)

// viewEvent keeps the X window id (the parent of the open dialog) and sets the window's icon,
// for which Gio has no option on X11; a missing icon is cosmetic, so errors are ignored.
func (u *ui) viewEvent(e event.Event) {
	if v, ok := e.(gioapp.X11ViewEvent); ok && v.Valid() {
		u.x11 = uint64(v.Window)
		_ = wmicon.SetX11(v.Display, v.Window, assets.WindowIconPNGs...)
	}
}
