package timeline

import (
	"math/rand/v2"
	"testing"
)

func TestHitTestFindsWhatIsDrawn(t *testing.T) {
	threads := []synthThread{
		{pid: 1, tid: 1, name: "CrRendererMain", pname: "Renderer"},
		{pid: 1, tid: 2, name: "Compositor", pname: "Renderer"},
	}
	rng := rand.New(rand.NewPCG(11, 12))
	b1, b2 := 20000, 5000
	m := New(synthTrace(threads, [][]synthEntry{
		randomTree(rng, 1e9, 1e6, 8, &b1),
		randomTree(rng, 1e9, 1e6, 4, &b2),
	}))
	lo, hi := m.Bounds()
	vp := NewViewport(lo, hi)
	vp.SetSize(1600, 700)
	vp.SetContentHeight(m.ContentHeight())
	const minPx = 3
	// Zoom in around an entry half-way through the track (the random trees are denser early on).
	focus := m.Tracks[0].Core.StartAt(m.Tracks[0].Core.Len()/2) - lo
	for _, zoom := range []float64{1, 0.05, 0.001} {
		vp.SetView(View{Start: focus - (hi-lo)*zoom/3, Span: (hi - lo) * zoom})
		checked := 0
		for _, ti := range m.ShownTracks() {
			tk := &m.Tracks[ti]
			for li := range tk.Levels {
				y := m.RowTop(ti, li) + 5 - vp.ScrollY()
				if y < 0 || y >= vp.Height() {
					continue
				}
				lv := &tk.Levels[li]
				it := lv.Spans(tk.Core, vp.Start(), vp.End(), vp.PxToDur(minPx))
				for {
					s, ok := it.Next()
					if !ok {
						break
					}
					x0, x1 := SnapSpan(vp, s)
					x := (x0 + x1) / 2
					if x < 0 || x >= vp.Width() {
						continue
					}
					// Spans can share a pixel when they are each a pixel wide; the hit is the
					// first drawn there, so test only spans whose pixels are their own.
					h := m.HitTest(vp, x, y, minPx)
					if h.Kind != HitEntry || h.Track != ti || h.Level != li {
						t.Fatalf("zoom %g: hit at (%g, %g) = %+v, want track %d level %d", zoom, x, y, h, ti, li)
					}
					if h.Span.First > s.First || h.Span.Last < s.First && x1-x0 > 1 {
						t.Fatalf("zoom %g: hit span %+v, drawn %+v at [%g, %g)", zoom, h.Span, s, x0, x1)
					}
					if x1-x0 > 1 && h.Span != s {
						t.Fatalf("zoom %g: hit span %+v, drawn %+v", zoom, h.Span, s)
					}
					if h.Entry.Entry != h.Span.Entry(lv) {
						t.Fatalf("hit entry %d is not the span's first %d", h.Entry.Entry, h.Span.Entry(lv))
					}
					// SpanOf finds the same span from any of its entries.
					_, so, ok := m.SpanOf(vp, EntryRef{Track: ti, Entry: lv.Entries[s.Last]}, minPx)
					if !ok || so != s {
						t.Fatalf("SpanOf(last entry of %+v) = %+v, %v", s, so, ok)
					}
					checked++
				}
			}
		}
		t.Logf("zoom %g: %d spans", zoom, checked)
		if checked < 5 {
			t.Fatalf("zoom %g: only %d spans checked", zoom, checked)
		}
	}
}

func TestHitTestHeadersAndMisses(t *testing.T) {
	threads := []synthThread{{pid: 1, tid: 1, name: "CrRendererMain", pname: "Renderer"}, {pid: 1, tid: 2, name: "Other", pname: "Renderer"}}
	m := New(synthTrace(threads, [][]synthEntry{
		{{start: 1000, dur: 500, name: "a"}, {start: 1100, dur: 100, depth: 1, name: "b"}},
		{{start: 1000, dur: 1000, name: "c"}},
	}))
	vp := NewViewport(m.Bounds())
	vp.SetSize(1000, 500)
	st := m.Style
	if h := m.HitTest(vp, 10, 1, 3); h.Kind != HitGroupHeader || h.Group != 0 {
		t.Errorf("group header: %+v", h)
	}
	if h := m.HitTest(vp, 10, st.GroupHeaderHeight+1, 3); h.Kind != HitTrackHeader || h.Track != 0 {
		t.Errorf("track header: %+v", h)
	}
	row1 := m.RowTop(0, 1) + 1
	if h := m.HitTest(vp, vp.TimeToPx(1150), row1, 3); h.Kind != HitEntry || h.Entry != (EntryRef{0, 1}) {
		t.Errorf("entry b: %+v", h)
	}
	if h := m.HitTest(vp, vp.TimeToPx(1300), row1, 3); h.Kind != HitNone {
		t.Errorf("beside b: %+v", h)
	}
	if h := m.HitTest(vp, 10, m.ContentHeight()+5, 3); h.Kind != HitNone {
		t.Errorf("below everything: %+v", h)
	}
	if h := m.HitTest(vp, -1, row1, 3); h.Kind != HitNone {
		t.Errorf("left of the chart: %+v", h)
	}
	// Scrolling moves what is under a fixed point.
	vp.SetContentHeight(m.ContentHeight())
	vp.SetSize(1000, 10)
	vp.SetScrollY(m.Tracks[1].Y)
	if h := m.HitTest(vp, 10, 1, 3); h.Kind != HitTrackHeader || h.Track != 1 {
		t.Errorf("after scrolling: %+v", h)
	}
	// A collapsed track has no levels to hit.
	m.SetTrackCollapsed(0, true)
	vp.SetScrollY(0)
	if h := m.HitTest(vp, vp.TimeToPx(1150), m.Tracks[0].RowsY+1, 3); h.Kind == HitEntry {
		t.Errorf("collapsed track hit: %+v", h)
	}
}
