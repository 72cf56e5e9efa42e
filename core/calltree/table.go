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
type builder struct {
	t     table
	index map[uint64]int32
}

func newBuilder(capacity int) *builder {
	return &builder{
		t: table{
			prefix: make([]int32, 0, capacity),
			fn:     make([]FuncID, 0, capacity),
			self:   make([]int64, 0, capacity),
			count:  make([]int32, 0, capacity),
		},
		index: make(map[uint64]int32, capacity),
	}
}

// node returns the call node for fn under prefix (-1: a root), creating it when new.
func (b *builder) node(prefix int32, fn FuncID) int32 {
	key := uint64(uint32(prefix))<<32 | uint64(uint32(fn))
	if n, ok := b.index[key]; ok {
		return n
	}
	n := int32(len(b.t.prefix))
	b.t.prefix = append(b.t.prefix, prefix)
	b.t.fn = append(b.t.fn, fn)
	b.t.self = append(b.t.self, 0)
	b.t.count = append(b.t.count, 0)
	b.index[key] = n
	return n
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
