//go:build ((linux && !android) || freebsd || openbsd) && !nox11 && cgo

package wmicon

/*
#cgo freebsd openbsd CFLAGS: -I/usr/X11R6/include -I/usr/local/include
#cgo freebsd openbsd LDFLAGS: -L/usr/X11R6/lib -L/usr/local/lib -lX11
#cgo linux pkg-config: x11

#include <X11/Xlib.h>
#include <X11/Xatom.h>

static void wmicon_set(Display *d, Window w, unsigned long *data, int n) {
	Atom prop = XInternAtom(d, "_NET_WM_ICON", False);
	XChangeProperty(d, w, prop, XA_CARDINAL, 32, PropModeReplace, (unsigned char *)data, n);
	XFlush(d);
}
*/
import "C"

import (
	"errors"
	"unsafe"
)

// SetX11 sets the icon of an X11 window from PNG images (several sizes, so that each place that
// shows it can pick one). display and window come from Gio's app.X11ViewEvent; Gio has called
// XInitThreads, so this may run on the goroutine that handles that event.
func SetX11(display unsafe.Pointer, window uintptr, pngs ...[]byte) error {
	if display == nil || window == 0 {
		return errors.New("wmicon: no X11 display or window")
	}
	values, err := netWMIcon(pngs)
	if err != nil {
		return err
	}
	// Format-32 properties travel as C longs, whatever their size on this platform.
	data := make([]C.ulong, len(values))
	for i, v := range values {
		data[i] = C.ulong(v)
	}
	C.wmicon_set((*C.Display)(display), C.Window(window), &data[0], C.int(len(data)))
	return nil
}
