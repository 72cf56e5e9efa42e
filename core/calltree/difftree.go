package calltree

// The differential call tree: the call trees of both sides of a comparison merged node by node,
// a node being the path of function identities from a root (or, bottom-up, from the top of the
// stack), with each side's self and running time.

import (
	"cmp"
	"slices"
	"strings"
	"time"
)

// DiffNodeID names a node of one DiffTree.
type DiffNodeID int32

// DiffTree is two call trees of the same shape (both top-down or both bottom-up) merged by path.
// It is built whole, so its size is at most the sum of the two trees' nodes; in the bottom-up view
// that means expanding both inverted trees entirely.
type DiffTree struct {
	A, B     *Functions // B is nil when the B side is empty
	inverted bool
	keys     []FuncKey // the distinct functions of the tree

	key                []int32 // index into keys
	funcA, funcB       []FuncID
	parent             []DiffNodeID
	depth              []int32
	selfA, selfB       []time.Duration
	runningA, runningB []time.Duration
	// The children of n are kids[kidOff[n]:kidOff[n+1]], laid out once the tree is built.
	kidOff         []int32
	kids           []DiffNodeID
	roots          []DiffNodeID
	TotalA, TotalB time.Duration
}

// NewDiffTree merges a and b (b nil for an empty side). Children come sorted by running delta,
// largest increase first.
func NewDiffTree(a, b *Tree) *DiffTree {
	t := &DiffTree{A: a.Functions(), inverted: a.Inverted(), TotalA: a.Total()}
	keyOf := map[FuncKey]int32{}
	child := map[uint64]DiffNodeID{} // (parent+1)<<32 | key → node
	add := func(tree *Tree, isB bool) {
		f := tree.Functions()
		// The key of each function is looked up once, not once per node.
		keyOfFunc := make([]int32, f.Len())
		for i := range keyOfFunc {
			keyOfFunc[i] = -1
		}
		var walk func(ids []NodeID, parent DiffNodeID)
		walk = func(ids []NodeID, parent DiffNodeID) {
			for _, id := range ids {
				fn := tree.Func(id)
				if !f.Valid(fn) {
					continue
				}
				ki := keyOfFunc[fn]
				if ki < 0 {
					k := f.Key(fn)
					var ok bool
					if ki, ok = keyOf[k]; !ok {
						ki = int32(len(t.keys))
						keyOf[k] = ki
						t.keys = append(t.keys, k)
					}
					keyOfFunc[fn] = ki
				}
				ck := uint64(int64(parent)+1)<<32 | uint64(ki)
				n, ok := child[ck]
				if !ok {
					n = t.newNode(parent, ki)
					child[ck] = n
				}
				if isB {
					t.funcB[n] = fn
					t.selfB[n] += tree.Self(id)
					t.runningB[n] += tree.Running(id)
				} else {
					t.funcA[n] = fn
					t.selfA[n] += tree.Self(id)
					t.runningA[n] += tree.Running(id)
				}
				walk(tree.Children(id), n)
			}
		}
		walk(tree.Roots(), -1)
	}
	add(a, false)
	if b != nil {
		t.B = b.Functions()
		t.TotalB = b.Total()
		add(b, true)
	}
	t.layOutChildren()
	t.Sort(ByRunningDelta, true)
	return t
}

func (t *DiffTree) newNode(parent DiffNodeID, key int32) DiffNodeID {
	n := DiffNodeID(len(t.key))
	t.key = append(t.key, key)
	t.funcA = append(t.funcA, NoFunc)
	t.funcB = append(t.funcB, NoFunc)
	t.parent = append(t.parent, parent)
	d := int32(0)
	if parent >= 0 {
		d = t.depth[parent] + 1
	}
	t.depth = append(t.depth, d)
	t.selfA = append(t.selfA, 0)
	t.selfB = append(t.selfB, 0)
	t.runningA = append(t.runningA, 0)
	t.runningB = append(t.runningB, 0)
	if parent < 0 {
		t.roots = append(t.roots, n)
	}
	return n
}

// layOutChildren groups the nodes by parent into kids.
func (t *DiffTree) layOutChildren() {
	n := len(t.key)
	t.kidOff = make([]int32, n+1)
	for _, p := range t.parent {
		if p >= 0 {
			t.kidOff[p+1]++
		}
	}
	for i := range n {
		t.kidOff[i+1] += t.kidOff[i]
	}
	t.kids = make([]DiffNodeID, t.kidOff[n])
	fill := slices.Clone(t.kidOff[:n])
	for i, p := range t.parent {
		if p >= 0 {
			t.kids[fill[p]] = DiffNodeID(i)
			fill[p]++
		}
	}
}

// Inverted reports whether the tree is bottom-up.
func (t *DiffTree) Inverted() bool { return t.inverted }

// Len is the number of nodes.
func (t *DiffTree) Len() int { return len(t.key) }

// Roots lists the roots in the current order.
func (t *DiffTree) Roots() []DiffNodeID { return t.roots }

// Children lists the children of n in the current order (the roots for -1).
func (t *DiffTree) Children(n DiffNodeID) []DiffNodeID {
	if n < 0 {
		return t.roots
	}
	if int(n) >= len(t.key) {
		return nil
	}
	return t.kids[t.kidOff[n]:t.kidOff[n+1]]
}

// Parent is the parent of n, -1 for a root.
func (t *DiffTree) Parent(n DiffNodeID) DiffNodeID { return t.parent[n] }

// Depth is 0 for a root.
func (t *DiffTree) Depth(n DiffNodeID) int { return int(t.depth[n]) }

// Row is node n's function and times on both sides.
func (t *DiffTree) Row(n DiffNodeID) DiffRow {
	return DiffRow{
		Key: t.keys[t.key[n]], FuncA: t.funcA[n], FuncB: t.funcB[n],
		SelfA: t.selfA[n], SelfB: t.selfB[n], RunningA: t.runningA[n], RunningB: t.runningB[n],
	}
}

// Describe names node n's function for people.
func (t *DiffTree) Describe(n DiffNodeID) string {
	if f := t.funcA[n]; f != NoFunc {
		return t.A.Describe(f)
	}
	return t.B.Describe(t.funcB[n])
}

// Sort orders every node's children (and the roots) by column c, as Diff.Sort does.
func (t *DiffTree) Sort(c DiffColumn, descending bool) {
	value := func(n DiffNodeID) float64 {
		r := t.Row(n)
		return columnValue(&r, c)
	}
	less := func(a, b DiffNodeID) int {
		var c0 int
		if c == ByFunctionName {
			c0 = compareKeys(t.keys[t.key[a]], t.keys[t.key[b]])
		} else {
			var last bool
			if c0, last = compareNaNLast(value(a), value(b)); last {
				return c0
			}
		}
		if descending {
			c0 = -c0
		}
		da, db := t.runningB[a]-t.runningA[a], t.runningB[b]-t.runningA[b]
		return cmp.Or(c0, cmp.Compare(db, da), compareKeys(t.keys[t.key[a]], t.keys[t.key[b]]))
	}
	slices.SortStableFunc(t.roots, less)
	for n := range len(t.key) {
		slices.SortStableFunc(t.kids[t.kidOff[n]:t.kidOff[n+1]], less)
	}
}

// columnValue is the value of a row in column c, for sorting (ByFunctionName has none).
func columnValue(r *DiffRow, c DiffColumn) float64 {
	switch c {
	case BySelfDeltaPct:
		return r.SelfDeltaPct()
	case BySelfA:
		return float64(r.SelfA)
	case BySelfB:
		return float64(r.SelfB)
	case ByRunningDelta:
		return float64(r.RunningDelta())
	case ByRunningDeltaPct:
		return r.RunningDeltaPct()
	case ByRunningA:
		return float64(r.RunningA)
	case ByRunningB:
		return float64(r.RunningB)
	}
	return float64(r.SelfDelta())
}

// compareKeys orders function identities by name, URL, position, and plain before collapsed.
func compareKeys(a, b FuncKey) int {
	resource := func(k FuncKey) int {
		if k.Resource {
			return 1
		}
		return 0
	}
	return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.URL, b.URL),
		cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column), cmp.Compare(resource(a), resource(b)))
}
