package app

import (
	"context"
	"math"
	"time"

	"flamedesk/core"
	"flamedesk/core/calltree"
	"flamedesk/core/sourcemap"
	"flamedesk/timeline"
)

// document is an opened file with everything the user did to it: the view, the selection, the
// search and the time range. It is owned by the UI goroutine.
type document struct {
	name     string
	path     string // empty for the bundled sample
	trace    *core.Trace
	model    *timeline.Model
	view     *timeline.Viewport
	loadTime time.Duration
	// maps are the source maps applied to trace at load (nil when none was looked for).
	maps *sourcemap.Set
	// late are the trace's tracks still to be built and put in (core.LateTracks, late.go); nil
	// once they are, or when there were none.
	late core.LateTracks

	selected timeline.EntryRef
	// selectedSpan is the merged span the user clicked, when it stands for more than one entry.
	selectedSpan    timeline.Span
	selectedLevel   int
	selectedIsMerge bool
	// laneSelected is the selected lane item (a request, an interaction…) when hasLaneSelected.
	laneSelected    timeline.LaneRef
	hasLaneSelected bool
	// film holds the screenshots decoded for the filmstrip peek, nil until one is needed.
	film           *filmstrip
	hover          timeline.Hit
	hoverX, hoverY float64 // pointer position over the chart, chart pixels; hoverX < 0 when away

	// rangeStart/rangeEnd bound the shift+drag selection, absolute µs; equal when there is none.
	rangeStart, rangeEnd float64

	search *timeline.SearchResult
	// laneMatches are the lane items (request URLs, mark and measure names…) the search found;
	// they count among its matches.
	laneMatches []timeline.LaneRef
	// highlight marks the calls of the function selected in the call tree.
	highlight   *timeline.SearchResult
	searchIndex int // the current match, -1 before the first Enter (searchOrder's positions)
	// order merges the lane matches into the entries for stepping; orderOf is the search it is of.
	order   *searchOrder
	orderOf *timeline.SearchResult

	timing timing
	// swapped says the trace's columns were moved onto its cache file's mapping (cacheswap.go).
	swapped bool
}

// timeNow is the clock of the recent list, a variable so that nothing else needs one.
var timeNow = time.Now

func newDocument(name, path string, tr *core.Trace, m *timeline.Model, elapsed time.Duration) *document {
	lo, hi := m.Bounds()
	d := &document{
		name: name, path: path, trace: tr, model: m, view: timeline.NewViewport(lo, hi),
		loadTime: elapsed, selected: timeline.NoEntry, searchIndex: -1,
	}
	d.timing.sampled = m
	d.hover = timeline.Hit{Kind: timeline.HitNone, Group: -1, Track: -1, Entry: timeline.NoEntry}
	d.hoverX = -1
	return d
}

// hasRange reports whether a time range is selected.
func (d *document) hasRange() bool { return d.rangeEnd > d.rangeStart }

// counts sums what the status bar reports.
func (d *document) counts() (events, samples, threads int) {
	tr := d.trace
	events = tr.Events.Len()
	for i := range tr.Profiles {
		samples += len(tr.Profiles[i].Samples)
	}
	return events, samples, len(tr.Tracks)
}

// selectEntry selects one entry (not a merged span).
func (d *document) selectEntry(ref timeline.EntryRef) {
	d.selected = ref
	d.selectedIsMerge = false
}

// selectHit selects what a click hit: an entry, or a merged span as a whole.
func (d *document) selectHit(h timeline.Hit) {
	if h.Kind != timeline.HitEntry {
		d.clearSelection()
		return
	}
	d.selected = h.Entry
	d.selectedIsMerge = h.Span.Merged()
	d.selectedSpan = h.Span
	d.selectedLevel = h.Level
}

// clearSelection forgets the selected entry and time range.
func (d *document) clearSelection() {
	d.selected = timeline.NoEntry
	d.selectedIsMerge = false
	d.hasLaneSelected = false
	d.rangeStart, d.rangeEnd = 0, 0
}

// highlightFound is the calls of a call-tree function that startHighlight found in model.
type highlightFound struct {
	model *timeline.Model
	calls *timeline.SearchResult
}

// startHighlight marks in the chart the ProfileCalls of one call-tree function (none for
// NoFunc). They are found on a goroutine of their own, as the walk over every entry takes longer
// than a frame on a large trace (about 90 ms on gen-trace-large); the highlight before stays
// until they are found.
func (u *ui) startHighlight(d *document, f *calltree.Functions, fn calltree.FuncID) {
	if fn == calltree.NoFunc {
		u.highlight.Cancel()
		d.highlight = nil
		u.chart.invalidate()
		return
	}
	hit := make([]bool, len(d.trace.Frames))
	for i := range hit {
		hit[i] = f.FrameIs(core.FrameID(i), fn)
	}
	name, model := f.Name(fn), d.model
	u.highlight.Start(func(ctx context.Context) (highlightFound, error) {
		calls, err := model.MarkFrames(ctx, name, hit)
		return highlightFound{model: model, calls: calls}, err
	})
}

// setSearch shows search result r (nil for none) with its lane matches, and forgets the stepping
// order made from the one before: the order points at its result, which on a large trace lists
// millions of matches (51 MB for "run" on gen-trace-large).
func (d *document) setSearch(r *timeline.SearchResult, lanes []timeline.LaneRef) {
	d.search, d.searchIndex, d.laneMatches = r, -1, lanes
	d.order, d.orderOf = nil, nil
}

// clearSearch forgets the search.
func (d *document) clearSearch() { d.setSearch(nil, nil) }

// marked is what the chart highlights: the search while there is one, else the calls of the
// function selected in the call tree.
func (d *document) marked() *timeline.SearchResult {
	if d.search != nil {
		return d.search
	}
	return d.highlight
}

// setModel shows another display model of the same trace (the JS call timing changed). The view
// stays, and so do collapsed and hidden tracks; what indexes entries (selection, search) starts
// afresh.
func (d *document) setModel(m *timeline.Model) {
	old := d.model
	d.model = m
	for i := range m.Tracks {
		for j := range old.Tracks {
			if old.Tracks[j].Thread == m.Tracks[i].Thread {
				m.Tracks[i].Collapsed, m.Tracks[i].Hidden = old.Tracks[j].Collapsed, old.Tracks[j].Hidden
			}
		}
	}
	for g := range m.Groups {
		if g < len(old.Groups) {
			m.Groups[g].Collapsed, m.Groups[g].Hidden = old.Groups[g].Collapsed, old.Groups[g].Hidden
		}
	}
	m.Relayout()
	d.clearSelection()
	d.clearSearch()
	d.highlight = nil
}

// stepSearch moves to the next (dir 1) or previous (dir -1) match, entry or lane item, in order
// of start time; ok is false when there is none.
func (d *document) stepSearch(dir int) (searchMatch, bool) {
	r := d.search
	if r == nil {
		return searchMatch{}, false
	}
	if d.order == nil || d.orderOf != r {
		d.order, d.orderOf = newSearchOrder(d.model, r), r
	}
	o := d.order
	n := o.total
	if n == 0 {
		return searchMatch{}, false
	}
	switch {
	case d.searchIndex < 0 || d.searchIndex >= n:
		// Start at the first match at or after the left edge of the view, as DevTools does.
		d.searchIndex = o.firstAfter(d.model, r, d.view.Start())
		if dir < 0 {
			d.searchIndex = (d.searchIndex + n - 1) % n
		}
	case dir > 0:
		d.searchIndex = (d.searchIndex + 1) % n
	default:
		d.searchIndex = (d.searchIndex + n - 1) % n
	}
	if l, ok := o.lane(d.searchIndex); ok {
		return searchMatch{lane: l, isLane: true}, true
	}
	return searchMatch{entry: r.Matches[o.entry(d.searchIndex)]}, true
}

// bringIntoView pans to an entry when it fits in the view, zooms to it when it is too wide or
// too narrow to see, and scrolls to its row.
func (d *document) bringIntoView(ref timeline.EntryRef) {
	start, end := d.model.EntryStart(ref), d.model.EntryEnd(ref)
	vp := d.view
	w := vp.DurToPx(end - start)
	if w < 2 || end-start > vp.Span() {
		vp.ZoomToEntry(start, end)
	} else if start < vp.Start() || end > vp.End() {
		mid := (start + end) / 2
		vp.Navigate(timeline.View{Start: mid - vp.Origin() - vp.Span()/2, Span: vp.Span()})
	}
	top := d.model.RowTop(ref.Track, d.model.EntryDepth(ref))
	if top < vp.ScrollY() || top+d.model.Style.RowHeight > vp.ScrollY()+vp.Height() {
		vp.SetScrollY(math.Max(0, top-vp.Height()/3))
	}
}

// hiddenTracks counts the threads hidden on their own or with their process, and the lanes
// hidden from their header (the memory graph, which the toolbar switches, is not counted).
func (d *document) hiddenTracks() int {
	n := 0
	for i := range d.model.Lanes {
		if d.model.Lanes[i].Hidden && i != d.memoryLane() {
			n++
		}
	}
	for i := range d.model.Tracks {
		if d.model.Tracks[i].Hidden || d.model.Groups[d.model.Tracks[i].Group].Hidden {
			n++
		}
	}
	return n
}

// showHiddenTracks shows every hidden process, thread and lane again, the memory graph aside.
func (d *document) showHiddenTracks() {
	for i := range d.model.Lanes {
		if d.model.Lanes[i].Hidden && i != d.memoryLane() {
			d.model.SetLaneHidden(i, false)
		}
	}
	for g := range d.model.Groups {
		d.model.SetGroupHidden(g, false)
	}
	for t := range d.model.Tracks {
		d.model.SetTrackHidden(timeline.TrackID(t), false)
	}
}
