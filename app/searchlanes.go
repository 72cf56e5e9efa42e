package app

import (
	"math"
	"sort"

	"flamedesk/core/calltree"

	"flamedesk/timeline"
)

// Stepping through a search (Enter, Shift+Enter) visits the lane items it found (requests, marks,
// measures…) among the entries, all in order of start time, as the Performance panel steps
// through its network and main charts' matches together. The entries' order is the search
// result's own; the few lane items are placed into it by binary search, so that a step costs
// O(lane matches), whatever the number of entries.

// searchOrder is the merged order of one search's matches: position k is lane match j when
// at[j] == k, else entry k minus the lane matches before k.
type searchOrder struct {
	lanes []timeline.LaneRef // the lane matches by start time
	at    []int              // the merged position of each, increasing
	total int
}

func laneStart(m *timeline.Model, r timeline.LaneRef) float64 {
	return m.Lanes[r.Lane].Start[r.Item]
}

// newSearchOrder merges r's lane matches into its entries. A lane item goes before the entries
// that start after it, and after those that start with it or before.
func newSearchOrder(m *timeline.Model, r *timeline.SearchResult) *searchOrder {
	o := &searchOrder{total: r.Len()}
	if r == nil {
		return o
	}
	o.lanes = append([]timeline.LaneRef(nil), r.Lanes...)
	sort.SliceStable(o.lanes, func(a, b int) bool { return laneStart(m, o.lanes[a]) < laneStart(m, o.lanes[b]) })
	o.at = make([]int, len(o.lanes))
	for j, l := range o.lanes {
		t := laneStart(m, l)
		before := sort.Search(len(r.Matches), func(i int) bool { return m.EntryStart(r.Matches[i]) > t })
		o.at[j] = before + j
	}
	o.total += len(o.lanes)
	return o
}

// lane is the lane item at merged position k, if one is there.
func (o *searchOrder) lane(k int) (timeline.LaneRef, bool) {
	j := sort.SearchInts(o.at, k)
	if j < len(o.at) && o.at[j] == k {
		return o.lanes[j], true
	}
	return timeline.NoLaneItem, false
}

// entry is the index in the result's Matches of the entry at merged position k (not a lane item).
func (o *searchOrder) entry(k int) int { return k - sort.SearchInts(o.at, k) }

// start is the start time of the match at position k.
func (o *searchOrder) start(m *timeline.Model, r *timeline.SearchResult, k int) float64 {
	if l, ok := o.lane(k); ok {
		return laneStart(m, l)
	}
	if i := o.entry(k); i >= 0 && i < r.Len() {
		return m.EntryStart(r.Matches[i])
	}
	return math.Inf(1)
}

// firstAfter is the position of the first match starting after t, wrapping to the first match;
// -1 when there is none.
func (o *searchOrder) firstAfter(m *timeline.Model, r *timeline.SearchResult, t float64) int {
	if o.total == 0 {
		return -1
	}
	k := sort.Search(o.total, func(k int) bool { return o.start(m, r, k) > t })
	if k == o.total {
		return 0
	}
	return k
}

// searchMatch is where a search step landed: an entry, or a lane item when isLane.
type searchMatch struct {
	entry  timeline.EntryRef
	lane   timeline.LaneRef
	isLane bool
}

// matchCount is the number of matches the search found, entries and lane items together.
func (d *document) matchCount() int {
	if d.search == nil {
		return 0
	}
	return d.search.Len() + len(d.laneMatches)
}

// bringLaneIntoView pans (or zooms, as for an entry) to a lane item and scrolls to its row.
func (d *document) bringLaneIntoView(r timeline.LaneRef) {
	m := d.model
	l := &m.Lanes[r.Lane]
	if l.Hidden {
		m.SetLaneHidden(int(r.Lane), false)
	}
	if l.Collapsed {
		m.SetLaneCollapsed(int(r.Lane), false)
	}
	d.view.SetContentHeight(m.ContentHeight())
	start, end := l.Start[r.Item], l.Start[r.Item]+l.Dur[r.Item]
	vp := d.view
	switch w := vp.DurToPx(end - start); {
	case end-start > vp.Span() || (w < 2 && end > start):
		vp.ZoomToEntry(start, end)
	case start < vp.Start() || end > vp.End():
		mid := (start + end) / 2
		vp.Navigate(timeline.View{Start: mid - vp.Origin() - vp.Span()/2, Span: vp.Span()})
	}
	row := max(int(l.Row[r.Item]), 0)
	top := m.LaneRowTop(int(r.Lane), row)
	if top < vp.ScrollY() || top+m.Style.RowHeight > vp.ScrollY()+vp.Height() {
		vp.SetScrollY(math.Max(0, top-vp.Height()/3))
	}
}

// revealLane selects a lane item, as a click on it does, and brings it into view.
func (u *ui) revealLane(r timeline.LaneRef) {
	d := u.doc
	d.clearSelection()
	d.laneSelected, d.hasLaneSelected = r, true
	d.bringLaneIntoView(r)
	u.panel.tree.retarget(d, u.panel.tree.profile, calltree.AllTime)
	u.chart.invalidate()
}
