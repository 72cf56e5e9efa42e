package load

import (
	"fmt"
	"math"

	"flamedesk/core"
)

// checkTrace verifies the invariants every loaded trace must hold, whatever the input: columns of
// equal length, indexes in range, profile trees that are trees, timestamps sorted with one
// extrapolated end. It returns the first violation.
func checkTrace(tr *core.Trace) error {
	e := &tr.Events
	n := e.Len()
	for name, l := range map[string]int{"Ph": len(e.Ph), "Name": len(e.Name), "Cat": len(e.Cat), "Dur": len(e.Dur),
		"Thread": len(e.Thread)} {
		if l != n {
			return fmt.Errorf("Events.%s has %d entries, Ts %d", name, l, n)
		}
	}
	for k, a := range e.Args {
		if a.Event < 0 || int(a.Event) >= n || (k > 0 && a.Event <= e.Args[k-1].Event) || a.Len == 0 || e.ArgsAt(a.Span) == nil {
			return fmt.Errorf("Events.Args[%d] = %+v: not an increasing event with args kept", k, a)
		}
	}
	for k, a := range e.Snapshots {
		if a.Event < 0 || int(a.Event) >= n || (k > 0 && a.Event <= e.Snapshots[k-1].Event) || a.Len == 0 || e.ArgsAt(a.Span) == nil {
			return fmt.Errorf("Events.Snapshots[%d] = %+v: not an increasing event with an image kept", k, a)
		}
		if name, ok := tr.Strings.Lookup("Screenshot"); !ok || e.Name[a.Event] != name {
			return fmt.Errorf("Events.Snapshots[%d]: event %d is not a Screenshot", k, a.Event)
		}
	}
	for k, t := range e.SampleTraceIDs {
		if t.Event < 0 || int(t.Event) >= n || (k > 0 && t.Event <= e.SampleTraceIDs[k-1].Event) || t.ID == 0 {
			return fmt.Errorf("Events.SampleTraceIDs[%d] = %+v: not an increasing event with an id", k, t)
		}
	}
	for i := range n {
		if int(e.Thread[i]) >= len(tr.Threads) {
			return fmt.Errorf("event %d: thread %d of %d", i, e.Thread[i], len(tr.Threads))
		}
		if int(e.Name[i]) >= tr.Strings.Len() || int(e.Cat[i]) >= tr.Strings.Len() {
			return fmt.Errorf("event %d: string id out of range", i)
		}
		if math.IsNaN(e.Ts[i]) || math.IsInf(e.Ts[i], 0) {
			return fmt.Errorf("event %d: ts %v", i, e.Ts[i])
		}
		switch e.Ph[i] {
		case 'B', 'E':
			if !math.IsNaN(e.Dur[i]) {
				return fmt.Errorf("event %d (%c): dur %v, want NaN", i, e.Ph[i], e.Dur[i])
			}
		case 'X':
			if math.IsNaN(e.Dur[i]) {
				return fmt.Errorf("event %d (X): dur NaN", i)
			}
		}
	}
	for k, id := range e.AsyncIDs {
		if int(id.Event) >= n || (k > 0 && id.Event <= e.AsyncIDs[k-1].Event) {
			return fmt.Errorf("AsyncIDs[%d]: event %d out of order or range (%d events)", k, id.Event, n)
		}
		if int(id.ID) >= tr.Strings.Len() {
			return fmt.Errorf("AsyncIDs[%d]: string id out of range", k)
		}
	}
	for i, th := range tr.Threads {
		for _, id := range []core.StrID{th.Name, th.ProcessName} {
			if int(id) >= tr.Strings.Len() {
				return fmt.Errorf("thread %d: string id out of range", i)
			}
		}
	}
	for i, f := range tr.Frames {
		for _, id := range []core.StrID{f.FunctionName, f.URL, f.ScriptID, f.CodeType} {
			if int(id) >= tr.Strings.Len() {
				return fmt.Errorf("frame %d: string id out of range", i)
			}
		}
	}
	if err := checkChunks(tr); err != nil {
		return err
	}
	seen := map[core.ThreadID]bool{}
	for pi := range tr.Profiles {
		m := &tr.Profiles[pi]
		if err := checkModel(tr, m); err != nil {
			return fmt.Errorf("profile %d (%s, pid %d tid %d): %w", pi, tr.Strings.Get(m.ProfileID), m.Pid, m.Tid, err)
		}
		if seen[m.Thread] {
			return fmt.Errorf("profile %d: a second profile for thread %d", pi, m.Thread)
		}
		seen[m.Thread] = true
	}
	if tr.MinTs > tr.MaxTs {
		return fmt.Errorf("bounds %v > %v", tr.MinTs, tr.MaxTs)
	}
	return nil
}

func checkChunks(tr *core.Trace) error {
	c := &tr.Chunks
	nodes := len(c.NodeID)
	for _, l := range []int{len(c.NodeParent), len(c.NodeFrame), len(c.NodeFlags)} {
		if l != nodes {
			return fmt.Errorf("chunk node columns of different lengths")
		}
	}
	for i := range c.Len() {
		if s := c.Nodes[i]; int(s.Off+s.Len) > nodes {
			return fmt.Errorf("chunk %d: node span out of range", i)
		}
		for _, sp := range []struct {
			s     core.Span
			arena int
		}{{c.Samples[i], c.SampleIDs.Len()}, {c.TimeDeltas[i], c.Deltas.Len()}, {c.ProfileTimeDeltas[i], c.Deltas.Len()},
			{c.Timestamps[i], len(c.Stamps)}, {c.Lines[i], len(c.Positions)}, {c.Columns[i], len(c.Positions)},
			{c.TraceIDs[i], len(c.TraceIDKey)}} {
			if int(sp.s.Off)+int(sp.s.Len) > sp.arena {
				return fmt.Errorf("chunk %d: span out of its arena", i)
			}
		}
	}
	if len(c.NodeChildren) > nodes || len(c.NodeTicks) > nodes {
		return fmt.Errorf("%d children spans and %d ticks spans for %d nodes", len(c.NodeChildren), len(c.NodeTicks), nodes)
	}
	for n := range nodes {
		if s := c.TicksOf(n); int(s.Off+s.Len) > len(c.Positions) {
			return fmt.Errorf("node %d: ticks span out of range", n)
		}
		if n < len(c.NodeChildren) && int(c.NodeChildren[n].Off+c.NodeChildren[n].Len) > len(c.Children) {
			return fmt.Errorf("node %d: children span out of range", n)
		}
		if int(c.NodeFrame[n]) >= len(tr.Frames) {
			return fmt.Errorf("node %d: frame out of range", n)
		}
	}
	if err := checkNarrow(&c.SampleIDs, core.NarrowInt); err != nil {
		return fmt.Errorf("sample ids: %w", err)
	}
	if err := checkNarrow(&c.Deltas, core.NarrowFloat); err != nil {
		return fmt.Errorf("deltas: %w", err)
	}
	return nil
}

// checkNarrow checks that exactly the escaped positions of n are listed, in order, each with its
// value, and that no value that fit (by fit) was left wide.
func checkNarrow[T int64 | float64](n *core.Narrow[T], fit func(T) (int32, bool)) error {
	if len(n.WideAt) != len(n.Wide) {
		return fmt.Errorf("%d wide positions for %d wide values", len(n.WideAt), len(n.Wide))
	}
	// Halved (core.Narrow.Halve), a value is wide when it does not fit Small or is outside the
	// 16 bits around HalfBias.
	escaped, fits := func(i int) bool { return n.Small[i] == core.NarrowEscape }, fit
	if n.Small == nil {
		escaped = func(i int) bool { return n.Half[i] == core.HalfEscape }
		fits = func(v T) (int32, bool) {
			s, ok := fit(v)
			d := int64(s) - n.HalfBias
			return s, ok && d > math.MinInt16 && d <= math.MaxInt16
		}
	}
	k := 0
	for i := range n.Len() {
		if !escaped(i) {
			continue
		}
		if k >= len(n.WideAt) || int(n.WideAt[k]) != i {
			return fmt.Errorf("position %d is escaped but not listed", i)
		}
		if _, ok := fits(n.Wide[k]); ok {
			return fmt.Errorf("position %d keeps %v wide", i, n.Wide[k])
		}
		k++
	}
	if k != len(n.WideAt) {
		return fmt.Errorf("%d wide positions listed, %d escaped", len(n.WideAt), k)
	}
	return nil
}

func checkModel(tr *core.Trace, m *core.ProfileModel) error {
	nn := len(m.NodeID)
	if nn == 0 || len(m.NodeParent) != nn || len(m.NodeDepth) != nn || len(m.NodeFrame) != nn {
		return fmt.Errorf("node columns: %d ids, %d parents, %d depths, %d frames", nn, len(m.NodeParent), len(m.NodeDepth), len(m.NodeFrame))
	}
	if m.RootNode != 0 || m.NodeParent[0] != -1 || m.NodeDepth[0] != -1 {
		return fmt.Errorf("root is not node 0 at depth -1")
	}
	for i := 1; i < nn; i++ {
		p := m.NodeParent[i]
		if p < 0 || int(p) >= i {
			return fmt.Errorf("node %d: parent %d is not an earlier node", i, p)
		}
		if m.NodeDepth[i] != m.NodeDepth[p]+1 {
			return fmt.Errorf("node %d: depth %d under a parent at %d", i, m.NodeDepth[i], m.NodeDepth[p])
		}
		if int(m.NodeFrame[i]) >= len(tr.Frames) {
			return fmt.Errorf("node %d: frame out of range", i)
		}
	}
	for _, meta := range []int32{m.ProgramNode, m.IdleNode, m.GCNode} {
		if meta != -1 && (meta <= 0 || int(meta) >= nn || m.NodeParent[meta] != 0) {
			return fmt.Errorf("meta node %d is not a child of the root", meta)
		}
	}
	if len(m.Timestamps) != len(m.Samples)+1 {
		return fmt.Errorf("%d samples, %d timestamps", len(m.Samples), len(m.Timestamps))
	}
	for i, s := range m.Samples {
		if s < -1 || int(s) >= nn {
			return fmt.Errorf("sample %d: node %d of %d", i, s, nn)
		}
		if m.Timestamps[i+1] < m.Timestamps[i] && i+1 < len(m.Samples) {
			return fmt.Errorf("timestamps not sorted at sample %d", i)
		}
	}
	for tid, node := range m.TraceIDNode {
		if node < -1 || int(node) >= nn {
			return fmt.Errorf("trace id %d: node %d of %d", tid, node, nn)
		}
	}
	if int(m.Thread) >= len(tr.Threads) || tr.Threads[m.Thread].Pid != m.Pid || tr.Threads[m.Thread].Tid != m.Tid {
		return fmt.Errorf("thread %d does not match pid %d tid %d", m.Thread, m.Pid, m.Tid)
	}
	return nil
}
