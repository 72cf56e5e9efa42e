package integrate

import (
	"fmt"
	"math"
	"testing"

	"flamedesk/core"
)

// builder assembles small core.Trace values by hand for the unit tests.
type builder struct {
	tr *core.Trace
}

func newBuilder() *builder {
	tr := &core.Trace{Strings: core.NewStrings()}
	tr.Threads = append(tr.Threads, core.Thread{Pid: 1, Tid: 1})
	return &builder{tr: tr}
}

func (b *builder) thread(pid, tid int64) core.ThreadID {
	b.tr.Threads = append(b.tr.Threads, core.Thread{Pid: pid, Tid: tid})
	return core.ThreadID(len(b.tr.Threads) - 1)
}

func (b *builder) frame(fn, url, script string, line, col int32) core.FrameID {
	s := b.tr.Strings
	b.tr.Frames = append(b.tr.Frames, core.CallFrame{
		FunctionName: s.Intern(fn), URL: s.Intern(url), ScriptID: s.Intern(script), Line: line, Column: col,
	})
	return core.FrameID(len(b.tr.Frames) - 1)
}

// event appends a trace event on thread th; dur NaN for none.
func (b *builder) event(th core.ThreadID, ph byte, name string, ts, dur float64) int {
	return b.eventCat(th, ph, name, "cat", ts, dur, 0)
}

func (b *builder) eventCat(th core.ThreadID, ph byte, name, cat string, ts, dur float64, traceID int64) int {
	e := &b.tr.Events
	e.Ph = append(e.Ph, ph)
	e.Name = append(e.Name, b.tr.Strings.Intern(name))
	e.Cat = append(e.Cat, b.tr.Strings.Intern(cat))
	e.Ts = append(e.Ts, ts)
	e.Dur = append(e.Dur, dur)
	e.Thread = append(e.Thread, th)
	if traceID != 0 {
		e.SampleTraceIDs = append(e.SampleTraceIDs, core.EventTraceID{Event: int32(e.Len() - 1), ID: traceID})
	}
	return e.Len() - 1
}

// profile starts a profile on thread th whose root is node 0 ("(root)").
type profBuilder struct {
	b *builder
	p *core.ProfileModel
}

func (b *builder) profile(th core.ThreadID) *profBuilder {
	b.tr.Profiles = append(b.tr.Profiles, core.ProfileModel{
		Thread: th, Pid: b.tr.Threads[th].Pid, Tid: b.tr.Threads[th].Tid,
		ProfileID: b.tr.Strings.Intern("0x1"),
		RootNode:  0, ProgramNode: -1, IdleNode: -1, GCNode: -1,
	})
	pb := &profBuilder{b: b, p: &b.tr.Profiles[len(b.tr.Profiles)-1]}
	pb.node(-1, b.frame("(root)", "", "0", -1, -1))
	return pb
}

// node adds a node under parent (an index) and returns its index.
func (pb *profBuilder) node(parent int32, f core.FrameID) int32 {
	p := pb.p
	depth := int32(-1)
	if parent >= 0 {
		depth = p.NodeDepth[parent] + 1
	}
	p.NodeID = append(p.NodeID, int64(len(p.NodeID)+1))
	p.NodeParent = append(p.NodeParent, parent)
	p.NodeDepth = append(p.NodeDepth, depth)
	p.NodeFrame = append(p.NodeFrame, f)
	return int32(len(p.NodeID) - 1)
}

// fn adds a node with a fresh frame named name.
func (pb *profBuilder) fn(parent int32, name string) int32 {
	return pb.node(parent, pb.b.frame(name, "https://x/"+name+".js", name, 1, 1))
}

// meta adds (program), (idle) or (garbage collector) under the root and records it.
func (pb *profBuilder) meta(name string) int32 {
	n := pb.node(0, pb.b.frame(name, "", "0", -1, -1))
	switch name {
	case "(program)":
		pb.p.ProgramNode = n
	case "(idle)":
		pb.p.IdleNode = n
	case "(garbage collector)":
		pb.p.GCNode = n
	}
	return n
}

// sample appends a sample of node n at ts µs (n -1 for a hole). Call done() after the last one.
func (pb *profBuilder) sample(n int32, ts float64) {
	pb.p.Samples = append(pb.p.Samples, n)
	pb.p.Timestamps = append(pb.p.Timestamps, ts)
}

// done appends the extrapolated end timestamp, as the CPU profile model does.
func (pb *profBuilder) done() {
	p := pb.p
	n := len(p.Samples)
	if n == 0 {
		p.Timestamps = append(p.Timestamps[:0], p.StartTime)
		return
	}
	first, last := p.Timestamps[0], p.Timestamps[n-1]
	end := last
	if n > 1 {
		end = last + (last-first)/float64(n-1)
	}
	p.Timestamps = append(p.Timestamps, end)
	p.StartTime, p.EndTime = first, end
}

// row is one track entry in a readable form for assertions.
type row struct {
	kind  core.EntryKind
	name  string
	ts    float64
	dur   float64
	depth int
}

func rows(tr *core.Trace, t *core.Track) []row {
	out := make([]row, t.Len())
	for i := range out {
		out[i] = row{t.KindAt(i), tr.Strings.Get(t.NameAt(i)), t.StartAt(i), t.DurAt(i), int(t.DepthAt(i))}
	}
	return out
}

func ev(name string, ts, dur float64, depth int) row {
	return row{core.EntryEvent, name, ts, dur, depth}
}

func pcall(name string, ts, dur float64, depth int) row {
	return row{core.EntryProfileCall, name, ts, dur, depth}
}

func trackOf(t *testing.T, tr *core.Trace, th core.ThreadID) *core.Track {
	t.Helper()
	for i := range tr.Tracks {
		if tr.Tracks[i].Thread == th {
			return &tr.Tracks[i]
		}
	}
	t.Fatalf("no track for thread %d", th)
	return nil
}

func wantRows(t *testing.T, tr *core.Trace, th core.ThreadID, want []row) {
	t.Helper()
	got := rows(tr, trackOf(t, tr, th))
	n := max(len(got), len(want))
	bad := false
	for i := 0; i < n; i++ {
		var g, w row
		gs, ws := "-", "-"
		if i < len(got) {
			g = got[i]
			gs = describe(g)
		}
		if i < len(want) {
			w = want[i]
			ws = describe(w)
		}
		if i >= len(got) || i >= len(want) || g.kind != w.kind || g.name != w.name || g.depth != w.depth ||
			math.Abs(g.ts-w.ts) > 1e-9 || math.Abs(g.dur-w.dur) > 1e-9 {
			t.Errorf("entry %d: got %s, want %s", i, gs, ws)
			bad = true
		}
	}
	if bad {
		for i, g := range got {
			t.Logf("  got[%d] %s", i, describe(g))
		}
	}
}

func describe(r row) string {
	k := "event"
	if r.kind == core.EntryProfileCall {
		k = "call"
	}
	return fmt.Sprintf("%s %q ts=%g dur=%g depth=%d", k, r.name, r.ts, r.dur, r.depth)
}
