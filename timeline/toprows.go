// Top rows: the first rows of a large track placed without computing the rows of the others.

package timeline

import (
	"context"
	"math"

	"flamedesk/core"
	"flamedesk/core/timelines"
	"flamedesk/internal/background"
)

// On a DevTools trace the largest track, the main thread, is built last, and the window waits for
// its levels once core/integrate is over. Its first view shows a few of its 3,000 rows, yet its
// drawn rows (drawnRows) read every entry's kind and write a row for each: 4.8 M of them on
// gen-trace-large, 30-60 ms of that wait. An entry's row only grows down its subtree, so a walk
// that stops at each subtree whose parent's row is already below the view finds the first rows'
// entries reading little more than the depths of the others. The walk is done for the rows a
// first view can show at most, beside the panel's lists (which push the tracks down by as much as
// they take), and the rows the view shows placed once they are in. The track's row count is then
// only bounded from above (by each skipped subtree's depth); PlaceRest computes the rows, places
// the others and counts them, and SettleRows lays the model out again with that count. The other
// large tracks are laid out so too, while core/integrate still builds the main thread: their drawn
// rows, which the first view rarely shows, took a core from it.

// viewRows is how many rows of a track a first view viewHeight high (content pixels) can show at
// most, the track at its top; 0 for no view.
func viewRows(viewHeight float64) int {
	if viewHeight <= 0 {
		return 0
	}
	return max(int(math.Ceil(viewHeight/DefaultLayoutStyle().RowHeight)), 1)
}

// lazyRows is what a track whose rows are not computed yet needs to compute them, and the
// entries of its first rows found ahead of the first view (walkTopRows), until they are placed.
type lazyRows struct {
	tr  *core.Trace
	vis *timelines.Visibility
	top topRows
}

// topRows is what walkTopRows found: the drawn entries on the rows it was asked for, in entry
// order, each with its row.
type topRows struct {
	rows  int        // the rows asked for
	found [][]uint64 // entry<<32 | row, in parts that follow each other
	// count is at least the track's row count: exact for the rows the walk went into, and the
	// depth of each subtree it skipped taken as rows.
	count int
}

// deferLazily readies the filtered track ct to have its rows computed later (lazyRows): it finds
// the entries on its rows up to firstRows (walkTopRows), for placeFirstView to place those the
// first view shows, and makes its levels, all empty, for an upper bound of its row count. It
// reports false, doing nothing, for a track too small to be worth it, or whose depths are not a
// pre-order walk's.
func (l *laidOut) deferLazily(tr *core.Trace, ct *core.Track, vis *timelines.Visibility, firstRows int) bool {
	if ct.Len() < deferMinEntries {
		return false
	}
	top, ok := walkTopRows(tr, ct, vis, firstRows)
	if !ok {
		return false
	}
	l.levels = make([]Level, top.count)
	l.pending = &rowsPending{lazy: &lazyRows{tr: tr, vis: vis, top: top}}
	return true
}

// walkTopRows finds the drawn entries of ct on the rows below firstRows (drawnRows' rows), and
// bounds its row count from above. ok is false when an entry is more than one deeper than the one
// before it, or deeper than ct.MaxDepth: such a track's subtrees are not where its depths say.
//
// A track of parallelPlaceEntries entries or more is walked in two halves at once, cut at a
// top-level entry near its middle (as drawnRows is): the window waits for the main thread's walk
// once core/integrate is over, and the panel's lists alone take the other core for less long.
func walkTopRows(tr *core.Trace, ct *core.Track, vis *timelines.Visibility, firstRows int) (top topRows, ok bool) {
	n := ct.Len()
	top.rows = firstRows
	cut := 0
	if n >= parallelPlaceEntries && background.Workers() > 1 {
		cut = topLevelNear(ct, n/2)
	}
	if cut <= 0 {
		top.found, top.count, ok = walkTopRowsIn(tr, ct, vis, firstRows, 0, n)
		return top, ok
	}
	var second [][]uint64
	var secondCount int
	var secondOK bool
	done := make(chan struct{})
	go func() {
		background.Lower()
		second, secondCount, secondOK = walkTopRowsIn(tr, ct, vis, firstRows, cut, n)
		close(done)
	}()
	first, count, ok := walkTopRowsIn(tr, ct, vis, firstRows, 0, cut)
	<-done
	top.found, top.count = append(first, second...), max(count, secondCount)
	return top, ok && secondOK
}

// walkTopRowsIn is walkTopRows for the entries lo to hi, lo at depth 0, which no earlier entry is
// the parent of: found are the drawn ones on the rows below firstRows, in chunks of foundChunk,
// count the bound.
func walkTopRowsIn(tr *core.Trace, ct *core.Track, vis *timelines.Visibility, firstRows, lo, hi int) (found [][]uint64, count int, ok bool) {
	depths := ct.Depth[:hi]
	// The list grows a chunk at a time: growing one slice by copies was a quarter of the walk,
	// and a slice made ahead for the most the rows could hold (the main thread of a large trace
	// has 3 % of its entries in each of its first rows) was zeroed whole when the heap reused
	// memory for it.
	chunk := make([]uint64, 0, foundChunk)
	// up[d] is the row of the children of the latest entry at depth d-1, as in drawnRowsOf.
	up := make([]int32, int(ct.MaxDepth)+2)
	prev := -1
	for e := lo; e < hi; {
		if e&(1<<14-1) == 0 {
			background.Yield()
		}
		d := int(depths[e])
		if d > prev+1 || d+1 >= len(up) {
			return nil, 0, false
		}
		prev = d
		base := up[d]
		if int(base) < firstRows {
			if vis.Entry(tr, ct, e) {
				if len(chunk) == foundChunk {
					found = append(found, chunk)
					chunk = make([]uint64, 0, foundChunk)
				}
				chunk = append(chunk, uint64(e)<<32|uint64(base))
				count = max(count, int(base)+1)
				up[d+1] = base + 1
			} else {
				up[d+1] = base
			}
			e++
			continue
		}
		// e, its later siblings and their subtrees all lie on rows from base down, each a row
		// at most below its parent: skip them, keeping the deepest depth among them.
		deepest := d
		e++
		for ; e < hi; e++ {
			k := int(depths[e])
			if k < d {
				break
			}
			if k > prev+1 {
				return nil, 0, false
			}
			prev = k
			deepest = max(deepest, k)
		}
		count = max(count, int(base)+deepest-d+1)
	}
	if len(chunk) > 0 {
		found = append(found, chunk)
	}
	return found, count, true
}

// foundChunk is how many entries each chunk of walkTopRowsIn's list holds.
const foundChunk = 1 << 15

// placeListed places those of top's entries on rows below from into levels, whose other rows it
// leaves as they are. Many of them (the main thread's first view: 250 K) are placed on two
// goroutines, each the rows on its side of the one where half of them come before.
func placeListed(ct *core.Track, levels []Level, from int, top topRows) {
	at := make([]int, len(levels)+1)
	for _, part := range top.found {
		for _, f := range part {
			if r := int(uint32(f)); r < from {
				at[r+1]++
			}
		}
	}
	for d := 1; d < len(at); d++ {
		at[d] += at[d-1]
	}
	p := newRangePlacer(ct, levels, at, 0, from)
	place := func(lo, hi int) {
		sp := newSpanPlacer(&p)
		for _, part := range top.found {
			for _, f := range part {
				if r := int(uint32(f)); r >= lo && r < hi && sp.add(int(f>>32), r) {
					sp.flush()
				}
			}
		}
		sp.flush()
		p.finish(lo, hi)
	}
	split := splitRow(at, 0, from, placeListedSplit)
	if split == 0 {
		place(0, from)
		return
	}
	done := make(chan struct{})
	go func() {
		background.Lower()
		place(split, from)
		close(done)
	}()
	place(0, split)
	<-done
}

// placeListedSplit is how many entries placeListed places on two goroutines from. A variable so
// that tests can split small tracks.
var placeListedSplit = 1 << 16

// placeTop places t's lazy rows up to firstRows, those the first view shows, from what its walk
// found, walking again when the view grew past the rows it was walked for, and lets go of the
// list.
func (t *Track) placeTop(firstRows int) {
	lz := t.pending.lazy
	if firstRows > lz.top.rows {
		if top, ok := walkTopRows(lz.tr, t.Core, lz.vis, firstRows); ok { // the first walk went through the same depths
			lz.top = top
		}
	}
	from := min(firstRows, lz.top.rows, len(t.Levels))
	placeListed(t.Core, t.Levels, from, lz.top)
	t.pending.from = from
	lz.top = topRows{}
}

// row is the row of entry e of ct, before its rows are computed: -1 when it is not drawn, else how
// many of its ancestors are. It reads back to e's ancestors, up to all the entries before it:
// only for the few lookups made before PlaceRest computes the rows.
func (lr *lazyRows) row(ct *core.Track, e int32) int {
	if !lr.vis.Entry(lr.tr, ct, int(e)) {
		return -1
	}
	row := 0
	want := int(ct.DepthAt(int(e))) - 1
	for k := int(e) - 1; k >= 0 && want >= 0; k-- {
		if d := int(ct.DepthAt(k)); d <= want {
			if lr.vis.Entry(lr.tr, ct, k) {
				row++
			}
			want = d - 1
		}
	}
	return row
}

// computeRows computes the rows of t, whose rows are lazy, and lets Row read them.
func (t *Track) computeRows() {
	p := t.pending
	rows := drawnRows(p.lazy.tr, t.Core, p.lazy.vis)
	if rows != nil {
		p.next = rowStarts(rows)
	} else {
		p.next = rowStarts(t.Core.Depth)
	}
	p.count.Store(int32(max(len(p.next)-1, 0)))
	p.rows.Store(&rows)
	p.known.Store(true)
}

// rowCount is how many rows t takes: its levels, but for a track whose rows were counted after
// its levels were made for a bound of their count.
func (t *Track) rowCount() int {
	if p := t.pending; p != nil && p.lazy != nil && p.known.Load() {
		return min(int(p.count.Load()), len(t.Levels))
	}
	return len(t.Levels)
}

// SettleRows lays the model out again once PlaceRest has counted the rows of the tracks whose rows
// it computed, as those may take fewer rows than they were shown with; it reports whether any
// did. Call it where Relayout may be called.
func (m *Model) SettleRows() bool {
	for i := range m.Tracks {
		if t := &m.Tracks[i]; t.rowCount() != len(t.Levels) {
			m.Relayout()
			return true
		}
	}
	return false
}

// placeLazyWhole computes t's rows and places them all, for a model built for no first view from
// a track laid out for one.
func (t *Track) placeLazyWhole() {
	t.computeRows()
	t.Levels = t.Levels[:t.rowCount()]
	t.placeRows(context.Background(), 0, len(t.Levels))
	t.packPending()
	t.pending = nil
}
