package render

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"math/rand/v2"
	"testing"

	"flamedesk/timeline"
)

// PaintSplit, the window's painter, paints exactly what Paint paints: over random views (zoomed,
// panned, scrolled so that header arrows and lane diamonds fall near the cut) of traces with
// lanes, merged spans and labels, in both themes, frame after frame with its caches warm, its new
// labels rasterised on two goroutines, Paint's on one.
func TestPaintSplitPaintsWhatPaintPaints(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 6))
	wasSplitMasks := splitMasks
	defer func() { splitMasks = wasSplitMasks }()
	for _, elems := range [][]string{
		{"fixtures", "generated", "gen-trace-small.json.gz"},
		{"fixtures", "upstream", "devtools-cls-multiple-frames.json.gz"},
		{"fixtures", "upstream", "devtools-slow-interaction-keydown.json.gz"},
	} {
		m := loadModel(t, elems...)
		lo, hi := m.Bounds()
		vp := timeline.NewViewport(lo, hi)
		bld := NewBuilder(m)
		whole, split := NewImagePainter(), NewImagePainter()
		whole.CacheText, split.CacheText = true, true
		var l DrawList
		splits := 0
		for i := range 40 {
			w, h := 1600, 1000
			if i%3 == 1 {
				w, h = 1023, 777
			}
			vp.SetSize(float64(w), float64(h))
			vp.SetContentHeight(m.ContentHeight())
			vp.SetView(timeline.View{Start: lo, Span: hi - lo})
			vp.ZoomAt(rng.Float64()*float64(w), 1/(1+rng.Float64()*50))
			vp.Pan(rng.Float64()*4000 - 2000)
			vp.SetScrollY(rng.Float64() * max(m.ContentHeight()-float64(h)/2, 0))
			th := Light()
			if i%2 == 1 {
				th = Dark()
			}
			bld.Build(&l, vp, &Frame{Width: w, Height: h, Theme: th, Selection: timeline.NoEntry})
			want := image.NewRGBA(image.Rect(0, 0, w, h))
			got := image.NewRGBA(image.Rect(0, 0, w, h))
			// The whole image's labels are rasterised on one goroutine, the split one's on two.
			splitMasks = 1 << 30
			whole.Paint(want, &l)
			splitMasks = 2
			split.PaintSplit(got, &l)
			splitMasks = wasSplitMasks
			if _, ok := split.splitRow(&l, got.Bounds()); ok {
				splits++
			}
			if !bytes.Equal(got.Pix, want.Pix) {
				for j := range got.Pix {
					if got.Pix[j] != want.Pix[j] {
						t.Fatalf("%s, view %d: pixel (%d, %d) differs", elems[2], i, j/4%w, j/4/w)
					}
				}
			}
		}
		if splits == 0 {
			t.Errorf("%s: no frame was painted in two parts", elems[2])
		}
	}
}

// TestOverHatchMatchesDrawOver composites the hatching of both themes, and an opaque one, over a
// frame of varied pixels and over one of bars (runs of one colour, as hatched spans are, where
// overHatch reuses its results), through a rectangle that starts and ends mid-stripe, with
// overHatch and with image/draw's Over: every byte must agree.
func TestOverHatchMatchesDrawOver(t *testing.T) {
	p := NewImagePainter()
	bounds := image.Rect(0, 0, 300, 200)
	varied := func(i int) byte { return byte(i * 13) }
	// Bars 37 px wide and 11 rows high, each its own colour.
	bars := func(i int) byte { px := i / 4; return byte((px%300/37+px/300/11*7)*41 + i%4*67) }
	for _, c := range []color.NRGBA{Light().Hatch, Dark().Hatch, {R: 200, G: 40, B: 90, A: 0xff}} {
		for _, frame := range []func(int) byte{varied, bars} {
			hatch := p.hatchFrame(bounds, Hatch{Color: c, Period: 6, Width: 2})
			want := image.NewRGBA(bounds)
			for i := range want.Pix {
				want.Pix[i] = frame(i)
			}
			got := image.NewRGBA(bounds)
			copy(got.Pix, want.Pix)
			r := image.Rect(3, 5, 290, 190)
			draw.Draw(want, r, hatch, r.Min, draw.Over)
			overHatch(got, r, hatch)
			if !bytes.Equal(got.Pix, want.Pix) {
				for i := range got.Pix {
					if got.Pix[i] != want.Pix[i] {
						t.Fatalf("hatch %v: byte %d (pixel %d) is %d, image/draw gives %d", c, i, i/4, got.Pix[i], want.Pix[i])
					}
				}
			}
		}
	}
}
