package theme

import (
	"image"
	"image/color"
	"testing"

	"gioui.org/layout"
	"gioui.org/op"
	"gioui.org/op/paint"
	"gioui.org/unit"

	"flamedesk/internal/gioshot"
)

// shot renders what draw draws in a w×h headless window and reads it back.
func shot(t *testing.T, w, h int, draw func(gtx layout.Context)) *image.RGBA {
	t.Helper()
	win := gioshot.Window(t, w, h)
	var ops op.Ops
	draw(layout.Context{Ops: &ops, Constraints: layout.Exact(image.Pt(w, h)), Metric: unit.Metric{PxPerDp: 1, PxPerSp: 1}})
	return gioshot.Shot(t, win, &ops)
}

// A box's border lies inside its rectangle, width px of the border colour on each side, crisp, and
// nothing of it spills out.
func TestBoxBordersInsideItsRectangle(t *testing.T) {
	th := New(true) // dark: the panel, the border and the white around differ
	white := color.NRGBA{R: 255, G: 255, B: 255, A: 255}
	for _, width := range []int{1, 2} {
		r := image.Rect(5, 7, 45, 31)
		img := shot(t, 50, 40, func(gtx layout.Context) {
			paint.Fill(gtx.Ops, white)
			th.Box(gtx.Ops, r, width)
		})
		for y := 0; y < 40; y++ {
			for x := 0; x < 50; x++ {
				p := image.Pt(x, y)
				want := white
				switch {
				case p.In(r.Inset(width)):
					want = th.Panel
				case p.In(r):
					want = th.Border
				}
				if got := img.RGBAAt(x, y); !gioshot.Near(got, want, 2) {
					t.Fatalf("width %d: pixel (%d, %d) is %v, want %v", width, x, y, got, want)
				}
			}
		}
	}
}

// The progress bar spans the constraints' width and fills the fraction of it from the left.
func TestProgressBarFillsItsFraction(t *testing.T) {
	th := New(false)
	for _, f := range []float32{0, 0.25, 1, 2} {
		var dims layout.Dimensions
		img := shot(t, 80, 10, func(gtx layout.Context) { dims = th.ProgressBar(gtx, f) })
		if dims.Size.X != 80 || dims.Size.Y != 4 {
			t.Fatalf("fraction %v: size %v, want 80×4", f, dims.Size)
		}
		filled := int(80*min(f, 1) + 0.5)
		for x := 0; x < 80; x++ {
			want := th.Control
			if x < filled {
				want = th.Accent
			}
			if got := img.RGBAAt(x, 2); !gioshot.Near(got, want, 2) {
				t.Fatalf("fraction %v: pixel %d is %v, want %v", f, x, got, want)
			}
		}
	}
}
