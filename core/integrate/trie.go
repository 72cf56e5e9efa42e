package integrate

// pathTrie holds every distinct JS stack of a profile once, as a path of frame keys from the root.
// DevTools compares stacks position by position on (scriptId, functionName, lineNumber), so two
// profile nodes whose filtered ancestor chains carry the same keys share one trie node, and "how
// many leading frames do two stacks share" becomes the depth of their lowest common ancestor.
//
// Ancestors are found with skew-binary jump pointers (one extra int32 per node): a level-ancestor
// or LCA query costs O(log depth), which is what keeps the integration O(n log n) on stacks that
// are thousands of frames deep.
type pathTrie struct {
	parent []int32
	jump   []int32
	depth  []int32
	key    []int32
	// The children by (node, key): a flat table while the profile's stacks are resolved, a map
	// of the few kept ones afterwards (see keepChildren).
	table childTable
	kids  map[uint64]int32
}

// newPathTrie returns a trie holding only the empty path (node 0, depth 0).
func newPathTrie(capacity int) *pathTrie {
	t := &pathTrie{
		parent: make([]int32, 1, capacity+1),
		jump:   make([]int32, 1, capacity+1),
		depth:  make([]int32, 1, capacity+1),
		key:    make([]int32, 1, capacity+1),
		table:  newChildTable(capacity),
	}
	t.key[0] = -1
	return t
}

// child returns the node for path(n) + [key], adding it when new.
func (t *pathTrie) child(n, key int32) int32 {
	k := uint64(uint32(n))<<32 | uint64(uint32(key))
	var slot int
	if t.kids == nil {
		var found bool
		if slot, found = t.table.find(k); found {
			return t.table.node[slot] - 1
		}
	} else if c, ok := t.kids[k]; ok {
		return c
	}
	c := int32(len(t.parent))
	// Myers' skew-binary jump: jump two steps of equal length into one, else point at the parent.
	// The jump's depth depends only on the node's depth, which the LCA walk relies on.
	j := n
	if n != 0 {
		pj := t.jump[n]
		if t.depth[n]-t.depth[pj] == t.depth[pj]-t.depth[t.jump[pj]] {
			j = t.jump[pj]
		}
	}
	t.parent = append(t.parent, n)
	t.jump = append(t.jump, j)
	t.depth = append(t.depth, t.depth[n]+1)
	t.key = append(t.key, key)
	if t.kids == nil {
		t.table.put(slot, k, c)
	} else {
		t.kids[k] = c
	}
	return c
}

// keepChildren forgets the children of every node but those with the given key: child then
// finds (or adds) only children with that key.
func (t *pathTrie) keepChildren(key int32) {
	kept := make(map[uint64]int32)
	for i, c := range t.table.node {
		if k := t.table.key[i]; c > 0 && int32(uint32(k)) == key {
			kept[k] = c - 1
		}
	}
	t.kids, t.table = kept, childTable{}
}

// childTable is an open-addressing hash table from (node, key) to child node, kept at most half
// full: it is filled once per profile node and read as often, where a Go map spends most of the
// profile index's time.
type childTable struct {
	key  []uint64
	node []int32 // child node + 1; 0 for an empty slot
	used int
	mask uint64
	bits uint8
}

func newChildTable(capacity int) childTable {
	bits := uint8(4)
	for 1<<bits < 2*capacity {
		bits++
	}
	return childTable{key: make([]uint64, 1<<bits), node: make([]int32, 1<<bits), mask: 1<<bits - 1, bits: bits}
}

// find returns the slot of k and true, or the empty slot where k would go and false.
func (t *childTable) find(k uint64) (int, bool) {
	i := (k * 0x9e3779b97f4a7c15) >> (64 - t.bits)
	for {
		switch {
		case t.node[i] == 0:
			return int(i), false
		case t.key[i] == k:
			return int(i), true
		}
		i = (i + 1) & t.mask
	}
}

// put stores child c of k in slot, which find returned for k; it grows the table when half full.
func (t *childTable) put(slot int, k uint64, c int32) {
	t.key[slot], t.node[slot] = k, c+1
	t.used++
	if 2*t.used <= len(t.node) {
		return
	}
	old := *t
	*t = newChildTable(len(old.node))
	for i, n := range old.node {
		if n > 0 {
			s, _ := t.find(old.key[i])
			t.key[s], t.node[s] = old.key[i], n
			t.used++
		}
	}
}

// ancestor returns the ancestor of n at depth d (n itself when d >= depth(n)).
func (t *pathTrie) ancestor(n, d int32) int32 {
	for t.depth[n] > d {
		if t.depth[t.jump[n]] >= d {
			n = t.jump[n]
		} else {
			n = t.parent[n]
		}
	}
	return n
}

// common returns how many leading frames the paths of a and b share: the depth of their LCA.
func (t *pathTrie) common(a, b int32) int32 {
	if a == b {
		return t.depth[a]
	}
	if t.depth[a] > t.depth[b] {
		a = t.ancestor(a, t.depth[b])
	} else if t.depth[b] > t.depth[a] {
		b = t.ancestor(b, t.depth[a])
	}
	for a != b {
		if t.jump[a] != t.jump[b] {
			a, b = t.jump[a], t.jump[b]
		} else {
			a, b = t.parent[a], t.parent[b]
		}
	}
	return t.depth[a]
}
