package app

import (
	"time"

	"flamedesk/core"
	"flamedesk/core/calltree"
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

	selected timeline.EntryRef
	// selectedSpan is the merged span the user clicked, when it stands for more than one entry.
	selectedSpan    timeline.Span
	selectedLevel   int
	selectedIsMerge bool
	hover           timeline.Hit
	hoverX, hoverY  float64 // pointer position over the chart, chart pixels; hoverX < 0 when away

	// rangeStart/rangeEnd bound the shift+drag selection, absolute µs; equal when there is none.
	rangeStart, rangeEnd float64

	search *timeline.SearchResult
	// highlight marks the calls of the function selected in the call tree.
	highlight   *timeline.SearchResult
	searchIndex int // the current match, -1 before the first Enter

	timing timing
}

func newDocument(name, path string, tr *core.Trace, elapsed time.Duration) *document {
	m := timeline.New(tr)
	lo, hi := m.Bounds()
	d := &document{
		name: name, path: path, trace: tr, model: m, view: timeline.NewViewport(lo, hi),
		loadTime: elapsed, selected: timeline.NoEntry, searchIndex: -1,
	}
	d.timing.sampled = tr.Tracks
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
	d.rangeStart, d.rangeEnd = 0, 0
}

// highlightCalls finds the ProfileCalls of one call-tree function.
func highlightCalls(d *document, f *calltree.Functions, fn calltree.FuncID) *timeline.SearchResult {
	return nil
}

// rebuildModel makes a new display model after the trace's tracks were swapped (the JS call
// timing changed). The view stays; what indexes entries (selection, search) starts afresh.
func (d *document) rebuildModel() {
	old := d.model
	d.model = timeline.New(d.trace)
	// Collapsed and hidden tracks stay so, matched by thread.
	for i := range old.Tracks {
		ot := &old.Tracks[i]
		for j := range d.model.Tracks {
			if d.model.Tracks[j].Thread == ot.Thread {
				d.model.Tracks[j].Collapsed, d.model.Tracks[j].Hidden = ot.Collapsed, ot.Hidden
			}
		}
	}
	for g := range old.Groups {
		if g < len(d.model.Groups) {
			d.model.Groups[g].Collapsed, d.model.Groups[g].Hidden = old.Groups[g].Collapsed, old.Groups[g].Hidden
		}
	}
	d.model.Relayout()
	d.clearSelection()
	d.search, d.searchIndex, d.highlight = nil, -1, nil
}
