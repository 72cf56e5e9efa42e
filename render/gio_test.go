package render

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"gioui.org/gpu/headless"
	"gioui.org/op"
	"gioui.org/op/paint"

	"flamedesk/internal/gioshot"
	"flamedesk/timeline"
)

// parseTaskFrame builds the draw list of smallModel's long parse task (many labels) in a w×h
// frame, and paints it with the image painter.
func parseTaskFrame(t *testing.T, w, h int) (*Builder, DrawList, *image.RGBA) {
	t.Helper()
	m := smallModel(t)
	vp := timeline.NewViewport(m.Bounds())
	lo, _ := m.Bounds()
	vp.SetSize(float64(w), float64(h))
	vp.ZoomToRange(lo+250e3, lo+450e3)
	b := NewBuilder(m)
	var l DrawList
	b.Build(&l, vp, &Frame{Width: w, Height: h, Selection: timeline.NoEntry, Hover: noHover})
	return b, l, PaintImage(&l)
}

// frameShot draws ops in win and returns what it shows.
func frameShot(t *testing.T, win *headless.Window, ops *op.Ops, w, h int) *image.RGBA {
	t.Helper()
	if err := win.Frame(ops); err != nil {
		t.Fatal(err)
	}
	got := image.NewRGBA(image.Rect(0, 0, w, h))
	if err := win.Screenshot(got); err != nil {
		t.Fatal(err)
	}
	return got
}

func TestGioPainterDrawsWhatTheImagePainterDraws(t *testing.T) {
	const w, h = 1000, 600
	b, l, want := parseTaskFrame(t, w, h)

	win := gioshot.Window(t, w, h)
	for _, mode := range []GioPainter{{Mode: GioRects}, {Mode: GioPaths}, {Mode: GioImage}, {Mode: GioRects, VectorText: true}} {
		p := mode
		name := fmt.Sprintf("mode %d, vector text %v", mode.Mode, mode.VectorText)
		var ops op.Ops
		p.Paint(&ops, &l)
		got := frameShot(t, win, &ops, w, h)
		if dir := os.Getenv("FLAMEDESK_SHOTS"); dir != "" {
			savePNG(t, filepath.Join(dir, fmt.Sprintf("gio-mode%d-vector%v.png", mode.Mode, mode.VectorText)), got)
			savePNG(t, filepath.Join(dir, "image-painter.png"), want)
		}
		// Compare inside every bar at least 8 px wide, one pixel in from its top-left corner:
		// the fill colour, untouched by anti-aliasing, labels or hatching.
		checked := 0
		for _, bt := range l.Layers[LayerBars].Batches {
			for _, r := range bt.Rects {
				if r.X1-r.X0 < 8 || r.Y0 < b.Style.RulerHeight || r.Y1 > h || r.X0 < 0 || r.X1 > w {
					continue
				}
				x, y := int(r.X0)+1, int(r.Y0)+1
				if inHatch(l.Layers[LayerBars].Hatches, x, y) {
					continue // the stripes' phase may differ by a pixel between the painters
				}
				if g, e := Pixel(got, x, y), Pixel(want, x, y); !near(g, e) {
					t.Fatalf("%s: pixel (%d, %d) is %v on the GPU, %v in the image", name, x, y, g, e)
				}
				checked++
			}
		}
		if checked < 25 {
			t.Fatalf("%s: only %d bars compared", name, checked)
		}
		// Text: the two painters' glyphs put about the same amount of ink on their bars (Gio's
		// anti-aliasing is lighter, so compare the summed darkening, not a threshold).
		ink := func(img *image.RGBA) float64 {
			lum := func(x, y int) float64 {
				c := Pixel(img, x, y)
				return 0.3*float64(c.R) + 0.59*float64(c.G) + 0.11*float64(c.B)
			}
			sum := 0.0
			for _, tx := range l.Layers[LayerText].Texts {
				x0, y0 := int(tx.X), int(tx.Y)
				bg := lum(x0-2, y0-4)
				for y := y0 - 9; y < y0+2; y++ {
					for x := x0; x < x0+20; x++ {
						sum += max(0, bg-lum(x, y))
					}
				}
			}
			return sum
		}
		gi, ii := ink(got), ink(want)
		t.Logf("%s: %d bars agree; text ink %.0f on the GPU, %.0f in the image", name, checked, gi, ii)
		if ii == 0 || math.Abs(gi-ii) > 0.35*ii {
			t.Errorf("%s: text ink %.0f on the GPU, %.0f in the image", name, gi, ii)
		}
	}
}

// BenchmarkGioPainter compares the two ways of drawing bars with Gio on whatever GPU the machine
// has (Mesa's llvmpipe here): one path per colour (GioPaths), and one image from ImagePainter
// (GioImage). Each frame builds the ops, renders them and reads the pixels back, which waits for
// the GPU. The modes alternate frame by frame over the same random views, so that load from other
// processes on the machine falls on both alike; each reports its mean frame time. Run it with
// DISPLAY set to an X server (Xvfb) to measure EGL/GLES as the window uses it; without one Gio
// falls back to Vulkan (lavapipe).
func BenchmarkGioPainter(b *testing.B) {
	for _, file := range []string{"gen-trace-small.json.gz", "gen-trace-large.json.gz"} {
		b.Run(file, func(b *testing.B) {
			m := loadModel(b, "fixtures", "generated", file)
			const w, h = 1600, 1000
			win := gioshot.Window(b, w, h)
			vp := timeline.NewViewport(m.Bounds())
			views, scrolls := randomViews(m, vp, 20)
			views[0], scrolls[0] = timeline.View{Start: 0, Span: vp.Total()}, 0
			bld := NewBuilder(m)
			painters := [4]*GioPainter{{Mode: GioRects}, {Mode: GioPaths}, {Mode: GioImage}, {Mode: GioRects, VectorText: true}}
			var spent [4]time.Duration
			var l DrawList
			var ops op.Ops
			shot := image.NewRGBA(image.Rect(0, 0, w, h))
			rects := 0
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				vp.SetView(views[i%len(views)])
				vp.SetScrollY(scrolls[i%len(views)])
				bld.Build(&l, vp, &Frame{Width: w, Height: h, Selection: timeline.NoEntry, Hover: noHover})
				rects += l.Stats.Rects
				for k := range painters {
					mode := (k + i) % len(painters) // rotate which goes first
					t := time.Now()
					ops.Reset()
					painters[mode].Paint(&ops, &l)
					if err := win.Frame(&ops); err != nil {
						b.Fatal(err)
					}
					if err := win.Screenshot(shot); err != nil {
						b.Fatal(err)
					}
					spent[mode] += time.Since(t)
				}
			}
			n := float64(b.N)
			b.ReportMetric(float64(rects)/n, "rects/frame")
			b.ReportMetric(float64(spent[GioPaths].Microseconds())/1000/n, "paths-ms/frame")
			b.ReportMetric(float64(spent[GioImage].Microseconds())/1000/n, "image-ms/frame")
			b.ReportMetric(float64(spent[GioRects].Microseconds())/1000/n, "rects-ms/frame")
			b.ReportMetric(float64(spent[3].Microseconds())/1000/n, "rects+vectortext-ms/frame")
		})
	}
}

func savePNG(tb testing.TB, path string, img image.Image) {
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		tb.Fatal(err)
	}
}

// inHatch tells whether pixel (x, y) lies in one of the striped (merged) spans.
func inHatch(hatches []Rect, x, y int) bool {
	fx, fy := float32(x)+0.5, float32(y)+0.5
	for _, h := range hatches {
		if fx >= h.X0 && fx < h.X1 && fy >= h.Y0 && fy < h.Y1 {
			return true
		}
	}
	return false
}

// WarmTextures must draw every kind of texture the chart draws and leave no trace on screen.
func TestWarmTexturesCoverEveryKindInvisibly(t *testing.T) {
	const w, h = 64, 48
	win := gioshot.Window(t, w, h)
	bg := color.NRGBA{R: 0x3a, G: 0x7f, B: 0xc4, A: 0xff}
	var ops op.Ops
	paint.Fill(&ops, bg)
	want := frameShot(t, win, &ops, w, h)
	ops.Reset()
	paint.Fill(&ops, bg)
	WarmTextures(&ops)
	got := frameShot(t, win, &ops, w, h)
	if !bytes.Equal(got.Pix, want.Pix) {
		t.Error("the warm-up textures changed what the window shows")
	}

	type kind struct {
		filter       paint.ImageFilter
		pow2X, pow2Y bool
	}
	pow2 := func(n int) bool { return n&(n-1) == 0 }
	kinds := map[kind]bool{}
	for _, im := range warm.ops {
		sz := im.Size()
		kinds[kind{im.Filter, pow2(sz.X), pow2(sz.Y)}] = true
	}
	f := paint.FilterNearest
	for _, k := range []kind{{f, true, true}, {f, true, false}, {f, false, true}, {f, false, false}} {
		if !kinds[k] {
			t.Errorf("no warm-up texture of kind %+v", k)
		}
	}
}
