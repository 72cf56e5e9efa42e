package calltree

import (
	"errors"
	"math"
	"time"

	"flamedesk/core"
)

// Range limits a call tree to the samples taken in [Start, End), in µs on the trace's clock.
type Range struct{ Start, End float64 }

// AllTime is the range that keeps every sample.
var AllTime = Range{math.Inf(-1), math.Inf(1)}

// Contains reports whether a sample taken at ts belongs to the range.
func (r Range) Contains(ts float64) bool { return ts >= r.Start && ts < r.End }

// Source is the untransformed call tree of one profile over one time range: every sample in the
// range weighted by the time to the next sample (the last one up to the profile's extrapolated
// end), summed into the call node of its stack.
//
// Times are kept in integer nanoseconds, computed as differences of rounded timestamps, so that
// sums are exact and the self times of a tree add up to its total without rounding drift.
type Source struct {
	funcs *Functions
	rng   Range
	base  *table
	// nodeBase is the base call node of each profile node's samples, -1 for a node without one.
	// A sample's base call node follows from its node and whether the range holds it
	// (baseOf): a column of them would cost 4 bytes a sample, 75 MB for a profile of 19 M
	// samples, again for each range's source.
	nodeBase []int32

	samples     int
	total       time.Duration
	holes       int
	holeTime    time.Duration
	first, last float64 // µs of the first and the end of the last sample in the range
}

// ErrNoSamples is returned for a profile that has no sample at all.
var ErrNoSamples = errors.New("the profile has no samples")

// NewSource builds the call tree of profile p of trace tr over range r.
func NewSource(tr *core.Trace, p *core.ProfileModel, r Range) (*Source, error) {
	return NewFunctions(tr, p).Source(r)
}

// Source builds the call tree of this table's profile over range r. Sources of different ranges
// share the functions, so a transform stack can be re-applied to another range.
func (f *Functions) Source(r Range) (*Source, error) {
	p := f.profile
	if len(p.Samples) == 0 {
		return nil, ErrNoSamples
	}
	if len(p.Timestamps) != len(p.Samples)+1 {
		return nil, errors.New("the profile's timestamps do not match its samples")
	}
	order, ok := topoOrder(p)
	if !ok {
		return nil, errors.New("the profile's node tree has no root")
	}

	// Map every profile node to a call node, merging the frames of one function.
	b := newBuilder(len(order))
	nodeCall := make([]int32, len(p.NodeParent))
	for i := range nodeCall {
		nodeCall[i] = -1
	}
	root := p.RootNode
	for _, node := range order {
		if node == root {
			continue
		}
		prefix := int32(-1)
		if parent := p.NodeParent[node]; parent >= 0 && parent != root {
			prefix = nodeCall[parent]
		}
		nodeCall[node] = b.node(prefix, f.nodeFunc[node])
	}

	s := &Source{funcs: f, rng: r, first: math.Inf(1), last: math.Inf(-1)}
	self, count := b.t.self, b.t.count
	prevNs := toNs(p.Timestamps[0])
	for i, node := range p.Samples {
		nextNs := toNs(p.Timestamps[i+1])
		weight := nextNs - prevNs
		prevNs = nextNs
		ts := p.Timestamps[i]
		if !r.Contains(ts) {
			continue
		}
		call := int32(-1)
		if node >= 0 && int(node) < len(nodeCall) {
			if node == root && nodeCall[node] < 0 {
				// A sample that hit the root itself is rare but real time; it gets a root call
				// node of its own rather than being lost.
				nodeCall[node] = b.node(-1, f.nodeFunc[node])
				self, count = b.t.self, b.t.count
			}
			call = nodeCall[node]
		}
		if call < 0 {
			s.holes++
			s.holeTime += time.Duration(weight)
			continue
		}
		self[call] += weight
		count[call]++
		s.samples++
		s.total += time.Duration(weight)
		s.first = min(s.first, ts)
		s.last = max(s.last, p.Timestamps[i+1])
	}
	base, remap := compact(&b.t)
	for node, call := range nodeCall {
		if call >= 0 {
			nodeCall[node] = remap[call]
		}
	}
	s.base, s.nodeBase = base, nodeCall
	return s, nil
}

// baseOf is the base call node of sample i of the profile, -1 for a sample outside the range or
// without a known node.
func (s *Source) baseOf(i int) int32 {
	p := s.funcs.profile
	if i < 0 || i >= len(p.Samples) || !s.rng.Contains(p.Timestamps[i]) {
		return -1
	}
	node := p.Samples[i]
	if node < 0 || int(node) >= len(s.nodeBase) {
		return -1
	}
	return s.nodeBase[node]
}

// toNs converts µs to integer ns; timestamps of real traces stay far below 2^53 ns.
func toNs(us float64) int64 { return int64(math.Round(us * 1000)) }

// topoOrder lists the profile's nodes reachable from its root with every parent before its
// children. Loaders usually give parent < child already; when not, the tree is walked.
func topoOrder(p *core.ProfileModel) ([]int32, bool) {
	n := len(p.NodeParent)
	if p.RootNode < 0 || int(p.RootNode) >= n || len(p.NodeFrame) != n {
		return nil, false
	}
	sorted := true
	for i, parent := range p.NodeParent {
		if int(parent) >= i || (parent < 0 && int32(i) != p.RootNode) {
			sorted = false
			break
		}
	}
	order := make([]int32, 0, n)
	if sorted {
		for i := range n {
			order = append(order, int32(i))
		}
		return order, true
	}
	// Children lists in compressed form, then a breadth-first walk from the root: nodes that
	// are not reachable (a broken parent link, a cycle) are left out and their samples count as
	// holes.
	start := make([]int32, n+1)
	for i, parent := range p.NodeParent {
		if parent >= 0 && int(parent) < n && int32(i) != p.RootNode {
			start[parent+1]++
		}
	}
	for i := range n {
		start[i+1] += start[i]
	}
	children := make([]int32, start[n])
	fill := append([]int32(nil), start[:n]...)
	for i, parent := range p.NodeParent {
		if parent >= 0 && int(parent) < n && int32(i) != p.RootNode {
			children[fill[parent]] = int32(i)
			fill[parent]++
		}
	}
	order = append(order, p.RootNode)
	for k := 0; k < len(order); k++ {
		node := order[k]
		order = append(order, children[start[node]:start[node+1]]...)
	}
	return order, true
}

// Functions returns the function table the source was built with.
func (s *Source) Functions() *Functions { return s.funcs }

// Range is the time range the source covers.
func (s *Source) Range() Range { return s.rng }

// Samples is the number of samples in the tree.
func (s *Source) Samples() int { return s.samples }

// Total is the sampled time of the tree: the sum of the weights of its samples.
func (s *Source) Total() time.Duration { return s.total }

// Holes is the number and time of samples in the range whose node is unknown; they are not in
// the tree.
func (s *Source) Holes() (int, time.Duration) { return s.holes, s.holeTime }

// Span is the time from the first sample in the tree to the end of the last one, in µs.
func (s *Source) Span() (start, end float64) { return s.first, s.last }

// WithRange builds the source of the same profile over another range.
func (s *Source) WithRange(r Range) (*Source, error) { return s.funcs.Source(r) }
