// Tests of cutting a thread's walk into parts that are walked at once (splitWalk).
package integrate

import (
	"context"
	"reflect"
	"testing"

	"flamedesk/core"
	"flamedesk/core/load"
	"flamedesk/internal/fixtures"
)

// TestSplitWalkBuildsTheSameTracks builds every track of real traces with their walks cut
// wherever they can be (from 64 entries and samples on) and whole, and wants the same columns.
func TestSplitWalkBuildsTheSameTracks(t *testing.T) {
	names := []string{
		"generated/gen-trace-small.json.gz",
		"upstream/devtools-recursive-blocking-js.json.gz",
		"upstream/devtools-web-dev.json.gz",
		"upstream/devtools-two-workers.json.gz",
	}
	defer func(n int) { splitJob = n }(splitJob)
	for _, name := range names {
		path := fixtures.Path(t, "fixtures", name)
		splitJob = 1 << 62
		whole := loadAndBuild(t, path)
		splitJob = 64
		cut := loadAndBuild(t, path)
		parts := 0
		for _, j := range traceJobs(cut) {
			if j.profile >= 0 {
				es := j.entries(cut)
				sortEntries(&cut.Events, es)
				parts += len(splitWalk(&cut.Events, es, &cut.Profiles[j.profile], false)) - 1
			}
		}
		if parts == 0 {
			t.Errorf("%s: no walk was cut: the test checks nothing there", name)
		}
		if len(whole.Tracks) != len(cut.Tracks) {
			t.Fatalf("%s: %d tracks whole, %d cut", name, len(whole.Tracks), len(cut.Tracks))
		}
		for i := range whole.Tracks {
			if !reflect.DeepEqual(whole.Tracks[i], cut.Tracks[i]) {
				t.Errorf("%s: track %d (thread %d) differs when its walk is cut", name, i, whole.Tracks[i].Thread)
			}
		}
	}
}

// TestSplitWalkCarriesThePreviousSample cuts a walk before a task whose first sample is a GC
// sample, which DevTools puts on top of the previous sample's stack: that sample is in the
// first part. Open JS frames with no event around them (a fake invocation) end at the cut.
func TestSplitWalkCarriesThePreviousSample(t *testing.T) {
	defer func(n int) { splitJob = n }(splitJob)
	build := func(cut int, outer bool) *core.Trace {
		splitJob = cut
		b := newBuilder()
		if outer {
			b.event(0, 'X', "Outer", 0, 1000)
		}
		b.event(0, 'X', "RunTask", 0, 100)
		b.event(0, 'X', "FunctionCall", 0, 100)
		b.event(0, 'X', "RunTask", 200, 100)
		b.event(0, 'X', "FunctionCall", 200, 100)
		b.event(0, 'X', "RunTask", 400, 100)
		pb := b.profile(0)
		a := pb.fn(0, "A")
		bb := pb.fn(a, "B")
		gc := pb.meta("(garbage collector)")
		pb.sample(bb, 10)
		pb.sample(a, 20)
		pb.sample(bb, 30)
		pb.sample(a, 40)
		pb.sample(a, 150) // outside every event: a fake invocation, open until the next task
		pb.sample(gc, 210)
		pb.sample(bb, 220)
		pb.sample(gc, 350)
		pb.sample(bb, 360)
		pb.done()
		Build(b.tr)
		return b.tr
	}
	for _, outer := range []bool{false, true} {
		whole, cut := build(1<<62, outer), build(1, outer)
		es := traceJobs(cut)[0].entries(cut)
		sortEntries(&cut.Events, es)
		// Under an event that spans them all, the tasks hold its frames over: no cut.
		want := 2
		if outer {
			want = 1
		}
		if parts := splitWalk(&cut.Events, es, &cut.Profiles[0], false); len(parts) != want {
			t.Fatalf("outer event %v: the walk is cut in %d parts, want %d", outer, len(parts), want)
		}
		if !reflect.DeepEqual(whole.Tracks, cut.Tracks) {
			t.Errorf("outer event %v: the tracks differ when the walk is cut:\nwhole %+v\ncut   %+v", outer, whole.Tracks, cut.Tracks)
		}
	}
}

// TestSplitTreeBuildsTheSameTracks builds every track of real traces with their trees cut in two
// halves built at once wherever they can be, and whole, and wants the same columns.
func TestSplitTreeBuildsTheSameTracks(t *testing.T) {
	names := []string{
		"generated/gen-trace-small.json.gz",
		"upstream/devtools-recursive-blocking-js.json.gz",
		"upstream/devtools-web-dev.json.gz",
		"upstream/devtools-two-workers.json.gz",
	}
	defer func(job, tree, spacing int) { splitJob, splitTree, cutSpacing = job, tree, spacing }(splitJob, splitTree, cutSpacing)
	// Whole walks, whose trees are cut at a task inside them, and walks cut in two parts, whose
	// trees are cut where the walk is.
	for _, walkJob := range []int{1 << 62, 64} {
		cuts := 0
		for _, name := range names {
			path := fixtures.Path(t, "fixtures", name)
			splitJob, splitTree, cutSpacing = walkJob, 1<<62, 1<<14
			whole := loadAndBuild(t, path)
			splitTree, cutSpacing = 64, 16
			cut := loadAndBuild(t, path)
			cuts += treeCuts(cut)
			if len(whole.Tracks) != len(cut.Tracks) {
				t.Fatalf("%s: %d tracks whole, %d cut", name, len(whole.Tracks), len(cut.Tracks))
			}
			for i := range whole.Tracks {
				if !reflect.DeepEqual(whole.Tracks[i], cut.Tracks[i]) {
					t.Errorf("%s (walks cut from %d): track %d (thread %d) differs when its tree is cut", name, walkJob, i, whole.Tracks[i].Thread)
				}
			}
		}
		if cuts == 0 {
			t.Errorf("walks cut from %d: no tree was cut: the test checks nothing there", walkJob)
		}
	}
}

// treeCuts counts the threads of tr whose tree treify cuts in two.
func treeCuts(tr *core.Trace) int {
	keys := frameKeys(tr)
	n := 0
	for _, j := range traceJobs(tr) {
		if j.profile < 0 {
			continue
		}
		es := j.entries(tr)
		sortEntries(&tr.Events, es)
		px := newProfileIndex(tr, &tr.Profiles[j.profile], keys)
		var parts []calls
		rows := len(es)
		for _, w := range splitWalk(&tr.Events, es, &tr.Profiles[j.profile], false) {
			parts = append(parts, integratePart(context.Background(), tr, w, px.clone(), nil, nil))
			rows += parts[len(parts)-1].len()
		}
		events := make([]int32, len(es))
		for k := range es {
			events[k] = es[k].ev
		}
		track := core.Track{Dur: core.NewTimes(0, rows), NodePlus1: core.NewPacked(rows, uint64(len(px.p.NodeID))), Refs: core.NewPacked(rows, uint64(rows))}
		if _, ok := chooseCut(&tr.Events, events, parts, &track, rows); ok {
			n++
		}
	}
	return n
}

// TestSplitTreeMovesRowsLeftOut cuts a tree whose first half leaves an event out (it ends after
// its parent): the second half, written from where it would start with nothing left out, moves
// down by a row, and its references into the event list with it.
func TestSplitTreeMovesRowsLeftOut(t *testing.T) {
	defer func(tree, spacing int) { splitTree, cutSpacing = tree, spacing }(splitTree, cutSpacing)
	build := func(tree int) *core.Trace {
		splitTree, cutSpacing = tree, 1
		b := newBuilder()
		for _, at := range []float64{0, 200, 400} {
			b.event(0, 'X', "RunTask", at, 100)
			b.event(0, 'X', "FunctionCall", at, 100)
			if at == 0 {
				b.event(0, 'X', "Parent", 10, 30)
				b.event(0, 'X', "Child", 20, 40) // ends after Parent: left out of the tree
			}
		}
		pb := b.profile(0)
		a := pb.fn(0, "A")
		bb := pb.fn(a, "B")
		for _, at := range []float64{0, 200, 400} {
			pb.sample(bb, at+5)
			pb.sample(a, at+50)
			pb.sample(bb, at+60)
			if at == 0 { // the first task as big as the other two: the cut goes after it
				for ts := 65.0; ts < 100; ts += 10 {
					pb.sample(a, ts)
					pb.sample(bb, ts+5)
				}
			}
		}
		pb.done()
		Build(b.tr)
		return b.tr
	}
	whole, cut := build(1<<62), build(1)
	if treeCuts(cut) == 0 || whole.Tracks[0].NotInTree == 0 {
		t.Fatalf("%d cuts, %d rows left out: the test checks nothing", treeCuts(cut), whole.Tracks[0].NotInTree)
	}
	if !reflect.DeepEqual(whole.Tracks, cut.Tracks) {
		t.Errorf("the tracks differ when the tree is cut:\nwhole %+v\ncut   %+v", whole.Tracks, cut.Tracks)
	}
}

// A window's build (one that lays its tracks out as they come: Progress.TrackBuilt) cuts the walk
// of a thread as big as bigJob too, and must build the tracks a whole walk builds.
func TestWindowCutsBigWalksToTheSameTracks(t *testing.T) {
	build := func() *core.Trace {
		b := newBuilder()
		pb := b.profile(0)
		a := pb.fn(0, "A")
		c := pb.fn(a, "C")
		gc := pb.meta("(garbage collector)")
		// Tasks of 100 µs every 200 µs, each calling into JS; 100 samples a task and 10 between.
		for task := range bigJob/100 + 10 {
			at := float64(task) * 200
			b.event(0, 'X', "RunTask", at, 100)
			b.event(0, 'X', "FunctionCall", at+1, 98)
			for k := range 100 {
				n := a
				switch {
				case k%7 == 3:
					n = c
				case k%31 == 5:
					n = gc
				}
				pb.sample(n, at+1+float64(k)*0.97)
			}
			for k := range 10 {
				pb.sample(a, at+105+float64(k)*9)
			}
		}
		pb.done()
		return b.tr
	}
	whole, cut := build(), build()
	j := traceJobs(cut)[0]
	es := j.entries(cut)
	sortEntries(&cut.Events, es)
	if n := len(es) + len(cut.Profiles[0].Samples); n < bigJob {
		t.Fatalf("the job has %d entries and samples, below bigJob: the test checks nothing", n)
	}
	if parts := len(splitWalk(&cut.Events, es, &cut.Profiles[0], false)); parts != 1 {
		t.Fatalf("a build that does not lay tracks out cut the big walk in %d parts", parts)
	}
	if parts := len(splitWalk(&cut.Events, es, &cut.Profiles[0], true)); parts != 2 {
		t.Fatalf("a window's build cut the big walk in %d parts, want 2", parts)
	}
	Build(whole)
	laidOut := 0
	p := &core.Progress{TrackBuilt: func(*core.Trace, *core.Track) { laidOut++ }}
	if err := BuildContext(context.Background(), cut, p); err != nil {
		t.Fatal(err)
	}
	if laidOut != len(cut.Tracks) || len(cut.Tracks) != len(whole.Tracks) {
		t.Fatalf("%d tracks handed over, %d built, want %d", laidOut, len(cut.Tracks), len(whole.Tracks))
	}
	if !reflect.DeepEqual(whole.Tracks, cut.Tracks) {
		t.Errorf("the tracks differ when the big walk is cut: %d and %d entries", whole.Tracks[0].Len(), cut.Tracks[0].Len())
	}
}

// The same on the corpus's large trace, whose main thread and worker are both above bigJob.
func TestWindowBuildOfTheLargeTraceIsAWholeBuild(t *testing.T) {
	path := fixtures.Path(t, "fixtures", "generated", "gen-trace-large.json.gz")
	whole := loadAndBuild(t, path)
	cut, err := load.File(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := &core.Progress{TrackBuilt: func(*core.Trace, *core.Track) {}}
	if err := BuildContext(context.Background(), cut, p); err != nil {
		t.Fatal(err)
	}
	big := 0
	for i := range cut.Tracks {
		if cut.Tracks[i].Len() >= bigJob {
			big++
		}
	}
	if big == 0 {
		t.Fatal("no track as big as bigJob: the test checks nothing")
	}
	if !reflect.DeepEqual(whole.Tracks, cut.Tracks) {
		t.Error("the window's build differs from a whole build")
	}
}
