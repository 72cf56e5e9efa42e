// Deferred rows: the levels of a large track's rows below the window's first view, placed after
// the model is handed over.

package timeline

import (
	"context"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"flamedesk/core"
	"flamedesk/internal/background"
)

// The window shows a trace once its model is built, and on a trace of millions of entries most of
// that build was the levels of the largest track: the main thread of gen-trace-large, 4.8 M
// entries, 150-250 ms of the window's wait on 2 cores after the load. The first view shows only the
// top rows of that track, a few percent of its entries (or, below the fold, only its first). So a
// model built for a first view of known height places, in each large track, only the rows that
// view reaches, and PlaceRest places the others once the window shows the model. Until then such
// a row is drawn hatched; hit tests and selection outlines pass it by, and searches wait for it
// (Placed, WaitPlaced). The tracks' rows are packed (rows.go) by PlaceRest too, and the drawn rows
// of a large track are even computed by it (toprows.go).

// deferMinEntries is the size from which a track's rows below the first view are deferred: a
// smaller track's levels take a few ms. A variable so that tests can defer small tracks.
var deferMinEntries = 1 << 18

// rowsPending is what PlaceRest needs to place a track's deferred rows.
type rowsPending struct {
	from int   // the first row not placed with the model
	next []int // rowStarts of the rows
	// rows are the track's rows (drawnRows), nil when they are its depths. They are packed into
	// the track's rowsUp by PlaceRest too, and cleared after: Row reads them while they are set,
	// rowsUp once they are not.
	rows atomic.Pointer[[]int32]
	// done is set once rows from on are placed, after their levels are written: a reader that
	// sees it set sees them whole.
	done atomic.Bool
	// lazy is set for a track whose rows were not computed with the model (deferLazily): next
	// and rows are nil until PlaceRest computes them, and then sets known. count is then the
	// track's row count, which its levels, made for a bound of it, may exceed.
	lazy  *lazyRows
	known atomic.Bool
	count atomic.Int32
}

// Placed reports whether row's level is built: false for a row out of range, and for a row below
// the first view while PlaceRest has not placed it yet.
func (t *Track) Placed(row int) bool {
	if row < 0 || row >= len(t.Levels) {
		return false
	}
	p := t.pending
	return p == nil || row < p.from || p.done.Load()
}

// deferRows readies the track ct to have its levels placed in parts: it counts its rows and
// makes its levels, all empty, so that its height is known; placeFirstView then places the first
// view's. It reports false, doing nothing, for a track too small to be worth it. The rows are
// not packed until PlaceRest either: they move into the pending state, out of packRows' way.
func (l *laidOut) deferRows(ct *core.Track) bool {
	if ct.Len() < deferMinEntries {
		return false
	}
	var next []int
	if l.rows != nil {
		next = rowStarts(l.rows)
	} else {
		next = rowStarts(ct.Depth)
	}
	if next != nil {
		l.levels = make([]Level, len(next)-1)
		l.pending = &rowsPending{next: next}
		if l.rows != nil {
			rows := l.rows
			l.pending.rows.Store(&rows)
			l.rows = nil
		}
	}
	return true
}

// placeRows places t's deferred rows lo to hi, stopping part way once ctx is cancelled.
func (t *Track) placeRows(ctx context.Context, lo, hi int) {
	p := t.pending
	// Levels made for a bound of the row count (deferLazily) are placed up to the count.
	levels := t.Levels[:min(len(t.Levels), max(len(p.next)-1, 0))]
	if rows := p.rows.Load(); rows != nil && *rows != nil {
		placeLevelRange(ctx, t.Core, *rows, p.next, levels, lo, min(hi, len(levels)), true)
	} else {
		placeLevelRange(ctx, t.Core, t.Core.Depth, p.next, levels, lo, min(hi, len(levels)), true)
	}
}

// packPending packs the rows of a pending track into its rowsUp, and only then lets go of them.
func (t *Track) packPending() {
	rows := t.pending.rows.Load()
	if rows == nil {
		return
	}
	t.Rows = *rows
	t.packRows()
	t.pending.rows.Store(nil)
}

// placeFirstView places, in each track whose rows were deferred, the rows whose top is above
// viewHeight in the first view (content pixels, scrolled to the top, after Relayout) and at
// least its first row, which the overview reads; a track wholly in view is placed whole. The rest
// wait for PlaceRest. The tracks are placed side by side: even a few rows take a walk over all of
// a track's entries.
func (m *Model) placeFirstView(viewHeight float64) {
	rowH := m.Style.RowHeight
	var tracks []TrackID
	for i := range m.Tracks {
		t := &m.Tracks[i]
		if t.pending == nil || t.late != nil {
			continue
		}
		n := len(t.Levels)
		k := n // no view known: every row
		if viewHeight > 0 {
			k = 1
			if t.Shown && !t.Collapsed && viewHeight > t.RowsY {
				k = int(min(math.Ceil((viewHeight-t.RowsY)/rowH), float64(n)))
			}
			k = max(k, 1)
		}
		if t.pending.lazy != nil && viewHeight <= 0 {
			t.placeLazyWhole()
			continue
		}
		t.pending.from = k
		if t.pending.lazy != nil {
			// First: the most to place, from what its walk found.
			tracks = slices.Insert(tracks, 0, TrackID(i))
			continue
		}
		tracks = append(tracks, TrackID(i))
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(background.Workers(), len(tracks)) {
		wg.Go(func() {
			background.Lower()
			for {
				k := int(next.Add(1) - 1)
				if k >= len(tracks) {
					return
				}
				t := &m.Tracks[tracks[k]]
				if t.pending.lazy != nil {
					t.placeTop(t.pending.from)
					continue
				}
				t.placeRows(context.Background(), 0, t.pending.from)
			}
		})
	}
	wg.Wait()
	for _, ti := range tracks {
		t := &m.Tracks[ti]
		if t.pending.from >= len(t.Levels) && t.pending.lazy == nil {
			t.packPending()
			t.pending = nil
			continue
		}
		m.deferred = append(m.deferred, ti)
	}
	if len(m.deferred) > 0 {
		m.placed = make(chan struct{})
	}
}

// DeferredRows reports whether the model was built with rows left for PlaceRest to place (placed
// since or not: see Track.Placed).
func (m *Model) DeferredRows() bool { return len(m.deferred) > 0 }

// PlaceRest places the rows the model was built without (DeferredRows), each track's becoming
// Placed as it is done. It may run on any goroutine beside readers of the model, once; it gives up
// soon after ctx is cancelled, leaving the track it was on and the rest unplaced.
func (m *Model) PlaceRest(ctx context.Context) error {
	for _, ti := range m.deferred {
		t := &m.Tracks[ti]
		if t.pending.lazy != nil {
			t.computeRows()
		}
		t.placeRows(ctx, t.pending.from, t.rowCount())
		if err := ctx.Err(); err != nil {
			return err
		}
		t.pending.done.Store(true)
		t.packPending()
	}
	if m.placed != nil {
		close(m.placed)
	}
	return nil
}

// WaitPlaced returns once every row is placed (at once when none was deferred), or ctx.Err()
// when ctx is done first.
//
// It also waits for the late tracks to be in (InstallLate, AbandonLate), when there are some.
func (m *Model) WaitPlaced(ctx context.Context) error {
	for _, c := range []chan struct{}{m.placed, m.lateIn} {
		if c == nil {
			continue
		}
		select {
		case <-c:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}
