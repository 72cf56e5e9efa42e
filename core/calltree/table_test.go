package calltree

import "testing"

// The builder keeps (prefix, function) unique whether a node's children are in its sibling list
// or, past listLimit, in the hash table.
func TestBuilderInternsManyChildren(t *testing.T) {
	b := newBuilder(4)
	root := b.node(-1, 0)
	seen := map[[2]int32]int32{}
	for round := range 3 {
		for fn := range FuncID(5 * listLimit) {
			for _, prefix := range []int32{-1, root} {
				n := b.node(prefix, fn)
				key := [2]int32{prefix, int32(fn)}
				if old, ok := seen[key]; ok && old != n {
					t.Fatalf("round %d: (%d, %d) is node %d, was %d", round, prefix, fn, n, old)
				}
				seen[key] = n
				if b.t.prefix[n] != prefix || b.t.fn[n] != fn {
					t.Fatalf("node %d is (%d, %d), want (%d, %d)", n, b.t.prefix[n], b.t.fn[n], prefix, fn)
				}
			}
		}
	}
	if len(b.t.prefix) != len(seen) {
		t.Errorf("%d nodes for %d distinct keys", len(b.t.prefix), len(seen))
	}
}
