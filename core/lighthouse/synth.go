package lighthouse

import (
	"fmt"
	"math"

	"flamedesk/core"
)

// Profile is one CPU profile as Lighthouse collects it from a trace (see Collect): the raw nodes,
// samples and time deltas of its Profile and ProfileChunk events, nothing repaired or sorted.
type Profile struct {
	ID         string
	Pid, Tid   int64
	Thread     core.ThreadID // the Profile event's thread
	StartTime  float64       // µs: args.data.startTime, or the event's ts when that is absent or 0
	Nodes      []Node
	Samples    []int64   // node ids
	TimeDeltas []float64 // µs, one per sample
}

// Node is a profile node as the trace wrote it. Lighthouse builds stacks from the parent field
// only: a node with children but no parent field is a root of its own.
type Node struct {
	ID           int64
	Parent       int64
	HasParent    bool
	FunctionName core.StrID
	URL          core.StrID
	HasURL       bool         // false when the callFrame had no url field
	Frame        core.FrameID // the interned call frame, NoFrame when unknown
}

// Synthetic holds the B/E events that Lighthouse synthesizes from a profile, one column per field.
// At every sample where the stack changes, an E for each node that left the stack (deepest first)
// is followed by a B for each node that joined it (outermost first). Root, (program) and (idle)
// nodes are included.
type Synthetic struct {
	Ph   []byte  // 'B' or 'E'
	Node []int32 // index into Profile.Nodes
	// Earliest and Latest bound when the boundary really happened: the previous sample's time and
	// this sample's time. The first events start at -Inf, the closing events after the last sample
	// end at +Inf.
	Earliest []float64
	Latest   []float64
	// Naive is the synthesized ts: Latest, or Earliest for the closing events.
	Naive []float64
	// Pair is the partner event (B of an E, E of a B) by nesting.
	//
	// Lighthouse pairs by name and timestamp instead, which differs for the closing events: they
	// share their ts with the B events of the last sample, so an outer B that opened earlier skips
	// too few closing E events. That cannot change a refined time, so plain nesting is kept: every
	// B that is open at the end gets a closing E, whose earliest time is the last sample's time,
	// whichever it is; and a closing E is bounded by the refined B events of the last sample (which
	// are no later than that time) before any task can bound it.
	Pair []int32
	// Refined is the ts after refinement against known tasks; nil when not refined.
	Refined []float64
}

// Len is the number of events.
func (s *Synthetic) Len() int { return len(s.Ph) }

// profileTree resolves node ids to node indexes the way Lighthouse's id map does: a repeated id
// means the last node with it.
type profileTree struct {
	index  map[int64]int32
	parent []int32 // -1 for a root
	depth  []int32
}

func buildTree(p *Profile) (*profileTree, error) {
	t := &profileTree{
		index:  make(map[int64]int32, len(p.Nodes)),
		parent: make([]int32, len(p.Nodes)),
		depth:  make([]int32, len(p.Nodes)),
	}
	for i := range p.Nodes {
		t.index[p.Nodes[i].ID] = int32(i)
	}
	for i := range p.Nodes {
		t.parent[i], t.depth[i] = -1, -1
		n := &p.Nodes[i]
		if t.index[n.ID] != int32(i) || !n.HasParent {
			continue
		}
		pi, ok := t.index[n.Parent]
		if !ok {
			return nil, fmt.Errorf("no such node %d", n.Parent)
		}
		t.parent[i] = pi
	}
	// Depths by walking up to a known depth; a walk that meets itself is a cycle, on which
	// Lighthouse recurses until the stack overflows.
	const visiting = -2
	var path []int32
	for i := range p.Nodes {
		path = path[:0]
		n := int32(i)
		for n >= 0 && t.depth[n] == -1 {
			t.depth[n] = visiting
			path = append(path, n)
			n = t.parent[n]
		}
		if n >= 0 && t.depth[n] == visiting {
			return nil, fmt.Errorf("node %d is its own ancestor", p.Nodes[n].ID)
		}
		d := int32(-1)
		if n >= 0 {
			d = t.depth[n]
		}
		for k := len(path) - 1; k >= 0; k-- {
			d++
			t.depth[path[k]] = d
		}
	}
	return t, nil
}

// Synthesize makes Lighthouse's naive B/E events of p. Sample times are the start time plus the
// running sum of the deltas, each delta raised to at least 1 µs. It fails where Lighthouse
// throws: a sample or parent id that names no node, or sample and delta counts that differ.
func Synthesize(p *Profile) (*Synthetic, error) {
	if len(p.Samples) != len(p.TimeDeltas) {
		return nil, fmt.Errorf("invalid CPU profile length: %d samples, %d time deltas", len(p.Samples), len(p.TimeDeltas))
	}
	tree, err := buildTree(p)
	if err != nil {
		return nil, err
	}
	s := &Synthetic{}
	var open []int32 // B event index of each node on the current stack, outermost first
	var joined []int32
	emit := func(ph byte, node int32, earliest, latest float64) int32 {
		ts := latest
		if math.IsInf(latest, 0) || math.IsNaN(latest) {
			ts = earliest
		}
		i := int32(len(s.Ph))
		s.Ph = append(s.Ph, ph)
		s.Node = append(s.Node, node)
		s.Earliest = append(s.Earliest, earliest)
		s.Latest = append(s.Latest, latest)
		s.Naive = append(s.Naive, ts)
		s.Pair = append(s.Pair, -1)
		return i
	}
	// transition emits the events that turn the stack ending in prev into the one ending in cur.
	transition := func(prev, cur int32, earliest, latest float64) {
		a, b := prev, cur
		for a >= 0 && (b < 0 || tree.depth[a] > tree.depth[b]) {
			a = tree.parent[a]
		}
		for b >= 0 && (a < 0 || tree.depth[b] > tree.depth[a]) {
			b = tree.parent[b]
		}
		for a != b {
			a, b = tree.parent[a], tree.parent[b]
		}
		common := a
		for n := prev; n != common; n = tree.parent[n] {
			e := emit('E', n, earliest, latest)
			bi := open[len(open)-1]
			open = open[:len(open)-1]
			s.Pair[e], s.Pair[bi] = bi, e
		}
		joined = joined[:0]
		for n := cur; n != common; n = tree.parent[n] {
			joined = append(joined, n)
		}
		for k := len(joined) - 1; k >= 0; k-- {
			open = append(open, emit('B', joined[k], earliest, latest))
		}
	}

	now := p.StartTime
	earliest := math.Inf(-1)
	prev := int32(-1)
	for i, id := range p.Samples {
		node, ok := tree.index[id]
		if !ok {
			return nil, fmt.Errorf("missing node %d", id)
		}
		now += math.Max(p.TimeDeltas[i], 1)
		transition(prev, node, earliest, now)
		earliest = now
		prev = node
	}
	if prev >= 0 {
		transition(prev, -1, now, math.Inf(1))
	}
	return s, nil
}
