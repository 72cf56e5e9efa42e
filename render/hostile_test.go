package render

import (
	"context"
	"strings"
	"testing"
	"time"

	"flamedesk/core"
	"flamedesk/core/integrate"
	"flamedesk/core/load"
	"flamedesk/timeline"
)

// Frames of hostile traces: every loop over time or pixels ends, whatever the times.

// mixedClockModel has one entry on a boot-based clock and one on a 1970-based one (µs), as a
// trace whose clocks were mixed does: 1.7·10¹⁵ µs apart.
func mixedClockModel(t *testing.T) *timeline.Model {
	t.Helper()
	long := strings.Repeat("a very long name ", 1<<20) // 17 MB
	js := `[{"ph":"X","name":"` + long + `","pid":1,"tid":1,"ts":1000,"dur":500},
{"ph":"X","name":"` + long + `","pid":1,"tid":1,"ts":1700000000000000,"dur":500}]`
	tr, err := load.Reader(context.Background(), strings.NewReader(js), int64(len(js)), nil)
	if err != nil {
		t.Fatal(err)
	}
	integrate.Build(tr)
	return timeline.New(tr)
}

// buildWithin builds a frame, failing if it takes longer than a generous bound (a frame takes
// milliseconds; the loops this guards against never end).
func buildWithin(t *testing.T, m *timeline.Model, vp *timeline.Viewport) *DrawList {
	t.Helper()
	done := make(chan *DrawList, 1)
	go func() {
		var l DrawList
		NewBuilder(m).Build(&l, vp, &Frame{Width: 1600, Height: 400, Selection: timeline.NoEntry, Hover: noHover})
		done <- &l
	}()
	select {
	case l := <-done:
		return l
	case <-time.After(20 * time.Second):
		t.Fatal("building a frame did not end")
		return nil
	}
}

func TestRulerEndsFarFromTheOrigin(t *testing.T) {
	m := mixedClockModel(t)
	vp := timeline.NewViewport(m.Bounds())
	vp.SetSize(1600, 400)
	// Zoomed in as far as it goes, at the far end, where a float64 steps by 0.25 µs.
	for range 200 {
		vp.ZoomAt(1599, 0.5)
	}
	if vp.Span() < vp.Total()*0x1p-40 {
		t.Errorf("zoomed to %g µs, below the resolution of times near 1.7e15", vp.Span())
	}
	l := buildWithin(t, m, vp)
	if n := len(l.Layers[LayerRulerText].Texts); n == 0 || n > 1600 {
		t.Errorf("%d ruler labels", n)
	}
	// The same window asked for directly, as render --start/--end does.
	vp.ZoomToRange(1.7e15, 1.7e15+1)
	buildWithin(t, m, vp)
}

func TestFitMeasuresABoundedPrefix(t *testing.T) {
	tm := NewTextMeasurer()
	f := Font{Size: 11}
	huge := strings.Repeat("x", 64<<20)
	n, cut := tm.Fit(f, huge, 300)
	if !cut || n == 0 || n > maxFitBytes {
		t.Errorf("Fit of 64 MB in 300 px: %d bytes, cut %v", n, cut)
	}
	// A prefix that fits whole still says the name goes on.
	if n, cut := tm.Fit(f, huge, 1e9); !cut || n > maxFitBytes {
		t.Errorf("Fit of 64 MB in 1e9 px: %d bytes, cut %v", n, cut)
	}
	if w := tm.Width(f, huge); w != tm.Width(f, huge[:maxFitBytes]) {
		t.Errorf("Width measured past the prefix: %g", w)
	}
}

// FuzzRulerAndViewport builds frames of an empty model over any bounds, zoom and pan, starting
// from the extremes that once hung the ruler.
func FuzzRulerAndViewport(f *testing.F) {
	f.Add(0.0, 1.7e15, 1599.0, 1e-30, 0.0)
	f.Add(1700000000000000.0, 1700000000000001.0, 800.0, 0.5, 1e6)
	f.Add(-1e300, 1e300, 0.0, 1e-300, -1e300)
	f.Add(9.007199254740993e15, 9.007199254740993e15, 10.0, 2.0, 3.0)
	f.Fuzz(func(t *testing.T, lo, hi, anchor, factor, pan float64) {
		m := timeline.New(&core.Trace{Strings: core.NewStrings(), MinTs: lo, MaxTs: hi})
		vp := timeline.NewViewport(lo, hi)
		vp.SetSize(1600, 400)
		for range 60 {
			vp.ZoomAt(anchor, factor)
		}
		vp.Pan(pan)
		var l DrawList
		NewBuilder(m).Build(&l, vp, &Frame{Width: 1600, Height: 400, Selection: timeline.NoEntry, Hover: noHover})
		if n := len(l.Layers[LayerRulerText].Texts); n > 1602 {
			t.Fatalf("%d ruler labels on 1600 px", n)
		}
	})
}
