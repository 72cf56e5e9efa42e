package app

// The comparison's charts: B's document drawn under A's on A's time axis, with one zoom and pan.
// Each side keeps its own model, selection, search and vertical scroll; B's viewport counts from
// A's origin moved by the alignment's offset, so that both show one window of the aligned axis
// and their rulers read the same times. A strip between the charts says how B is lined up and
// offers the other ways; dragging B's ruler moves B in time.

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"gioui.org/io/pointer"
	"gioui.org/layout"
	"gioui.org/op"
	"gioui.org/op/clip"
	"gioui.org/op/paint"
	"gioui.org/unit"
	"gioui.org/widget"

	"flamedesk/app/recent"
	"flamedesk/app/task"
	"flamedesk/core"
	"flamedesk/core/align"
	"flamedesk/core/cache"
	"flamedesk/core/calltree"
	"flamedesk/internal/winstate"
	"flamedesk/timeline"
)

// compareBarDp is the height of the strip between A's chart and B's.
const compareStripDp = 30

type (
	// compareDialog asks for a second file to compare the open one with.
	compareDialog struct{}
	// stopCompare cancels B's load and closes the comparison.
	stopCompare struct{}
	// sideB is an action of B's chart, carried out on B's document.
	sideB struct{ a action }
	// setAlign lines B up with A as spec says.
	setAlign struct{ spec align.Spec }
	// alignSelected lines up the entries selected in A and in B.
	alignSelected struct{}
	// shiftB moves B by delta µs on A's axis (its ruler dragged); done ends the drag.
	shiftB struct {
		delta float64
		done  bool
	}
	// toggleMarkMenu opens or closes the list of the User Timing names both files have.
	toggleMarkMenu struct{}
)

func (compareDialog) isAction()  {}
func (stopCompare) isAction()    {}
func (sideB) isAction()          {}
func (setAlign) isAction()       {}
func (alignSelected) isAction()  {}
func (shiftB) isAction()         {}
func (toggleMarkMenu) isAction() {}

// compareSide is the comparison's state beside the table: B's document and chart, and how B is
// lined up with A.
type compareSide struct {
	docB   *document
	chartB chart
	// progress is B's load, shown in the strip while it runs.
	progress *core.Progress

	// al maps A's clock to B's; aligned says it is for alignFor (A) and docB.
	al       align.Alignment
	aligned  bool
	alignFor *document
	aligning task.Future[alignDone]
	alignMsg string
	// markNames are the User Timing names both files have, for the Mark menu.
	markNames []string
	markMenu  bool
	markClick []widget.Clickable
	// dragging is set while B's ruler is dragged: the table waits for the release.
	dragging bool
	// bySelection says the alignment came from the selected entries (its spec is start plus an
	// offset, as the recent list keeps it).
	bySelection bool

	// synced is the view both charts showed after the last sync, to tell which one moved.
	synced timeline.View
	// focusB says the details show B's selection (the last click was in B's chart).
	focusB bool
	// labelled is the model of A last labelled "A ·".
	labelled *timeline.Model

	search task.Future[searchFound]

	btnStart, btnNav, btnMark, btnSelected, btnReset, btnCancel widget.Clickable
	// barY is the strip's top within the chart area, as laid out in the last frame (for tests).
	barY int
}

type alignDone struct {
	al    align.Alignment
	names []string
	warn  string
}

// stacked reports whether B is loaded, so that the chart area shows both sides.
func (c *comparePanel) stacked() bool { return c.active() && c.docB != nil }

// startCompare loads src as B and lines it up with the open document as spec says, replacing
// any comparison open before.
func (u *ui) startCompare(src Source, spec align.Spec) {
	c := &u.panel.compare
	c.cancel()
	c.search.Cancel()
	c.aligning.Cancel()
	c.src, c.spec = src, spec
	if c.traceB != nil {
		cache.Release(c.traceB) // its cache file's pages, when it was reopened from one
	}
	c.docB, c.traceB, c.aligned, c.alignFor, c.diff, c.levels, c.levelsB = nil, nil, false, nil, nil, nil, nil
	c.doc, c.markNames, c.markMenu, c.alignMsg, c.focusB = nil, nil, false, "", false
	c.chartB.reset()
	if !c.active() {
		return
	}
	c.progress = new(core.Progress)
	c.message = "Loading " + src.Name + "…"
	load, p, generated, heap := u.loadMapped, c.progress, u.settings.GeneratedNames, &u.heap
	c.load.Start(func(ctx context.Context) (loaded, error) {
		heap.loadBegan()
		defer heap.loadEndedAndRelease()
		tr, err := load(ctx, src, p)
		if err != nil {
			return loaded{}, err
		}
		m := timeline.New(tr)
		m.AddPanelLanes()
		m.GeneratedNames = generated
		labelSide(m, "B")
		return loaded{trace: tr, model: m}, ctx.Err()
	})
	u.chart.invalidate()
}

// labelSide puts "A · " or "B · " before every title of m that lacks it; it reports a change.
func labelSide(m *timeline.Model, side string) bool {
	prefix := side + " · "
	changed := false
	label := func(s *string, empty string) {
		if *s == "" {
			*s = empty
		}
		if !strings.HasPrefix(*s, prefix) {
			*s, changed = prefix+*s, true
		}
	}
	for i := range m.Groups {
		label(&m.Groups[i].ProcessName, "Process")
	}
	for i := range m.Tracks {
		label(&m.Tracks[i].Title, "Thread")
	}
	for i := range m.Lanes {
		label(&m.Lanes[i].Name, "Lane")
	}
	return changed
}

// sideOf is the side of tr that alignment by start looks at: its default profile.
func sideOf(tr *core.Trace) align.Side {
	return align.Side{Trace: tr, Profile: calltree.DefaultProfile(tr)}
}

// realign lines B up with A anew in the background (the spec, A or B changed).
func (c *comparePanel) realign(a *document) {
	if a == nil || c.docB == nil {
		return
	}
	c.alignFor, c.aligned = a, false
	sa, sb, spec := sideOf(a.trace), sideOf(c.docB.trace), c.spec
	c.alignMsg = "aligning…"
	c.aligning.Start(func(ctx context.Context) (alignDone, error) {
		var done alignDone
		al, err := align.Align(sa, sb, spec)
		if err != nil {
			// Lined up by start instead, with the reason in the strip.
			done.warn = err.Error()
			if al, err = align.Align(sa, sb, align.Spec{Offset: spec.Offset}); err != nil {
				return done, err
			}
		}
		done.al = al
		namesB := align.TimingNames(sb.Trace)
		for _, n := range align.TimingNames(sa.Trace) {
			if _, ok := slices.BinarySearch(namesB, n); ok {
				done.names = append(done.names, n)
			}
		}
		return done, ctx.Err()
	})
}

// pollCompare installs B's document and finished alignments and searches, lines B up anew when
// A changed, and labels A's tracks once B is there.
func (u *ui) pollCompare() {
	c := &u.panel.compare
	if !c.active() {
		return
	}
	if l, err, ok := c.load.Poll(); ok {
		if err != nil {
			c.message = "Could not open " + c.src.Name + ": " + err.Error()
		} else {
			c.traceB, c.message = l.trace, ""
			c.docB = newDocument(c.src.Name, c.src.Path, l.trace, l.model, 0)
			c.doc = nil // compute the table afresh
			c.chartB.reset()
			c.chartB.rulerShifts = true
			c.chartB.setDiffLevels(nil)
		}
	}
	if done, err, ok := c.aligning.Poll(); ok && c.docB != nil {
		if err != nil {
			c.alignMsg = "cannot align: " + err.Error()
		} else {
			c.al, c.aligned, c.markNames = done.al, true, done.names
			c.alignMsg = done.warn
			c.spec = done.al.Spec
			if done.warn != "" {
				c.alignMsg = done.warn + " — lined up by start"
			}
			u.rebaseViews(true)
			u.rememberComparison()
		}
	}
	if found, _, ok := c.search.Poll(); ok && c.docB != nil {
		r := found.entries
		if r != nil && r.Query == "" {
			r = nil
		}
		c.docB.setSearch(r, found.lanes)
		c.chartB.invalidate()
	}
	if c.docB != nil && u.doc != nil && c.alignFor != u.doc {
		c.realign(u.doc)
	}
	if u.doc != nil && c.docB != nil && c.labelled != u.doc.model {
		c.labelled = u.doc.model
		if labelSide(u.doc.model, "A") {
			u.chart.reset()
		}
	}
}

// rebaseViews gives both charts viewports over the union of A and B on A's axis, B's counting
// from A's origin moved by the offset, keeping the window shown. A new alignment (fit) fits the
// union when A showed all of itself; a drag of B's ruler only ever widens the axis, so that A
// stays where it is under the pointer.
func (u *ui) rebaseViews(fit bool) {
	c := &u.panel.compare
	a, b := u.doc, c.docB
	if a == nil || b == nil || !c.aligned {
		return
	}
	off := c.al.Offset
	aLo, aHi := a.model.Bounds()
	bLo, bHi := b.model.Bounds()
	lo, hi := min(aLo, bLo-off), max(aHi, bHi-off)
	old := a.view
	if !fit {
		lo, hi = min(lo, old.Origin()), max(hi, old.Origin()+old.Total())
	}
	whole := old.View().Start == 0 && old.View().Span == old.Total()
	a.view = rebased(old, a.model, lo, hi)
	if fit && whole {
		a.view.SetView(timeline.View{Start: 0, Span: a.view.Total()})
	}
	b.view = rebased(b.view, b.model, lo+off, hi+off)
	b.view.SetView(a.view.View())
	c.synced = a.view.View()
	u.chart.invalidate()
	c.chartB.invalidate()
}

// rebased is a viewport over [lo, hi] showing the same absolute window as old, at old's size and
// vertical scroll.
func rebased(old *timeline.Viewport, m *timeline.Model, lo, hi float64) *timeline.Viewport {
	v := timeline.NewViewport(lo, hi)
	v.SetSize(old.Width(), old.Height())
	v.SetContentHeight(m.ContentHeight())
	v.SetView(timeline.View{Start: old.Start() - v.Origin(), Span: old.Span()})
	v.SetScrollY(old.ScrollY())
	return v
}

// syncCompare makes B show the window A shows, or A the one B shows when B's chart moved, and
// B's range the same as A's. It reports whether A's view changed.
func (u *ui) syncCompare() bool {
	c := &u.panel.compare
	a, b := u.doc, c.docB
	if a == nil || b == nil || !c.aligned {
		return false
	}
	va, vb := a.view.View(), b.view.View()
	movedA := false
	if va == c.synced && vb != c.synced {
		a.view.SetView(vb)
		movedA = a.view.View() != va
	} else if va != c.synced {
		b.view.SetView(va)
	}
	c.synced = a.view.View()
	b.view.SetView(c.synced)
	if a.hasRange() {
		b.rangeStart, b.rangeEnd = a.rangeStart+c.al.Offset, a.rangeEnd+c.al.Offset
	} else {
		b.rangeStart, b.rangeEnd = 0, 0
	}
	return movedA
}

// layoutCharts lays out A's chart alone, or with a comparison both charts and the strip between.
func (u *ui) layoutCharts(gtx layout.Context, e env) {
	c := &u.panel.compare
	size := gtx.Constraints.Max
	barH := gtx.Dp(compareStripDp)
	if c.active() && !c.stacked() && u.doc != nil {
		// B is loading (or failed to): A above, the strip with B's progress or error below.
		h := max(0, size.Y-barH)
		g := gtx
		g.Constraints = layout.Exact(image.Pt(size.X, h))
		u.chart.layout(g, e)
		c.barY = h
		off := op.Offset(image.Pt(0, h)).Push(gtx.Ops)
		g.Constraints = layout.Exact(image.Pt(size.X, barH))
		c.layoutLoadingBar(g, e)
		off.Pop()
		if c.load.Busy() {
			gtx.Execute(op.InvalidateCmd{At: gtx.Now.Add(100 * time.Millisecond)})
		}
		return
	}
	if !c.stacked() || u.doc == nil {
		u.chart.layout(gtx, e)
		return
	}
	hA := max(0, (size.Y-barH)/2)
	hB := max(0, size.Y-barH-hA)
	place := func(y, h int, w func(gtx layout.Context)) {
		off := op.Offset(image.Pt(0, y)).Push(gtx.Ops)
		g := gtx
		g.Constraints = layout.Exact(image.Pt(size.X, h))
		w(g)
		off.Pop()
	}
	u.syncCompare()
	place(0, hA, func(gtx layout.Context) { u.chart.layout(gtx, e) })
	u.syncCompare()
	eb := e
	eb.doc = c.docB
	eb.emit = func(a action) { u.emit(sideB{a}) }
	c.barY = hA
	c.chartB.origin = u.chart.origin.Add(image.Pt(0, hA+barH))
	place(hA+barH, hB, func(gtx layout.Context) { c.chartB.layout(gtx, eb) })
	place(hA, barH, func(gtx layout.Context) { c.layoutBar(gtx, e) })
	if u.syncCompare() {
		u.chart.invalidate()
		gtx.Execute(op.InvalidateCmd{})
	}
	c.layoutMarkMenu(gtx, e, hA+barH)
}

// alignText says how B is lined up.
func (c *comparePanel) alignText() string {
	if !c.aligned {
		return c.alignMsg
	}
	s := c.al.Spec
	var by string
	switch s.Method {
	case align.Navigation:
		by = "navigation start"
	case align.Mark:
		by = "“" + s.Name + "”"
	default:
		by = "start"
	}
	t := "aligned by " + by
	if c.bySelection {
		t = "aligned by the selected entries"
	} else if s.Offset != 0 {
		// A positive offset takes B's anchor later on its clock, so B's events earlier on A's axis.
		t += ", B moved " + signedDuration(-s.Offset)
	}
	if c.alignMsg != "" {
		t += " · " + c.alignMsg
	}
	return t
}

// signedDuration is a shift on the axis: "+1.20 ms" later, "−1.20 ms" earlier.
func signedDuration(us float64) string {
	if us == 0 || math.IsNaN(us) {
		return "±0"
	}
	if us < 0 {
		return "−" + formatDuration(-us)
	}
	return "+" + formatDuration(us)
}

// layoutBar is the strip between the charts: B's name, how it is lined up, the other ways.
func (c *comparePanel) layoutBar(gtx layout.Context, e env) layout.Dimensions {
	for c.btnStart.Clicked(gtx) {
		e.emit(setAlign{spec: align.Spec{Method: align.Start}})
	}
	for c.btnNav.Clicked(gtx) {
		e.emit(setAlign{spec: align.Spec{Method: align.Navigation}})
	}
	for c.btnMark.Clicked(gtx) {
		e.emit(toggleMarkMenu{})
	}
	for c.btnSelected.Clicked(gtx) {
		e.emit(alignSelected{})
	}
	for c.btnReset.Clicked(gtx) {
		s := c.spec
		s.Offset = 0
		e.emit(setAlign{spec: s})
	}
	size := gtx.Constraints.Max
	paint.FillShape(gtx.Ops, e.th.Panel, clip.Rect{Max: size}.Op())
	paint.FillShape(gtx.Ops, e.th.Border, clip.Rect{Max: image.Pt(size.X, 1)}.Op())
	name := c.src.Name
	if c.src.Path != "" {
		name = filepath.Base(c.src.Path)
	}
	text := "B · " + name + " — " + c.alignText() + " · drag B's ruler to move it"
	if c.load.Pending() && c.progress != nil {
		text = fmt.Sprintf("B · loading %s… %.0f%%", name, 100*c.progress.Overall())
	}
	btn := func(b *widget.Clickable, s string) layout.FlexChild {
		return layout.Rigid(func(gtx layout.Context) layout.Dimensions {
			return layout.Inset{Left: unit.Dp(4)}.Layout(gtx, func(gtx layout.Context) layout.Dimensions { return e.th.Button(gtx, b, s) })
		})
	}
	mark := "Mark ▼"
	if len(c.markNames) == 0 {
		mark = "Mark (none in both)"
	}
	return layout.Inset{Left: unit.Dp(8), Right: unit.Dp(6), Top: unit.Dp(2)}.Layout(gtx, func(gtx layout.Context) layout.Dimensions {
		return layout.Flex{Alignment: layout.Middle}.Layout(gtx,
			layout.Flexed(1, func(gtx layout.Context) layout.Dimensions {
				gtx.Constraints.Min.Y = 0
				return e.th.Label(gtx, text)
			}),
			layout.Rigid(func(gtx layout.Context) layout.Dimensions { return e.th.MutedLabel(gtx, "Align by:") }),
			btn(&c.btnStart, "Start"), btn(&c.btnNav, "Navigation"), btn(&c.btnMark, mark),
			btn(&c.btnSelected, "Selected entries"), btn(&c.btnReset, "Reset drag"),
		)
	})
}

// layoutLoadingBar is the strip while B loads: its progress and Cancel, or why it failed and
// Close.
func (c *comparePanel) layoutLoadingBar(gtx layout.Context, e env) layout.Dimensions {
	for c.btnCancel.Clicked(gtx) {
		e.emit(stopCompare{})
	}
	size := gtx.Constraints.Max
	paint.FillShape(gtx.Ops, e.th.Panel, clip.Rect{Max: size}.Op())
	paint.FillShape(gtx.Ops, e.th.Border, clip.Rect{Max: image.Pt(size.X, 1)}.Op())
	text, button := "B · "+c.message, "Close"
	if c.load.Busy() && c.progress != nil {
		stage := c.progress.Stage()
		if stage == "" {
			stage = "reading"
		}
		text = fmt.Sprintf("B · loading %s — %s… %.0f%%", c.src.Name, stage, 100*c.progress.Overall())
		button = "Cancel"
	}
	return layout.Inset{Left: unit.Dp(8), Right: unit.Dp(6), Top: unit.Dp(2)}.Layout(gtx, func(gtx layout.Context) layout.Dimensions {
		return layout.Flex{Alignment: layout.Middle}.Layout(gtx,
			layout.Flexed(1, func(gtx layout.Context) layout.Dimensions {
				gtx.Constraints.Min.Y = 0
				return e.th.Label(gtx, text)
			}),
			layout.Rigid(func(gtx layout.Context) layout.Dimensions { return e.th.Button(gtx, &c.btnCancel, button) }),
		)
	})
}

// layoutMarkMenu lists the User Timing names both files have, under the strip, while open.
func (c *comparePanel) layoutMarkMenu(gtx layout.Context, e env, y int) {
	if !c.markMenu {
		return
	}
	if len(c.markClick) != len(c.markNames) {
		c.markClick = make([]widget.Clickable, len(c.markNames))
	}
	for i := range c.markClick {
		for c.markClick[i].Clicked(gtx) {
			e.emit(setAlign{spec: align.Spec{Method: align.Mark, Name: c.markNames[i]}})
		}
	}
	defer op.Offset(image.Pt(max(0, gtx.Constraints.Max.X-gtx.Dp(420)), y)).Push(gtx.Ops).Pop()
	g := gtx
	g.Constraints.Min = image.Point{}
	g.Constraints.Max.X = gtx.Dp(300)
	e.th.Card(g, func(gtx layout.Context) layout.Dimensions {
		return layout.UniformInset(unit.Dp(6)).Layout(gtx, func(gtx layout.Context) layout.Dimensions {
			if len(c.markNames) == 0 {
				return e.th.MutedLabel(gtx, "No User Timing mark or measure is in both files.")
			}
			children := make([]layout.FlexChild, len(c.markNames))
			for i, n := range c.markNames {
				children[i] = layout.Rigid(func(gtx layout.Context) layout.Dimensions {
					return c.markClick[i].Layout(gtx, func(gtx layout.Context) layout.Dimensions {
						return layout.UniformInset(unit.Dp(3)).Layout(gtx, func(gtx layout.Context) layout.Dimensions {
							return e.th.Label(gtx, n)
						})
					})
				})
			}
			return layout.Flex{Axis: layout.Vertical}.Layout(gtx, children...)
		})
	})
}

// applyCompare carries out the comparison's actions; it reports whether a was one.
func (u *ui) applyCompare(gtx layout.Context, a action) bool {
	c := &u.panel.compare
	switch a := a.(type) {
	case compareDialog:
		u.toolbar.closeRecent()
		u.openCompareDialog()
	case stopCompare:
		u.startCompare(Source{}, align.Spec{})
		c.colours = false
		u.chart.setDiffLevels(nil)
	case sideB:
		u.applyB(gtx, a.a)
	case clearSelection:
		// Esc clears B's selection too; A's is cleared as without a comparison.
		if c.docB != nil {
			c.docB.selected, c.docB.selectedIsMerge, c.docB.hasLaneSelected = timeline.NoEntry, false, false
			c.focusB = false
			c.chartB.invalidate()
		}
		return false
	case setAlign:
		c.markMenu, c.bySelection = false, false
		c.spec = a.spec
		c.realign(u.doc)
	case toggleMarkMenu:
		c.markMenu = !c.markMenu
	case alignSelected:
		u.alignSelected()
	case shiftB:
		if !c.aligned {
			return true
		}
		c.al = c.al.Shifted(a.delta)
		c.spec, c.bySelection = c.al.Spec, false
		c.dragging = !a.done
		u.rebaseViews(false)
		if a.done {
			u.rememberComparison()
		}
	default:
		return false
	}
	return true
}

// applyB carries out an action of B's chart on B's document.
func (u *ui) applyB(gtx layout.Context, a action) {
	c := &u.panel.compare
	d := c.docB
	if d == nil {
		return
	}
	switch a := a.(type) {
	case selectHit:
		if a.hit.Kind == timeline.HitEntry {
			d.selectHit(a.hit)
		} else {
			d.selected, d.selectedIsMerge, d.hasLaneSelected = timeline.NoEntry, false, false
			if a.hit.Kind == timeline.HitLaneItem {
				d.laneSelected, d.hasLaneSelected = a.hit.Lane, true
			}
		}
		c.focusB = true
		c.chartB.invalidate()
	case setRange:
		// B's range is A's, moved to A's clock: one range of the aligned axis restricts both.
		u.apply(gtx, setRange{start: a.start - c.al.Offset, end: a.end - c.al.Offset})
	case tracksChanged:
		c.chartB.invalidate()
	case shiftB:
		u.applyCompare(gtx, a)
	default:
		u.apply(gtx, a)
	}
}

// alignSelected lines up the entries selected in A and in B by their starts.
func (u *ui) alignSelected() {
	c := &u.panel.compare
	a, b := u.doc, c.docB
	if a == nil || b == nil || !a.selected.Valid() || !b.selected.Valid() {
		c.alignMsg = "select an entry in A, then one in B, to line them up"
		return
	}
	spec, err := align.Entries(sideOf(a.trace), sideOf(b.trace), a.model.EntryStart(a.selected), b.model.EntryStart(b.selected))
	if err != nil {
		c.alignMsg = "cannot align the selected entries: " + err.Error()
		return
	}
	c.spec, c.bySelection = spec, true
	c.realign(a)
}

// openCompareDialog asks for B with the open-file dialog, on the dialog's Future as Ctrl+O.
func (u *ui) openCompareDialog() {
	if u.doc == nil {
		u.banner = "Open a file first, then compare it with another."
		return
	}
	if u.dialog.Busy() {
		return // a dialog is up already
	}
	u.openDialog()
	u.comparePick = true
}

// comparePicked starts comparing with the file the dialog chose.
func (u *ui) comparePicked(path string) {
	spec := align.Spec{}
	if u.panel.compare.active() {
		spec.Method = u.panel.compare.spec.Method
		spec.Name = u.panel.compare.spec.Name
	}
	u.startCompare(SourceFromPath(path), spec)
}

// rememberComparison keeps the pair and its alignment in the recent list.
func (u *ui) rememberComparison() {
	c := &u.panel.compare
	if u.doc == nil || u.doc.path == "" || c.src.Path == "" {
		return
	}
	spec, err := json.Marshal(c.spec)
	if err != nil {
		return
	}
	if file, err := u.config.file("recent.json"); err == nil {
		_ = recent.AddComparisonToFile(file, u.doc.path, c.src.Path, spec, timeNow())
		u.toolbar.recentChanged()
	}
}

// openRecentComparison opens a recent entry that was a comparison: A, then B lined up as saved.
func (u *ui) openRecentComparison(en recent.Entry) {
	var spec align.Spec
	if len(en.Align) > 0 {
		_ = json.Unmarshal(en.Align, &spec) // an unreadable alignment lines up by start
	}
	u.open(SourceFromPath(en.Path))
	u.startCompare(SourceFromPath(en.Compare), spec)
}

// searchB runs the search on B's document too.
func (c *comparePanel) searchB(q string) {
	d := c.docB
	if d == nil {
		return
	}
	if q == "" {
		c.search.Cancel()
		d.clearSearch()
		c.chartB.invalidate()
		return
	}
	model := d.model
	c.search.Start(func(ctx context.Context) (searchFound, error) {
		return searchFound{entries: model.Search(q), lanes: model.SearchLanes(q)}, ctx.Err()
	})
}

// detailsEnv is what the details panel shows: B's selection after a click in B's chart.
func (c *comparePanel) detailsEnv(e env) env {
	if c.focusB && c.docB != nil {
		e.doc = c.docB
	}
	return e
}

// rulerCursor shows that B's ruler can be dragged.
func (c *chart) rulerCursor(gtx layout.Context) {
	if !c.rulerShifts {
		return
	}
	r := clip.Rect{Max: image.Pt(c.size.X, c.rulerHeight)}.Push(gtx.Ops)
	pointer.CursorColResize.Add(gtx.Ops)
	r.Pop()
}

// stackFor is the call tree's transform stack over its thread and range of d, nil while it is
// being built (its thread, range or transforms are changing) or shows another document.
func (p *treePanel) stackFor(d *document) *calltree.Stack {
	if p.doc != d || p.build.Pending() {
		return nil
	}
	return p.stack
}

// state is B's chart for the window tests' state file, nil until B is stacked.
func (c *comparePanel) state() *winstate.Compare {
	b := c.docB
	if !c.stacked() || b == nil {
		return nil
	}
	s := &winstate.Compare{Name: c.src.Name, Aligned: c.aligned, Align: c.alignText(), Offset: c.al.Offset,
		ChartY: c.chartB.origin.Y, ChartH: c.chartB.size.Y, RulerH: c.chartB.rulerHeight,
		ViewStart: b.view.Start(), ViewEnd: b.view.End()}
	if b.selected.Valid() {
		s.Selected = b.model.EntryName(b.selected)
	}
	return s
}
