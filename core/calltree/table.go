package calltree

// table is a call-node table: one row per distinct path of functions, with prefix[i] < i, and the
// samples whose stack ends exactly at the node already summed into self and count. Every transform
// maps one table to the next; samples never need to be visited again because each transform is a
// function of the stack alone.
type table struct {
	prefix []int32  // parent node, -1 for a root
	fn     []FuncID // the node's function
	self   []int64  // ns of the samples that end at this node
	count  []int32  // number of samples that end at this node
}

func (t *table) len() int { return len(t.prefix) }

// builder makes a new table whose rows are unique per (prefix, function), so that frames, stacks
// or transformed stacks of the same function at the same place merge into one call node.
//
// Most nodes have a few children, so a node's children are found by walking a short sibling list,
// which touches memory close to what was just written; a node that gets many children (a hub of
// the tree, or the roots) moves them into a hash table, so that no lookup is ever long.
type builder struct {
	t           table
	firstChild  []int32 // per node, -1 when none
	nextSibling []int32
	numChildren []int32
	hashed      []bool
	roots       int32 // first root, -1 when none
	numRoots    int32
	rootsHashed bool
	index       nodeIndex
}

// listLimit is how many children a node may have before they move to the hash table.
const listLimit = 8

func newBuilder(capacity int) *builder {
	return &builder{
		t: table{
			prefix: make([]int32, 0, capacity),
			fn:     make([]FuncID, 0, capacity),
			self:   make([]int64, 0, capacity),
			count:  make([]int32, 0, capacity),
		},
		firstChild:  make([]int32, 0, capacity),
		nextSibling: make([]int32, 0, capacity),
		numChildren: make([]int32, 0, capacity),
		hashed:      make([]bool, 0, capacity),
		roots:       -1,
	}
}

func nodeKey(prefix int32, fn FuncID) uint64 { return uint64(uint32(prefix))<<32 | uint64(uint32(fn)) }

// node returns the call node for fn under prefix (-1: a root), creating it when new.
func (b *builder) node(prefix int32, fn FuncID) int32 {
	head, count, hashed := &b.roots, &b.numRoots, &b.rootsHashed
	if prefix >= 0 {
		head, count, hashed = &b.firstChild[prefix], &b.numChildren[prefix], &b.hashed[prefix]
	}
	if *hashed {
		key := nodeKey(prefix, fn)
		slot, found := b.index.find(key)
		if found {
			return b.index.vals[slot]
		}
		n := b.add(prefix, fn)
		b.index.insert(slot, key, n)
		return n
	}
	for c := *head; c >= 0; c = b.nextSibling[c] {
		if b.t.fn[c] == fn {
			return c
		}
	}
	n := b.add(prefix, fn)
	// add may have grown the columns that head points into.
	if prefix >= 0 {
		head, count, hashed = &b.firstChild[prefix], &b.numChildren[prefix], &b.hashed[prefix]
	}
	b.nextSibling[n] = *head
	*head = n
	*count++
	if *count > listLimit {
		if b.index.keys == nil {
			b.index = newNodeIndex(cap(b.t.prefix) / 4)
		}
		for c := *head; c >= 0; c = b.nextSibling[c] {
			key := nodeKey(prefix, b.t.fn[c])
			slot, _ := b.index.find(key)
			b.index.insert(slot, key, c)
		}
		*hashed = true
	}
	return n
}

func (b *builder) add(prefix int32, fn FuncID) int32 {
	n := int32(len(b.t.prefix))
	b.t.prefix = append(b.t.prefix, prefix)
	b.t.fn = append(b.t.fn, fn)
	b.t.self = append(b.t.self, 0)
	b.t.count = append(b.t.count, 0)
	b.firstChild = append(b.firstChild, -1)
	b.nextSibling = append(b.nextSibling, -1)
	b.numChildren = append(b.numChildren, 0)
	b.hashed = append(b.hashed, false)
	return n
}

// nodeIndex is an open-addressing hash table from (prefix, function) to node: a Go map made
// lookups the larger part of a transform's time.
type nodeIndex struct {
	keys []uint64 // key+1, 0 for an empty slot
	vals []int32
	used int
}

func newNodeIndex(capacity int) nodeIndex {
	size := 16
	for size < 2*capacity {
		size *= 2
	}
	return nodeIndex{keys: make([]uint64, size), vals: make([]int32, size)}
}

// find returns the slot of key, or the empty slot where it belongs.
func (x *nodeIndex) find(key uint64) (int, bool) {
	mask := len(x.keys) - 1
	// Fibonacci hashing spreads the (prefix, function) pairs, which are dense small numbers.
	i := int((key * 0x9E3779B97F4A7C15) >> 32 & uint64(mask))
	for {
		switch x.keys[i] {
		case key + 1:
			return i, true
		case 0:
			return i, false
		}
		i = (i + 1) & mask
	}
}

// insert puts key into the empty slot find returned.
func (x *nodeIndex) insert(slot int, key uint64, val int32) {
	x.keys[slot] = key + 1
	x.vals[slot] = val
	x.used++
	if 2*x.used > len(x.keys) {
		x.grow()
	}
}

func (x *nodeIndex) grow() {
	old := *x
	*x = nodeIndex{keys: make([]uint64, 2*len(old.keys)), vals: make([]int32, 2*len(old.keys)), used: old.used}
	for i, k := range old.keys {
		if k != 0 {
			slot, _ := x.find(k - 1)
			x.keys[slot] = k
			x.vals[slot] = old.vals[i]
		}
	}
}

// carry moves the samples of each old node to the new node target[old] (-1 drops them) and
// returns the finished table.
func (b *builder) carry(old *table, target []int32) *table {
	for i, to := range target {
		if to >= 0 {
			b.t.self[to] += old.self[i]
			b.t.count[to] += old.count[i]
		}
	}
	t := b.t
	return &t
}

// compact removes the nodes that have no sample in their subtree, keeping the order (and so
// prefix < index). It returns the new table and the old → new index map (-1 for removed nodes).
func compact(t *table) (*table, []int32) {
	n := t.len()
	used := make([]bool, n)
	for i := n - 1; i >= 0; i-- {
		if t.count[i] > 0 {
			used[i] = true
		}
		if used[i] && t.prefix[i] >= 0 {
			used[t.prefix[i]] = true
		}
	}
	remap := make([]int32, n)
	kept := 0
	for i := range n {
		if used[i] {
			kept++
		}
	}
	out := &table{
		prefix: make([]int32, 0, kept),
		fn:     make([]FuncID, 0, kept),
		self:   make([]int64, 0, kept),
		count:  make([]int32, 0, kept),
	}
	for i := range n {
		if !used[i] {
			remap[i] = -1
			continue
		}
		remap[i] = int32(len(out.prefix))
		p := t.prefix[i]
		if p >= 0 {
			p = remap[p]
		}
		out.prefix = append(out.prefix, p)
		out.fn = append(out.fn, t.fn[i])
		out.self = append(out.self, t.self[i])
		out.count = append(out.count, t.count[i])
	}
	return out, remap
}
