package app

import (
	"context"

	"gioui.org/io/key"
	"gioui.org/layout"

	"flamedesk/app/recent"
	"flamedesk/core/calltree"
	"flamedesk/timeline"
)

// An action is something a component asks for that reaches beyond itself: select an entry, open
// a file, search. Components emit actions and never call each other; ui.apply is the one place
// that carries them out, after the frame's layout, and asks for the frame that shows the result.
type action interface{ isAction() }

type (
	// openSource starts loading a file; the open document stays until the new one is ready.
	openSource struct{ src Source }
	// openDialog shows the system's open-file dialog.
	openDialog struct{}
	// cancelLoad stops the load in progress.
	cancelLoad struct{}
	// toggleRecent opens the list of recent files, read afresh.
	toggleRecent struct{}
	// openRecent opens a file of the recent list, or says why it cannot.
	openRecent struct{ entry recent.Entry }
	// selectHit selects what a click on the chart hit; a miss clears the selection and range.
	selectHit struct{ hit timeline.Hit }
	// setRange limits the call tree to [start, end] (absolute µs); start == end clears it.
	setRange struct{ start, end float64 }
	// clearSelection forgets the selected entry and the range (Esc).
	clearSelection struct{}
	// searchFor runs a search for query ("" clears it).
	searchFor struct{ query string }
	// searchStep moves to the next (dir 1) or previous (dir -1) match and reveals it.
	searchStep struct{ dir int }
	// highlightFunc marks in the chart every call of a call-tree function.
	highlightFunc struct {
		funcs *calltree.Functions
		fn    calltree.FuncID
	}
	// tracksChanged says the chart's tracks were collapsed, expanded, hidden or shown.
	tracksChanged struct{}
	// showHiddenTracks shows every hidden process, thread and lane again.
	showHiddenTracks struct{}
	// toggleMemory shows or hides the memory counters' graph.
	toggleMemory struct{}
	// changeSettings stores new settings and applies what changed (theme, call timing).
	changeSettings struct{ settings settings }
	// toggleHelp shows or hides the key help.
	toggleHelp struct{}
	// closeOverlays closes the help, the recent list and the warnings (Esc).
	closeOverlays struct{}
	// focus gives the keyboard focus to tag (nil: the window as a whole). When tag has it
	// already, nothing happens unless refresh is set: then the chrome is laid out anew, as a
	// click (not a drag) on the chart can change what it shows in ways its cache key misses.
	focus struct {
		tag     any
		refresh bool
	}
	// dismissBanner hides the message of a failed open.
	dismissBanner struct{}
	// quit closes the window (Ctrl+Q, Ctrl+W).
	quit struct{}
)

func (openSource) isAction()       {}
func (openDialog) isAction()       {}
func (cancelLoad) isAction()       {}
func (openRecent) isAction()       {}
func (toggleRecent) isAction()     {}
func (selectHit) isAction()        {}
func (setRange) isAction()         {}
func (clearSelection) isAction()   {}
func (searchFor) isAction()        {}
func (searchStep) isAction()       {}
func (highlightFunc) isAction()    {}
func (tracksChanged) isAction()    {}
func (showHiddenTracks) isAction() {}
func (toggleMemory) isAction()     {}
func (changeSettings) isAction()   {}
func (toggleHelp) isAction()       {}
func (closeOverlays) isAction()    {}
func (focus) isAction()            {}
func (dismissBanner) isAction()    {}
func (quit) isAction()             {}

// applyActions carries out what the frame's components asked for, in order.
func (u *ui) applyActions(gtx layout.Context) {
	for len(u.actions) > 0 {
		a := u.actions[0]
		u.actions = u.actions[1:]
		if f, ok := a.(focus); ok && !f.refresh && u.hasFocus(gtx, f.tag) {
			// Every press on the chart asks for the focus it mostly has already: laying the
			// chrome out anew for it, and the frame after, made every drag's first frame about
			// twice as slow and drew one frame more.
			continue
		}
		u.apply(gtx, a)
		u.changed = true
	}
	u.actions = u.actions[:0]
}

// hasFocus reports whether tag (nil: the window as a whole) has the keyboard focus.
func (u *ui) hasFocus(gtx layout.Context, tag any) bool {
	if tag == nil {
		tag = u
	}
	return gtx.Focused(tag)
}

func (u *ui) apply(gtx layout.Context, a action) {
	d := u.doc
	if u.applyCompare(gtx, a) {
		return
	}
	switch a := a.(type) {
	case openSource:
		u.toolbar.closeRecent()
		u.open(a.src)
	case openDialog:
		u.toolbar.closeRecent()
		u.openDialog()
	case chooseMapsFolder:
		u.toolbar.closeRecent()
		u.chooseSourceMaps()
	case cancelLoad:
		u.cancelLoad()
	case toggleRecent:
		u.toolbar.showRecent(u.config.recentFiles())
	case openRecent:
		u.toolbar.closeRecent()
		if a.entry.Available && a.entry.Compare != "" {
			u.openRecentComparison(a.entry)
		} else if a.entry.Available {
			u.open(SourceFromPath(a.entry.Path))
		} else {
			u.banner = a.entry.Path + " is no longer available."
		}
	case selectHit:
		if d == nil {
			return
		}
		u.panel.compare.focusB = false
		if a.hit.Kind != timeline.HitEntry {
			d.clearSelection()
			if a.hit.Kind == timeline.HitLaneItem {
				d.laneSelected, d.hasLaneSelected = a.hit.Lane, true
			}
			u.panel.tree.retarget(d, u.panel.tree.profile, calltree.AllTime)
		} else {
			d.selectHit(a.hit)
			u.followSelection()
			u.showSourceOf(a.hit.Entry)
		}
		u.chart.invalidate()
	case setRange:
		if d == nil {
			return
		}
		d.rangeStart, d.rangeEnd = min(a.start, a.end), max(a.start, a.end)
		rng := calltree.AllTime
		if d.hasRange() {
			rng = calltree.Range{Start: d.rangeStart, End: d.rangeEnd}
		}
		u.panel.tree.retarget(d, u.panel.tree.profile, rng)
		u.chart.invalidate()
	case clearSelection:
		if d == nil {
			return
		}
		d.clearSelection()
		u.panel.tree.retarget(d, u.panel.tree.profile, calltree.AllTime)
		u.chart.invalidate()
	case toggleDiffColours:
		u.toggleDiffColours()
	case searchFor:
		u.startSearch(a.query)
	case searchStep:
		if d != nil {
			if match, ok := d.stepSearch(a.dir); ok {
				if match.isLane {
					u.revealLane(match.lane)
				} else {
					u.reveal(match.entry)
				}
			}
		}
	case highlightFunc:
		if d != nil {
			u.startHighlight(d, a.funcs, a.fn)
			u.showSourceOfFunc(a.funcs, a.fn)
		}
	case tracksChanged:
		u.chart.invalidate()
	case toggleMemory:
		if d != nil {
			d.toggleMemory()
			u.chart.invalidate()
		}
	case showHiddenTracks:
		if d != nil {
			d.showHiddenTracks()
			u.chart.invalidate()
		}
	case changeSettings:
		u.changeSettings(a.settings)
	case toggleHelp:
		u.help.shown = !u.help.shown
	case closeOverlays:
		u.help.shown = false
		u.status.warningsShown = false
		u.toolbar.closeRecent()
	case focus:
		tag := a.tag
		if tag == nil {
			tag = u
		}
		if u.chromeFresh || !u.laidOut {
			// Before the layout (a key) the chrome is made to be laid out anew in this frame,
			// so that the component taking the focus registers its key filters in it.
			u.chromeFresh = true
			gtx.Execute(key.FocusCmd{Tag: tag})
			return
		}
		// The chrome was replayed from its cache this frame, so its components registered no key
		// filters, and the router gives no focus to a tag without them: the focus moves in the
		// next frame, which lays out the whole chrome.
		u.focusTag, u.focusPending = tag, true
	case showSource:
		if d != nil {
			u.panel.tree.showSummary, u.panel.tree.showSource = false, true
			u.panel.tree.source.show(d, sourceTarget{profile: a.profile, frame: a.frame}, !d.model.GeneratedNames)
		}
	case openInEditor:
		u.startEditor(a)
	case dismissBanner:
		u.banner = ""
	case quit:
		u.host.Close()
	}
}

// followSelection points the call tree at the selected entry's thread, keeping the range.
func (u *ui) followSelection() {
	d := u.doc
	if d == nil || !d.selected.Valid() {
		return
	}
	th := d.trace.Threads[d.model.Tracks[d.selected.Track].Thread]
	if prof := calltree.FindProfile(d.trace, th.Pid, th.Tid); prof >= 0 {
		u.panel.tree.retarget(d, prof, u.panel.tree.rng)
	}
}

// reveal selects an entry and brings it into view: panned to the middle when it fits, zoomed to
// it when it is too wide or too narrow to see, and scrolled to its row.
func (u *ui) reveal(ref timeline.EntryRef) {
	d := u.doc
	d.selectEntry(ref)
	d.bringIntoView(ref)
	u.followSelection()
	u.showSourceOf(ref)
	u.chart.invalidate()
}

// startSearch runs a search for q on the current document; an empty query clears the search.
func (u *ui) startSearch(q string) {
	u.searchBox.query = q
	u.panel.compare.searchB(q)
	d := u.doc
	if d == nil {
		return
	}
	if q == "" {
		u.search.Cancel()
		d.clearSearch()
		u.chart.invalidate()
		return
	}
	model := d.model
	u.search.Start(func(ctx context.Context) (searchFound, error) {
		r, err := model.SearchContext(ctx, q)
		if err != nil {
			return searchFound{}, err
		}
		return searchFound{entries: r, lanes: r.Lanes}, ctx.Err()
	})
}
