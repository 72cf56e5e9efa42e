package app

import (
	"image"
	"image/color"
	"testing"

	"gioui.org/gpu/headless"
	"gioui.org/layout"
	"gioui.org/op"
	"gioui.org/op/clip"
	"gioui.org/op/paint"
	"gioui.org/unit"
)

// TestFlatBorderFramesItsWidget draws a filled widget inside flatBorder on the GPU and checks
// the frame pixel by pixel: the outermost ring in the border colour, the widget's fill inside it,
// the background beyond.
func TestFlatBorderFramesItsWidget(t *testing.T) {
	const w, h = 60, 40
	win, err := headless.NewWindow(w, h)
	if err != nil {
		t.Skipf("no GPU context for Gio's headless window: %v", err)
	}
	defer win.Release()
	bg, border, fill := color.NRGBA{R: 255, G: 255, B: 255, A: 255}, color.NRGBA{R: 200, A: 255}, color.NRGBA{B: 160, A: 255}
	var ops op.Ops
	gtx := layout.Context{Ops: &ops, Metric: unit.Metric{PxPerDp: 1, PxPerSp: 1}, Constraints: layout.Exact(image.Pt(w, h))}
	paint.Fill(&ops, bg)
	box := image.Rect(5, 7, 45, 29)
	off := op.Offset(box.Min).Push(&ops)
	dims := flatBorder(gtx, border, func(gtx layout.Context) layout.Dimensions {
		paint.FillShape(gtx.Ops, fill, clip.Rect{Max: box.Size()}.Op())
		return layout.Dimensions{Size: box.Size()}
	})
	off.Pop()
	if dims.Size != box.Size() {
		t.Fatalf("flatBorder took %v, want its widget's %v", dims.Size, box.Size())
	}
	if err := win.Frame(&ops); err != nil {
		t.Fatal(err)
	}
	got := image.NewRGBA(image.Rect(0, 0, w, h))
	if err := win.Screenshot(got); err != nil {
		t.Fatal(err)
	}
	inner := box.Inset(1)
	bad := 0
	for y := range h {
		for x := range w {
			p := image.Pt(x, y)
			want := bg
			switch {
			case p.In(inner):
				want = fill
			case p.In(box):
				want = border
			}
			if c := color.NRGBAModel.Convert(got.At(x, y)).(color.NRGBA); c != want {
				if bad++; bad <= 5 {
					t.Errorf("pixel %v is %v, want %v", p, c, want)
				}
			}
		}
	}
}
