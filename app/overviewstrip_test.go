package app

import (
	"image"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gioui.org/layout"
	"gioui.org/op"
	"gioui.org/op/paint"
	"gioui.org/unit"

	"flamedesk/app/theme"
	"flamedesk/internal/gioshot"
)

// TestOverviewCompositeMatchesTheGPU draws the overview strip both ways, as Gio ops on Gio's
// headless GPU and as the CPU composite, and compares them pixel by pixel: the composite must
// show what the ops showed, to within the GPU's rounding.
func TestOverviewCompositeMatchesTheGPU(t *testing.T) {
	const w, h = 1300, 56
	win := gioshot.Window(t, w, h)
	th := theme.New(false)
	rng := rand.New(rand.NewPCG(1, 2))
	src := image.NewNRGBA(image.Rect(0, 0, overviewBuckets, 5))
	for y := range 5 {
		for x := range overviewBuckets {
			// Runs of alike buckets, as busy and idle stretches are, with sharp edges between.
			if x%37 == 0 || y > 0 && x%53 == 0 {
				src.SetNRGBA(x, y, theme.Mix(th.Panel, th.Accent, rng.Float64()))
			} else {
				src.SetNRGBA(x, y, src.NRGBAAt(max(x-1, 0), y))
			}
		}
	}
	o := &overview{src: src, rows: 5, img: paint.NewImageOp(src)}
	o.img.Filter = paint.FilterLinear
	e := env{th: th}
	gtx := layout.Context{Metric: unit.Metric{PxPerDp: 1, PxPerSp: 1}, Constraints: layout.Exact(image.Pt(w, h))}
	top, bottom := gtx.Dp(2), h-gtx.Dp(2)
	sx, sy := float32(w)/overviewBuckets, float32(bottom-top)/5
	if !canCompositeOverview(w, 0, sx, sy) {
		t.Fatalf("a strip %d px wide over the whole axis is not composited", w)
	}
	for _, c := range []struct {
		x0, x1     int
		selecting  bool
		selA, selB int
	}{{400, 900, false, 0, 0}, {-30, 2, true, 100, 700}, {1250, 1400, true, 1200, 1300}} {
		var ops op.Ops
		gtx.Ops = &ops
		paint.Fill(&ops, th.Panel) // the window's clear
		o.dragging = c.selecting
		o.paintOps(gtx, e, image.Pt(w, h), 0, sx, sy, c.x0, c.x1, c.selA, c.selB)
		if err := win.Frame(&ops); err != nil {
			t.Fatal(err)
		}
		gpu := image.NewRGBA(image.Rect(0, 0, w, h))
		if err := win.Screenshot(gpu); err != nil {
			t.Fatal(err)
		}
		var s overviewStrip
		s.strip(image.Pt(w, h), src, top, bottom, th.Panel, th.Accent, th.Border, c.x0, c.x1, c.selecting, c.selA, c.selB)
		cpu := s.imgs[0]
		worst, differ := 0, 0
		for i := range gpu.Pix {
			d := int(gpu.Pix[i]) - int(cpu.Pix[i])
			d = max(d, -d)
			worst = max(worst, d)
			if d > 0 {
				differ++
			}
		}
		if worst > 2 {
			t.Errorf("view %d..%d, selection %v %d..%d: a channel differs by %d between the GPU and the composite", c.x0, c.x1, c.selecting, c.selA, c.selB, worst)
		}
		t.Logf("view %d..%d: %d of %d channels differ, by at most %d", c.x0, c.x1, differ, len(gpu.Pix), worst)
	}
}

// linearToSRGB must give the formula's byte for every value: each byte's least value and the
// float32 just below it, and a dense sweep of [0, 1] and beyond.
func TestLinearToSRGBMatchesTheFormula(t *testing.T) {
	check := func(v float32) {
		if got, want := linearToSRGB(v), encodeSRGB(v); got != want {
			t.Fatalf("linearToSRGB(%g) = %d, the formula gives %d", v, got, want)
		}
	}
	for k := 1; k < 256; k++ {
		v := srgbFrom[k]
		check(v)
		check(math.Nextafter32(v, 0))
		check(math.Nextafter32(v, 2))
	}
	for i := -1000; i <= 1_001_000; i++ {
		check(float32(i) / 1_000_000)
	}
	seen := map[uint8]bool{}
	for i := 0; i <= 1000; i++ {
		seen[linearToSRGB(float32(i)/1000)] = true
	}
	if len(seen) < 200 {
		t.Fatalf("only %d distinct bytes over [0, 1]", len(seen))
	}
}

// The overview's picture of a new document is built beside its first frame (startAhead), and
// scaled into the strip: that frame shows the picture a build on the UI goroutine makes, and a
// picture built ahead for another theme is not shown in this one's.
func TestOverviewBuiltAheadIsTheDocumentsPicture(t *testing.T) {
	h := newHarness(t, SourceFromPath(fixture(t, "generated", "gen-trace-medium-reload.json.gz")))
	d, o := h.u.doc, &h.u.overview
	if d == nil || o.doc != d || o.ahead != nil {
		t.Fatal("the document's first frames did not take the picture built ahead")
	}
	c := h.u.th.Colors
	want := overviewActivity(d, &c)
	if o.rows != want.rows || o.rows < 2 || !slices.Equal(o.src.Pix, want.src.Pix) {
		t.Fatalf("the picture shown (%d rows) is not the document's (%d rows)", o.rows, want.rows)
	}
	// It came scaled into the strip as the frames before laid it out, as the strip scales it.
	if k := o.strip.baseKey; o.strip.base == nil || k.src != o.src || k.size != o.stripSize || k.top != o.stripTop || k.bottom != o.stripBottom ||
		!slices.Equal(o.strip.base.Pix, scaleOverview(nil, k.size, o.src, k.top, k.bottom, c.Panel).Pix) {
		t.Fatalf("the strip's picture is not the document's scaled into %v", o.stripSize)
	}
	dark := theme.Dark()
	o.startAhead(d, dark)
	o.build(d, &c)
	if !slices.Equal(o.src.Pix, want.src.Pix) {
		t.Fatal("a picture built ahead for the dark theme was shown in the light one")
	}
	o.startAhead(d, dark)
	o.build(d, &dark)
	if slices.Equal(o.src.Pix, want.src.Pix) {
		t.Fatal("the dark theme's picture is the light one's")
	}
}
