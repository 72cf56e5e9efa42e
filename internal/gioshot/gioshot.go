// Package gioshot renders Gio ops on Gio's headless GPU window and reads the pixels back, for the
// tests of what the window and the Gio painter draw. A machine without a GPU context (no EGL)
// skips those tests.
package gioshot

import (
	"image"
	"image/color"
	"testing"

	"gioui.org/gpu/headless"
	"gioui.org/op"
)

// Window opens a w×h headless window, released when the test ends, or skips the test when the
// machine has no GPU context for one.
func Window(tb testing.TB, w, h int) *headless.Window {
	tb.Helper()
	win, err := headless.NewWindow(w, h)
	if err != nil {
		tb.Skipf("no GPU context for Gio's headless window: %v", err)
	}
	tb.Cleanup(win.Release)
	return win
}

// Shot renders ops on win and returns what it shows.
func Shot(tb testing.TB, win *headless.Window, ops *op.Ops) *image.RGBA {
	tb.Helper()
	if err := win.Frame(ops); err != nil {
		tb.Fatal(err)
	}
	img := image.NewRGBA(image.Rectangle{Max: win.Size()})
	if err := win.Screenshot(img); err != nil {
		tb.Fatal(err)
	}
	return img
}

// Near says whether a rendered pixel shows c to within tol in each channel: Gio blends in linear
// light, so an opaque colour can come back off by one or two.
func Near(px color.RGBA, c color.NRGBA, tol uint8) bool {
	d := func(x, y uint8) bool { return max(x, y)-min(x, y) <= tol }
	return d(px.R, c.R) && d(px.G, c.G) && d(px.B, c.B)
}
