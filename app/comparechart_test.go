package app

import (
	"context"
	"encoding/json"
	"image"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gioui.org/io/key"
	"gioui.org/widget"

	"flamedesk/app/dialog"
	"flamedesk/app/recent"
	"flamedesk/core"
	"flamedesk/core/align"
	"flamedesk/core/calltree"
	"flamedesk/core/pipeline"
	"flamedesk/core/timelines"
	"flamedesk/timeline"
)

// openStacked opens a with b compared beside it and waits until both charts show.
func openStacked(t *testing.T, a, b string) *harness {
	t.Helper()
	h := newHarnessWith(t, Options{Source: SourceFromPath(a), Load: pipeline.Open, Compare: SourceFromPath(b)})
	c := &h.u.panel.compare
	if !c.stacked() || !c.aligned {
		t.Fatalf("B is not stacked under A: stacked %v, aligned %v, %q %q", c.stacked(), c.aligned, c.message, c.alignMsg)
	}
	return h
}

// pointB is the window point of B's chart at chart x and content y.
func (h *harness) pointB(x, contentY float64) image.Point {
	c := &h.u.panel.compare
	return image.Pt(c.chartB.origin.X+int(x), c.chartB.origin.Y+c.chartB.rulerHeight+int(contentY-c.docB.view.ScrollY()))
}

// entryB is the middle of one of B's bars as drawn now.
func (h *harness) entryB(ref timeline.EntryRef) image.Point {
	d := h.u.panel.compare.docB
	m := d.model
	x0 := max(d.view.TimeToPx(m.EntryStart(ref)), 0)
	x1 := min(d.view.TimeToPx(m.EntryEnd(ref)), d.view.Width())
	return h.pointB((x0+x1)/2, m.RowTop(ref.Track, m.EntryDepth(ref))+m.Style.RowHeight/2)
}

// widestNamed is the widest entry of d named name whose row is on screen.
func widestNamed(t *testing.T, d *document, name string) timeline.EntryRef {
	t.Helper()
	m := d.model
	best, bestDur := timeline.NoEntry, -1.0
	for ti := range m.Tracks {
		tr := &m.Tracks[ti]
		if !tr.Shown || tr.Collapsed {
			continue
		}
		for lv := range tr.Levels {
			top := m.RowTop(timeline.TrackID(ti), lv) - d.view.ScrollY()
			if top < 0 || top+m.Style.RowHeight > d.view.Height() {
				continue
			}
			for _, e := range tr.Levels[lv].Entries {
				ref := timeline.EntryRef{Track: timeline.TrackID(ti), Entry: e}
				if dur := m.EntryEnd(ref) - m.EntryStart(ref); dur > bestDur && m.EntryName(ref) == name {
					best, bestDur = ref, dur
				}
			}
		}
	}
	if !best.Valid() {
		t.Fatalf("no %q on screen", name)
	}
	return best
}

// stripButton finds a button of the strip between the charts by moving the mouse along it.
func (h *harness) stripButton(b *widget.Clickable) image.Point {
	h.t.Helper()
	c := &h.u.panel.compare
	y := h.u.chart.origin.Y + c.barY + compareStripDp/2
	for x := h.size.X - 4; x > 0; x -= 6 {
		p := image.Pt(x, y)
		h.move(p)
		if b.Hovered() {
			return p
		}
	}
	h.t.Fatal("no such button in the comparison's strip")
	return image.Point{}
}

// Both traces are stacked with every title labelled by its side, B under A on one time axis;
// a zoom over B zooms A as much, a click in B selects B's bar and shows it in the details, and
// a search finds in both.
func TestComparisonStacksBothTraces(t *testing.T) {
	h := openStacked(t, diffFixture(t, "trace-a.json.gz"), diffFixture(t, "trace-slow.json.gz"))
	c := &h.u.panel.compare
	a, b := h.u.doc, c.docB
	for side, m := range map[string]*timeline.Model{"A · ": a.model, "B · ": b.model} {
		for _, tr := range m.Tracks {
			if !strings.HasPrefix(tr.Title, side) || !strings.HasPrefix(m.Groups[tr.Group].Title(), side) {
				t.Errorf("track %q of group %q is not labelled %q", tr.Title, m.Groups[tr.Group].Title(), side)
			}
		}
	}
	if c.chartB.origin.Y < h.u.chart.origin.Y+h.u.chart.size.Y || c.chartB.size.Y < 100 {
		t.Fatalf("B's chart at %v (%v) is not under A's at %v (%v)", c.chartB.origin, c.chartB.size, h.u.chart.origin, h.u.chart.size)
	}
	if a.view.View() != b.view.View() || b.view.Origin() != a.view.Origin()+c.al.Offset {
		t.Fatalf("views A %+v from %v, B %+v from %v; offset %v", a.view.View(), a.view.Origin(), b.view.View(), b.view.Origin(), c.al.Offset)
	}

	before := a.view.Span()
	h.scroll(h.pointB(300, 40), -200, key.ModShortcut)
	if a.view.Span() >= before || a.view.View() != b.view.View() {
		t.Errorf("zoom over B: A's span %v → %v, views A %+v B %+v", before, a.view.Span(), a.view.View(), b.view.View())
	}
	h.press("0", 0) // back to the whole axis, with A's key
	if a.view.View() != b.view.View() || a.view.Span() != a.view.Total() {
		t.Errorf("after fitting A: views A %+v B %+v", a.view.View(), b.view.View())
	}

	ref := widestNamed(t, b, "Timer fired")
	h.click(h.entryB(ref), 0)
	if b.selected != ref || !c.focusB {
		t.Fatalf("a click on B's bar selected %+v (focus on B %v), want %+v", b.selected, c.focusB, ref)
	}
	if h.u.panel.details.key.doc != b || !slices.ContainsFunc(h.u.panel.details.lines, func(l detailLine) bool {
		return strings.HasPrefix(l.value, "B · ")
	}) {
		t.Errorf("the details show %v, not B's selection", h.u.panel.details.lines)
	}
	if a.selected.Valid() {
		t.Error("a click in B selected something in A")
	}

	h.u.emit(searchFor{query: "hashStrings"})
	h.idle()
	if a.search == nil || a.search.Len() == 0 || b.search == nil || b.search.Len() == 0 {
		t.Errorf("the search found nothing on a side: A %v, B %v", a.search, b.search)
	}
}

// Dragging B's ruler moves B on the axis by as much as the pointer moved, leaves A where it is,
// and is saved with the pair in the recent list.
func TestDraggingBRulerMovesB(t *testing.T) {
	slow := diffFixture(t, "trace-slow.json.gz")
	h := openStacked(t, diffFixture(t, "trace-a.json.gz"), slow)
	c := &h.u.panel.compare
	a, b := h.u.doc, c.docB
	ref := widestNamed(t, b, "Timer fired")
	xBefore := b.view.TimeToPx(b.model.EntryStart(ref))
	aStart, offset, scale := a.view.Start(), c.al.Offset, a.view.Scale()
	from := image.Pt(c.chartB.origin.X+500, c.chartB.origin.Y+c.chartB.rulerHeight/2)
	h.drag(from, from.Add(image.Pt(120, 0)), 0)
	h.idle()
	if want := offset - 120*scale; math.Abs(c.al.Offset-want) > 1e-6*math.Abs(want)+1e-3 {
		t.Errorf("offset %v after a 120 px drag, want %v", c.al.Offset, want)
	}
	if x := b.view.TimeToPx(b.model.EntryStart(ref)); math.Abs(x-(xBefore+120)) > 0.5 {
		t.Errorf("B's bar at x %v after the drag, want %v", x, xBefore+120)
	}
	if math.Abs(a.view.Start()-aStart) > 1e-3 || math.Abs(c.spec.Offset-(c.al.Offset-offset)) > 1e-6 {
		t.Errorf("A's view moved from %v to %v; spec offset %v", aStart, a.view.Start(), c.spec.Offset)
	}
	entries := recent.LoadFile(filepath.Join(h.config, "recent.json"))
	if len(entries) == 0 || entries[0].Compare != slow {
		t.Fatalf("recent list %+v lacks the comparison", entries)
	}
	var saved align.Spec
	if err := json.Unmarshal(entries[0].Align, &saved); err != nil || saved != c.spec {
		t.Errorf("saved alignment %s (%v), want %+v", entries[0].Align, err, c.spec)
	}
}

// The strip's buttons line B up by the entries selected in each, by a mark both have, and by
// navigation start, each time to the moment the engine's data names.
func TestAlignmentChoices(t *testing.T) {
	h := openStacked(t, diffFixture(t, "trace-a.json.gz"), diffFixture(t, "trace-slow.json.gz"))
	c := &h.u.panel.compare
	a, b := h.u.doc, c.docB

	refA, refB := widestNamed(t, a, "Timer fired"), widestNamed(t, b, "Timer fired")
	h.click(h.entryPoint(refA), 0)
	h.click(h.entryB(refB), 0)
	h.click(h.stripButton(&c.btnSelected), 0)
	h.idle()
	startA, startB := a.model.EntryStart(refA), b.model.EntryStart(refB)
	if c.al.ToB(startA) != startB || !strings.Contains(c.alignText(), "selected entries") {
		t.Errorf("aligned by the selected entries: A's start %v goes to %v on B, want %v (%q)", startA, c.al.ToB(startA), startB, c.alignText())
	}
	if xa, xb := a.view.TimeToPx(startA), b.view.TimeToPx(startB); math.Abs(xa-xb) > 0.01 {
		t.Errorf("the selected bars start at x %v in A and %v in B", xa, xb)
	}

	h.click(h.stripButton(&c.btnMark), 0)
	if !c.markMenu || !slices.Contains(c.markNames, "work-end") {
		t.Fatalf("mark menu shown %v with %q", c.markMenu, c.markNames)
	}
	i := slices.Index(c.markNames, "work-end")
	c.markClick[i].Click()
	h.idle()
	endA, _ := align.UserTiming(timelines.Build(a.trace).Timings, "work-end")
	endB, _ := align.UserTiming(timelines.Build(b.trace).Timings, "work-end")
	if c.spec.Method != align.Mark || c.al.ToB(endA) != endB {
		t.Errorf("aligned by work-end: %+v maps %v to %v, want %v", c.spec, endA, c.al.ToB(endA), endB)
	}

	h.click(h.stripButton(&c.btnNav), 0)
	h.idle()
	navA, _ := align.NavigationStart(timelines.BuildMeta(a.trace), -1)
	navB, _ := align.NavigationStart(timelines.BuildMeta(b.trace), -1)
	if c.spec.Method != align.Navigation || c.al.Offset != navB-navA {
		t.Errorf("aligned by navigation: %+v offset %v, want %v", c.spec, c.al.Offset, navB-navA)
	}
}

// The table applies the call tree's transforms to both sides, and a range selected in B's chart
// restricts both sides to one range of the aligned axis.
func TestCompareTableTransformsAndAlignedRange(t *testing.T) {
	a, slow := diffFixture(t, "trace-a.json.gz"), diffFixture(t, "trace-slow.json.gz")
	h := openCompare(t, a, slow)
	c := &h.u.panel.compare
	full := c.diff
	var hash calltree.DiffRow
	for _, r := range full.Rows {
		if r.Key.Name == "hashStrings" {
			hash = r
		}
	}
	tree := &h.u.panel.tree
	f := tree.stack.Functions()
	fn := calltree.NoFunc
	for id := range calltree.FuncID(f.Len()) {
		if f.Name(id) == "hashStrings" {
			fn = id
		}
	}
	if fn == calltree.NoFunc || hash.RunningB == 0 {
		t.Fatal("no hashStrings in the call tree or the table")
	}
	tree.push(calltree.Transform{Kind: calltree.DropFunction, Func: fn})
	h.idle()
	d := c.diff
	if d == full || d.TotalA != full.TotalA-hash.RunningA || d.TotalB != full.TotalB-hash.RunningB {
		t.Errorf("after dropping hashStrings: totals %v/%v, want %v/%v", d.TotalA, d.TotalB,
			full.TotalA-hash.RunningA, full.TotalB-hash.RunningB)
	}
	for _, r := range d.Rows {
		if r.Key.Name == "hashStrings" && (r.SelfA != 0 || r.SelfB != 0) {
			t.Errorf("hashStrings kept %v/%v after it was dropped", r.SelfA, r.SelfB)
		}
	}

	// Shift+drag in B's chart: A's range is B's moved to A's clock, and the table's B side is
	// that range on B's clock.
	docB := c.docB
	from, to := h.pointB(200, 10), h.pointB(700, 10)
	h.drag(from, to, key.ModShift)
	h.idle()
	doc := h.u.doc
	if !doc.hasRange() || docB.rangeStart != doc.rangeStart+c.al.Offset || docB.rangeEnd != doc.rangeEnd+c.al.Offset {
		t.Fatalf("ranges A [%v, %v], B [%v, %v], offset %v", doc.rangeStart, doc.rangeEnd, docB.rangeStart, docB.rangeEnd, c.al.Offset)
	}
	trB := c.traceB
	pa := &doc.trace.Profiles[tree.profile]
	profB := calltree.FindProfile(trB, pa.Pid, pa.Tid)
	if profB < 0 {
		profB = calltree.DefaultProfile(trB) // another recording: another pid
	}
	srcB, err := calltree.NewFunctions(trB, &trB.Profiles[profB]).Source(calltree.Range{Start: docB.rangeStart, End: docB.rangeEnd})
	if err != nil {
		t.Fatal(err)
	}
	stB := calltree.NewStack(srcB)
	for _, drop := range []string{"(idle)", "hashStrings"} {
		fb := stB.Functions()
		for id := range calltree.FuncID(fb.Len()) {
			if fb.Name(id) == drop {
				if stB, err = stB.Push(calltree.Transform{Kind: calltree.DropFunction, Func: id}); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if want := stB.Tree(calltree.View{}).Total(); c.diff.TotalB != want || c.diff.TotalB <= 0 || c.diff.TotalB >= d.TotalB {
		t.Errorf("B's total in the aligned range %v, want %v, above 0 and below the whole %v", c.diff.TotalB, want, d.TotalB)
	}
}

// "Compare with…" (Ctrl+Shift+O) asks for B with the open dialog; the recent list then reopens
// the pair with its alignment.
func TestCompareWithDialogAndRecent(t *testing.T) {
	a, slow := diffFixture(t, "trace-a.json.gz"), diffFixture(t, "trace-slow.json.gz")
	asked := 0
	h := newHarnessWith(t, Options{Source: SourceFromPath(a), Load: pipeline.Open,
		OpenDialog: func(ctx context.Context, opts dialog.Options) (string, error) { asked++; return slow, nil }})
	c := &h.u.panel.compare
	if c.active() {
		t.Fatal("a comparison before one was asked for")
	}
	h.press("O", key.ModShortcut|key.ModShift)
	h.idle()
	if asked != 1 || !c.stacked() || c.src.Path != slow || !c.aligned {
		t.Fatalf("after Ctrl+Shift+O: asked %d, stacked %v, B %q", asked, c.stacked(), c.src.Path)
	}
	if h.u.doc.path != a {
		t.Errorf("A changed to %q", h.u.doc.path)
	}
	c.spec = align.Spec{Method: align.Mark, Name: "work-start", Offset: 2500}
	c.realign(h.u.doc)
	h.idle()

	h2 := newHarnessWith(t, Options{Source: SourceFromPath(diffFixture(t, "trace-a2.json.gz")), Load: pipeline.Open, ConfigDir: h.config})
	entries := h2.u.config.recentFiles()
	k := slices.IndexFunc(entries, func(e recent.Entry) bool { return e.Path == a })
	if k < 0 || entries[k].Compare != slow {
		t.Fatalf("recent entries %+v", entries)
	}
	h2.u.emit(openRecent{entry: entries[k]})
	h2.idle()
	c2 := &h2.u.panel.compare
	if h2.u.doc.path != a || !c2.stacked() || c2.src.Path != slow || c2.spec != c.spec || c2.al.Offset != c.al.Offset {
		t.Errorf("reopened: A %q, B %q, spec %+v offset %v; want %+v offset %v", h2.u.doc.path, c2.src.Path, c2.spec, c2.al.Offset, c.spec, c.al.Offset)
	}
}

// A trace compared with a .cpuprofile stacks and compares by their JS samples.
func TestTraceAgainstCPUProfile(t *testing.T) {
	h := openStacked(t, diffFixture(t, "trace-a.json.gz"), diffFixture(t, "page-a.cpuprofile.gz"))
	c := &h.u.panel.compare
	h.idle()
	if c.diff == nil || c.diff.TotalB == 0 || c.docB.trace.Kind != core.InputCPUProfile {
		t.Fatalf("table %v, message %q", c.diff, c.message)
	}
	// A .cpuprofile has no navigation: B stays lined up by start, and the strip says why.
	h.click(h.stripButton(&c.btnNav), 0)
	h.idle()
	if !c.aligned || c.al.Spec.Method != align.Start || !strings.Contains(c.alignText(), "no navigation") {
		t.Errorf("aligned %v by %+v: %q", c.aligned, c.al.Spec, c.alignText())
	}
}

// The Compare tab's call-tree view: its roots add up to both totals, a click opens a node, the
// slowed function is under runWork with its change, and a click on "Δ running" sorts the roots
// by it.
func TestCompareTreeView(t *testing.T) {
	h := openCompare(t, diffFixture(t, "trace-a.json.gz"), diffFixture(t, "trace-slow.json.gz"))
	c := &h.u.panel.compare
	top := h.u.panel.origin.Add(h.u.panel.treeArea.Min)
	found := false
	for x := h.size.X - 4; x > top.X && !found; x -= 6 {
		p := image.Pt(x, top.Y+c.tabsH+10)
		h.move(p)
		if c.btnMode.Hovered() {
			h.click(p, 0)
			found = true
		}
	}
	if !found || !c.treeMode || c.tree == nil {
		t.Fatalf("no tree view (button found %v)", found)
	}
	var sumA, sumB time.Duration
	for _, r := range c.tree.Roots() {
		row := c.tree.Row(r)
		sumA, sumB = sumA+row.RunningA, sumB+row.RunningB
	}
	if sumA != c.tree.TotalA || sumB != c.tree.TotalB || c.tree.TotalA != c.diff.TotalA || c.tree.TotalB != c.diff.TotalB {
		t.Errorf("roots add up to %v/%v; tree totals %v/%v, table %v/%v", sumA, sumB, c.tree.TotalA, c.tree.TotalB, c.diff.TotalA, c.diff.TotalB)
	}
	// The tree opens sorted by the change of running time; a click on "Δ self" sorts it by that,
	// and one on "Δ running" back: the root holding runWork comes first.
	if c.treeSort != calltree.ByRunningDelta {
		t.Errorf("the tree opens sorted by %v", c.treeSort)
	}
	h.click(image.Pt(top.X+2*compareColDp+compareColDp/2, top.Y+c.headerY+8), 0)
	if c.treeSort != calltree.BySelfDelta || c.sort != calltree.BySelfDelta {
		t.Errorf("a click on Δ self in the tree: tree by %v, table by %v", c.treeSort, c.sort)
	}
	col := slices.IndexFunc(compareColumns[:], func(cc struct {
		title string
		sort  calltree.DiffColumn
	}) bool {
		return cc.sort == calltree.ByRunningDelta
	})
	h.click(image.Pt(top.X+col*compareColDp+compareColDp/2, top.Y+c.headerY+8), 0)
	roots := c.tree.Roots()
	if c.treeSort != calltree.ByRunningDelta || c.sort != calltree.BySelfDelta || len(roots) < 2 || !slices.IsSortedFunc(roots, func(x, y calltree.DiffNodeID) int {
		rx, ry := c.tree.Row(x), c.tree.Row(y)
		return int(ry.RunningDelta() - rx.RunningDelta())
	}) {
		t.Fatalf("sorted by %v; roots not in descending running delta", c.sort)
	}
	rowY := func(i int) int { return top.Y + c.headerY + 22 + 18*i + 9 }
	for range 4 {
		i := slices.IndexFunc(c.treeRows, func(n calltree.DiffNodeID) bool {
			r := c.rowAt(slices.Index(c.treeRows, n))
			return r.expandable && !r.open && r.Key.Name == "runWork"
		})
		if i < 0 {
			break
		}
		if i > 5 {
			t.Fatalf("runWork is row %d, not near the top", i)
		}
		h.click(image.Pt(top.X+compareColumnXDp(len(compareColumns)-1)+40, rowY(i)), 0)
	}
	var hash *compareRow
	for i := range c.treeRows {
		if r := c.rowAt(i); r.Key.Name == "hashStrings" {
			hash = &r
			break
		}
	}
	if hash == nil || hash.depth < 2 || hash.RunningDelta() <= 0 {
		t.Errorf("hashStrings not shown under runWork, slower: %+v", hash)
	}

	// The call tree's bottom-up view turns the Compare tab's tree bottom-up too: hashStrings,
	// which calls nothing, is a root of it.
	h.u.panel.tree.setView(true, h.u.panel.tree.order)
	h.idle()
	if !c.tree.Inverted() || !slices.ContainsFunc(c.tree.Roots(), func(n calltree.DiffNodeID) bool { return c.tree.Row(n).Key.Name == "hashStrings" }) {
		t.Errorf("bottom-up: inverted %v, hashStrings a root %v", c.tree.Inverted(), false)
	}
}

// compareColumnXDp is compareColumnX at 1 px per dp, as the harness lays out.
func compareColumnXDp(i int) int {
	x := i * compareColDp
	if i == len(compareColumns)-1 {
		x += compareBarDp + 8
	}
	return x
}

// While B loads, a strip under A shows its progress with Cancel, which closes the comparison and
// gives A its whole height back.
func TestCompareLoadingStripCancels(t *testing.T) {
	h := newHarness(t, SourceFromPath(diffFixture(t, "trace-a.json.gz")))
	full := h.u.chart.size.Y
	stub := newStubLoad()
	h.u.opts.Load = stub.load
	h.u.startCompare(SourceFromPath(diffFixture(t, "trace-slow.json.gz")), align.Spec{})
	<-stub.started
	h.frame()
	c := &h.u.panel.compare
	if !c.load.Busy() || c.stacked() || h.u.chart.size.Y != full-compareStripDp {
		t.Fatalf("loading: busy %v, stacked %v, A's chart %d px high (alone %d)", c.load.Busy(), c.stacked(), h.u.chart.size.Y, full)
	}
	h.click(h.stripButton(&c.btnCancel), 0)
	h.idle()
	if c.active() || c.load.Busy() || h.u.chart.size.Y != full {
		t.Errorf("after Cancel: active %v, loading %v, A's chart %d px high, want %d", c.active(), c.load.Busy(), h.u.chart.size.Y, full)
	}
}
