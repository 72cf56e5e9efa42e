// Tests of cutting a thread's walk into parts that are walked at once (splitWalk).
package integrate

import (
	"reflect"
	"testing"

	"flamedesk/core"
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
				parts += len(splitWalk(&cut.Events, es, &cut.Profiles[j.profile])) - 1
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
		if parts := splitWalk(&cut.Events, es, &cut.Profiles[0]); len(parts) != want {
			t.Fatalf("outer event %v: the walk is cut in %d parts, want %d", outer, len(parts), want)
		}
		if !reflect.DeepEqual(whole.Tracks, cut.Tracks) {
			t.Errorf("outer event %v: the tracks differ when the walk is cut:\nwhole %+v\ncut   %+v", outer, whole.Tracks, cut.Tracks)
		}
	}
}
