package lighthouse

import (
	"errors"
	"math"
	"testing"

	"flamedesk/core"
)

// Hand-built inputs for the rules the references exercise only in passing.

func taskEvents(strs *core.Strings, list ...any) []ThreadEvent {
	// list is (ph, name, ts, dur) quadruples; dur NaN for none.
	var out []ThreadEvent
	for i := 0; i < len(list); i += 4 {
		out = append(out, ThreadEvent{
			Ph:   list[i].(string)[0],
			Name: strs.Intern(list[i+1].(string)),
			Ts:   float64(list[i+2].(int)),
			Dur:  list[i+3].(float64),
		})
	}
	return out
}

var none = math.NaN()

func TestKnownTasksPairsByNameWithNesting(t *testing.T) {
	strs := core.NewStrings()
	// Two nested "A" B/E pairs around an X, in a file order that is not time order.
	events := taskEvents(strs,
		"E", "A", 900, none,
		"B", "A", 100, none,
		"B", "A", 200, none,
		"X", "Run", 300, 100.0,
		"E", "A", 800, none,
	)
	tasks, err := KnownTasks(events, 1000)
	if err != nil {
		t.Fatal(err)
	}
	want := [][2]float64{{100, 900}, {200, 800}, {300, 400}}
	if len(tasks) != len(want) {
		t.Fatalf("got %d tasks, want %d", len(tasks), len(want))
	}
	for i, w := range want {
		if tasks[i].Start != w[0] || tasks[i].End != w[1] {
			t.Errorf("task %d: %v..%v, want %v..%v", i, tasks[i].Start, tasks[i].End, w[0], w[1])
		}
	}
}

func TestKnownTasksCountsSameNamedXAsNested(t *testing.T) {
	strs := core.NewStrings()
	// Lighthouse counts any later start of the same name before an E as nested, X events too: the
	// X "A" claims the first E, so the B ends at the second.
	events := taskEvents(strs,
		"B", "A", 100, none,
		"X", "A", 150, 10.0,
		"E", "A", 200, none,
		"E", "A", 300, none,
	)
	_, err := KnownTasks(events, 1000)
	if !errors.Is(err, ErrUnmatchedEnd) {
		t.Fatalf("want the E at 200 left unmatched, got %v", err)
	}
}

func TestKnownTasksUnclosedBEndsAtTraceEndOrParent(t *testing.T) {
	strs := core.NewStrings()
	events := taskEvents(strs,
		"X", "RunTask", 100, 5000.0,
		"B", "Open", 200, none,
	)
	tasks, err := KnownTasks(events, 9000)
	if err != nil {
		t.Fatal(err)
	}
	// The open B would end at the trace end, 3.9 ms after its parent: it is cut to the parent.
	if len(tasks) != 2 || tasks[1].End != 5100 {
		t.Fatalf("got %+v, want the open task cut at 5100", tasks)
	}
	tasks, err = KnownTasks(events[1:], 9000)
	if err != nil || len(tasks) != 1 || tasks[0].End != 9000 {
		t.Fatalf("alone, the open task should end at the trace end: %+v %v", tasks, err)
	}
}

func TestKnownTasksOverruns(t *testing.T) {
	strs := core.NewStrings()
	// A child ending 0.5 ms after its parent stretches the parent and the grandparent.
	tasks, err := KnownTasks(taskEvents(strs,
		"X", "G", 0, 10000.0,
		"X", "P", 100, 9900.0,
		"X", "C", 5000, 5500.0,
	), 20000)
	if err != nil {
		t.Fatal(err)
	}
	for i, end := range []float64{10500, 10500, 10500} {
		if tasks[i].End != end {
			t.Errorf("task %d ends at %v, want %v", i, tasks[i].End, end)
		}
	}

	// A "child" starting less than 1 ms after a childless parent and outlasting it by more is
	// the real parent: the two swap and the real parent starts with the child, at 0. Lighthouse
	// then turns its ms back into µs from the first task's event ts, 500, so every task moves by
	// those 500 µs.
	tasks, err = KnownTasks(taskEvents(strs,
		"X", "Outer", 0, 5000.0,
		"X", "Inner", 500, 8000.0,
	), 20000)
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) != 2 || strs.Get(tasks[0].Name) != "Inner" || tasks[0].Start != 500 || tasks[0].End != 9000 ||
		tasks[1].Start != 500 || tasks[1].End != 5500 {
		t.Errorf("swap: got %+v", tasks)
	}

	// Otherwise an overrun of 1 ms or more makes the whole thread unusable.
	_, err = KnownTasks(taskEvents(strs,
		"X", "Outer", 0, 5000.0,
		"X", "Inner", 2000, 8000.0,
	), 20000)
	if !errors.Is(err, ErrChildAfterEnd) {
		t.Errorf("want ErrChildAfterEnd, got %v", err)
	}
	if _, err := KnownTasks(nil, 0); !errors.Is(err, ErrNoTasks) {
		t.Errorf("no events: want ErrNoTasks, got %v", err)
	}
}

func TestKnownTasksTiesAtOneTimestamp(t *testing.T) {
	strs := core.NewStrings()
	// At one ts, E events close before B/X events open, and longer starts come first: the short
	// X listed first in the file still ends up the child of the long B.
	events := taskEvents(strs,
		"B", "Prev", 0, none,
		"X", "Short", 100, 10.0,
		"B", "Long", 100, none,
		"E", "Prev", 100, none,
		"E", "Long", 500, none,
	)
	tasks, err := KnownTasks(events, 1000)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{}
	for _, task := range tasks {
		names = append(names, strs.Get(task.Name))
	}
	if len(names) != 3 || names[0] != "Prev" || names[1] != "Long" || names[2] != "Short" {
		t.Errorf("order %v, want Prev Long Short", names)
	}
}

// profile builds a profile from parent ids (0 = root), sample node ids and deltas.
func profile(strs *core.Strings, parents map[int64]int64, samples []int64, deltas []float64) *Profile {
	p := &Profile{ID: "0x1", StartTime: 1000, Samples: samples, TimeDeltas: deltas}
	for id := int64(1); id <= int64(len(parents)); id++ {
		n := Node{ID: id, Frame: core.NoFrame, FunctionName: strs.Intern(map[int64]string{1: "(root)"}[id])}
		if par := parents[id]; par != 0 {
			n.Parent, n.HasParent = par, true
		}
		p.Nodes = append(p.Nodes, n)
	}
	return p
}

func TestSynthesizeTransitions(t *testing.T) {
	strs := core.NewStrings()
	// root(1) > a(2) > b(3); root > c(4)
	p := profile(strs, map[int64]int64{1: 0, 2: 1, 3: 2, 4: 1}, []int64{3, 3, 4}, []float64{10, -5, 20})
	s, err := Synthesize(p)
	if err != nil {
		t.Fatal(err)
	}
	// Sample times: 1010, 1011 (a negative delta counts as 1), 1031.
	type ev struct {
		ph     byte
		id     int64
		lo, hi float64
	}
	inf := math.Inf(1)
	want := []ev{
		{'B', 1, -inf, 1010}, {'B', 2, -inf, 1010}, {'B', 3, -inf, 1010},
		{'E', 3, 1011, 1031}, {'E', 2, 1011, 1031}, {'B', 4, 1011, 1031},
		{'E', 4, 1031, inf}, {'E', 1, 1031, inf},
	}
	if s.Len() != len(want) {
		t.Fatalf("%d events, want %d", s.Len(), len(want))
	}
	for i, w := range want {
		got := ev{s.Ph[i], p.Nodes[s.Node[i]].ID, s.Earliest(i), s.Latest(i)}
		if got != w {
			t.Errorf("event %d: %+v, want %+v", i, got, w)
		}
	}
	if s.Naive(0) != 1010 || s.Naive(6) != 1031 {
		t.Errorf("naive ts: %v and %v, want 1010 and 1031", s.Naive(0), s.Naive(6))
	}
}

func TestSynthesizeFailsLikeLighthouse(t *testing.T) {
	strs := core.NewStrings()
	if _, err := Synthesize(profile(strs, map[int64]int64{1: 0, 2: 1}, []int64{2, 7}, []float64{1, 1})); err == nil {
		t.Error("a sample naming no node should fail")
	}
	if _, err := Synthesize(profile(strs, map[int64]int64{1: 0, 2: 9}, []int64{1}, []float64{1})); err == nil {
		t.Error("a dangling parent should fail, even on a node never sampled")
	}
	if _, err := Synthesize(profile(strs, map[int64]int64{1: 3, 2: 1, 3: 2}, []int64{1}, []float64{1})); err == nil {
		t.Error("a parent cycle should fail")
	}
	if _, err := Synthesize(profile(strs, map[int64]int64{1: 0}, []int64{1, 1}, []float64{1})); err == nil {
		t.Error("sample and delta counts that differ should fail")
	}
	s, err := Synthesize(profile(strs, map[int64]int64{1: 0}, nil, nil))
	if err != nil || s.Len() != 0 {
		t.Errorf("an empty profile has no events: %v %v", s, err)
	}
}

// refineOne refines a profile root(1) > f(2) sampled at 100, 200, 300, 400 as given, against
// tasks, and returns f's refined start and end.
func refineOne(t *testing.T, samples []int64, tasks ...[2]float64) (start, end float64) {
	t.Helper()
	strs := core.NewStrings()
	p := profile(strs, map[int64]int64{1: 0, 2: 1}, samples, []float64{100, 100, 100, 100}[:len(samples)])
	p.StartTime = 0
	s, err := Synthesize(p)
	if err != nil {
		t.Fatal(err)
	}
	var known []Task
	for _, k := range tasks {
		known = append(known, Task{Start: k[0], End: k[1]})
	}
	Refine(s, known)
	start, end = math.NaN(), math.NaN()
	for i := 0; i < s.Len(); i++ {
		if p.Nodes[s.Node[i]].ID == 2 {
			if s.Ph[i] == 'B' {
				start = s.Refined[i]
			} else {
				end = s.Refined[i]
			}
		}
	}
	return start, end
}

func TestRefineRules(t *testing.T) {
	// f is seen at 200 and 300: it began in [100, 200] and ended in [300, 400].
	samples := []int64{1, 2, 2, 1}
	check := func(name string, wantStart, wantEnd float64, tasks ...[2]float64) {
		t.Helper()
		start, end := refineOne(t, samples, tasks...)
		if start != wantStart || end != wantEnd {
			t.Errorf("%s: f refined to %v..%v, want %v..%v", name, start, end, wantStart, wantEnd)
		}
	}
	check("no tasks: earliest start, latest end", 100, 400)
	check("a task crossing both windows is a parent", 150, 350, [2]float64{150, 350})
	check("a task wholly inside a window says nothing", 100, 400, [2]float64{120, 180}, [2]float64{310, 390})
	check("an earlier task ending in the start window comes before", 130, 400, [2]float64{50, 130})
	check("a later task starting in the end window comes after", 100, 340, [2]float64{340, 500})
	// A task that starts in f's start window but ends before f's end window can be is inside f:
	// f starts no later than it, which leaves the earliest start; likewise at the end.
	check("children leave the outer edges", 100, 400, [2]float64{180, 250}, [2]float64{250, 320})
	// With a parent too, the start is the parent's.
	check("parent and child", 110, 400, [2]float64{110, 450}, [2]float64{180, 250})
}

func TestRefineSameSampleOrder(t *testing.T) {
	// root(1) > g(3) at 100, root > f(2) at 200: g's E and f's B share the window [100, 200].
	strs := core.NewStrings()
	p := profile(strs, map[int64]int64{1: 0, 2: 1, 3: 1}, []int64{3, 2}, []float64{100, 100})
	p.StartTime = 0
	s, err := Synthesize(p)
	if err != nil {
		t.Fatal(err)
	}
	bounds := func(tasks ...Task) (gStart, gEnd, fStart float64) {
		Refine(s, tasks)
		for i := 0; i < s.Len(); i++ {
			switch id := p.Nodes[s.Node[i]].ID; {
			case id == 3 && s.Ph[i] == 'B':
				gStart = s.Refined[i]
			case id == 3:
				gEnd = s.Refined[i]
			case id == 2 && s.Ph[i] == 'B':
				fStart = s.Refined[i]
			}
		}
		return
	}
	// Without tasks g ends as late as it can, at 200, and f, which takes the earliest time left,
	// may not start before g's refined end: 200 too, not 100.
	if _, gEnd, fStart := bounds(); gEnd != 200 || fStart != 200 {
		t.Errorf("no tasks: g ends %v and f starts %v, want 200 and 200", gEnd, fStart)
	}
	// A task from 50 to 170 is g's parent at both ends, and ends before f.
	if gStart, gEnd, fStart := bounds(Task{Start: 50, End: 170}); gStart != 50 || gEnd != 170 || fStart != 170 {
		t.Errorf("task 50..170: g %v..%v, f from %v; want 50..170 and 170", gStart, gEnd, fStart)
	}
}

func TestCallsPairAndNest(t *testing.T) {
	strs := core.NewStrings()
	tr := &core.Trace{Strings: strs}
	// root(1) > (program)(2); root > a(3) > b(4)
	p := profile(strs, map[int64]int64{1: 0, 2: 1, 3: 1, 4: 3}, []int64{2, 3, 4, 4, 2}, []float64{10, 10, 10, 10, 10})
	p.Nodes[1].FunctionName = strs.Intern("(program)")
	p.Nodes[2].FunctionName = strs.Intern("a")
	p.Nodes[3].FunctionName = strs.Intern("b")
	p.StartTime = 0
	s, err := Synthesize(p)
	if err != nil {
		t.Fatal(err)
	}
	// Samples at 10 (program), 20 (a), 30 (a>b), 40 (a>b), 50 (program).
	Refine(s, []Task{{Start: 12, End: 46}})
	r := &Result{Profile: *p, Events: s}
	c := CallsOf(tr, r, true)
	if c.Len() != 2 {
		t.Fatalf("%d calls, want a and b (no root, no (program))", c.Len())
	}
	tk := &c.Track
	if strs.Get(tk.NameAt(0)) != "a" || strs.Get(tk.NameAt(1)) != "b" || tk.ParentAt(1) != 0 || tk.DepthAt(0) != 0 || tk.DepthAt(1) != 1 {
		t.Errorf("calls: names %q %q, parent %d, depths %d %d", strs.Get(tk.NameAt(0)), strs.Get(tk.NameAt(1)), tk.ParentAt(1), tk.DepthAt(0), tk.DepthAt(1))
	}
	// a began in [10, 20] inside the task that starts at 12, and ended in [40, 50] where the task
	// ends at 46.
	if tk.StartAt(0) != 12 || tk.StartAt(0)+tk.DurAt(0) != 46 {
		t.Errorf("a: %v..%v, want 12..46", tk.StartAt(0), tk.StartAt(0)+tk.DurAt(0))
	}
	if c.StartEarliest[0] != 10 || c.StartLatest[0] != 20 || c.FinishEarliest[0] != 40 || c.FinishLatest[0] != 50 {
		t.Errorf("a's windows: %v..%v and %v..%v", c.StartEarliest[0], c.StartLatest[0], c.FinishEarliest[0], c.FinishLatest[0])
	}
	if tk.SelfAt(0) != tk.DurAt(0)-tk.DurAt(1) {
		t.Errorf("self time %v, want %v", tk.SelfAt(0), tk.DurAt(0)-tk.DurAt(1))
	}
	naive := CallsOf(tr, r, false)
	if naive.Refined || naive.Track.StartAt(0) != 20 || naive.Track.DurAt(0) != 30 {
		t.Errorf("naive a: %v +%v, want 20 +30", naive.Track.StartAt(0), naive.Track.DurAt(0))
	}

	// Merged into a thread track with the task as an event, the calls nest inside it.
	base := core.Track{Profile: -1}
	for _, e := range []struct {
		kind       core.EntryKind
		start, dur float64
	}{{core.EntryEvent, 12, 34}, {core.EntryProfileCall, 20, 30}} {
		base.Start.Append(e.start)
		base.Dur.Append(e.dur)
		base.KindColumn = append(base.KindColumn, e.kind)
		base.Name = append(base.Name, strs.Intern("RunTask"))
		base.FrameColumn = append(base.FrameColumn, core.NoFrame)
		base.Ref = append(base.Ref, 7)
		base.Node = append(base.Node, -1)
		base.Depth = append(base.Depth, 0)
		base.Parent = append(base.Parent, -1)
	}
	m := Merge(&base, c)
	if m.Len() != 3 || m.KindAt(0) != core.EntryEvent || m.RefAt(0) != 7 || m.KindAt(1) != core.EntryProfileCall || m.ParentAt(1) != 0 || m.ParentAt(2) != 1 || m.DepthAt(2) != 2 {
		t.Errorf("merged: kinds %v parents %v depths %v", m.KindColumn, m.Parent, m.Depth)
	}
	if m.RefAt(1) != 0 || m.RefAt(2) != 1 {
		t.Errorf("merged calls should refer to their index in Calls: %v", m.Ref)
	}
}

func TestHostileInputsEndInErrors(t *testing.T) {
	strs := core.NewStrings()
	// 20000 nested B events of one name, closed in order: Lighthouse's matching is quadratic in
	// that nesting; we give up on the thread instead of hanging.
	const n = 20000
	var events []ThreadEvent
	name := strs.Intern("A")
	for i := 0; i < n; i++ {
		events = append(events, ThreadEvent{Ph: 'B', Name: name, Ts: float64(i), Dur: none})
	}
	for i := 0; i < n; i++ {
		events = append(events, ThreadEvent{Ph: 'E', Name: name, Ts: float64(n + i), Dur: none})
	}
	if _, err := KnownTasks(events, 3*n); !errors.Is(err, ErrTooNested) {
		t.Errorf("deep same-name nesting: want ErrTooNested, got %v", err)
	}

	// Samples alternating between the leaves of two 20000-deep chains would need 400 million
	// events per 10000 samples.
	parents := map[int64]int64{1: 0}
	for id := int64(2); id <= 2*n+1; id++ {
		switch {
		case id == 2 || id == 3:
			parents[id] = 1
		default:
			parents[id] = id - 2
		}
	}
	var samples []int64
	var deltas []float64
	for i := 0; i < 10000; i++ {
		samples = append(samples, int64(2*n+i%2))
		deltas = append(deltas, 1)
	}
	if _, err := Synthesize(profile(strs, parents, samples, deltas)); err == nil {
		t.Error("a profile needing more than maxEvents events should fail")
	}
}
