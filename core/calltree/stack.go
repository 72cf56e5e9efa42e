package calltree

import (
	"errors"
	"fmt"
	"slices"
	"sync"
)

// Stack is a source with a stack of transforms applied in order. Each level keeps its table, so
// popping is immediate; trees of the top level are cached per view. A Stack is safe for
// concurrent use.
type Stack struct {
	src    *Source
	mu     sync.Mutex
	levels []level
	trees  map[View]*Tree
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
	return &Stack{src: src, levels: []level{{table: src.base, nodeOf: identity}}, trees: map[View]*Tree{}}
}

// Source is the untransformed data of the stack.
func (s *Stack) Source() *Source { return s.src }

// Functions is the function table of the stack's profile.
func (s *Stack) Functions() *Functions { return s.src.funcs }

// Len is the number of transforms on the stack.
func (s *Stack) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.levels) - 1
}

// Transforms lists the transforms, first applied first.
func (s *Stack) Transforms() []Transform {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Transform, 0, len(s.levels)-1)
	for _, l := range s.levels[1:] {
		out = append(out, l.t)
	}
	return out
}

// Push applies t on top of the stack. A path that names no node is not an error: the transform
// then keeps nothing (focus) or changes nothing (merge, prune), as it would after a change of
// range. The stack is not locked while the transform runs, so a UI can keep reading it; if the
// stack changes meanwhile, Push fails with ErrStackChanged and leaves it as it is.
func (s *Stack) Push(t Transform) error {
	if err := t.validate(s.src.funcs); err != nil {
		return err
	}
	t.Path = slices.Clone(t.Path)
	s.mu.Lock()
	depth := len(s.levels)
	top := s.levels[depth-1]
	s.mu.Unlock()
	next, target := t.apply(top.table, s.src.funcs)
	nodeOf := make([]int32, len(top.nodeOf))
	for i, n := range top.nodeOf {
		nodeOf[i] = -1
		if n >= 0 {
			nodeOf[i] = target[n]
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.levels) != depth || s.levels[depth-1].table != top.table {
		return ErrStackChanged
	}
	s.levels = append(s.levels, level{t: t, table: next, nodeOf: nodeOf})
	clear(s.trees)
	return nil
}

// ErrStackChanged is returned by Push when another goroutine changed the stack while it ran.
var ErrStackChanged = errors.New("calltree: the transform stack changed during Push")

// Pop removes the last transform; it reports false when the stack was empty.
func (s *Stack) Pop() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.levels) == 1 {
		return false
	}
	s.levels = s.levels[:len(s.levels)-1]
	clear(s.trees)
	return true
}

// Truncate keeps the first n transforms, as a click on a breadcrumb does.
func (s *Stack) Truncate(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n < 0 || n+1 >= len(s.levels) {
		return
	}
	s.levels = s.levels[:n+1]
	clear(s.trees)
}

// Tree returns the tree of the top of the stack in view v.
func (s *Stack) Tree(v View) *Tree {
	s.mu.Lock()
	defer s.mu.Unlock()
	if tr, ok := s.trees[v]; ok {
		return tr
	}
	tr := newTree(s.src.funcs, s.levels[len(s.levels)-1].table, v)
	s.trees[v] = tr
	return tr
}

// SampleNode returns the node of the (non-inverted) tree t that sample i of the profile falls
// in after the transforms, NoNode when the sample is outside the range or dropped. t must come
// from this stack's Tree with the same transforms.
func (s *Stack) SampleNode(t *Tree, i int) NodeID {
	s.mu.Lock()
	top := s.levels[len(s.levels)-1]
	s.mu.Unlock()
	if t.view.Inverted || t.calls != top.table || i < 0 || i >= len(s.src.sampleNode) {
		return NoNode
	}
	base := s.src.sampleNode[i]
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
		if err := out.Push(t); err != nil {
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
