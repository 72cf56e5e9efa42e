//go:build !windows && !((linux && !android) || freebsd || openbsd)

package app

import "gioui.org/io/event"

// viewEvent has nothing to keep on platforms whose dialogs need no parent window.
func (u *ui) viewEvent(event.Event) {}
