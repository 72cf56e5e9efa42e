package timeline

import (
	"math"
	"math/rand/v2"
	"testing"
)

// exactPx is how far a round trip may land from where it started. Relative times are float64 µs
// of at most 60e6, whose resolution is 7.5e-9 µs: 1.2e-5 px at the deepest zoom (1 µs over
// 1,600 px). Any drift would show up as errors growing far beyond that.
const exactPx = 1e-4

// origins are realistic trace clocks: µs since boot (a day is 8.6e10) and since the epoch.
var origins = []float64{0, 1_247_875_141.25, 86_400_000_000.5, 1_700_000_000_000_000}

func TestViewportRoundTripsAtEveryZoom(t *testing.T) {
	const width = 1600
	for _, origin := range origins {
		vp := NewViewport(origin, origin+60e6) // a 60 s trace
		vp.SetSize(width, 1000)
		for span := 60e6; span >= MinSpan; span /= 7.3 {
			for _, at := range []float64{0, 0.37, 0.999} {
				vp.SetView(View{Start: (60e6 - span) * at, Span: span})
				if got := vp.Span(); got != span {
					t.Fatalf("origin %g: span %g clamped to %g", origin, span, got)
				}
				for x := 0.0; x <= width; x += 97.5 {
					back := vp.RelToPx(vp.PxToRel(x))
					if math.Abs(back-x) > exactPx {
						t.Fatalf("origin %g span %g µs: px %g → rel → px %g", origin, span, x, back)
					}
				}
				// Absolute times of entries map exactly: the window's own edges land on 0 and width.
				if x := vp.TimeToPx(vp.Start()); math.Abs(x) > pxTolerance(origin, span, width) {
					t.Fatalf("origin %g span %g: start at %g px", origin, span, x)
				}
				if x := vp.TimeToPx(vp.End()); math.Abs(x-width) > pxTolerance(origin, span, width) {
					t.Fatalf("origin %g span %g: end at %g px", origin, span, x)
				}
			}
		}
	}
}

// pxTolerance is what rounding an absolute time to the trace clock's resolution can cost in
// pixels (Start and End are absolute), plus a millionth of a pixel.
func pxTolerance(origin, span, width float64) float64 {
	ulp := math.Nextafter(origin+span, math.Inf(1)) - (origin + span)
	return ulp*width/span + exactPx
}

func TestViewportOneMicrosecondOverWidthIsExact(t *testing.T) {
	// An entry at a large absolute time, 1 µs long, zoomed to exactly: its edges are at 0 and 1600.
	const origin = 86_400_000_000.5
	vp := NewViewport(origin, origin+60e6)
	vp.SetSize(1600, 1000)
	entry := origin + 31_415_926.5
	vp.ZoomToRange(entry, entry+1)
	if vp.Span() != 1 {
		t.Fatalf("span %g, want 1 µs", vp.Span())
	}
	if x := vp.TimeToPx(entry); x != 0 {
		t.Errorf("entry start at %g px, want 0", x)
	}
	if x := vp.TimeToPx(entry + 1); x != 1600 {
		t.Errorf("entry end at %g px, want 1600", x)
	}
	// Half-way (a time this clock can hold exactly) is exactly in the middle; and 2⁻¹⁶ µs, the
	// clock's resolution at this magnitude, is 0.0244 px.
	if x := vp.TimeToPx(entry + 0.5); x != 800 {
		t.Errorf("middle at %g px, want 800", x)
	}
	if x := vp.TimeToPx(entry + 1.0/65536); math.Abs(x-1600.0/65536) > 1e-9 {
		t.Errorf("one clock tick in at %g px, want %g", x, 1600.0/65536)
	}
}

func TestZoomKeepsTheAnchorAndDoesNotDrift(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, origin := range origins {
		vp := NewViewport(origin, origin+60e6)
		vp.SetSize(1600, 1000)
		start := vp.View()
		// Zoom in at one anchor all the way, then out again: the time under the anchor never moves
		// (until the window hits an edge, which this anchor in the middle of the trace avoids).
		anchor := 800.0
		rel := vp.PxToRel(anchor)
		steps := 0
		for vp.Span() > MinSpan {
			vp.ZoomAt(anchor, 0.8)
			steps++
			if got := vp.RelToPx(rel); math.Abs(got-anchor) > exactPx {
				t.Fatalf("origin %g step %d (span %g): anchor moved to %g px", origin, steps, vp.Span(), got)
			}
		}
		if vp.Span() != MinSpan {
			t.Fatalf("zoomed to %g µs, want the minimum %g", vp.Span(), MinSpan)
		}
		for vp.Span() < vp.Total() {
			vp.ZoomAt(anchor, 1.25)
		}
		if got := vp.View(); math.Abs(got.Start-start.Start) > 1e-6 || got.Span != start.Span {
			t.Fatalf("origin %g: zoomed out to %+v, want %+v", origin, got, start)
		}
		// Random zooms and pans keep the view inside the trace and the anchor in place.
		for i := 0; i < 2000; i++ {
			x := rng.Float64() * 1600
			if rng.IntN(3) == 0 {
				before := vp.View()
				vp.Pan(rng.NormFloat64() * 300)
				after := vp.View()
				if after.Span != before.Span {
					t.Fatalf("pan changed the span %g → %g", before.Span, after.Span)
				}
			} else {
				rel := vp.PxToRel(x)
				vp.ZoomAt(x, math.Exp(rng.NormFloat64()))
				w := vp.View()
				atEdge := w.Start == 0 || w.Start+w.Span >= vp.Total()*(1-1e-12) || w.Span == MinSpan || w.Span == vp.Total()
				if got := vp.RelToPx(rel); !atEdge && math.Abs(got-x) > exactPx {
					t.Fatalf("origin %g: anchor %g moved to %g (view %+v)", origin, x, got, w)
				}
			}
			w := vp.View()
			if w.Start < 0 || w.Start+w.Span > vp.Total()*(1+1e-12) || w.Span < MinSpan {
				t.Fatalf("view %+v escaped the trace (total %g)", w, vp.Total())
			}
		}
	}
}

func TestPanRoundTripAndClamp(t *testing.T) {
	vp := NewViewport(1e9, 1e9+1e6)
	vp.SetSize(1000, 500)
	vp.SetView(View{Start: 400_000, Span: 1000})
	before := vp.View()
	vp.Pan(123.25)
	vp.Pan(-123.25)
	if got := vp.View(); math.Abs(got.Start-before.Start) > 1e-9 {
		t.Errorf("pan there and back: %+v, want %+v", got, before)
	}
	vp.Pan(-1e9)
	if vp.View().Start != 0 {
		t.Errorf("pan far left: start %g, want 0", vp.View().Start)
	}
	vp.Pan(1e12)
	if got := vp.View(); got.Start+got.Span != vp.Total() {
		t.Errorf("pan far right: ends at %g, want %g", got.Start+got.Span, vp.Total())
	}
	vp.ZoomAt(500, 1e9)
	if got := vp.View(); got.Start != 0 || got.Span != vp.Total() {
		t.Errorf("zoom far out: %+v, want the whole trace", got)
	}
	vp.ZoomAt(500, 1e-12)
	if vp.Span() != MinSpan {
		t.Errorf("zoom far in: span %g, want %g", vp.Span(), MinSpan)
	}
	// Garbage in does not move the view.
	w := vp.View()
	vp.ZoomAt(10, math.NaN())
	vp.ZoomAt(10, 0)
	vp.SetView(View{Start: math.NaN(), Span: 3})
	if vp.View() != w {
		t.Errorf("bad input moved the view to %+v", vp.View())
	}
}

func TestZoomToEntryAndRange(t *testing.T) {
	vp := NewViewport(5000, 105000)
	vp.SetSize(1600, 800)
	vp.ZoomToEntry(20000, 21000)
	if got := vp.TimeToPx(20000); math.Abs(got-1600*100.0/1200) > 1e-9 {
		t.Errorf("entry start at %g px", got)
	}
	if got := vp.TimeToPx(21000); math.Abs(got-1600*1100.0/1200) > 1e-9 {
		t.Errorf("entry end at %g px", got)
	}
	// A zero-length entry still gets the minimum window, centred.
	vp.ZoomToEntry(30000, 30000)
	if vp.Span() != MinSpan || math.Abs(vp.TimeToPx(30000)-800) > 1e-9 {
		t.Errorf("instant: span %g, at %g px", vp.Span(), vp.TimeToPx(30000))
	}
	// A range at the very end is clamped inside the trace.
	vp.ZoomToRange(104000, 110000)
	if got := vp.View(); got.Start+got.Span != vp.Total() || got.Span != 6000 {
		t.Errorf("range past the end: %+v", got)
	}
}

func TestHistoryBackAndForward(t *testing.T) {
	vp := NewViewport(0, 1e6)
	if vp.Back() || vp.Forward() {
		t.Fatal("empty history moved")
	}
	fit := vp.View()
	vp.ZoomToRange(1000, 2000)
	a := vp.View()
	vp.ZoomToRange(1500, 1600)
	b := vp.View()
	if !vp.Back() || vp.View() != a {
		t.Fatalf("back: %+v, want %+v", vp.View(), a)
	}
	if !vp.Back() || vp.View() != fit {
		t.Fatalf("back again: %+v, want %+v", vp.View(), fit)
	}
	if vp.Back() {
		t.Fatal("back past the start")
	}
	if !vp.Forward() || vp.View() != a || !vp.Forward() || vp.View() != b || vp.Forward() {
		t.Fatalf("forward twice: %+v, want %+v", vp.View(), b)
	}
	// A new navigation forgets the forward history.
	vp.Back()
	vp.Fit()
	if vp.CanForward() {
		t.Fatal("forward history kept after a new navigation")
	}
	// Marking the same view twice is one step.
	vp.Mark()
	vp.Mark()
	vp.Pan(10)
	vp.Back()
	if vp.View() != fit || vp.Back() && vp.View() != a {
		t.Fatalf("double mark: %+v", vp.View())
	}
	// The history is bounded.
	for i := 0; i < 3*maxHistory; i++ {
		vp.ZoomToRange(float64(i), float64(i)+10)
	}
	n := 0
	for vp.Back() {
		n++
	}
	if n != maxHistory {
		t.Fatalf("history held %d views, want %d", n, maxHistory)
	}
}

func TestVerticalScrollClamps(t *testing.T) {
	vp := NewViewport(0, 100)
	vp.SetSize(800, 300)
	vp.SetContentHeight(1000)
	vp.ScrollBy(5000)
	if vp.ScrollY() != 700 {
		t.Errorf("scrolled to %g, want 700", vp.ScrollY())
	}
	vp.ScrollBy(-1e9)
	if vp.ScrollY() != 0 {
		t.Errorf("scrolled to %g, want 0", vp.ScrollY())
	}
	vp.SetContentHeight(100)
	vp.SetScrollY(50)
	if vp.ScrollY() != 0 {
		t.Errorf("short content scrolled to %g", vp.ScrollY())
	}
}

func TestDegenerateBounds(t *testing.T) {
	for _, b := range [][2]float64{{5, 5}, {math.NaN(), 3}, {0, math.Inf(1)}, {10, 0}} {
		vp := NewViewport(b[0], b[1])
		if !(vp.Span() >= MinSpan) || math.IsNaN(vp.TimeToPx(1)) {
			t.Errorf("bounds %v: span %g", b, vp.Span())
		}
	}
}

// A trace spanning 1.7·10¹⁵ µs (a 1970-based clock mixed with a boot-based one): the narrowest
// window is wide enough that times after the origin still differ from pixel to pixel.
func TestMinSpanFollowsTheResolutionOfTimes(t *testing.T) {
	vp := NewViewport(0, 1.7e15)
	vp.SetSize(1600, 400)
	vp.ZoomToRange(1.7e15-1, 1.7e15)
	if got, want := vp.Span(), 1.7e15*0x1p-40; got != want {
		t.Fatalf("span %g, want %g", got, want)
	}
	// Every pixel of the window maps to a distinct time.
	prev := vp.PxToRel(0)
	for x := 1.0; x < 1600; x++ {
		r := vp.PxToRel(x)
		if !(r > prev) {
			t.Fatalf("pixel %g: time %g after %g", x, r, prev)
		}
		prev = r
	}
	// A short trace keeps MinSpan.
	short := NewViewport(0, 60e6)
	short.ZoomToRange(10, 10)
	if short.Span() != MinSpan {
		t.Errorf("span %g, want %g", short.Span(), MinSpan)
	}
}
