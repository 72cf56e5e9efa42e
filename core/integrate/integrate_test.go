package integrate

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"flamedesk/core"
)

var nan = math.NaN()

// Samples under an invocation event become calls; frames shared with the previous sample are
// extended, the rest cut at the new sample; a (program) sample closes everything above the lock.
func TestSamplesUnderFunctionCall(t *testing.T) {
	b := newBuilder()
	b.event(0, 'X', "FunctionCall", 0, 100)
	pb := b.profile(0)
	a := pb.fn(0, "A")
	bb := pb.fn(a, "B")
	c := pb.fn(a, "C")
	prog := pb.meta("(program)")
	pb.sample(bb, 10)
	pb.sample(bb, 20)
	pb.sample(c, 30)
	pb.sample(prog, 40)
	pb.done()
	Build(b.tr)
	wantRows(t, b.tr, 0, []row{
		ev("FunctionCall", 0, 100, 0),
		pcall("A", 10, 30, 1),
		pcall("B", 10, 20, 2),
		pcall("C", 30, 10, 2),
	})
}

// Outside an invocation a sample on an empty stack starts a fake invocation; the next trace event
// ends it at its lock; instants without a trace id do not touch the stack but sit in the tree.
func TestFakeInvocationAndTasks(t *testing.T) {
	b := newBuilder()
	b.event(0, 'X', "RunTask", 0, 100)
	b.event(0, 'X', "Layout", 10, 10)
	b.event(0, 'I', "Mark", 50, nan)
	pb := b.profile(0)
	a := pb.fn(0, "A")
	bb := pb.fn(a, "B")
	pb.sample(a, 5)
	pb.sample(bb, 15)
	pb.sample(a, 25)
	pb.done()
	Build(b.tr)
	wantRows(t, b.tr, 0, []row{
		ev("RunTask", 0, 100, 0),
		pcall("A", 5, 5, 1),
		ev("Layout", 10, 10, 1),
		pcall("A", 15, 5, 2),
		pcall("B", 15, 5, 3),
		pcall("A", 25, 75, 1),
		ev("Mark", 50, 0, 2),
	})
}

// A sample under a non-JS event while JS frames are open is ignored; the frames below the event's
// lock survive it.
func TestSampleUnderNonInvocationIgnored(t *testing.T) {
	b := newBuilder()
	b.event(0, 'X', "FunctionCall", 0, 100)
	b.event(0, 'X', "Layout", 30, 10)
	pb := b.profile(0)
	a := pb.fn(0, "A")
	bb := pb.fn(a, "B")
	pb.sample(a, 10)
	pb.sample(bb, 35)
	pb.sample(a, 50)
	pb.done()
	Build(b.tr)
	wantRows(t, b.tr, 0, []row{
		ev("FunctionCall", 0, 100, 0),
		pcall("A", 10, 90, 1),
		ev("Layout", 30, 10, 2),
	})
}

// B/E pairing uses one stack over the whole file: interleaved pairs on two threads mismatch and
// keep a zero duration, as in DevTools; properly nested pairs get their length.
func TestBeginEndPairing(t *testing.T) {
	b := newBuilder()
	t2 := b.thread(1, 2)
	b.event(0, 'B', "X", 0, nan)
	b.event(t2, 'B', "Y", 5, nan)
	b.event(0, 'E', "X", 10, nan)
	b.event(t2, 'E', "Y", 20, nan)
	p := b.event(0, 'B', "P", 30, nan)
	q := b.event(0, 'B', "Q", 31, nan)
	b.event(0, 'E', "Q", 35, nan)
	b.event(0, 'E', "P", 40, nan)
	b.event(0, 'E', "P", 45, nan) // unbalanced: ignored
	Build(b.tr)
	wantRows(t, b.tr, 0, []row{
		ev("X", 0, 0, 0),
		ev("P", 30, 10, 0),
		ev("Q", 31, 4, 1),
	})
	wantRows(t, b.tr, t2, []row{ev("Y", 5, 0, 0)})
	if b.tr.Events.Dur[p] != 10 || b.tr.Events.Dur[q] != 4 {
		t.Errorf("paired durations not stored in Events.Dur: P %v, Q %v", b.tr.Events.Dur[p], b.tr.Events.Dur[q])
	}
}

// Frames equal on (scriptId, functionName, lineNumber) merge even from different nodes; native
// V8Runtime frames are removed; GC samples extend the previous stack and are never shown.
func TestFrameEqualityNativeAndGC(t *testing.T) {
	b := newBuilder()
	b.event(0, 'X', "FunctionCall", 0, 100)
	pb := b.profile(0)
	a := pb.node(0, b.frame("A", "https://x/a.js", "7", 3, 1))
	nat := pb.node(a, b.frame("Runtime_X", "native V8Runtime", "0", -1, -1))
	c := pb.fn(nat, "C")
	a2 := pb.node(0, b.frame("A", "https://x/other.js", "7", 3, 99))
	d := pb.fn(a2, "D")
	gc := pb.meta("(garbage collector)")
	prog := pb.meta("(program)")
	pb.sample(c, 10)
	pb.sample(gc, 20)
	pb.sample(d, 30)
	pb.sample(prog, 40)
	pb.done()
	Build(b.tr)
	wantRows(t, b.tr, 0, []row{
		ev("FunctionCall", 0, 100, 0),
		pcall("A", 10, 30, 1),
		pcall("C", 10, 20, 2),
		pcall("D", 30, 10, 2),
	})
	tk := trackOf(t, b.tr, 0)
	if u := b.tr.Strings.Get(b.tr.Frames[tk.FrameAt(1)].URL); u != "https://x/a.js" {
		t.Errorf("merged frame should keep the first node's url, got %q", u)
	}
}

// A trace event with a sampleTraceId merges the linked sample's stack at the event's start; those
// calls have no sample index.
func TestSampleTraceID(t *testing.T) {
	b := newBuilder()
	b.event(0, 'X', "FunctionCall", 0, 100)
	b.eventCat(0, 'X', "Layout", "cat", 50, 10, 7)
	pb := b.profile(0)
	a := pb.fn(0, "A")
	bb := pb.fn(a, "B")
	e := pb.fn(a, "E")
	pb.p.TraceIDNode = map[int64]int32{7: e}
	pb.sample(bb, 10)
	pb.sample(bb, 55)
	pb.sample(bb, 70)
	pb.done()
	Build(b.tr)
	wantRows(t, b.tr, 0, []row{
		ev("FunctionCall", 0, 100, 0),
		pcall("A", 10, 90, 1),
		pcall("B", 10, 40, 2),
		pcall("E", 50, 20, 2),
		ev("Layout", 50, 10, 3),
		pcall("B", 70, 30, 2),
	})
	tk := trackOf(t, b.tr, 0)
	if tk.RefAt(3) != -1 {
		t.Errorf("call from a trace id should have sample index -1, got %d", tk.RefAt(3))
	}
	if tk.RefAt(1) != 0 || tk.RefAt(5) != 2 {
		t.Errorf("sample indexes: got %d and %d, want 0 and 2", tk.RefAt(1), tk.RefAt(5))
	}
}

// An entry that starts inside its parent but ends after it is left out of the tree and counted.
func TestNotInTree(t *testing.T) {
	b := newBuilder()
	b.event(0, 'X', "P", 0, 50)
	b.event(0, 'X', "Q", 40, 20)
	b.event(0, 'X', "R", 45, 1)
	Build(b.tr)
	wantRows(t, b.tr, 0, []row{ev("P", 0, 50, 0), ev("R", 45, 1, 1)})
	tk := trackOf(t, b.tr, 0)
	if tk.NotInTree != 1 {
		t.Errorf("NotInTree = %d, want 1", tk.NotInTree)
	}
	if tk.SelfAt(0) != 49 || tk.ParentAt(1) != 0 {
		t.Errorf("self/parent wrong: self %v parent %v", tk.SelfAt(0), tk.ParentAt(1))
	}
}

// Entries sort by start, longer first, file order on ties.
func TestEntryOrder(t *testing.T) {
	b := newBuilder()
	b.event(0, 'X', "short", 10, 5)
	b.event(0, 'X', "long", 10, 20)
	b.event(0, 'X', "tieA", 40, 0)
	b.event(0, 'X', "tieB", 40, 0)
	b.event(0, 'X', "first", 0, 1)
	Build(b.tr)
	wantRows(t, b.tr, 0, []row{
		ev("first", 0, 1, 0),
		ev("long", 10, 20, 0),
		ev("short", 10, 5, 1),
		ev("tieA", 40, 0, 0),
		ev("tieB", 40, 0, 0),
	})
}

// A profiled thread without trace events still gets its calls (DevTools would show none).
func TestProfileWithoutEvents(t *testing.T) {
	b := newBuilder()
	pb := b.profile(0)
	a := pb.fn(0, "A")
	pb.sample(a, 10)
	pb.sample(a, 20)
	pb.sample(pb.meta("(idle)"), 30)
	pb.done()
	Build(b.tr)
	wantRows(t, b.tr, 0, []row{pcall("A", 10, 20, 0)})
}

// In CPU profile mode the calls come straight from the samples, with (program), (idle) and GC.
func TestCPUProfileMode(t *testing.T) {
	b := newBuilder()
	b.tr.Kind = core.InputCPUProfile
	pb := b.profile(0)
	a := pb.fn(0, "A")
	bb := pb.fn(a, "B")
	prog := pb.meta("(program)")
	idle := pb.meta("(idle)")
	gc := pb.meta("(garbage collector)")
	for i, n := range []int32{a, bb, bb, gc, a, prog, idle} {
		pb.sample(n, float64(i*10))
	}
	pb.done()
	Build(b.tr)
	wantRows(t, b.tr, 0, []row{
		pcall("A", 0, 50, 0),
		pcall("B", 10, 30, 1),
		pcall("(garbage collector)", 30, 10, 2),
		pcall("(program)", 50, 10, 0),
		pcall("(idle)", 60, 10, 0),
	})
}

// After a sample with an unknown node DevTools closes everything and skips all later samples: one
// bad id empties the chart. We close everything too (the hole is a gap) but go on with the valid
// samples after it.
func TestCPUProfileHole(t *testing.T) {
	b := newBuilder()
	b.tr.Kind = core.InputCPUProfile
	pb := b.profile(0)
	a := pb.fn(0, "A")
	pb.sample(a, 0)
	pb.sample(-1, 10)
	pb.sample(a, 20)
	pb.done()
	Build(b.tr)
	wantRows(t, b.tr, 0, []row{pcall("A", 0, 10, 0), pcall("A", 20, 10, 0)})
}

// BuildContext counts its work in the progress and stops on cancellation without tracks.
func TestBuildContextProgressAndCancel(t *testing.T) {
	b := newBuilder()
	b.event(0, 'X', "FunctionCall", 0, 100)
	pb := b.profile(0)
	a := pb.fn(0, "A")
	for i := 0; i < 10; i++ {
		pb.sample(a, float64(10+i))
	}
	pb.done()
	var p core.Progress
	if err := BuildContext(context.Background(), b.tr, &p); err != nil {
		t.Fatal(err)
	}
	if p.Total.Load() != 11 || p.Done.Load() != 11 || p.Stage() != "building tracks" || len(b.tr.Tracks) != 1 {
		t.Errorf("progress %d/%d %q, %d tracks", p.Done.Load(), p.Total.Load(), p.Stage(), len(b.tr.Tracks))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := BuildContext(ctx, b.tr, nil); err != context.Canceled || len(b.tr.Tracks) != 0 {
		t.Errorf("cancelled build: err %v, %d tracks", err, len(b.tr.Tracks))
	}
}

// Malformed models (parent cycles, depths that disagree with parents, samples and trace ids out
// of range, NaN times) must neither panic nor hang, in both modes.
func TestMalformedProfilesDoNotPanic(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for iter := 0; iter < 500; iter++ {
		tr := randomTrace(r)
		p := &tr.Profiles[0]
		n := int32(len(p.NodeID))
		for k := 0; k < 3; k++ {
			switch r.IntN(6) {
			case 0:
				p.NodeParent[r.Int32N(n)] = r.Int32N(n) // may make a cycle
			case 1:
				p.NodeDepth[r.Int32N(n)] = r.Int32N(5) - 1
			case 2:
				p.NodeParent[r.Int32N(n)] = n + 5
			case 3:
				if len(p.Samples) > 0 {
					p.Samples[r.IntN(len(p.Samples))] = n + 3
				}
			case 4:
				p.TraceIDNode[1] = n + 9
			case 5:
				if len(p.Timestamps) > 0 {
					p.Timestamps[r.IntN(len(p.Timestamps))] = math.NaN()
				}
			}
		}
		if iter%2 == 1 {
			tr.Kind = core.InputCPUProfile
		}
		Build(tr)
	}
}
