package app

import (
	"context"
	"encoding/json"
	"image"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gioui.org/io/key"
	"gioui.org/io/pointer"

	"flamedesk/app/dialog"
	"flamedesk/core"
	"flamedesk/core/calltree"
	"flamedesk/timeline"
)

// Each test here drives the window the way a user did when the defect was found, without a
// display (headless_test.go), and fails on the behaviour the defect describes.

const (
	smallTrace   = "gen-trace-small.json.gz"
	anonymousTwo = "devtools-nested-interactions.json.gz" // two "(anonymous)" roots from one script
)

// treeRowPoint is the window point of call-tree row i as laid out in the last frame.
func (h *harness) treeRowPoint(i int) image.Point {
	p := &h.u.panel
	top := p.origin.Add(p.treeArea.Min)
	rowH := 18
	first := p.tree.list.Position.First
	// The harness draws one px per dp.
	return image.Pt(top.X+3*columnWidthDp+40, top.Y+p.tree.tableY+(i-first)*rowH+rowH/2)
}

// treeRowOf is the index of the visible row showing node n, -1 when none does.
func treeRowOf(p *treePanel, n calltree.NodeID) int {
	for i, r := range p.rows {
		if r.node == n {
			return i
		}
	}
	return -1
}

// Defect 1: expanding a row expanded every row whose function had the same name, because rows
// were remembered by a path of names. Two "(anonymous)" functions of one script, siblings in the
// tree, must open one at a time.
func TestTreeExpandsOneFunctionOfAName(t *testing.T) {
	h := newHarness(t, SourceFromPath(fixture(t, "upstream", anonymousTwo)))
	p := &h.u.panel.tree
	tree := p.tree
	f := tree.Functions()
	var a, b calltree.NodeID = calltree.NoNode, calltree.NoNode
	tree.Walk(func(n calltree.NodeID) bool {
		kids := tree.Children(n)
		for i := range kids {
			for j := i + 1; j < len(kids); j++ {
				x, y := kids[i], kids[j]
				if a == calltree.NoNode && tree.Func(x) != tree.Func(y) && f.Name(tree.Func(x)) == f.Name(tree.Func(y)) &&
					tree.HasChildren(x) && tree.HasChildren(y) {
					a, b = x, y
				}
			}
		}
		return a == calltree.NoNode
	})
	if a == calltree.NoNode {
		t.Fatal("the fixture has no two sibling functions of one name")
	}
	// Open the way down to the pair, and close both.
	for par := tree.Parent(a); par != calltree.NoNode; par = tree.Parent(par) {
		p.toggle(par, true)
	}
	p.toggle(a, false)
	p.toggle(b, false)
	h.frame()
	row := treeRowOf(p, a)
	if row < 0 || treeRowOf(p, b) < 0 {
		t.Fatal("the pair is not on show")
	}
	p.list.Position.First, p.list.Position.Offset = row, 0
	h.frame()
	h.click(h.treeRowPoint(row), 0)
	if sel := p.selectedRow(); sel != row {
		t.Fatalf("clicking row %d selected row %d", row, sel)
	}
	h.press(key.NameRightArrow, 0)
	if !p.isOpen(a) {
		t.Fatalf("→ did not open %s", f.Describe(tree.Func(a)))
	}
	if p.isOpen(b) {
		t.Fatalf("opening %s also opened %s", f.Describe(tree.Func(a)), f.Describe(tree.Func(b)))
	}
}

// Defect 2: clearing the range (Esc, or a click on an empty part of the chart) left the call tree
// on the old range.
func TestClearingTheRangeResetsTheTree(t *testing.T) {
	h := newHarness(t, SourceFromPath(fixture(t, "generated", smallTrace)))
	for _, clearIt := range []struct {
		name string
		do   func()
	}{
		{"Esc", func() { h.press(key.NameEscape, 0) }},
		{"a click on empty chart", func() { h.click(h.emptyChartPoint(), 0) }},
	} {
		c := &h.u.chart
		y := c.origin.Y + c.rulerHeight + 5
		h.drag(image.Pt(300, y), image.Pt(700, y), key.ModShift)
		h.idle()
		if h.u.panel.tree.rng == calltree.AllTime || !h.u.doc.hasRange() {
			t.Fatalf("%s: shift+drag selected no range for the tree", clearIt.name)
		}
		h.wait(time.Second) // not a double click
		clearIt.do()
		h.idle()
		if h.u.doc.hasRange() {
			t.Fatalf("%s did not clear the range", clearIt.name)
		}
		if got := h.u.panel.tree.rng; got != calltree.AllTime {
			t.Fatalf("after %s the call tree still covers %v", clearIt.name, got)
		}
		if h.u.panel.tree.tree.Samples() == 0 {
			t.Fatalf("after %s the tree is empty", clearIt.name)
		}
	}
}

// Defect 3: Ctrl+F did nothing while the call tree had the focus, and the letters typed next ran
// as transform keys ("UpdateLayoutTree" pruned the tree to nothing).
func TestCtrlFWorksFromTheCallTree(t *testing.T) {
	h := newHarness(t, SourceFromPath(fixture(t, "generated", smallTrace)))
	p := &h.u.panel.tree
	h.click(h.treeRowPoint(0), 0)
	if p.selectedRow() != 0 {
		t.Fatal("clicking the first row did not select it")
	}
	samples := p.tree.Samples()
	h.press("F", key.ModShortcut)
	h.typeText("UpdateLayoutTree")
	h.idle()
	if got := h.u.searchBox.editor.Text(); got != "UpdateLayoutTree" {
		t.Fatalf("the search box holds %q", got)
	}
	if n := p.stack.Len(); n != 0 {
		t.Fatalf("typing ran %d transforms on the call tree: %v", n, p.stack.Transforms())
	}
	if p.tree.Samples() != samples {
		t.Fatalf("the tree went from %d to %d samples", samples, p.tree.Samples())
	}
	if h.u.doc.search == nil || h.u.doc.search.Query != "UpdateLayoutTree" {
		t.Fatal("no search ran for what was typed")
	}

	// Typed fast, as xdotool or a quick typist does: the letters' keys are queued before the
	// frame that reads Ctrl+F. The focus must move at Ctrl+F, so that the keys after it no longer
	// reach the call tree.
	h.press(key.NameEscape, 0)
	h.click(h.treeRowPoint(0), 0)
	h.router.Queue(key.Event{Name: "F", Modifiers: key.ModShortcut, State: key.Press},
		key.Event{Name: "F", Modifiers: key.ModShortcut, State: key.Release})
	for _, r := range "prune" {
		name := key.Name(strings.ToUpper(string(r)))
		h.router.Queue(key.Event{Name: name, State: key.Press}, key.Event{Name: name, State: key.Release})
	}
	h.idle()
	if p.stack.Len() != 0 {
		t.Fatalf("keys typed right after Ctrl+F ran %d transforms on the call tree", p.stack.Len())
	}
}

// fitted reports whether the view shows the whole trace.
func fitted(d *document) bool {
	v := d.view.View()
	return v.Start == 0 && math.Abs(v.Span-d.view.Total()) < 1e-6*d.view.Total()
}

// Defect 4: Alt+← ignored zooms made with ctrl+wheel, W/S and +/−, and did nothing while the
// search box had the focus.
func TestBackUndoesEveryZoom(t *testing.T) {
	var h *harness
	var d *document
	var mid image.Point
	zooms := []struct {
		name string
		do   func()
	}{
		{"ctrl+wheel", func() { h.scroll(mid, -60, key.ModShortcut) }},
		{"W held", func() {
			h.move(mid)
			h.queue(key.Event{Name: "W", State: key.Press})
			h.wait(300 * time.Millisecond)
			h.queue(key.Event{Name: "W", State: key.Release})
		}},
		{"+", func() { h.press("+", 0) }},
	}
	for _, z := range zooms {
		for _, inSearch := range []bool{false, true} {
			// A fresh window each time: its history is empty, so only the zoom itself can have
			// put the fitted view into it.
			h = newHarness(t, SourceFromPath(fixture(t, "generated", smallTrace)))
			d = h.u.doc
			mid = h.chartPoint(float64(h.u.chart.size.X)/2, 10)
			z.do()
			if fitted(d) {
				t.Fatalf("%s did not zoom", z.name)
			}
			if inSearch {
				h.press("F", key.ModShortcut)
				if !h.router.Source().Focused(&h.u.searchBox.editor) {
					t.Fatal("Ctrl+F did not focus the search box")
				}
			}
			h.press(key.NameLeftArrow, key.ModAlt)
			if !fitted(d) {
				t.Fatalf("Alt+← after %s (search box focused: %v) left the view at %+v", z.name, inSearch, d.view.View())
			}
		}
	}
}

// − zooms out one step, and Alt+← undoes that step too.
func TestBackUndoesZoomOut(t *testing.T) {
	h := newHarness(t, SourceFromPath(fixture(t, "generated", smallTrace)))
	d := h.u.doc
	h.press("+", 0)
	h.press("+", 0)
	zoomed := d.view.View()
	h.press("-", 0)
	if d.view.View() == zoomed {
		t.Fatal("− did not zoom out")
	}
	h.press(key.NameLeftArrow, key.ModAlt)
	if d.view.View() != zoomed {
		t.Fatalf("Alt+← after − shows %+v, want %+v", d.view.View(), zoomed)
	}
}

// Defect 5: the tooltip stayed on after the view moved under a still pointer.
func TestTooltipGoesWhenTheViewMoves(t *testing.T) {
	h := newHarness(t, SourceFromPath(fixture(t, "generated", smallTrace)))
	d := h.u.doc
	ref := h.visibleEntry(func(timeline.EntryRef) bool { return true })
	h.move(h.entryPoint(ref))
	if d.hover.Kind != timeline.HitEntry {
		t.Fatal("no entry under the pointer")
	}
	h.press("+", 0)
	h.press("+", 0)
	h.press("+", 0)
	if d.hover.Kind != timeline.HitNone {
		t.Fatalf("after zooming under a still pointer the tooltip still names %s", d.model.EntryName(d.hover.Entry))
	}
	// A double click zooms under the pointer too.
	d.view.Fit()
	h.move(h.entryPoint(ref))
	h.wait(time.Second)
	p := h.entryPoint(ref)
	h.click(p, 0)
	h.click(p, 0)
	if fitted(d) {
		t.Fatal("the double click did not zoom")
	}
	if d.hover.Kind != timeline.HitNone && d.view.View() != h.u.chart.hoverView {
		t.Fatal("after a double-click zoom the tooltip names what was there before")
	}
}

// Defect 6: Esc did not close the recent list; it stayed open after Ctrl+O opened a file; and the
// file opened was missing from it.
func TestRecentList(t *testing.T) {
	other := fixture(t, "upstream", "devtools-basic.cpuprofile.gz")
	var asked int
	h := newHarnessWith(t, Options{
		Source: SourceFromPath(fixture(t, "generated", smallTrace)), Load: newStubLoadNow().load,
		OpenDialog: func(context.Context, dialog.Options) (string, error) { asked++; return other, nil },
	})
	h.u.emit(toggleRecent{}) // what the Recent button does
	h.frame()
	if !h.u.toolbar.recentShown {
		t.Fatal("the recent list did not open")
	}
	h.press(key.NameEscape, 0)
	if h.u.toolbar.recentShown {
		t.Fatal("Esc did not close the recent list")
	}
	h.u.emit(toggleRecent{})
	h.frame()
	h.press("O", key.ModShortcut)
	if h.u.toolbar.recentShown {
		t.Fatal("the recent list stayed open over the open dialog")
	}
	h.idle()
	if asked != 1 || h.u.doc == nil || h.u.doc.path != other {
		t.Fatalf("Ctrl+O did not open the file chosen (dialog shown %d times)", asked)
	}
	h.u.emit(toggleRecent{})
	h.frame()
	es := h.u.toolbar.recentEntries
	if len(es) < 2 || es[0].Path != other {
		t.Fatalf("the recent list after opening %s: %+v", other, es)
	}
}

// newStubLoadNow is a load that needs no releasing.
func newStubLoadNow() *stubLoad {
	s := newStubLoad()
	for range cap(s.release) {
		s.release <- nil
	}
	s.started = make(chan Source, 64)
	return s
}

// Defect 7: the details cut "Source" at its end, losing the file name and line:col. They come
// first, as in DevTools; the whole URL shows on hover and is copied by a click.
func TestDetailsSourceShowsFileAndPosition(t *testing.T) {
	h := newHarness(t, SourceFromPath(fixture(t, "generated", smallTrace)))
	d := h.u.doc
	ref := h.visibleEntry(func(ref timeline.EntryRef) bool {
		ct := d.model.Tracks[ref.Track].Core
		return ct.KindAt(int(ref.Entry)) == core.EntryProfileCall && d.model.EntryURL(ref) != ""
	})
	if !ref.Valid() {
		t.Fatal("no call with a script URL")
	}
	h.u.emit(selectHit{hit: timeline.Hit{Kind: timeline.HitEntry, Track: ref.Track, Entry: ref}})
	h.idle()
	ct := d.model.Tracks[ref.Track].Core
	fr := d.trace.Frames[ct.FrameAt(int(ref.Entry))]
	url := d.trace.Strings.Get(fr.URL)
	base := url[strings.LastIndex(url, "/")+1:]
	want := base + ":" + itoa(int(fr.Line)+1) + ":" + itoa(int(fr.Column)+1)
	lines := h.u.panel.details.lines
	i := -1
	for j, l := range lines {
		if l.label == "Source" {
			i = j
		}
	}
	if i < 0 || lines[i].value != want {
		t.Fatalf("Source line %+v, want the value %q", lines, want)
	}
	if !strings.HasPrefix(lines[i].full, url) {
		t.Fatalf("the whole source %q does not carry the URL %q", lines[i].full, url)
	}
	p := &h.u.panel
	at := p.origin.Add(image.Pt(8+96+10, 4+p.details.lineY[i]+8))
	h.move(at)
	h.click(at, 0)
	mime, b, ok := h.router.WriteClipboard()
	if !ok {
		t.Fatal("clicking the source copied nothing")
	}
	if mime != "application/text" || string(b) != lines[i].full {
		t.Fatalf("copied %q (%s), want %q", b, mime, lines[i].full)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// Defect 8: Esc in the search box kept the query and its highlights.
func TestEscClearsTheSearch(t *testing.T) {
	h := newHarness(t, SourceFromPath(fixture(t, "generated", smallTrace)))
	h.press("F", key.ModShortcut)
	h.typeText("Layout")
	h.idle()
	if h.u.doc.search == nil || h.u.doc.search.Len() == 0 {
		t.Fatal("the search found nothing")
	}
	h.press(key.NameEscape, 0)
	h.idle()
	if got := h.u.searchBox.editor.Text(); got != "" {
		t.Fatalf("Esc left the query %q", got)
	}
	if h.u.doc.search != nil || h.u.doc.marked() != nil {
		t.Fatal("Esc left the matches highlighted")
	}
	if !h.router.Source().Focused(h.u) {
		t.Fatal("Esc did not give the keys back to the chart")
	}
}

// Defect 9: a window test wrote into the user's real recent list. The window keeps its files in
// the directory it is given; the tests give it a scratch one, and TestMain points the user's
// config directory at another scratch directory, which must stay empty.
func TestOpeningKeepsToTheConfigDirGiven(t *testing.T) {
	h := newHarness(t, SourceFromPath(fixture(t, "generated", smallTrace)))
	b, err := os.ReadFile(filepath.Join(h.config, "recent.json"))
	if err != nil || !strings.Contains(string(b), smallTrace) {
		t.Fatalf("the recent list in the config dir given: %q, %v", b, err)
	}
	user, _ := os.UserConfigDir()
	if _, err := os.Stat(filepath.Join(user, "flamedesk")); !os.IsNotExist(err) {
		t.Fatalf("the window wrote into the user's config dir %s", user)
	}
}

// Defect 10: the call tree had no column titles; its rows had no line:col, so the "(anonymous)"
// functions of one script looked alike; a collapsed script printed its URL and then its name
// again; and every transform closed all rows.
func TestTreeRowsTellFunctionsApart(t *testing.T) {
	h := newHarness(t, SourceFromPath(fixture(t, "upstream", anonymousTwo)))
	p := &h.u.panel.tree
	if !p.columnsShown {
		t.Fatal("no column titles over the call tree")
	}
	f := p.tree.Functions()
	seen := map[string]calltree.FuncID{}
	p.tree.Walk(func(n calltree.NodeID) bool {
		fn := p.tree.Func(n)
		name := rowName(f, fn)
		if other, ok := seen[name]; ok && other != fn && f.Line(fn) >= 0 {
			t.Fatalf("two functions show as %q: %s and %s", name, f.Describe(other), f.Describe(fn))
		}
		seen[name] = fn
		return true
	})
	// A collapsed script is named once, by its file.
	for fn := calltree.FuncID(0); int(fn) < f.Len(); fn++ {
		if f.IsResource(fn) {
			if got, want := rowName(f, fn), shortURL(f.Name(fn)); got != want {
				t.Fatalf("collapsed script row %q, want %q", got, want)
			}
			break
		}
	}
	// A transform elsewhere keeps the open rows open: open the first rows' subtrees a few levels
	// down, then merge the last row shown into its parent.
	for range 3 {
		for _, r := range p.rows {
			if r.expandable && !r.opened && len(p.expanded) < 12 {
				p.toggle(r.node, true)
				break
			}
		}
	}
	h.frame()
	before := len(p.rows)
	open := len(p.expanded)
	if open < 3 {
		t.Fatalf("only %d rows open", open)
	}
	last := p.rows[len(p.rows)-1].node
	h.click(h.treeRowPoint(0), 0)
	p.list.Position.First = 0
	for p.selectedRow() != len(p.rows)-1 {
		h.press(key.NameDownArrow, 0)
	}
	if p.rows[p.selectedRow()].node != last {
		t.Fatal("could not select the last row")
	}
	h.press("M", 0) // merge the last row's node into its parent
	h.idle()
	if p.stack.Len() != 1 {
		t.Fatalf("the transform did not apply: %d transforms", p.stack.Len())
	}
	if len(p.expanded) < open-1 || len(p.rows) < before-2 {
		t.Fatalf("after a transform %d of %d rows stayed open, %d of %d rows shown", len(p.expanded), open, len(p.rows), before)
	}
}

// Defect 11: at the fitted view the whole overview counted as the current window, so a drag there
// never selected a range. A drag anywhere selects the range dragged.
func TestOverviewDragSelectsARange(t *testing.T) {
	h := newHarness(t, SourceFromPath(fixture(t, "generated", smallTrace)))
	d := h.u.doc
	if !fitted(d) {
		t.Fatal("the view does not start fitted")
	}
	y := toolbarHeight + overviewHeight/2
	h.drag(image.Pt(350, y), image.Pt(700, y), 0)
	total := d.view.Total()
	wantStart, wantSpan := 350.0/float64(h.size.X)*total, 350.0/float64(h.size.X)*total
	v := d.view.View()
	if math.Abs(v.Start-wantStart) > total/500 || math.Abs(v.Span-wantSpan) > total/500 {
		t.Fatalf("dragging x 350–700 of %d showed %+v, want start %.0f span %.0f", h.size.X, v, wantStart, wantSpan)
	}
	h.press(key.NameLeftArrow, key.ModAlt)
	if !fitted(d) {
		t.Fatal("Alt+← did not go back to the fitted view")
	}
}

// Defect 12: the window stayed black until the loader had started on every core, and the bar
// restarted at each stage. The load now starts at once, at the background priority, so that it
// runs while the window is made; the first frame does not wait for it but shows the loading card,
// and the bar moves on from stage to stage.
func TestFirstFrameBeforeTheLoad(t *testing.T) {
	stub := newStubLoad()
	h := &harness{t: t, host: &fakeHost{woken: make(chan struct{}, 1)}, size: image.Pt(1400, 900),
		now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), config: t.TempDir()}
	h.u = newUI(h.host, Options{Source: SourceFromPath(fixture(t, "generated", smallTrace)), Load: stub.load, ConfigDir: h.config})
	t.Cleanup(func() { h.u.load.Cancel() })
	select {
	case <-stub.started:
	case <-time.After(10 * time.Second):
		t.Fatal("the load did not start before the first frame")
	}
	// The stub holds the load until released: the frame is laid out while it runs.
	h.frame()
	if !h.u.loading || h.u.doc != nil {
		t.Fatal("the first frame waited for the load")
	}
	// The window takes the keyboard focus in the next frame, not in the first: a focus asks for
	// a frame of its own.
	if h.u.focusSet || h.router.Source().Focused(h.u) {
		t.Fatal("the first frame of a load took the focus")
	}
	h.frame()
	if !h.u.focusSet {
		t.Fatal("the second frame of a load did not take the focus")
	}
	h.frame()
	if !h.router.Source().Focused(h.u) {
		t.Fatal("the window does not have the keyboard focus")
	}
	if !h.u.loading || !strings.Contains(h.u.progressText(), "Loading gen-trace-small.json.gz — ") {
		t.Fatalf("while loading: %q", h.u.progressText())
	}
	// The bar across stages never goes back.
	stub.release <- nil
	last := 0.0
	for h.u.loading {
		if got := h.u.loadProgress.Overall(); got < last {
			t.Fatalf("the bar went back from %.2f to %.2f at %q", last, got, h.u.loadProgress.Stage())
		} else {
			last = got
		}
		h.frame()
	}
	if last < 0.5 || h.u.doc == nil {
		t.Fatalf("the bar ended at %.2f; document %v", last, h.u.doc != nil)
	}
}

// Defect 13: a failed open showed one red line in the status bar and left the chart blank. It
// shows a banner with the reason, over the file that stays open, until dismissed.
func TestFailedOpenShowsABanner(t *testing.T) {
	h := newHarness(t, SourceFromPath(fixture(t, "generated", smallTrace)))
	doc := h.u.doc
	bad := filepath.Join(t.TempDir(), "broken.json")
	if err := os.WriteFile(bad, []byte(`this is not JSON`), 0o644); err != nil {
		t.Fatal(err)
	}
	h.u.emit(openSource{src: SourceFromPath(bad)})
	h.idle()
	if h.u.doc != doc {
		t.Fatal("the failed open closed the document")
	}
	if !strings.HasPrefix(h.u.banner, "Could not open broken.json: ") || len(h.u.banner) < len("Could not open broken.json: ")+5 {
		t.Fatalf("banner %q", h.u.banner)
	}
	h.click(image.Pt(h.size.X-8-25, toolbarHeight+overviewHeight+17), 0)
	if h.u.banner != "" {
		t.Fatal("Dismiss did not hide the banner")
	}
}

// Defect 14: no Ctrl+Q or Ctrl+W to quit; "Show 1 hidden tracks" and "Self time 0.00 µs".
func TestQuitKeysAndWording(t *testing.T) {
	for _, k := range []key.Name{"Q", "W"} {
		h := newHarnessWith(t, Options{Source: SourceFromPath(fixture(t, "generated", smallTrace)), Load: newStubLoadNow().load})
		h.press(k, key.ModShortcut)
		if !h.host.closed {
			t.Fatalf("Ctrl+%s did not close the window", k)
		}
	}
	if got := "Show " + plural(1, "hidden track", "hidden tracks"); got != "Show 1 hidden track" {
		t.Fatal(got)
	}
	if got := formatDuration(0); got != "0 µs" {
		t.Fatalf("no time at all reads %q", got)
	}
	if got := formatDuration(0.25); got != "0.25 µs" {
		t.Fatalf("a quarter µs reads %q", got)
	}
}

// Defect 14, continued: scrolled deep into a track, its name stays at the top of the chart.
func TestTrackNameStaysInViewWhenScrolledDeep(t *testing.T) {
	h := newHarness(t, SourceFromPath(fixture(t, "generated", smallTrace)))
	d := h.u.doc
	m := d.model
	// The tallest track, scrolled to half-way down its levels.
	tall := -1
	for i := range m.Tracks {
		if m.Tracks[i].Shown && (tall < 0 || m.Tracks[i].Height > m.Tracks[tall].Height) {
			tall = i
		}
	}
	tk := &m.Tracks[tall]
	if tk.Height < 3*d.view.Height() {
		t.Fatalf("the tallest track is %.0f px, not deep enough to scroll into", tk.Height)
	}
	mid := h.chartPoint(float64(h.u.chart.size.X)/2, d.view.ScrollY()+d.view.Height()/2)
	for d.view.ScrollY() < tk.RowsY+tk.Height/2 {
		h.scroll(mid, 200, 0)
	}
	if d.view.ScrollY() <= tk.Y || d.view.ScrollY() >= tk.Y+tk.Height {
		t.Fatalf("scrolled to %.0f, outside the track [%.0f, %.0f]", d.view.ScrollY(), tk.Y, tk.Y+tk.Height)
	}
	if got := h.u.chart.sticky; got != timeline.TrackID(tall) {
		t.Fatalf("the name at the top is of track %d, want %d (%s)", got, tall, tk.Title)
	}
	d.view.SetScrollY(0)
	h.frame()
	if h.u.chart.sticky != -1 {
		t.Fatal("a name is kept at the top while every header is in view")
	}
}

// A fast drag keeps coasting after the release, at a sane speed, until a navigation key takes
// over.
func TestFlingStopsForKeys(t *testing.T) {
	h := newHarness(t, SourceFromPath(fixture(t, "generated", smallTrace)))
	for range 8 {
		h.press("+", 0) // far from both ends, so that the fling does not stop at one
	}
	y := h.u.chart.origin.Y + h.u.chart.rulerHeight + 30
	at := h.eventTime()
	from := image.Pt(900, y)
	evs := []any{pointerAt(pointer.Move, from, 0, 0, at), pointerAt(pointer.Press, from, pointer.ButtonPrimary, 0, at)}
	for i := 1; i <= 10; i++ {
		at += time.Millisecond // a millisecond apart, as X delivers them
		evs = append(evs, pointerAt(pointer.Move, from.Sub(image.Pt(30*i, 0)), pointer.ButtonPrimary, 0, at))
	}
	evs = append(evs, pointerAt(pointer.Release, from.Sub(image.Pt(300, 0)), 0, 0, at+time.Millisecond))
	h.queue(evs...)
	c := &h.u.chart
	if c.fling == 0 || math.Abs(c.fling) > maxFlingPxPerS {
		t.Fatalf("fling at %.0f px/s after a fast drag", c.fling)
	}
	h.queue(key.Event{Name: "A", State: key.Press})
	h.frame()
	if c.fling != 0 {
		t.Fatal("holding A did not stop the fling")
	}
	h.queue(key.Event{Name: "A", State: key.Release})
}
