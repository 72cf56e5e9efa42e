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
//	k joins k-1        when both are narrow and the gap between them is less than W/D.
//
// D is MergeGapDivisor. A merged span is drawn as if busy from end to end, so the gaps it spans
// must be ones nobody could see anyway: with the chart's merge width of 3 px, D = 3 keeps every
// gap wider than a pixel visible. (With D = 1, runs at deep levels, whose entries are narrow and
// far apart, merged across idle time that the levels above show as gaps.)
//
// A merged span is a maximal chain of joined entries. Panning cannot move a boundary, and zooming
// out (W grows) only removes boundaries, so merges grow into each other rather than toggling
// between neighbours. This is the rule gotraceui and Tracy use: keep merging until a span or a
// gap is itself wide enough.
//
// Both conditions fold into one number per entry, stand[k] = max(D × gap before k, width k adds),
// that does not depend on W: an entry k inside a run of narrow entries ends the run exactly when
// stand[k] ≥ W. The level keeps the maxima of stand over blocks of 64 and 4096 entries, so the
// end of a run — however many thousand entries it swallows — is found by skipping whole blocks
// whose maximum is below W, and its start (when it begins left of the window) by the same search
// backwards. A span costs a few block checks when its run is short and n/4096 at worst (about a
// microsecond for a level of millions), so a frame costs what it shows, not what the trace holds.

// MergeGapDivisor is how many times narrower than the merge width a gap must be for a merged
// span to cover it (see the top of this file).
const MergeGapDivisor = 3

// Span is one thing to draw on a level: a single entry, or a merged run of sub-pixel entries.
// A span depends only on the data and the merge width, never on where the window is: a run that
// begins left of the window or ends right of it is reported whole.
type Span struct {
	// Start and End bound what to draw, absolute µs: the first entry's start and the run's
	// latest end.
	Start, End float64
	// First and Last are the positions in the level (inclusive) of the entries the span covers;
	// Entry(level) is the first one's index in the core.Track.
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
func (lv *Level) FirstEndingAfter(ct *core.Track, t float64) int {
	lo, hi := 0, lv.Len()
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if lv.MaxEndAt(ct, mid) < t {
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
		if ct.StartAt(int(lv.Entries[mid])) <= t {
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
	first = lv.FirstEndingAfter(ct, t0)
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
	return SpanIter{lv: lv, ct: ct, t1: t1, minW: minWidth, pos: lv.FirstEndingAfter(ct, t0)}
}

// Next returns the next span, or false when the window has no more.
func (it *SpanIter) Next() (Span, bool) {
	lv, ct := it.lv, it.ct
	n := len(lv.Entries)
	k := it.pos
	if k >= n {
		return Span{}, false
	}
	start := ct.StartAt(int(lv.Entries[k]))
	if start > it.t1 {
		it.pos = n
		return Span{}, false
	}
	if !it.narrow(k) {
		it.pos = k + 1
		return Span{Start: start, End: ct.EndAt(int(lv.Entries[k])), First: int32(k), Last: int32(k)}, true
	}
	first := k
	if it.joined(k) {
		first = it.runStart(k)
	}
	last := it.runEnd(k)
	it.pos = last + 1
	return Span{Start: ct.StartAt(int(lv.Entries[first])), End: lv.MaxEndAt(ct, last), First: int32(first), Last: int32(last)}, true
}

// runEnd is the last position of the run that holds the narrow entry at position a.
func (it *SpanIter) runEnd(a int) int {
	n := len(it.lv.Entries)
	for j := a + 1; ; j++ {
		j = it.lv.firstStanding(j, it.minW)
		if j >= n {
			return n - 1
		}
		if !it.joined(j) {
			return j - 1
		}
		// stand is rounded up, so j may only look like it stands apart.
	}
}

// runStart is the first position of the run that holds the entry at position k, which is joined
// to its predecessor.
func (it *SpanIter) runStart(k int) int {
	c := k - 1
	for {
		c = it.lv.lastStanding(c, it.minW)
		switch {
		case c < 0:
			return 0
		case !it.narrow(c):
			return c + 1 // a wide entry ends the run before it
		case !it.joined(c):
			return c // stands apart from its predecessor: the run's first entry
		}
		// stand is rounded up, so c may only look like it stands apart.
		c--
	}
}

// narrow reports whether the entry at position k adds less than the minimum width to the level:
// its own width in a well-formed level, only the part past its predecessors if it overlaps them.
func (it *SpanIter) narrow(k int) bool {
	return it.narrowEnding(k, it.lv.MaxEndAt(it.ct, k))
}

// narrowEnding is narrow for the entry at position k, given maxEnd, the level's running maximum
// end there: joined has it at hand, and where the level keeps the positions of its latest ends
// each maximum costs a few reads from far apart in memory.
func (it *SpanIter) narrowEnding(k int, maxEnd float64) bool {
	lv := it.lv
	from := it.ct.StartAt(int(lv.Entries[k]))
	if k > 0 {
		from = max(from, lv.MaxEndAt(it.ct, k-1))
	}
	return maxEnd-from < it.minW
}

// joined reports whether the entry at position k merges with the one before it: the gap between
// them is narrow, and both entries are (narrow, written out with the values it shares).
func (it *SpanIter) joined(k int) bool {
	if k == 0 {
		return false
	}
	lv, ct := it.lv, it.ct
	start, prevMax := ct.StartAt(int(lv.Entries[k])), lv.MaxEndAt(ct, k-1)
	if gap := start - prevMax; !(gap*MergeGapDivisor < it.minW) {
		return false
	}
	added := lv.MaxEndAt(ct, k) - max(start, prevMax)
	return added < it.minW && it.narrowEnding(k-1, prevMax)
}

// firstStanding is the first position i ≥ lo with stand[i] ≥ w, or Len() when there is none.
func (lv *Level) firstStanding(lo int, w float64) int {
	const block, super = 1 << blockShift, 1 << superShift
	stand, th := lv.stand, standThreshold(w)
	n := len(stand)
	i := max(lo, 0)
	for ; i < n && i&(block-1) != 0; i++ {
		if stand[i] >= th {
			return i
		}
	}
	for i < n {
		switch {
		case i&(super-1) == 0 && lv.superMax[i>>superShift] < th:
			i += super
		case lv.blockMax[i>>blockShift] < th:
			i += block
		default:
			for end := min(i+block, n); i < end; i++ {
				if stand[i] >= th {
					return i
				}
			}
		}
	}
	return n
}

// lastStanding is the last position i ≤ hi with stand[i] ≥ w, or -1 when there is none.
func (lv *Level) lastStanding(hi int, w float64) int {
	const block, super = 1 << blockShift, 1 << superShift
	stand, th := lv.stand, standThreshold(w)
	i := min(hi, len(stand)-1)
	for ; i >= 0 && i&(block-1) != block-1; i-- {
		if stand[i] >= th {
			return i
		}
	}
	for i >= 0 {
		switch {
		case i&(super-1) == super-1 && lv.superMax[i>>superShift] < th:
			i -= super
		case lv.blockMax[i>>blockShift] < th:
			i -= block
		default:
			for end := i - block; i > end; i-- {
				if stand[i] >= th {
					return i
				}
			}
		}
	}
	return -1
}
