//go:build !(((linux && !android) || freebsd || openbsd) && !nox11 && cgo)

package wmicon

import (
	"errors"
	"unsafe"
)

// SetX11 reports that this build has no X11 support; see the X11 build of this package.
func SetX11(display unsafe.Pointer, window uintptr, pngs ...[]byte) error {
	return errors.New("wmicon: built without X11")
}
