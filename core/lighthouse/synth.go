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
// is followed by a B for each node that joined it (outermost first); after the last sample, E
// events close what is still open. Root, (program) and (idle) nodes are included.
//
// Events of one sample share their possible range, so ranges are kept per sample (Times) and each
// event names its sample (Step); see Earliest, Latest and Naive. B and E events pair up by nesting.
type Synthetic struct {
	Ph   []byte  // 'B' or 'E'
	Node []int32 // index into Profile.Nodes
	// Step is the sample at which the event was seen: k for sample k, len(Times) for the closing
	// events after the last sample.
	Step []int32
	// Times are the sample times, µs: the start time plus the running sum of the deltas, each
	// delta raised to at least 1 µs.
	Times []float64
	// Refined is each event's ts after refinement against known tasks; nil when not refined.
	Refined []float64
}

// Len is the number of events.
func (s *Synthetic) Len() int { return len(s.Ph) }

// Earliest is the earliest time event i can have happened: the previous sample's time, -Inf for
// the events of the first sample.
func (s *Synthetic) Earliest(i int) float64 {
	lo, _ := s.stepRange(s.Step[i])
	return lo
}

// Latest is the latest time event i can have happened: its sample's time, +Inf for the closing
// events.
func (s *Synthetic) Latest(i int) float64 {
	_, hi := s.stepRange(s.Step[i])
	return hi
}

// Naive is Lighthouse's unrefined ts of event i: Latest, or Earliest for the closing events.
func (s *Synthetic) Naive(i int) float64 { return naiveOf(s.stepRange(s.Step[i])) }

// Ts is the refined ts of event i when refined, else the naive one.
func (s *Synthetic) Ts(i int) float64 {
	if s.Refined != nil {
		return s.Refined[i]
	}
	return s.Naive(i)
}

// profileTree resolves node ids to node indexes the way Lighthouse's id map does: a repeated id
// means the last node with it.
type profileTree struct {
	dense  []int32 // node index by id when ids are small (-1 for none), else nil
	sparse map[int64]int32
	parent []int32 // -1 for a root
	depth  []int32
}

// lookup returns the index of the node with the given id.
func (t *profileTree) lookup(id int64) (int32, bool) {
	if t.dense != nil {
		if id < 0 || id >= int64(len(t.dense)) || t.dense[id] < 0 {
			return -1, false
		}
		return t.dense[id], true
	}
	i, ok := t.sparse[id]
	return i, ok
}

func buildTree(p *Profile) (*profileTree, error) {
	t := &profileTree{
		parent: make([]int32, len(p.Nodes)),
		depth:  make([]int32, len(p.Nodes)),
	}
	// V8 numbers nodes 1, 2, 3...: a slice indexed by id is much faster than a map.
	dense := true
	var maxID int64
	for i := range p.Nodes {
		id := p.Nodes[i].ID
		if id < 0 || id > 4*int64(len(p.Nodes))+64 {
			dense = false
			break
		}
		maxID = max(maxID, id)
	}
	if dense {
		t.dense = make([]int32, maxID+1)
		for i := range t.dense {
			t.dense[i] = -1
		}
		for i := range p.Nodes {
			t.dense[p.Nodes[i].ID] = int32(i)
		}
	} else {
		t.sparse = make(map[int64]int32, len(p.Nodes))
		for i := range p.Nodes {
			t.sparse[p.Nodes[i].ID] = int32(i)
		}
	}
	for i := range p.Nodes {
		t.parent[i], t.depth[i] = -1, -1
		n := &p.Nodes[i]
		if last, _ := t.lookup(n.ID); last != int32(i) || !n.HasParent {
			continue
		}
		pi, ok := t.lookup(n.Parent)
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

// maxEvents bounds the events of one profile (at 17 bytes each once refined), so that a hostile
// profile whose samples jump between the leaves of a very deep tree fails instead of exhausting
// memory. The 238 MB generated trace needs 9 million.
const maxEvents = 1 << 27

// Synthesize makes Lighthouse's naive B/E events of p. It fails where Lighthouse throws: a
// sample or parent id that names no node, or sample and delta counts that differ.
func Synthesize(p *Profile) (*Synthetic, error) {
	if len(p.Samples) != len(p.TimeDeltas) {
		return nil, fmt.Errorf("invalid CPU profile length: %d samples, %d time deltas", len(p.Samples), len(p.TimeDeltas))
	}
	tree, err := buildTree(p)
	if err != nil {
		return nil, err
	}
	nodes := make([]int32, len(p.Samples))
	for i, id := range p.Samples {
		n, ok := tree.lookup(id)
		if !ok {
			return nil, fmt.Errorf("missing node %d", id)
		}
		nodes[i] = n
	}

	// Deep stacks make tens of millions of events, so they are counted first and stored once.
	// The stacks' common part is kept for the second pass.
	nodes = append(nodes, -1) // the closing step
	commons := make([]int32, len(nodes))
	count, prev := 0, int32(-1)
	for step, n := range nodes {
		common := tree.common(prev, n)
		commons[step] = common
		count += int(tree.depthOf(prev)-tree.depthOf(common)) + int(tree.depthOf(n)-tree.depthOf(common))
		if count > maxEvents {
			return nil, fmt.Errorf("more than %d synthetic events", maxEvents)
		}
		prev = n
	}
	s := &Synthetic{
		Ph:    make([]byte, count),
		Node:  make([]int32, count),
		Step:  make([]int32, count),
		Times: make([]float64, len(p.Samples)),
	}
	now := p.StartTime
	for i := range p.Samples {
		now += math.Max(p.TimeDeltas[i], 1)
		s.Times[i] = now
	}

	at := 0
	prev = -1
	for step, n := range nodes {
		common := commons[step]
		for e := prev; e != common; e = tree.parent[e] {
			s.Ph[at], s.Node[at], s.Step[at] = 'E', e, int32(step)
			at++
		}
		// The B events go outermost first: walk up from n and fill their places from the back.
		joined := int(tree.depthOf(n) - tree.depthOf(common))
		k := at + joined - 1
		for j := n; j != common; j = tree.parent[j] {
			s.Ph[k], s.Node[k], s.Step[k] = 'B', j, int32(step)
			k--
		}
		at += joined
		prev = n
	}
	return s, nil
}

// depthOf is the depth of node n, -1 for no node.
func (t *profileTree) depthOf(n int32) int32 {
	if n < 0 {
		return -1
	}
	return t.depth[n]
}

// common returns the deepest node that is on both stacks ending in a and b, -1 when none.
func (t *profileTree) common(a, b int32) int32 {
	for t.depthOf(a) > t.depthOf(b) {
		a = t.parent[a]
	}
	for t.depthOf(b) > t.depthOf(a) {
		b = t.parent[b]
	}
	for a != b {
		a, b = t.parent[a], t.parent[b]
	}
	return a
}
