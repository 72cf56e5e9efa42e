package app

import (
	"context"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"flamedesk/core"
	"flamedesk/core/calltree"
	"flamedesk/core/load"
	"flamedesk/core/pipeline"
	"flamedesk/internal/fixtures"
	"flamedesk/render"
)

// diffFixture is a recorded comparison pair of testdata/diff (gen/gen.mjs made them): trace-slow
// is trace-a with hashStrings made slower.
func diffFixture(t *testing.T, name string) string {
	t.Helper()
	dir := fixtures.Testdata()
	if dir == "" {
		t.Skip("no testdata folder")
	}
	return filepath.Join(dir, "diff", name)
}

// expectedDiff compares two files the way "flamedesk diff" does by default, outside the window:
// the default thread of A, the same PID:TID in B, the first samples lined up.
func expectedDiff(t *testing.T, a, b string) *calltree.Diff {
	t.Helper()
	var trs [2]*core.Trace
	for i, path := range []string{a, b} {
		tr, err := load.File(context.Background(), path, nil)
		if err != nil {
			t.Fatal(err)
		}
		trs[i] = tr
	}
	pa := calltree.DefaultProfile(trs[0])
	pb := calltree.FindProfile(trs[1], trs[0].Profiles[pa].Pid, trs[0].Profiles[pa].Tid)
	if pb < 0 {
		pb = calltree.DefaultProfile(trs[1])
	}
	srcA, err := calltree.NewSource(trs[0], &trs[0].Profiles[pa], calltree.AllTime)
	if err != nil {
		t.Fatal(err)
	}
	d, err := calltree.Compare(calltree.NewStack(srcA), calltree.NewFunctions(trs[1], &trs[1].Profiles[pb]),
		calltree.AllTime, calltree.AllTime, calltree.CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// openCompare opens a with b beside it and clicks the Compare tab.
func openCompare(t *testing.T, a, b string) *harness {
	t.Helper()
	h := newHarnessWith(t, Options{Source: SourceFromPath(a), Load: pipeline.Open, Compare: SourceFromPath(b)})
	p := &h.u.panel
	if p.showCompare {
		t.Fatal("the Compare tab is shown before it was clicked")
	}
	h.click(p.origin.Add(p.treeArea.Min).Add(image.Pt(p.compare.tabX+12, p.compare.tabsH/2)), 0)
	h.idle()
	if !p.showCompare {
		t.Fatal("clicking the Compare tab did not show it")
	}
	if p.compare.diff == nil {
		t.Fatalf("no comparison table; message %q", p.compare.message)
	}
	return h
}

// The slowed function comes first by self delta, with the same times an independent comparison
// of the two files finds, and a click on a column title sorts by it.
func TestCompareTabListsSlowedFunctionFirst(t *testing.T) {
	a, slow := diffFixture(t, "trace-a.json.gz"), diffFixture(t, "trace-slow.json.gz")
	h := openCompare(t, a, slow)
	want := expectedDiff(t, a, slow)
	got := h.u.panel.compare.diff
	if len(got.Rows) != len(want.Rows) || got.TotalA != want.TotalA || got.TotalB != want.TotalB {
		t.Fatalf("table: %d rows, totals %v/%v; want %d rows, %v/%v", len(got.Rows), got.TotalA, got.TotalB,
			len(want.Rows), want.TotalA, want.TotalB)
	}
	first := got.Rows[0]
	if first.Key.Name != "hashStrings" || first.SelfDelta() <= 0 {
		t.Fatalf("first row %s (Δ self %v), want hashStrings, slower in B", first.Key.Name, first.SelfDelta())
	}
	for _, r := range want.Rows {
		if r.Key == first.Key && (r.SelfA != first.SelfA || r.SelfB != first.SelfB || r.RunningA != first.RunningA || r.RunningB != first.RunningB) {
			t.Errorf("hashStrings: table %+v, independent comparison %+v", first, r)
		}
	}

	// Sort by "Self B" (the second column): the largest self time in B first.
	c := &h.u.panel.compare
	maxB := want.Rows[0].SelfB
	for _, r := range want.Rows {
		maxB = max(maxB, r.SelfB)
	}
	top := h.u.panel.origin.Add(h.u.panel.treeArea.Min)
	h.click(top.Add(image.Pt(compareColDp+compareColDp/2, c.headerY+8)), 0)
	if c.sort != calltree.BySelfB {
		t.Fatalf("clicking Self B sorts by %v", c.sort)
	}
	if c.diff.Rows[0].SelfB != maxB {
		t.Errorf("sorted by self B, the first row has %v, want the largest, %v", c.diff.Rows[0].SelfB, maxB)
	}
}

// A profile compared with itself differs nowhere.
func TestCompareWithItselfShowsZeros(t *testing.T) {
	a := diffFixture(t, "trace-a.json.gz")
	h := openCompare(t, a, a)
	d := h.u.panel.compare.diff
	if len(d.Rows) == 0 || d.TotalA == 0 || d.TotalA != d.TotalB {
		t.Fatalf("%d rows, totals %v/%v", len(d.Rows), d.TotalA, d.TotalB)
	}
	for _, r := range d.Rows {
		if r.SelfDelta() != 0 || r.RunningDelta() != 0 {
			t.Errorf("%s: Δ self %v, Δ running %v", r.Key.Name, r.SelfDelta(), r.RunningDelta())
		}
	}
}

// A range selection limits A's side to what the call tree of that range holds.
func TestCompareFollowsRange(t *testing.T) {
	a, slow := diffFixture(t, "trace-a.json.gz"), diffFixture(t, "trace-slow.json.gz")
	h := openCompare(t, a, slow)
	full := h.u.panel.compare.diff
	lo, hi := h.u.doc.model.Bounds()
	h.u.emit(setRange{start: lo, end: lo + (hi-lo)/2})
	h.idle()
	d := h.u.panel.compare.diff
	tree := h.u.panel.tree.tree
	if d == full || tree == nil {
		t.Fatal("the comparison did not follow the range")
	}
	// The call tree counts the idle samples the comparison leaves out, so it is an upper bound.
	if d.TotalA <= 0 || d.TotalA >= full.TotalA || d.TotalA > tree.Total() {
		t.Errorf("A's total in the range %v: want above 0, below the whole %v and at most the range's call tree %v", d.TotalA, full.TotalA, tree.Total())
	}
	if d.TotalB <= 0 || d.TotalB >= full.TotalB {
		t.Errorf("B's total in the range %v, want above 0 and below the whole %v", d.TotalB, full.TotalB)
	}
}

// "Diff colours" colours A's frames by the change of their function: hashStrings, the largest
// change of the independent comparison, takes the deepest "slower" shade; off goes back.
func TestDiffColoursMarkSlowedFunction(t *testing.T) {
	a, slow := diffFixture(t, "trace-a.json.gz"), diffFixture(t, "trace-slow.json.gz")
	h := openCompare(t, a, slow)
	want := expectedDiff(t, a, slow)
	var largest calltree.DiffRow
	for _, r := range want.Rows {
		if absDuration(r.SelfDelta()) > absDuration(largest.SelfDelta()) {
			largest = r
		}
	}
	if largest.Key.Name != "hashStrings" || largest.SelfDelta() <= 0 {
		t.Fatalf("the fixture's largest change is %s by %v, want hashStrings slower", largest.Key.Name, largest.SelfDelta())
	}
	if h.u.chart.diffLevels != nil {
		t.Fatal("the chart is in diff colours before they were asked for")
	}
	h.u.emit(toggleDiffColours{})
	h.idle()
	tr := h.u.doc.trace
	levels := h.u.chart.diffLevels
	if len(levels) != len(tr.Frames) {
		t.Fatalf("%d diff levels for %d frames", len(levels), len(tr.Frames))
	}
	found := 0
	for i, f := range tr.Frames {
		if tr.Strings.Get(f.FunctionName) == largest.Key.Name && tr.Strings.Get(f.URL) == largest.Key.URL {
			found++
			if levels[i] != render.DiffLevels {
				t.Errorf("frame %d of hashStrings: level %d, want %d", i, levels[i], render.DiffLevels)
			}
		}
	}
	if found == 0 {
		t.Fatal("no frame of hashStrings in A")
	}
	h.u.emit(toggleDiffColours{})
	h.idle()
	if h.u.chart.diffLevels != nil {
		t.Error("turning diff colours off kept them")
	}
}

// A second file that cannot be loaded, or holds no CPU samples, leaves A open and says why in
// the Compare tab.
func TestCompareWithBrokenFileSaysWhy(t *testing.T) {
	a := diffFixture(t, "trace-a.json.gz")
	for _, c := range []struct{ content, says string }{
		{"this is not a profile", "Could not open broken.json"},
		{`{"traceEvents": []}`, "(B) has no CPU profile"},
	} {
		broken := filepath.Join(t.TempDir(), "broken.json")
		if err := os.WriteFile(broken, []byte(c.content), 0o644); err != nil {
			t.Fatal(err)
		}
		h := newHarnessWith(t, Options{Source: SourceFromPath(a), Load: pipeline.Open, Compare: SourceFromPath(broken)})
		if h.u.doc == nil {
			t.Fatal("A did not open")
		}
		p := &h.u.panel.compare
		if p.diff != nil || !strings.Contains(p.message, c.says) {
			t.Errorf("%q: table %v, message %q; want none and %q", c.content, p.diff, p.message, c.says)
		}
	}
}

// The toolbar's "Diff colours" button is there only with a comparison, and a click on it turns
// the colours on.
func TestDiffColoursButton(t *testing.T) {
	a, slow := diffFixture(t, "trace-a.json.gz"), diffFixture(t, "trace-slow.json.gz")
	// findButton moves the mouse along the toolbar until the button reports the hover.
	findButton := func(h *harness) (image.Point, bool) {
		for x := 4; x < h.size.X; x += 8 {
			p := image.Pt(x, toolbarHeight/2)
			h.move(p)
			if h.u.toolbar.diffColours.Hovered() {
				return p, true
			}
		}
		return image.Point{}, false
	}
	if _, ok := findButton(newHarness(t, SourceFromPath(a))); ok {
		t.Error("Diff colours is offered without a second profile")
	}
	h := openCompare(t, a, slow)
	p, ok := findButton(h)
	if !ok {
		t.Fatal("no Diff colours button in the toolbar")
	}
	h.click(p, 0)
	h.idle()
	if !h.u.panel.compare.colours || len(h.u.chart.diffLevels) != len(h.u.doc.trace.Frames) {
		t.Errorf("after the click: colours %v, %d levels for %d frames", h.u.panel.compare.colours,
			len(h.u.chart.diffLevels), len(h.u.doc.trace.Frames))
	}
}
