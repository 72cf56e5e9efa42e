package calltree

import (
	"cmp"
	"slices"
	"strings"
	"sync"
	"time"
)

// NodeID names a node of one Tree; it means nothing in another tree (use Path for that).
type NodeID int32

// NoNode stands for "no node".
const NoNode NodeID = -1

// Order is how the children of a node are sorted.
type Order uint8

const (
	ByRunning Order = iota // heaviest running time first (the default)
	BySelf                 // heaviest self time first, then running time
	ByName                 // function name, A to Z
)

// View chooses the shape of a Tree.
type View struct {
	Inverted bool // bottom-up: roots are the functions on top of the stacks
	Order    Order
}

// Tree is a sorted view of a call-node table for a tree table or a printer. Children are sorted
// on first use and, in the inverted view, found on first use, so opening a tree costs a pass over
// the nodes that have samples and expanding a row costs a pass over its children. A Tree is safe
// for concurrent use; slices it returns must not be modified.
type Tree struct {
	funcs    *Functions
	view     View
	total    time.Duration
	samples  int
	calls    *table // the non-inverted call nodes the tree was built from
	mu       sync.Mutex
	fn       []FuncID
	parent   []NodeID
	depth    []int32
	running  []time.Duration
	self     []time.Duration
	runCount []int32
	selfCnt  []int32
	// The children of node n are kids[kidOff[n] : kidOff[n]+kidLen[n]] once kidOff[n] ≥ 0;
	// sorted[n] tells whether they are in view order yet.
	kidOff []int32
	kidLen []int32
	kids   []NodeID
	sorted []bool
	roots  []NodeID

	// Inverted view: node n stands for the pairs (pairSelf[k], pairAt[k]) for k in
	// [pairOff[n], pairOff[n]+pairLen[n]): a call node with self time, and its ancestor at n's
	// depth. n's running time is the self time of those call nodes.
	pairOff, pairLen []int32
	pairSelf, pairAt []int32
	slot             []int32 // scratch, per function, for grouping
}

func newTree(funcs *Functions, t *table, v View) *Tree {
	tr := &Tree{funcs: funcs, view: v, calls: t}
	for i := range t.len() {
		tr.total += time.Duration(t.self[i])
		tr.samples += int(t.count[i])
	}
	if v.Inverted {
		tr.buildInvertedRoots()
	} else {
		tr.buildCallTree()
	}
	return tr
}

// buildCallTree makes one tree node per call node, with the same index.
func (tr *Tree) buildCallTree() {
	t := tr.calls
	n := t.len()
	tr.fn = t.fn
	tr.parent = make([]NodeID, n)
	tr.depth = make([]int32, n)
	tr.running = make([]time.Duration, n)
	tr.self = make([]time.Duration, n)
	tr.runCount = make([]int32, n)
	tr.selfCnt = t.count
	tr.kidOff = make([]int32, n)
	tr.kidLen = make([]int32, n)
	tr.sorted = make([]bool, n)
	for i := range n {
		p := t.prefix[i]
		tr.parent[i] = NodeID(p)
		tr.self[i] = time.Duration(t.self[i])
		if p >= 0 {
			tr.depth[i] = tr.depth[p] + 1
			tr.kidLen[p]++
		}
	}
	copy(tr.running, tr.self)
	copy(tr.runCount, t.count)
	for i := n - 1; i >= 0; i-- {
		if p := t.prefix[i]; p >= 0 {
			tr.running[p] += tr.running[i]
			tr.runCount[p] += tr.runCount[i]
		}
	}
	off := int32(0)
	for i := range n {
		tr.kidOff[i] = off
		off += tr.kidLen[i]
		tr.kidLen[i] = 0
	}
	tr.kids = make([]NodeID, off)
	for i := range n {
		if p := t.prefix[i]; p >= 0 {
			tr.kids[tr.kidOff[p]+tr.kidLen[p]] = NodeID(i)
			tr.kidLen[p]++
		} else {
			tr.roots = append(tr.roots, NodeID(i))
		}
	}
	tr.sortNodes(tr.roots)
}

// buildInvertedRoots makes the roots of the bottom-up tree: one per function with self time.
func (tr *Tree) buildInvertedRoots() {
	t := tr.calls
	tr.slot = make([]int32, tr.funcs.Len())
	for i := range tr.slot {
		tr.slot[i] = -1
	}
	var selfNodes []int32
	for i := range t.len() {
		if t.count[i] > 0 {
			selfNodes = append(selfNodes, int32(i))
		}
	}
	tr.roots = tr.groupPairs(NoNode, selfNodes, selfNodes)
}

// groupPairs creates the children of parent (roots for NoNode) from candidate pairs (self[k],
// at[k]), one child per function of at[k], and returns them sorted.
func (tr *Tree) groupPairs(parent NodeID, selfNodes, at []int32) []NodeID {
	t := tr.calls
	var created []NodeID
	for _, a := range at {
		fn := t.fn[a]
		if tr.slot[fn] < 0 {
			tr.slot[fn] = int32(len(tr.fn))
			id := NodeID(len(tr.fn))
			created = append(created, id)
			tr.fn = append(tr.fn, fn)
			tr.parent = append(tr.parent, parent)
			d := int32(0)
			if parent >= 0 {
				d = tr.depth[parent] + 1
			}
			tr.depth = append(tr.depth, d)
			tr.running = append(tr.running, 0)
			tr.self = append(tr.self, 0)
			tr.runCount = append(tr.runCount, 0)
			tr.selfCnt = append(tr.selfCnt, 0)
			tr.kidOff = append(tr.kidOff, -1)
			tr.kidLen = append(tr.kidLen, 0)
			tr.sorted = append(tr.sorted, false)
			tr.pairOff = append(tr.pairOff, 0)
			tr.pairLen = append(tr.pairLen, 0)
		}
		tr.pairLen[tr.slot[fn]]++
	}
	// Lay the pairs of the new nodes out one after the other.
	off := int32(len(tr.pairSelf))
	for _, id := range created {
		tr.pairOff[id] = off
		off += tr.pairLen[id]
		tr.pairLen[id] = 0
	}
	tr.pairSelf = slices.Grow(tr.pairSelf, len(at))[:off]
	tr.pairAt = slices.Grow(tr.pairAt, len(at))[:off]
	for k, a := range at {
		id := tr.slot[t.fn[a]]
		s := selfNodes[k]
		pos := tr.pairOff[id] + tr.pairLen[id]
		tr.pairSelf[pos] = s
		tr.pairAt[pos] = a
		tr.pairLen[id]++
		tr.running[id] += time.Duration(t.self[s])
		tr.runCount[id] += t.count[s]
	}
	for _, id := range created {
		tr.slot[tr.fn[id]] = -1
		if parent == NoNode {
			// Only the roots of a bottom-up tree have self time: a sample's time is its top
			// function's own.
			tr.self[id] = tr.running[id]
			tr.selfCnt[id] = tr.runCount[id]
		}
	}
	tr.sortNodes(created)
	return created
}

// expandInverted finds the children of inverted node n: the callers of its pairs' ancestors.
func (tr *Tree) expandInverted(n NodeID) {
	t := tr.calls
	var selfNodes, at []int32
	off, l := tr.pairOff[n], tr.pairLen[n]
	for k := off; k < off+l; k++ {
		if p := t.prefix[tr.pairAt[k]]; p >= 0 {
			selfNodes = append(selfNodes, tr.pairSelf[k])
			at = append(at, p)
		}
	}
	kids := tr.groupPairs(n, selfNodes, at)
	tr.kidOff[n] = int32(len(tr.kids))
	tr.kidLen[n] = int32(len(kids))
	tr.kids = append(tr.kids, kids...)
	tr.sorted[n] = true
}

// sortNodes puts sibling nodes in view order.
func (tr *Tree) sortNodes(ids []NodeID) {
	f := tr.funcs
	byName := func(a, b NodeID) int {
		if c := strings.Compare(f.Name(tr.fn[a]), f.Name(tr.fn[b])); c != 0 {
			return c
		}
		return cmp.Compare(tr.fn[a], tr.fn[b])
	}
	switch tr.view.Order {
	case BySelf:
		slices.SortFunc(ids, func(a, b NodeID) int {
			if c := cmp.Compare(tr.self[b], tr.self[a]); c != 0 {
				return c
			}
			if c := cmp.Compare(tr.running[b], tr.running[a]); c != 0 {
				return c
			}
			return byName(a, b)
		})
	case ByName:
		slices.SortFunc(ids, func(a, b NodeID) int {
			if c := byName(a, b); c != 0 {
				return c
			}
			return cmp.Compare(tr.running[b], tr.running[a])
		})
	default:
		slices.SortFunc(ids, func(a, b NodeID) int {
			if c := cmp.Compare(tr.running[b], tr.running[a]); c != 0 {
				return c
			}
			if c := cmp.Compare(tr.runCount[b], tr.runCount[a]); c != 0 {
				return c
			}
			return byName(a, b)
		})
	}
}

// Functions is the function table of the tree's profile.
func (tr *Tree) Functions() *Functions { return tr.funcs }

// View is the shape the tree was built with.
func (tr *Tree) View() View { return tr.view }

// Inverted reports whether this is the bottom-up tree.
func (tr *Tree) Inverted() bool { return tr.view.Inverted }

// Total is the sampled time in the tree, which equals the sum of the self times of all its nodes.
func (tr *Tree) Total() time.Duration { return tr.total }

// Samples is the number of samples in the tree.
func (tr *Tree) Samples() int { return tr.samples }

// Roots lists the root nodes in view order.
func (tr *Tree) Roots() []NodeID { return tr.roots }

// Children lists the children of n in view order.
func (tr *Tree) Children(n NodeID) []NodeID {
	if n == NoNode {
		return tr.roots
	}
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if !tr.valid(n) {
		return nil
	}
	if tr.kidOff[n] < 0 {
		tr.expandInverted(n)
	}
	kids := tr.kids[tr.kidOff[n] : tr.kidOff[n]+tr.kidLen[n]]
	if !tr.sorted[n] {
		tr.sortNodes(kids)
		tr.sorted[n] = true
	}
	return kids
}

// HasChildren reports whether n has children, without listing them in the inverted view.
func (tr *Tree) HasChildren(n NodeID) bool {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if !tr.valid(n) {
		return false
	}
	if tr.kidOff[n] >= 0 {
		return tr.kidLen[n] > 0
	}
	off, l := tr.pairOff[n], tr.pairLen[n]
	for k := off; k < off+l; k++ {
		if tr.calls.prefix[tr.pairAt[k]] >= 0 {
			return true
		}
	}
	return false
}

// valid must be called with mu held when the tree is inverted.
func (tr *Tree) valid(n NodeID) bool { return n >= 0 && int(n) < len(tr.fn) }

// node reads a column under the lock: inverted trees grow while rows are expanded.
func nodeValue[T any](tr *Tree, n NodeID, col func() []T, zero T) T {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if !tr.valid(n) {
		return zero
	}
	return col()[n]
}

// Func is the function of n.
func (tr *Tree) Func(n NodeID) FuncID {
	return nodeValue(tr, n, func() []FuncID { return tr.fn }, NoFunc)
}

// Parent is the parent of n, NoNode for a root.
func (tr *Tree) Parent(n NodeID) NodeID {
	return nodeValue(tr, n, func() []NodeID { return tr.parent }, NoNode)
}

// Depth is 0 for a root.
func (tr *Tree) Depth(n NodeID) int {
	return int(nodeValue(tr, n, func() []int32 { return tr.depth }, -1))
}

// Running is the time of the samples whose stacks go through n.
func (tr *Tree) Running(n NodeID) time.Duration {
	return nodeValue(tr, n, func() []time.Duration { return tr.running }, 0)
}

// Self is the time of the samples whose stacks end at n (in the bottom-up tree: a root's running
// time, 0 below the roots).
func (tr *Tree) Self(n NodeID) time.Duration {
	return nodeValue(tr, n, func() []time.Duration { return tr.self }, 0)
}

// RunningSamples is the number of samples whose stacks go through n.
func (tr *Tree) RunningSamples(n NodeID) int {
	return int(nodeValue(tr, n, func() []int32 { return tr.runCount }, 0))
}

// SelfSamples is the number of samples that count as n's self time.
func (tr *Tree) SelfSamples(n NodeID) int {
	return int(nodeValue(tr, n, func() []int32 { return tr.selfCnt }, 0))
}

// Path is the path of n from its root.
func (tr *Tree) Path(n NodeID) Path {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if !tr.valid(n) {
		return nil
	}
	p := make(Path, tr.depth[n]+1)
	for i := len(p) - 1; n >= 0; i-- {
		p[i] = tr.fn[n]
		n = tr.parent[n]
	}
	return p
}

// Find returns the node at path p, NoNode when the tree has none.
func (tr *Tree) Find(p Path) NodeID {
	n := NoNode
	for _, fn := range p {
		next := NoNode
		for _, c := range tr.Children(n) {
			if tr.Func(c) == fn {
				next = c
				break
			}
		}
		if next == NoNode {
			return NoNode
		}
		n = next
	}
	return n
}

// Walk visits the nodes in view order, depth first, parents before children. visit returns
// whether to descend into the node.
func (tr *Tree) Walk(visit func(n NodeID) bool) {
	var walk func(ids []NodeID)
	walk = func(ids []NodeID) {
		for _, n := range ids {
			if visit(n) {
				walk(tr.Children(n))
			}
		}
	}
	walk(tr.roots)
}
