package render

import (
	"image"
	"image/draw"
	"testing"

	"gioui.org/op"
	"gioui.org/op/clip"
	"gioui.org/op/paint"

	"flamedesk/internal/gioshot"
	"flamedesk/timeline"
)

// TestContentPlanKeepsEveryPixel rebuilds frames of the small trace from their backdrop (the
// background and the grid lines) and the planned rectangles copied from the composited image: the
// result must be the image itself, pixel for pixel. The rectangles must not overlap, and over
// the views some must leave part of the frame out, or the plan saves nothing.
func TestContentPlanKeepsEveryPixel(t *testing.T) {
	m := smallModel(t)
	const w, h = 1600, 1000
	vp := timeline.NewViewport(m.Bounds())
	vp.SetSize(w, h)
	views, scrolls := randomViews(m, vp, 12)
	views[0], scrolls[0] = timeline.View{Start: 0, Span: vp.Total()}, 0
	b := NewBuilder(m)
	var l DrawList
	var plan contentPlan
	var bd backdrop
	saved := 0
	for i, v := range views {
		vp.SetView(v)
		vp.SetScrollY(scrolls[i])
		for _, th := range []*Theme{Light(), Dark()} {
			b.Build(&l, vp, &Frame{Width: w, Height: h, Theme: th, Selection: timeline.NoEntry, Hover: noHover})
			want := PaintImage(&l)
			findBackdrop(&l, &bd)
			if len(bd.Lines) == 0 {
				t.Fatalf("view %d: no grid lines found", i)
			}
			got := image.NewRGBA(want.Rect)
			draw.Draw(got, got.Rect, image.NewUniform(bd.Background), image.Point{}, draw.Src)
			for _, x := range bd.Lines {
				draw.Draw(got, image.Rect(x, bd.Top, x+1, h), image.NewUniform(bd.LineColor), image.Point{}, draw.Src)
			}
			rects := plan.plan(want, &bd)
			area := 0
			for k, r := range rects {
				if r.Empty() || !r.In(want.Rect) {
					t.Fatalf("view %d: rectangle %v is empty or outside the frame", i, r)
				}
				for _, q := range rects[:k] {
					if r.Overlaps(q) {
						t.Fatalf("view %d: rectangles %v and %v overlap", i, q, r)
					}
				}
				draw.Draw(got, r, want, r.Min, draw.Src)
				area += r.Dx() * r.Dy()
			}
			for y := 0; y < h; y++ {
				for x := 0; x < w; x++ {
					if got.RGBAAt(x, y) != want.RGBAAt(x, y) {
						t.Fatalf("view %d: pixel (%d, %d) is %v rebuilt from %d rectangles, %v painted", i, x, y, got.RGBAAt(x, y), len(rects), want.RGBAAt(x, y))
					}
				}
			}
			saved += w*h - area
			t.Logf("view %d: %d rectangles, %.0f%% of the frame", i, len(rects), 100*float64(area)/(w*h))
		}
	}
	if saved == 0 {
		t.Error("every plan covered the whole frame")
	}
}

// TestGioFrameShowsTheComposite draws frames with GioFrame on Gio's headless GPU, once over a
// window cleared to the chart's background (the parts without content are then not drawn at
// all) and once over another colour (the background is filled first): the window must show the
// ImagePainter's image in both.
func TestGioFrameShowsTheComposite(t *testing.T) {
	const w, h = 1000, 600
	_, l, want := parseTaskFrame(t, w, h)
	win := gioshot.Window(t, w, h)
	other := l.Background
	other.R ^= 0x80
	for _, clear := range []bool{true, false} {
		p := GioPainter{Mode: GioFrame}
		var ops op.Ops
		if clear {
			p.Backdrop = l.Background
			paint.Fill(&ops, l.Background)
		} else {
			p.Backdrop = other
			paint.FillShape(&ops, other, clip.Rect{Max: image.Pt(w, h)}.Op())
		}
		p.Paint(&ops, &l)
		got := frameShot(t, win, &ops, w, h)
		if len(p.content.rects) == 0 {
			t.Fatal("nothing planned")
		}
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				if g, e := Pixel(got, x, y), Pixel(want, x, y); !near(g, e) {
					t.Fatalf("cleared to the background %v: pixel (%d, %d) is %v on the GPU, %v in the image", clear, x, y, g, e)
				}
			}
		}
	}
}
