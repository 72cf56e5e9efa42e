package timeline

import "math"

// SnapSpan is where a span is drawn, in whole pixels [x0, x1): both edges rounded to the nearest
// pixel and at least one pixel wide. The draw list and hit testing share it, so that what is under
// the pointer is exactly what is painted there.
func SnapSpan(vp *Viewport, s Span) (x0, x1 float64) {
	x0 = math.Round(vp.TimeToPx(s.Start))
	x1 = math.Round(vp.TimeToPx(s.End))
	if x1 < x0+1 {
		x1 = x0 + 1
	}
	return x0, x1
}

// HitKind tells what a point of the chart is on.
type HitKind uint8

const (
	HitNone        HitKind = iota // empty space, or below everything
	HitGroupHeader                // a process's header row
	HitTrackHeader                // a thread's header row
	HitEntry                      // a span on a level: one entry or a merged run
	HitLaneHeader                 // the header row of a lane (Hit.Lane.Lane)
	HitLaneItem                   // an item of a lane (Hit.Lane)
)

// Hit is what HitTest found under a point.
type Hit struct {
	Kind  HitKind
	Group int     // the group of a header or entry, -1 for HitNone
	Track TrackID // the track of a track header or entry, -1 otherwise
	Level int     // the level of an entry
	// Span is the entry or merged run under the point, as Model.Spans draws it; Entry is its
	// first entry (the only one unless Span.Merged()).
	Span  Span
	Entry EntryRef
	// Lane is the lane (and item) of a HitLaneHeader or HitLaneItem; the zero LaneRef otherwise
	// names the first lane's first item, so test Kind first.
	Lane LaneRef
}

// HitTest finds what is at (x, y): x from the chart's left edge, y from the top of the area below
// the ruler (content y is y + vp.ScrollY()). minWidthPx is the merge width the chart is drawn
// with, so that a point on a merged span finds the merged span. O(log n + spans left of x on one
// level).
func (m *Model) HitTest(vp *Viewport, x, y, minWidthPx float64) Hit {
	miss := Hit{Kind: HitNone, Group: -1, Track: -1, Entry: NoEntry}
	if x < 0 || x >= vp.Width() || y < 0 {
		return miss
	}
	cy := y + vp.ScrollY()
	if cy < m.lanesHeight {
		return m.hitLane(vp, x, cy)
	}
	for gi := range m.Groups {
		g := &m.Groups[gi]
		if g.Height > 0 && cy >= g.Y && cy < g.Y+m.Style.GroupHeaderHeight {
			return Hit{Kind: HitGroupHeader, Group: gi, Track: -1, Entry: NoEntry}
		}
	}
	// The last shown track whose top is at or above cy.
	shown := m.shown
	lo, hi := 0, len(shown)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if m.Tracks[shown[mid]].Y <= cy {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo == 0 {
		return miss
	}
	ti := shown[lo-1]
	t := &m.Tracks[ti]
	if cy >= t.Y+t.Height {
		return miss
	}
	if cy < t.RowsY {
		return Hit{Kind: HitTrackHeader, Group: t.Group, Track: ti, Entry: NoEntry}
	}
	if t.Collapsed {
		return miss
	}
	level := int(math.Floor((cy - t.RowsY) / m.Style.RowHeight))
	if !t.Placed(level) {
		return miss
	}
	lv := &t.Levels[level]
	it := lv.Spans(t.Core, vp.Start(), vp.End(), vp.PxToDur(minWidthPx))
	for {
		s, ok := it.Next()
		if !ok {
			return miss
		}
		x0, x1 := SnapSpan(vp, s)
		if x0 > x {
			return miss
		}
		if x < x1 {
			return Hit{Kind: HitEntry, Group: t.Group, Track: ti, Level: level, Span: s,
				Entry: EntryRef{Track: ti, Entry: s.Entry(lv)}}
		}
	}
}

// SpanOf is the span that an entry is drawn in at the current zoom: the entry alone, or the merged
// run that holds it. ok is false when the entry is outside the window or not shown. This is how
// the chart outlines a selection that has been merged away by zooming out.
func (m *Model) SpanOf(vp *Viewport, r EntryRef, minWidthPx float64) (level int, s Span, ok bool) {
	if !r.Valid() || int(r.Track) >= len(m.Tracks) {
		return 0, Span{}, false
	}
	t := &m.Tracks[r.Track]
	if int(r.Entry) >= t.Core.Len() {
		return 0, Span{}, false
	}
	level = t.Row(r.Entry)
	if !t.Placed(level) {
		return 0, Span{}, false
	}
	lv := &t.Levels[level]
	start := t.Core.StartAt(int(r.Entry))
	if start > vp.End() || t.Core.EndAt(int(r.Entry)) < vp.Start() {
		return level, Span{}, false
	}
	pos := int32(lv.positionOf(t, r.Entry))
	if pos < 0 {
		return level, Span{}, false
	}
	it := lv.Spans(t.Core, vp.Start(), vp.End(), vp.PxToDur(minWidthPx))
	for {
		s, ok := it.Next()
		if !ok || s.First > pos {
			return level, Span{}, false
		}
		if s.Last >= pos {
			return level, s, true
		}
	}
}

// positionOf finds an entry's position in its level by binary search on start, then a short walk
// over entries with the same start.
func (lv *Level) positionOf(t *Track, e int32) int {
	start := t.Core.StartAt(int(e))
	p := lv.FirstStartingAfter(t.Core, start) - 1
	for ; p >= 0 && t.Core.StartAt(int(lv.Entries[p])) == start; p-- {
		if lv.Entries[p] == e {
			return p
		}
	}
	return -1
}
