package timelines

import (
	"math/rand"
	"slices"
	"sort"
	"testing"
)

// With a consistent comparator any stable sort gives the same order, so V8's TimSort must agree
// with sort.SliceStable on every size, through runs, merges and galloping.
func TestJSSortOrderIsAStableSort(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for _, n := range []int{0, 1, 2, 5, 63, 64, 65, 200, 1000, 5000} {
		for _, spread := range []int{2, 10, 1 << 30} {
			keys := make([]int, n)
			for i := range keys {
				keys[i] = r.Intn(spread)
			}
			if n > 100 { // long ascending and descending stretches make runs and gallops
				sort.Ints(keys[:n/3])
				sort.Sort(sort.Reverse(sort.IntSlice(keys[n/3 : n/2])))
			}
			cmp := func(a, b int) int { return keys[a] - keys[b] }
			got := jsSortOrder(n, cmp)
			want := make([]int, n)
			for i := range want {
				want[i] = i
			}
			sort.SliceStable(want, func(a, b int) bool { return keys[want[a]] < keys[want[b]] })
			if !slices.Equal(got, want) {
				t.Fatalf("n=%d spread=%d: the order differs from a stable sort", n, spread)
			}
		}
	}
}
