package render

import (
	"image"
	"testing"
	"time"

	"gioui.org/gpu/headless"
	"gioui.org/op"
	"gioui.org/op/paint"

	"flamedesk/timeline"
)

// GioFrame hands the composited frame to Gio in bands, some whole, some as one row stretched,
// some kept from the frame before: what reaches the screen must be what the
// composite drawn as one image gives, pixel for pixel, frame after frame. (Not the composite
// itself: the sRGB texture's round trip on llvmpipe changes a few grey labels' pixels by one.)
func TestGioFrameShowsTheCompositeExactly(t *testing.T) {
	m := smallModel(t)
	const w, h = 1000, 600
	lo, _ := m.Bounds()
	vp := timeline.NewViewport(m.Bounds())
	vp.SetSize(w, h)
	b := NewBuilder(m)
	win := headlessWindow(t, w, h)
	var p GioPainter
	p.Mode = GioFrame
	var l DrawList
	views := []struct{ from, to float64 }{
		{250e3, 450e3}, // the long parse task with many labels
		{250e3, 450e3}, // the same again: every band kept
		{260e3, 460e3}, // panned: every band new
		{0, 1e9},       // the whole trace, with flat runs
		{0, 1e9},
	}
	sawKept, sawFlat := false, false
	for i, v := range views {
		vp.ZoomToRange(lo+v.from, lo+v.to)
		b.Build(&l, vp, &Frame{Width: w, Height: h, Selection: timeline.NoEntry, Hover: noHover})
		var ops op.Ops
		kept := make([]bool, len(p.bands.bands))
		for k := range kept {
			kept[k] = p.bands.bands[k].valid
		}
		p.Paint(&ops, &l)
		got := frame(t, win, &ops, w, h)
		// The same composite (labels from the painter's cache) as one image.
		composite := image.NewRGBA(p.img.Rect)
		copy(composite.Pix, p.img.Pix)
		ops.Reset()
		whole := paint.NewImageOp(composite)
		whole.Filter = paint.FilterNearest
		whole.Add(&ops)
		paint.PaintOp{}.Add(&ops)
		want := frame(t, win, &ops, w, h)
		differ := 0
		for y := range h {
			for x := range w {
				if g, e := Pixel(got, x, y), Pixel(want, x, y); g != e {
					if differ == 0 {
						t.Errorf("frame %d: first differing pixel (%d, %d): %v in bands, %v as one image", i, x, y, g, e)
					}
					differ++
				}
			}
		}
		if differ > 0 {
			t.Fatalf("frame %d: %d pixels differ", i, differ)
		}
		flat := 0
		for _, bd := range p.bands.bands {
			for _, r := range bd.runs {
				if r.flat {
					flat += r.x1 - r.x0
				}
			}
		}
		t.Logf("frame %d: %d of %d px in flat runs", i, flat*bandHeight, w*h)
		sawFlat = sawFlat || flat > 0
		if i == 1 || i == 4 {
			for k := range kept {
				sawKept = sawKept || kept[k]
			}
		}
	}
	if !sawKept || !sawFlat {
		t.Errorf("the views did not exercise both kept bands (%v) and flat runs (%v)", sawKept, sawFlat)
	}
}

// frame renders ops in win and reads the pixels back.
func frame(t *testing.T, win *headless.Window, ops *op.Ops, w, h int) *image.RGBA {
	t.Helper()
	if err := win.Frame(ops); err != nil {
		t.Fatal(err)
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	if err := win.Screenshot(img); err != nil {
		t.Fatal(err)
	}
	return img
}

// BenchmarkGioFrameBands compares GioFrame's bands with one new image per frame, frame by frame
// in turn on the same navigation (zooming in, panning right, zooming out, panning left, a step
// per frame, as held keys do), on gen-trace-large at 1600x1000. It reports the CPU time of the
// whole process per frame, the GL driver's threads included (llvmpipe renders on the CPU), which
// other work on the machine changes far less than wall time. Run it with DISPLAY set to an X
// server (Xvfb) to measure EGL/GLES as the window uses it.
func BenchmarkGioFrameBands(b *testing.B) {
	m := loadModel(b, "fixtures", "generated", "gen-trace-large.json.gz")
	const w, h = 1600, 600 // the chart's part of a 1600x1000 window
	win := headlessWindow(b, w, h)
	vp := timeline.NewViewport(m.Bounds())
	vp.SetSize(w, h)
	bld := NewBuilder(m)
	painters := [2]*GioPainter{{Mode: GioFrame}, {Mode: GioFrame, oneImage: true}}
	var spent [2]time.Duration
	var l DrawList
	var ops op.Ops
	shot := image.NewRGBA(image.Rect(0, 0, w, h))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		switch (i / 40) % 4 {
		case 0:
			vp.ZoomAt(w/2, 1.03)
		case 1:
			vp.Pan(12)
		case 2:
			vp.ZoomAt(w/2, 1/1.03)
		case 3:
			vp.Pan(-12)
		}
		bld.Build(&l, vp, &Frame{Width: w, Height: h, Selection: timeline.NoEntry, Hover: noHover})
		for k := range painters {
			mode := (k + i) % len(painters) // rotate which goes first
			before := processCPU()
			ops.Reset()
			painters[mode].Paint(&ops, &l)
			if err := win.Frame(&ops); err != nil {
				b.Fatal(err)
			}
			if err := win.Screenshot(shot); err != nil {
				b.Fatal(err)
			}
			spent[mode] += processCPU() - before
		}
	}
	n := float64(b.N)
	b.ReportMetric(float64(spent[0].Microseconds())/1000/n, "bands-cpu-ms/frame")
	b.ReportMetric(float64(spent[1].Microseconds())/1000/n, "one-image-cpu-ms/frame")
}
