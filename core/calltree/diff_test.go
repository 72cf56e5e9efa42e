package calltree

import (
	"context"
	"math"
	"path/filepath"
	"testing"
	"time"

	"flamedesk/core"
	"flamedesk/core/align"
	"flamedesk/core/load"
)

// diffData is where the recorded comparison pairs live (testdata/diff/gen/gen.mjs made them).
const diffData = "../../testdata/diff"

func loadDiffFile(tb testing.TB, name string) *core.Trace {
	tb.Helper()
	tr, err := load.File(context.Background(), filepath.Join(diffData, name), nil)
	if err != nil {
		tb.Fatal(err)
	}
	return tr
}

func defaultFunctions(tb testing.TB, tr *core.Trace) *Functions {
	tb.Helper()
	p := DefaultProfile(tr)
	if p < 0 {
		tb.Fatal("no profile")
	}
	return NewFunctions(tr, &tr.Profiles[p])
}

func compareAll(tb testing.TB, a, b *core.Trace, opt CompareOptions, specs ...string) *Diff {
	tb.Helper()
	fa := defaultFunctions(tb, a)
	src, err := fa.Source(AllTime)
	if err != nil {
		tb.Fatal(err)
	}
	s := NewStack(src)
	for _, spec := range specs {
		s = pushSpec(tb, s, spec)
	}
	d, err := Compare(s, defaultFunctions(tb, b), AllTime, AllTime, opt)
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

// pushSpec is s with the command-line transform spec pushed (through withTransform, so that
// these tests follow the stack's API where the comparison does).
func pushSpec(tb testing.TB, s *Stack, spec string) *Stack {
	tb.Helper()
	ts, err := ParseSpec(spec, s)
	if err != nil {
		tb.Fatal(err)
	}
	for _, t := range ts {
		if s, err = withTransform(s, t); err != nil {
			tb.Fatal(err)
		}
	}
	return s
}

func findRow(d *Diff, name string) *DiffRow {
	for i := range d.Rows {
		if d.Rows[i].Key.Name == name && !d.Rows[i].Key.Resource {
			return &d.Rows[i]
		}
	}
	return nil
}

// checkDiffSums checks that each side's self times add up to its total exactly, and so that
// Σ selfB − Σ selfA = totalB − totalA.
func checkDiffSums(t *testing.T, d *Diff) {
	t.Helper()
	var selfA, selfB time.Duration
	for _, r := range d.Rows {
		selfA += r.SelfA
		selfB += r.SelfB
		if r.SelfA > r.RunningA || r.SelfB > r.RunningB {
			t.Errorf("%s: self above running: %+v", r.Key.Name, r)
		}
	}
	if selfA != d.TotalA || selfB != d.TotalB || selfB-selfA != d.TotalB-d.TotalA {
		t.Errorf("Σ self A %v, B %v; totals %v, %v", selfA, selfB, d.TotalA, d.TotalB)
	}
}

// The rows of two small profiles, worked out by hand: A's samples are A>B, A>B, A>C>B, A>A and
// B's are A>B, A>C>B, A>C>B, A>C, A>A>A, 1 ms each. Recursion counts once in running time.
func TestDiffKnownAnswer(t *testing.T) {
	a := profileFromText(t, `
		A A A A
		B B C A
		    B
	`)
	b := profileFromText(t, `
		A A A A A
		B C C C A
		  B B   A
	`)
	d := compareAll(t, a, b, CompareOptions{})
	type row struct {
		name                             string
		selfA, selfB, runningA, runningB int // ms
	}
	want := []row{
		{"C", 0, 1, 1, 3}, // the only self delta, +1 ms
		{"A", 1, 1, 4, 5}, // ties on the delta go by name
		{"B", 3, 3, 3, 3},
	}
	if len(d.Rows) != len(want) {
		t.Fatalf("%d rows, want %d: %+v", len(d.Rows), len(want), d.Rows)
	}
	msd := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	for i, w := range want {
		r := d.Rows[i]
		if r.Key.Name != w.name || r.SelfA != msd(w.selfA) || r.SelfB != msd(w.selfB) || r.RunningA != msd(w.runningA) || r.RunningB != msd(w.runningB) {
			t.Errorf("row %d = %s self %v→%v running %v→%v, want %+v", i, r.Key.Name, r.SelfA, r.SelfB, r.RunningA, r.RunningB, w)
		}
	}
	if d.TotalA != msd(4) || d.TotalB != msd(5) || d.SamplesA != 4 || d.SamplesB != 5 {
		t.Errorf("totals %v (%d) → %v (%d), want 4 ms (4) → 5 ms (5)", d.TotalA, d.SamplesA, d.TotalB, d.SamplesB)
	}
	if c := findRow(d, "C"); !math.IsInf(c.SelfDeltaPct(), 1) || c.RunningDeltaPct() != 200 {
		t.Errorf("C: self %% %v, running %% %v; want +Inf and 200", c.SelfDeltaPct(), c.RunningDeltaPct())
	}
	checkDiffSums(t, d)

	// Sorting by another column, ascending: A's running time, then the name.
	d.Sort(ByRunningA, false)
	if got := [3]string{d.Rows[0].Key.Name, d.Rows[1].Key.Name, d.Rows[2].Key.Name}; got != [3]string{"C", "B", "A"} {
		t.Errorf("by running A, ascending: %v, want C B A", got)
	}

	// The same transform on both sides: focusing on the path A/C keeps A's A>C>B (1 ms) and
	// B's A>C>B, A>C>B and A>C (3 ms), rooted at C.
	d = compareAll(t, a, b, CompareOptions{}, "focus-subtree:A/C")
	if d.TotalA != msd(1) || d.TotalB != msd(3) {
		t.Errorf("focused totals %v → %v, want 1 ms → 3 ms", d.TotalA, d.TotalB)
	}
	if c, bb := findRow(d, "C"), findRow(d, "B"); c == nil || bb == nil || c.RunningA != msd(1) || c.RunningB != msd(3) || c.SelfB != msd(1) || bb.SelfA != msd(1) || bb.SelfB != msd(2) {
		t.Errorf("focused rows: %+v", d.Rows)
	}
	if findRow(d, "A") != nil {
		t.Error("A is outside the focused subtree but has a row")
	}
	checkDiffSums(t, d)
}

// A transform naming a function only A has keeps nothing of B when it focuses on it, and changes
// nothing in B when it merges or drops it.
func TestDiffMirrorMissingFunction(t *testing.T) {
	a := profileFromText(t, `
		A A A
		X B B
	`)
	b := profileFromText(t, `
		A A
		B B
	`)
	d := compareAll(t, a, b, CompareOptions{}, "focus-function:X")
	if d.TotalA != time.Millisecond || d.TotalB != 0 || len(d.Rows) != 1 || d.Rows[0].Key.Name != "X" {
		t.Errorf("focus on X: totals %v → %v, rows %+v", d.TotalA, d.TotalB, d.Rows)
	}
	d = compareAll(t, a, b, CompareOptions{}, "drop-function:X")
	if d.TotalA != 2*time.Millisecond || d.TotalB != 2*time.Millisecond {
		t.Errorf("drop X: totals %v → %v, want 2 ms both", d.TotalA, d.TotalB)
	}
	for _, r := range d.Rows {
		if r.SelfDelta() != 0 || r.RunningDelta() != 0 {
			t.Errorf("drop X: %s differs: %+v", r.Key.Name, r)
		}
	}

	// MirrorStack does the same for a stack of its own.
	fa := defaultFunctions(t, a)
	srcA, _ := fa.Source(AllTime)
	s := NewStack(srcA)
	s = pushSpec(t, s, "merge-function:A")
	srcB, _ := defaultFunctions(t, b).Source(AllTime)
	mb, empty, err := MirrorStack(s, srcB)
	if err != nil || empty || mb.Len() != 1 {
		t.Fatalf("mirror of merge A: %v %v %d", err, empty, mb.Len())
	}
	if roots := mb.Tree(View{}).Roots(); len(roots) != 1 || mb.Functions().Name(mb.Tree(View{}).Func(roots[0])) != "B" {
		t.Errorf("B after merging A: roots %v", roots)
	}
	s = pushSpec(t, s, "focus-function:X")
	if _, empty, err := MirrorStack(s, srcB); err != nil || !empty {
		t.Errorf("mirror of focus X: empty %v, err %v", empty, err)
	}
}

// The recorded pairs: the function made eight times slower leads the comparison, and the sums
// hold exactly, without and with transforms.
func TestDiffSlowedFunctionLeads(t *testing.T) {
	for _, pair := range [][2]string{
		{"trace-a.json.gz", "trace-slow.json.gz"},
		{"node-a.cpuprofile.gz", "node-slow.cpuprofile.gz"},
		{"page-a.cpuprofile.gz", "trace-slow.json.gz"},
	} {
		t.Run(pair[0]+"-"+pair[1], func(t *testing.T) {
			a, b := loadDiffFile(t, pair[0]), loadDiffFile(t, pair[1])
			for _, specs := range [][]string{nil, {"merge-function:runWork"}, {"focus-function:runWork"}} {
				d := compareAll(t, a, b, CompareOptions{}, specs...)
				if len(d.Rows) == 0 || d.Rows[0].Key.Name != "hashStrings" {
					t.Fatalf("%v: the leading row is %+v, want hashStrings", specs, d.Rows[0])
				}
				if r := d.Rows[0]; r.FuncA == NoFunc || r.FuncB == NoFunc || r.SelfB < 2*r.SelfA {
					t.Errorf("%v: hashStrings %v → %v, want at least twice as long", specs, r.SelfA, r.SelfB)
				}
				checkDiffSums(t, d)
			}
		})
	}
}

// A profile against itself, loaded twice (so with function tables of their own), differs
// nowhere, whatever the transform, range or idle choice.
func TestDiffAgainstItself(t *testing.T) {
	for _, name := range []string{"trace-a.json.gz", "node-slow.cpuprofile.gz"} {
		a, b := loadDiffFile(t, name), loadDiffFile(t, name)
		for _, opt := range []CompareOptions{{}, {KeepIdle: true}} {
			for _, specs := range [][]string{nil, {"merge-function:runWork"}, {"focus-function:hashStrings"}} {
				d := compareAll(t, a, b, opt, specs...)
				if d.TotalA != d.TotalB || d.SamplesA != d.SamplesB || d.TotalA == 0 {
					t.Errorf("%s %v: totals %v → %v", name, specs, d.TotalA, d.TotalB)
				}
				for _, r := range d.Rows {
					if r.SelfDelta() != 0 || r.RunningDelta() != 0 || r.FuncA == NoFunc || r.FuncB == NoFunc {
						t.Errorf("%s %v: %s differs: %+v", name, specs, r.Key.Name, r)
					}
				}
				checkDiffSums(t, d)
			}
		}
	}
}

// A trace and a .cpuprofile of the same page compare by their JS functions: every step of the
// workload is matched on both sides.
func TestDiffTraceAgainstCPUProfile(t *testing.T) {
	d := compareAll(t, loadDiffFile(t, "trace-a.json.gz"), loadDiffFile(t, "page-a.cpuprofile.gz"), CompareOptions{})
	for _, name := range []string{"buildRecords", "sortRecords", "hashStrings", "sumColumns", "runWork"} {
		r := findRow(d, name)
		if r == nil || r.FuncA == NoFunc || r.FuncB == NoFunc || r.RunningA == 0 || r.RunningB == 0 {
			t.Errorf("%s not matched on both sides: %+v", name, r)
			continue
		}
		if r.Key.URL != "http://flamedesk.test/page.html" {
			t.Errorf("%s: url %q", name, r.Key.URL)
		}
	}
	checkDiffSums(t, d)
}

// thinned is the trace with its only profile keeping every other sample, each then lasting until
// the next kept one: the same run sampled at half the rate.
func thinned(tr *core.Trace) *core.Trace {
	out := *tr
	p := tr.Profiles[0]
	var samples []int32
	var ts []float64
	for i := 0; i < len(p.Samples); i += 2 {
		samples = append(samples, p.Samples[i])
		ts = append(ts, p.Timestamps[i])
	}
	p.Samples, p.Timestamps = samples, append(ts, p.Timestamps[len(p.Timestamps)-1])
	out.Profiles = []core.ProfileModel{p}
	return &out
}

// Profiles sampled at different intervals compare as time: the same run at half the sampling
// rate has half the samples but exactly the same total, and its heavy functions keep their time.
func TestDiffSampleIntervalsCompareAsTime(t *testing.T) {
	a := loadDiffFile(t, "node-a.cpuprofile.gz")
	for _, p := range a.Profiles[0].Samples {
		if p < 0 {
			t.Fatal("the fixture has holes; the exact total below assumes none")
		}
	}
	d := compareAll(t, a, thinned(a), CompareOptions{KeepIdle: true})
	if d.TotalA != d.TotalB {
		t.Errorf("totals %v and %v, want equal", d.TotalA, d.TotalB)
	}
	if n := (d.SamplesA + 1) / 2; d.SamplesB != n {
		t.Errorf("%d samples thinned to %d, want %d", d.SamplesA, d.SamplesB, n)
	}
	heavy := 0
	for _, r := range d.Rows {
		if r.SelfA < d.TotalA/10 {
			continue
		}
		heavy++
		if pct := r.SelfDeltaPct(); math.Abs(pct) > 25 {
			t.Errorf("%s: self %v at the full rate, %v at half (%+.1f%%)", r.Key.Name, r.SelfA, r.SelfB, pct)
		}
	}
	if heavy < 2 {
		t.Errorf("only %d functions above 10%% of the total", heavy)
	}
	checkDiffSums(t, d)
}

// Ranges on the aligned axis: the page calls runWork only between its work-start and work-end
// marks, so aligning on work-start, all of runWork's time is at or after 0 and none before, on
// both sides.
func TestDiffRangeOnAlignedAxis(t *testing.T) {
	a, b := loadDiffFile(t, "trace-a.json.gz"), loadDiffFile(t, "trace-slow.json.gz")
	full := compareAll(t, a, b, CompareOptions{})
	side := func(tr *core.Trace) align.Side { return align.Side{Trace: tr, Profile: DefaultProfile(tr)} }
	al, err := align.Align(side(a), side(b), align.Spec{Method: align.Mark, Name: "work-start"})
	if err != nil {
		t.Fatal(err)
	}
	fa := defaultFunctions(t, a)
	srcA, _ := fa.Source(AllTime)
	ranged := func(start, end float64) *Diff {
		s, e, bs, be := al.Range(start, end)
		d, err := Compare(NewStack(srcA), defaultFunctions(t, b), Range{s, e}, Range{bs, be}, CompareOptions{})
		if err != nil {
			t.Fatal(err)
		}
		checkDiffSums(t, d)
		return d
	}
	after, before := ranged(0, math.Inf(1)), ranged(math.Inf(-1), 0)
	fr, ar, br := findRow(full, "runWork"), findRow(after, "runWork"), findRow(before, "runWork")
	if fr == nil || ar == nil || ar.RunningA != fr.RunningA || ar.RunningB != fr.RunningB {
		t.Errorf("runWork after the mark: %+v, want all of %+v", ar, fr)
	}
	if br != nil {
		t.Errorf("runWork before the mark: %+v", br)
	}
	if before.TotalA == 0 || before.TotalB == 0 {
		t.Errorf("nothing before the mark (%v, %v): the page's loading should be there", before.TotalA, before.TotalB)
	}
	if after.Rows[0].Key.Name != "hashStrings" {
		t.Errorf("after the mark, %s leads", after.Rows[0].Key.Name)
	}
	if after.TotalA+before.TotalA != full.TotalA || after.TotalB+before.TotalB != full.TotalB {
		t.Errorf("the two halves add up to %v and %v, want %v and %v", after.TotalA+before.TotalA, after.TotalB+before.TotalB, full.TotalA, full.TotalB)
	}
}

func TestFuncKeyMatches(t *testing.T) {
	k := FuncKey{Name: "f", URL: "http://x.test:8080/a.js", Line: 9, Column: 3}
	for spec, want := range map[string]bool{
		"f": true, "g": false, "f@http://x.test:8080/a.js": true, "f@http://x.test:8080/a.js:10:4": true,
		"f@http://x.test:8080/a.js:10:5": false, "f@http://x.test:8080/b.js": false,
	} {
		if got := k.Matches(spec); got != want {
			t.Errorf("%q matches %v, want %v", spec, got, want)
		}
	}
	if !(FuncKey{Line: -1, Column: -1}).Matches("(anonymous)") {
		t.Error("(anonymous) does not match a function without a name")
	}
	if r := (FuncKey{URL: "u", Resource: true}); !r.Matches("u") || r.Matches("(anonymous)") {
		t.Error("a collapsed script is named by its URL")
	}
}
