package calltree

import (
	"fmt"
	"slices"
	"sync"
)

// Stack is a source with a stack of transforms applied in order. A Stack never changes: Push,
// Pop and Truncate return a new Stack that shares the levels below the change, so popping is
// immediate and a transform can run on one goroutine while another reads the stack it started
// from. Trees of a stack are cached per view; a Stack is safe for concurrent use.
type Stack struct {
	src    *Source
	levels []level
	trees  *sync.Map // View → *Tree, shared by nothing else
}

type level struct {
	t     Transform
	table *table
	// nodeOf maps the source's base call nodes to this level's nodes (-1: dropped), so that a
	// sample can be followed through every transform.
	nodeOf []int32
}

// NewStack starts an empty transform stack over src.
func NewStack(src *Source) *Stack {
	identity := make([]int32, src.base.len())
	for i := range identity {
		identity[i] = int32(i)
	}
	return &Stack{src: src, levels: []level{{table: src.base, nodeOf: identity}}, trees: new(sync.Map)}
}

// withLevels is a stack over the same source with other levels (sharing their memory).
func (s *Stack) withLevels(levels []level) *Stack {
	return &Stack{src: s.src, levels: levels, trees: new(sync.Map)}
}

// Source is the untransformed data of the stack.
func (s *Stack) Source() *Source { return s.src }

// Functions is the function table of the stack's profile.
func (s *Stack) Functions() *Functions { return s.src.funcs }

// Len is the number of transforms on the stack.
func (s *Stack) Len() int { return len(s.levels) - 1 }

// Transforms lists the transforms, first applied first.
func (s *Stack) Transforms() []Transform {
	out := make([]Transform, 0, len(s.levels)-1)
	for _, l := range s.levels[1:] {
		out = append(out, l.t)
	}
	return out
}

// Push returns the stack with t applied on top; s itself is unchanged. A path that names no node
// is not an error: the transform then keeps nothing (focus) or changes nothing (merge, prune), as
// it would after a change of range.
func (s *Stack) Push(t Transform) (*Stack, error) {
	if err := t.validate(s.src.funcs); err != nil {
		return nil, err
	}
	t.Path = slices.Clone(t.Path)
	top := s.levels[len(s.levels)-1]
	next, target := t.apply(top.table, s.src.funcs)
	nodeOf := make([]int32, len(top.nodeOf))
	for i, n := range top.nodeOf {
		nodeOf[i] = -1
		if n >= 0 {
			nodeOf[i] = target[n]
		}
	}
	// The full slice expression makes append copy, so that two pushes on one stack never write
	// into each other's levels.
	levels := append(s.levels[:len(s.levels):len(s.levels)], level{t: t, table: next, nodeOf: nodeOf})
	return s.withLevels(levels), nil
}

// Pop returns the stack without its last transform, and false when there was none (then s).
func (s *Stack) Pop() (*Stack, bool) {
	if len(s.levels) == 1 {
		return s, false
	}
	return s.withLevels(s.levels[:len(s.levels)-1]), true
}

// Truncate returns the stack with its first n transforms, as a click on a breadcrumb asks.
func (s *Stack) Truncate(n int) *Stack {
	if n < 0 || n+1 >= len(s.levels) {
		return s
	}
	return s.withLevels(s.levels[:n+1])
}

// Tree returns the tree of the top of the stack in view v.
func (s *Stack) Tree(v View) *Tree {
	if tr, ok := s.trees.Load(v); ok {
		return tr.(*Tree)
	}
	// Two goroutines asking at once may both build the tree; the first one stored wins.
	tr, _ := s.trees.LoadOrStore(v, newTree(s.src.funcs, s.levels[len(s.levels)-1].table, v))
	return tr.(*Tree)
}

// SampleNode returns the node of the (non-inverted) tree t that sample i of the profile falls
// in after the transforms, NoNode when the sample is outside the range or dropped. t must come
// from this stack's Tree with the same transforms.
func (s *Stack) SampleNode(t *Tree, i int) NodeID {
	top := s.levels[len(s.levels)-1]
	if t.view.Inverted || t.calls != top.table {
		return NoNode
	}
	base := s.src.baseOf(i)
	if base < 0 {
		return NoNode
	}
	return NodeID(top.nodeOf[base])
}

// WithSource re-applies the stack's transforms to another source of the same profile (another
// time range).
func (s *Stack) WithSource(src *Source) (*Stack, error) {
	if src.funcs != s.src.funcs {
		return nil, fmt.Errorf("the sources belong to different profiles")
	}
	out := NewStack(src)
	for _, t := range s.Transforms() {
		var err error
		if out, err = out.Push(t); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// MapPath follows a path of the tree before the last push through that transform (see
// Transform.MapPath); with no transform it returns p.
func (s *Stack) MapPath(p Path) Path {
	ts := s.Transforms()
	if len(ts) == 0 {
		return p
	}
	return ts[len(ts)-1].MapPath(p, s.src.funcs)
}
