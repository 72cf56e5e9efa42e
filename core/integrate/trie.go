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
	kids   map[uint64]int32
}

// newPathTrie returns a trie holding only the empty path (node 0, depth 0).
func newPathTrie(capacity int) *pathTrie {
	t := &pathTrie{
		parent: make([]int32, 1, capacity+1),
		jump:   make([]int32, 1, capacity+1),
		depth:  make([]int32, 1, capacity+1),
		key:    make([]int32, 1, capacity+1),
		kids:   make(map[uint64]int32, capacity),
	}
	t.key[0] = -1
	return t
}

// child returns the node for path(n) + [key], adding it when new.
func (t *pathTrie) child(n, key int32) int32 {
	k := uint64(uint32(n))<<32 | uint64(uint32(key))
	if c, ok := t.kids[k]; ok {
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
	t.kids[k] = c
	return c
}

// keepChildren forgets the children of every node but those with the given key: child then
// finds (or adds) only children with that key.
func (t *pathTrie) keepChildren(key int32) {
	kept := make(map[uint64]int32)
	for k, c := range t.kids {
		if int32(uint32(k)) == key {
			kept[k] = c
		}
	}
	t.kids = kept
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
