package timeline

import (
	"context"
	"math"
	"slices"
	"sync/atomic"
	"testing"

	"flamedesk/core"
	"flamedesk/core/pipeline"
	"flamedesk/internal/fixtures"
)

// deferAll defers the rows of every track, whatever its size, for the rest of the test.
func deferAll(t *testing.T) {
	was := deferMinEntries
	deferMinEntries = 1
	t.Cleanup(func() { deferMinEntries = was })
}

// splitSmall has the first rows of tracks of a thousand entries walked, and their first view
// placed, on two goroutines (walkTopRows, placeListed), for the rest of the test.
func splitSmall(t *testing.T) {
	wasEntries, wasListed := parallelPlaceEntries, placeListedSplit
	parallelPlaceEntries, placeListedSplit = 1000, 64
	t.Cleanup(func() { parallelPlaceEntries, placeListedSplit = wasEntries, wasListed })
}

// A model built for a first view places every row that view shows, and the first row of every
// track, before it is returned; PlaceRest places the others. Each placed row is the row the whole
// build makes, and so is each entry's row, before PlaceRest and after; after it, the model is the
// whole build's. On every committed trace, for first views from a row to a screen and more, with
// the tracks of a thousand entries or more walked and placed on two goroutines.
func TestDeferredRowsMakeTheWholeModel(t *testing.T) {
	deferAll(t)
	splitSmall(t)
	deferredRows, lazyTracks := 0, 0
	eachDevToolsTrace(t, testing.Short() || raceEnabled, func(name string, tr *core.Trace) {
		want := NewWithPanelLanes(tr)
		for _, view := range []float64{1, 150, 1000} {
			got, err := newWithPanelLanes(context.Background(), tr, nil, nil, view)
			if err != nil {
				t.Fatal(err)
			}
			if got.DeferredRows() != (len(got.deferred) > 0) || len(got.Tracks) != len(want.Tracks) {
				t.Fatalf("%s: %d tracks, want %d", name, len(got.Tracks), len(want.Tracks))
			}
			for ti := range want.Tracks {
				g, w := &got.Tracks[ti], &want.Tracks[ti]
				// A track whose rows are not computed yet has levels for a bound of their count.
				if len(g.Levels) < len(w.Levels) || (g.pending == nil || g.pending.lazy == nil) && len(g.Levels) != len(w.Levels) {
					t.Fatalf("%s view %v track %d: %d levels, want %d", name, view, ti, len(g.Levels), len(w.Levels))
				}
				if g.pending != nil && g.pending.lazy != nil {
					lazyTracks++
				}
				for d := range g.Levels {
					inView := g.Shown && !g.Collapsed && g.RowsY+float64(d)*got.Style.RowHeight < view
					switch {
					case g.Placed(d):
						sameLevel(t, g, w, d)
					case d == 0 && len(w.Levels) > 0 || inView && d < len(w.Levels):
						t.Fatalf("%s view %v track %d: row %d, in the first view, is not placed", name, view, ti, d)
					case g.Levels[d].Len() != 0:
						t.Fatalf("%s view %v track %d: row %d is not placed but holds entries", name, view, ti, d)
					default:
						deferredRows++
					}
				}
				// Before the rows are computed, each lookup reads back through the track.
				sameRowsEvery(t, g, w, max(g.Core.Len()/500, 1))
			}
			if err := got.PlaceRest(context.Background()); err != nil {
				t.Fatal(err)
			}
			if err := got.WaitPlaced(context.Background()); err != nil {
				t.Fatal(err)
			}
			got.SettleRows()
			if got.ContentHeight() != want.ContentHeight() {
				t.Fatalf("%s view %v: the settled model is %v px high, the whole one %v", name, view, got.ContentHeight(), want.ContentHeight())
			}
			for ti := range want.Tracks {
				g, w := &got.Tracks[ti], &want.Tracks[ti]
				if g.rowCount() != len(w.Levels) || g.Height != w.Height {
					t.Fatalf("%s track %d: %d rows %v px high after PlaceRest, want %d, %v px", name, ti, g.rowCount(), g.Height, len(w.Levels), w.Height)
				}
				for d := range g.Levels {
					if !g.Placed(d) {
						t.Fatalf("%s track %d: row %d is not placed after PlaceRest", name, ti, d)
					}
					if d >= len(w.Levels) {
						if g.Levels[d].Len() != 0 {
							t.Fatalf("%s track %d: row %d, below the track's rows, holds entries", name, ti, d)
						}
						continue
					}
					sameLevel(t, g, w, d)
				}
				sameRows(t, g, w)
				if g.rowsUp.N != w.rowsUp.N || !slices.Equal(g.rowsUp.Words, w.rowsUp.Words) || g.Rows != nil {
					t.Fatalf("%s track %d: the rows are not packed as the whole build packs them", name, ti)
				}
			}
		}
	})
	if deferredRows == 0 || lazyTracks == 0 {
		t.Fatalf("%d rows left for PlaceRest, %d tracks with rows to compute: the test checked nothing deferred", deferredRows, lazyTracks)
	}
}

// sameLevel fails unless row d of g is row d of w, the same track built whole.
func sameLevel(t *testing.T, g, w *Track, d int) {
	t.Helper()
	gl, wl := &g.Levels[d], &w.Levels[d]
	if !slices.Equal(gl.Entries, wl.Entries) || !slices.Equal(maxEndBits(gl, g.Core), maxEndBits(wl, w.Core)) ||
		!slices.Equal(gl.stand, wl.stand) || !slices.Equal(gl.blockMax, wl.blockMax) || !slices.Equal(gl.superMax, wl.superMax) {
		t.Fatalf("track %s: row %d differs from the whole build's (%d entries, want %d)", w.Title, d, gl.Len(), wl.Len())
	}
}

func maxEndBits(lv *Level, ct *core.Track) []uint64 {
	out := make([]uint64, lv.Len())
	for i := range out {
		out[i] = math.Float64bits(lv.MaxEndAt(ct, i))
	}
	return out
}

// sameRows fails unless every entry of g is on the row it has in w.
func sameRows(t *testing.T, g, w *Track) { t.Helper(); sameRowsEvery(t, g, w, 1) }

// sameRowsEvery fails unless every step-th entry of g, and its last, is on the row it has in w.
func sameRowsEvery(t *testing.T, g, w *Track, step int) {
	t.Helper()
	n := int32(g.Core.Len())
	for e := int32(0); e < n; e += int32(step) {
		if g.Row(e) != w.Row(e) {
			t.Fatalf("track %s: entry %d on row %d, want %d", w.Title, e, g.Row(e), w.Row(e))
		}
	}
	if n > 0 && g.Row(n-1) != w.Row(n-1) {
		t.Fatalf("track %s: entry %d on row %d, want %d", w.Title, n-1, g.Row(n-1), w.Row(n-1))
	}
}

// The window's path: a Prelayout that defers rows hands the model the tracks' counted rows, the
// model places the first view's, and PlaceRest the rest, beside a search started before it and a
// hit test, which misses a row until it is placed; the search waits for the rows and finds what it finds in the whole model. A model
// given no first view places every row itself.
func TestPrelayoutDefersRowsForTheModel(t *testing.T) {
	path := fixtures.Path(t, "fixtures", "generated", "gen-trace-medium-reload.json.gz")
	build := func(view float64) (*core.Progress, *Model) {
		pl := NewPrelayout(context.Background())
		// As the window: the tracks are laid out for the view as it was, whatever it is when the
		// model is built.
		pl.DeferRows(func() float64 { return 300 })
		p := new(core.Progress)
		pl.Hook(p)
		tr, err := pipeline.Open(context.Background(), pipeline.FromPath(path), p)
		if err != nil {
			t.Fatal(err)
		}
		m, err := pl.Model(context.Background(), tr, p, view)
		if err != nil {
			t.Fatal(err)
		}
		return p, m
	}
	p, m := build(300)
	if !m.DeferredRows() {
		t.Fatal("no track of medium's was deferred")
	}
	// Its worker's track is built after the first view (late.go), as the window builds it.
	if p.Late == nil {
		t.Fatal("no track of medium's was left late")
	}
	wholeTrace, err := pipeline.Open(context.Background(), pipeline.FromPath(path), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := NewWithPanelLanes(wholeTrace)
	const query = "a"
	wantFound := want.Search(query)
	found := make(chan *SearchResult)
	go func() { found <- m.Search(query) }()
	// A hit on the first entry of a deferred track's last row misses until the row is placed.
	ti := m.deferred[0]
	tk := &m.Tracks[ti]
	last := len(want.Tracks[ti].Levels) - 1
	wl := &want.Tracks[ti].Levels[last]
	if tk.Placed(last) || wl.Len() == 0 {
		t.Fatalf("the deferred track's last row is placed, or empty in the whole model")
	}
	minTs, maxTs := m.Bounds()
	vp := NewViewport(minTs, maxTs)
	vp.SetSize(1400, 300)
	vp.SetContentHeight(m.ContentHeight())
	e := wl.Entries[0]
	vp.ZoomToEntry(tk.Core.StartAt(int(e)), tk.Core.EndAt(int(e)))
	rowY := tk.RowsY + float64(last)*m.Style.RowHeight
	vp.SetScrollY(rowY - 100)
	x, y := vp.TimeToPx((tk.Core.StartAt(int(e))+tk.Core.EndAt(int(e)))/2), rowY+1-vp.ScrollY()
	if h := m.HitTest(vp, x, y, 0.5); h.Kind == HitEntry {
		t.Fatalf("a hit on a row not placed found entry %d", h.Entry.Entry)
	}
	done := make(chan error)
	go func() { done <- m.PlaceRest(context.Background()) }()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	installLate(t, m, p.Late)
	if h := m.HitTest(vp, x, y, 0.5); h.Kind != HitEntry || h.Entry.Entry != e {
		t.Fatalf("a hit on the placed row found %+v, want entry %d", h, e)
	}
	gotFound := <-found
	if gotFound.Len() != wantFound.Len() || !slices.Equal(gotFound.Matches, wantFound.Matches) {
		t.Fatalf("the search beside PlaceRest found %d, the whole model's %d", gotFound.Len(), wantFound.Len())
	}
	for ti := range want.Tracks {
		for d := range want.Tracks[ti].Levels {
			sameLevel(t, &m.Tracks[ti], &want.Tracks[ti], d)
		}
		sameRows(t, &m.Tracks[ti], &want.Tracks[ti])
	}

	// The view grew while the tracks were laid out for a smaller one: the rows it shows now
	// are placed with the model too.
	_, grown := build(1000)
	for ti := range want.Tracks {
		g, w := &grown.Tracks[ti], &want.Tracks[ti]
		for d := range w.Levels {
			if g.Shown && !g.Collapsed && g.RowsY+float64(d)*grown.Style.RowHeight < 1000 && !g.Placed(d) {
				t.Fatalf("track %d: row %d, in the grown view, is not placed", ti, d)
			}
			if g.Placed(d) {
				sameLevel(t, g, w, d)
			}
		}
	}

	p, whole := build(0)
	if whole.DeferredRows() {
		t.Fatal("a model given no first view left rows to place")
	}
	installLate(t, whole, p.Late)
	for ti := range want.Tracks {
		for d := range want.Tracks[ti].Levels {
			sameLevel(t, &whole.Tracks[ti], &want.Tracks[ti], d)
		}
	}
}

// PlaceRest gives up when cancelled, before it starts or part way through a track, leaving the
// rows unplaced, and WaitPlaced returns when its context is done.
func TestPlaceRestStopsWhenCancelled(t *testing.T) {
	deferAll(t)
	tr := loadFixture(t, "generated", "gen-trace-medium-reload.json.gz")
	want := NewWithPanelLanes(tr)
	for _, looks := range []int32{0, 3} {
		m, err := newWithPanelLanes(context.Background(), tr, nil, nil, 1)
		if err != nil || !m.DeferredRows() {
			t.Fatalf("no rows deferred (%v)", err)
		}
		// The first track with a row left to place (one whose rows PlaceRest is to compute may
		// have none).
		ti := slices.IndexFunc(m.deferred, func(ti TrackID) bool { return !m.Tracks[ti].Placed(len(want.Tracks[ti].Levels) - 1) })
		if ti < 0 {
			t.Fatal("no deferred track has a row left to place")
		}
		ti = int(m.deferred[ti])
		tk, wt := &m.Tracks[ti], &want.Tracks[ti]
		ctx := &cancelledAfter{Context: context.Background()}
		ctx.looks.Store(looks)
		if err := m.PlaceRest(ctx); err == nil {
			t.Fatalf("PlaceRest cancelled after %d looks reported success", looks)
		}
		if err := m.WaitPlaced(ctx); err == nil {
			t.Fatal("WaitPlaced returned as if every row were placed")
		}
		if tk.Placed(len(wt.Levels) - 1) {
			t.Fatalf("a row is placed after PlaceRest was cancelled after %d looks", looks)
		}
		// Cancelled part way, it stopped part way: some row it was placing is not whole.
		if looks > 0 {
			whole := true
			for d := tk.pending.from; d < len(wt.Levels); d++ {
				whole = whole && slices.Equal(tk.Levels[d].Entries, wt.Levels[d].Entries)
			}
			if whole {
				t.Fatal("PlaceRest placed the whole track although cancelled part way")
			}
		}
	}
}

// cancelledAfter is a context whose Err is nil for its first looks calls, then Canceled, and
// whose Done is closed: a cancellation that comes part way through.
type cancelledAfter struct {
	context.Context
	looks atomic.Int32
}

func (c *cancelledAfter) Err() error {
	if c.looks.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

func (c *cancelledAfter) Done() <-chan struct{} {
	done := make(chan struct{})
	close(done)
	return done
}
