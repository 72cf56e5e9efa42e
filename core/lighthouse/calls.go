package lighthouse

import (
	"slices"

	"flamedesk/core"
)

// Calls are the JS calls of one profile made from its synthesized events: each node's B paired
// with its E, nested as the B/E order implies. Track holds them as ProfileCall entries in
// pre-order; the other columns run parallel to it and keep both boundaries with the windows they
// could lie in.
//
// The root, (program) and (idle) nodes make no calls, as in DevTools' trace view. A call is
// clamped into its parent (refinement narrows each boundary on its own, so a child can come out a
// hair outside its parent); Start and End keep the unclamped times.
type Calls struct {
	// Track has Kind EntryProfileCall throughout. Node is the node's index in the DevTools model
	// of the same thread (Trace.Profiles[Track.Profile]) or -1, and Ref is -1: these calls come
	// from Lighthouse's B/E events, not from single samples.
	Track core.Track
	// Begin and End index the call's B and E events in the Synthetic.
	Begin, End []int32
	// Start and Finish are the boundaries used (refined where refined), before clamping.
	Start, Finish []float64
	// StartEarliest..StartLatest is where the call could have started, FinishEarliest..
	// FinishLatest where it could have ended, as the samples alone tell (±Inf at the open ends).
	StartEarliest, StartLatest   []float64
	FinishEarliest, FinishLatest []float64
	// Refined tells whether Start and Finish are refined or naive.
	Refined bool
}

// Len is the number of calls.
func (c *Calls) Len() int { return len(c.Begin) }

// CallsOf pairs the events of r into calls, with refined times when refined is true and r has
// them, else with the naive times. tr is the trace r came from; it supplies the thread and the
// DevTools node indexes. It returns nil when r has no events.
func CallsOf(tr *core.Trace, r *Result, refined bool) *Calls {
	s := r.Events
	if s == nil {
		return nil
	}
	p := &r.Profile
	c := &Calls{Refined: refined && s.Refined != nil}
	c.Track.Thread = p.Thread
	c.Track.Profile = -1
	c.Track.Start = core.NewTimes(tr.MinTs, 0)
	c.Track.Dur = core.NewTimes(0, 0)
	var modelIndex map[int64]int32
	for i := range tr.Profiles {
		if m := &tr.Profiles[i]; m.Thread == p.Thread && p.Thread != noThread {
			c.Track.Profile = int32(i)
			modelIndex = make(map[int64]int32, len(m.NodeID))
			for n, id := range m.NodeID {
				modelIndex[id] = int32(n)
			}
			break
		}
	}
	skip := skippedNodes(tr, p)

	t := &c.Track
	var open []int32 // per open B: its call index, or -1 for a node that makes no call
	var callStack []int32
	for i := 0; i < s.Len(); i++ {
		ts := s.Naive(i)
		if c.Refined {
			ts = s.Refined[i]
		}
		node := s.Node[i]
		if s.Ph[i] == 'E' {
			if len(open) == 0 {
				continue
			}
			k := open[len(open)-1]
			open = open[:len(open)-1]
			if k < 0 {
				continue
			}
			callStack = callStack[:len(callStack)-1]
			c.End[k] = int32(i)
			c.Finish[k] = ts
			c.FinishEarliest[k], c.FinishLatest[k] = s.Earliest(i), s.Latest(i)
			t.Dur.Set(int(k), max(ts, t.StartAt(int(k)))-t.StartAt(int(k)))
			continue
		}
		if skip[node] {
			open = append(open, -1)
			continue
		}
		k := int32(c.Len())
		parent := int32(-1)
		start := ts
		if len(callStack) > 0 {
			parent = callStack[len(callStack)-1]
			start = max(start, t.StartAt(int(parent)))
		}
		open = append(open, k)
		callStack = append(callStack, k)
		c.Begin = append(c.Begin, int32(i))
		c.End = append(c.End, -1)
		c.Start = append(c.Start, ts)
		c.Finish = append(c.Finish, ts)
		c.StartEarliest = append(c.StartEarliest, s.Earliest(i))
		c.StartLatest = append(c.StartLatest, s.Latest(i))
		c.FinishEarliest = append(c.FinishEarliest, s.Earliest(i))
		c.FinishLatest = append(c.FinishLatest, s.Latest(i))

		modelNode := int32(-1)
		if n, ok := modelIndex[p.Nodes[node].ID]; ok {
			modelNode = n
		}
		t.Start.Append(start)
		t.Dur.Append(0)
		t.Depth = append(t.Depth, uint16(min(len(callStack)-1, 0xffff)))
		t.KindColumn = append(t.KindColumn, core.EntryProfileCall)
		t.Name = append(t.Name, p.Nodes[node].FunctionName)
		t.FrameColumn = append(t.FrameColumn, p.Nodes[node].Frame)
		t.Parent = append(t.Parent, parent)
		t.Ref = append(t.Ref, -1)
		t.Node = append(t.Node, modelNode)
		t.MaxDepth = max(t.MaxDepth, len(callStack)-1)
	}
	// Parents come before their children, so one pass clamps every end into its parent's.
	for k, parent := range t.Parent {
		if parent >= 0 {
			t.Dur.Set(k, max(0, min(t.StartAt(k)+t.DurAt(k), t.StartAt(int(parent))+t.DurAt(int(parent)))-t.StartAt(k)))
		}
	}
	return c
}

// skippedNodes marks the nodes that make no calls: roots, and (program) and (idle) under a root.
func skippedNodes(tr *core.Trace, p *Profile) []bool {
	skip := make([]bool, len(p.Nodes))
	isRoot := map[int64]bool{}
	for i, n := range p.Nodes {
		if !n.HasParent {
			skip[i] = true
			isRoot[n.ID] = true
		}
	}
	program, _ := tr.Strings.Lookup("(program)")
	idle, _ := tr.Strings.Lookup("(idle)")
	for i, n := range p.Nodes {
		if n.HasParent && isRoot[n.Parent] && n.FunctionName != 0 && (n.FunctionName == program || n.FunctionName == idle) {
			skip[i] = true
		}
	}
	return skip
}

// Merge returns a copy of base, a thread's track from core/integrate, with its ProfileCalls
// replaced by calls and the tree rebuilt: entries by start (longer first, trace events before
// calls on ties), each nested in the innermost open entry that it starts in. Trace events are
// exact and calls are estimates, so where the two cross, the call gives way: a call that would
// outlast its parent is cut at the parent's end, and calls that a trace event would outlast end
// where the event starts. Only a trace event that outlasts an enclosing trace event is left out
// (as in base), counted in NotInTree. In the result, Ref of a ProfileCall is its index in calls.
func Merge(base *core.Track, calls *Calls) core.Track {
	type entry struct {
		from  int32 // index in base for events, in calls.Track for calls
		call  bool
		start float64
		dur   float64
	}
	var all []entry
	for i := 0; i < base.Len(); i++ {
		if base.KindAt(i) == core.EntryEvent {
			all = append(all, entry{from: int32(i), start: base.StartAt(i), dur: base.DurAt(i)})
		}
	}
	ct := &calls.Track
	for i := 0; i < ct.Len(); i++ {
		all = append(all, entry{from: int32(i), call: true, start: ct.StartAt(i), dur: ct.DurAt(i)})
	}
	slices.SortStableFunc(all, func(a, b entry) int {
		switch {
		case a.start != b.start:
			return cmpFloat(a.start, b.start)
		case a.dur != b.dur:
			return cmpFloat(b.dur, a.dur)
		case a.call != b.call:
			if a.call {
				return 1
			}
			return -1
		}
		return 0
	})

	out := core.Track{Thread: base.Thread, Profile: base.Profile, Start: core.NewTimes(base.Start.Base, 0), Dur: core.NewTimes(0, 0)}
	if out.Profile < 0 {
		out.Profile = ct.Profile
	}
	var stack []int32 // indexes in out
	for _, e := range all {
		end := e.start + e.dur
		for len(stack) > 0 {
			top := stack[len(stack)-1]
			if e.start < out.StartAt(int(top))+out.DurAt(int(top)) {
				break
			}
			stack = stack[:len(stack)-1]
		}
		if !e.call {
			for len(stack) > 0 {
				top := stack[len(stack)-1]
				if out.KindAt(int(top)) != core.EntryProfileCall || end <= out.StartAt(int(top))+out.DurAt(int(top)) {
					break
				}
				out.Dur.Set(int(top), e.start-out.StartAt(int(top)))
				stack = stack[:len(stack)-1]
			}
		}
		parent := int32(-1)
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
			if limit := out.StartAt(int(parent)) + out.DurAt(int(parent)); end > limit {
				if !e.call {
					out.NotInTree++
					continue
				}
				e.dur = limit - e.start
			}
		}
		k := int32(out.Len())
		depth := len(stack)
		out.Start.Append(e.start)
		out.Dur.Append(e.dur)
		out.Depth = append(out.Depth, uint16(min(depth, 0xffff)))
		out.Parent = append(out.Parent, parent)
		if e.call {
			out.KindColumn = append(out.KindColumn, core.EntryProfileCall)
			out.Name = append(out.Name, ct.NameAt(int(e.from)))
			out.FrameColumn = append(out.FrameColumn, ct.FrameAt(int(e.from)))
			out.Ref = append(out.Ref, e.from)
			out.Node = append(out.Node, ct.NodeAt(int(e.from)))
		} else {
			out.KindColumn = append(out.KindColumn, core.EntryEvent)
			out.Name = append(out.Name, base.NameAt(int(e.from)))
			out.FrameColumn = append(out.FrameColumn, core.NoFrame)
			out.Ref = append(out.Ref, base.RefAt(int(e.from)))
			out.Node = append(out.Node, -1)
		}
		out.MaxDepth = max(out.MaxDepth, depth)
		stack = append(stack, k)
	}
	return out
}
