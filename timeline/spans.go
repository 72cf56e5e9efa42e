package timeline

import "flamedesk/core"

// Merging sub-pixel entries
//
// At a zoom where thousands of entries share a pixel, drawing each one costs time and shows
// nothing. SpanIter replaces each run of such entries by one merged span. What makes a good merge
// is that it does not flicker: panning must not change it at all, and zooming must change it only
// where the zoom makes a difference. So a run is not "narrow entries until the merged width
// reaches the minimum" (which depends on where the run started, and so on the left edge of the
// window). Instead the boundaries are a local property of two neighbours at a given minimum width
// W:
//
//	entry k is narrow  when it adds less than W to the level (its width, in a well-formed level);
//	k joins k-1        when both are narrow and the gap between them is less than W.
//
// A merged span is a maximal chain of joined entries. Panning cannot move a boundary, and zooming
// out (W grows) only removes boundaries, so merges grow into each other rather than toggling
// between neighbours. This is the rule gotraceui and Tracy use: keep merging until a span or a
// gap is itself wide enough.
//
// Finding where a run ends without visiting its entries relies on the running maximum of ends,
// MaxEnd, which never decreases. Between two entries i-1 and i, the gap and i's width together are
// at most MaxEnd[i]-MaxEnd[i-1]. So from the current end of a run, every entry whose MaxEnd is
// less than W further cannot start a boundary, and an exponential search skips straight to the
// first entry that could. Each such step advances the run by at least W, so a level costs
// O((visible pixels / minimum width) · log n) however many entries it holds.

// Span is one thing to draw on a level: a single entry, or a merged run of sub-pixel entries.
type Span struct {
	// Start and End bound what to draw, absolute µs: the first entry's start and the run's
	// latest end. A run that began left of the window starts at the previous entry's end (left
	// of the window too), so that its visible part is filled like the whole run's would be.
	Start, End float64
	// First and Last are the positions in the level (inclusive) of the entries the span covers
	// inside the window; Entry(level) is the first one's index in the core.Track.
	First, Last int32
}

// Count is the number of entries the span stands for.
func (s Span) Count() int { return int(s.Last-s.First) + 1 }

// Merged reports whether the span stands for more than one entry.
func (s Span) Merged() bool { return s.Last > s.First }

// Entry is the core.Track index of the span's first entry.
func (s Span) Entry(lv *Level) int32 { return lv.Entries[s.First] }

// FirstEndingAfter is the position of the first entry of the level whose end is at or after t
// (absolute µs), or Len() when there is none: the first entry that can be visible in a window
// starting at t. O(log n).
func (lv *Level) FirstEndingAfter(t float64) int {
	lo, hi := 0, len(lv.MaxEnd)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if lv.MaxEnd[mid] < t {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// FirstStartingAfter is the position of the first entry starting after t, or Len(). O(log n).
func (lv *Level) FirstStartingAfter(ct *core.Track, t float64) int {
	lo, hi := 0, len(lv.Entries)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if ct.Start[lv.Entries[mid]] <= t {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// VisibleRange is the positions [first, last) of the entries that intersect [t0, t1] (absolute
// µs). O(log n).
func (lv *Level) VisibleRange(ct *core.Track, t0, t1 float64) (first, last int) {
	first = lv.FirstEndingAfter(t0)
	last = lv.FirstStartingAfter(ct, t1)
	return first, max(first, last)
}

// SpanIter walks the spans of one level that intersect a time window, merging sub-pixel runs.
// It is a value without allocations; get one from Level.Spans.
type SpanIter struct {
	lv   *Level
	ct   *core.Track
	t1   float64
	minW float64
	pos  int
}

// Spans iterates the level's spans in [t0, t1] (absolute µs), merging entries narrower than
// minWidth µs (the minimum pixel width times Viewport.Scale) as described at the top of this file.
// minWidth ≤ 0 disables merging.
func (lv *Level) Spans(ct *core.Track, t0, t1, minWidth float64) SpanIter {
	return SpanIter{lv: lv, ct: ct, t1: t1, minW: minWidth, pos: lv.FirstEndingAfter(t0)}
}

// Next returns the next span, or false when the window has no more.
func (it *SpanIter) Next() (Span, bool) {
	lv, ct := it.lv, it.ct
	n := len(lv.Entries)
	k := it.pos
	if k >= n {
		return Span{}, false
	}
	start := ct.Start[lv.Entries[k]]
	if start > it.t1 {
		it.pos = n
		return Span{}, false
	}
	if !it.narrow(k) {
		it.pos = k + 1
		return Span{Start: start, End: entryEnd(ct, lv.Entries[k]), First: int32(k), Last: int32(k)}, true
	}
	if it.joined(k) {
		// The run began left of the window; fill from where it was.
		start = min(start, lv.MaxEnd[k-1])
	}
	last := it.runEnd(k)
	it.pos = last + 1
	return Span{Start: start, End: lv.MaxEnd[last], First: int32(k), Last: int32(last)}, true
}

// runEnd is the last position of the run that contains the narrow entry at position a, or the
// first position whose end reaches past the window when the run goes on beyond it.
func (it *SpanIter) runEnd(a int) int {
	lv := it.lv
	n := len(lv.MaxEnd)
	cur := a
	for cur < n-1 && lv.MaxEnd[cur] < it.t1 {
		// No boundary can fall before the first entry that ends at least W after the run does.
		j := gallop(lv.MaxEnd, cur+1, lv.MaxEnd[cur]+it.minW)
		if j == n {
			return n - 1
		}
		if !it.joined(j) {
			return j - 1
		}
		cur = j
	}
	return cur
}

// narrow reports whether the entry at position k adds less than the minimum width to the level:
// its own width in a well-formed level, only the part past its predecessors if it overlaps them.
func (it *SpanIter) narrow(k int) bool {
	lv := it.lv
	from := it.ct.Start[lv.Entries[k]]
	if k > 0 {
		from = max(from, lv.MaxEnd[k-1])
	}
	return lv.MaxEnd[k]-from < it.minW
}

// joined reports whether the entry at position k merges with the one before it.
func (it *SpanIter) joined(k int) bool {
	if k == 0 {
		return false
	}
	lv := it.lv
	gap := it.ct.Start[lv.Entries[k]] - lv.MaxEnd[k-1]
	return gap < it.minW && it.narrow(k) && it.narrow(k-1)
}

// gallop is the first position i ≥ lo with ends[i] ≥ target (len(ends) when none), found by an
// exponential search from lo and so costing O(log(i-lo)).
func gallop(ends []float64, lo int, target float64) int {
	n := len(ends)
	step := 1
	hi := lo
	for hi < n && ends[hi] < target {
		lo = hi + 1
		hi = lo + step
		step <<= 1
	}
	hi = min(hi, n)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if ends[mid] < target {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}
