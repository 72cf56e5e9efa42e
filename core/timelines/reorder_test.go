package timelines

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// reorder moves the items in place; it must give what copying list[order[k]] to k gives, for
// every kind of permutation (the identity, one long cycle, many short ones, random), and leave
// order as it was.
func TestReorderInPlaceMatchesACopy(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 3, 17, 1000} {
		perms := map[string][]int{"identity": make([]int, n), "rotation": make([]int, n), "swaps": make([]int, n)}
		for i := range n {
			perms["identity"][i] = i
			perms["rotation"][i] = (i + 1) % n
			perms["swaps"][i] = i ^ 1
			if i^1 >= n {
				perms["swaps"][i] = i
			}
		}
		perms["random"] = r.Perm(n)
		for name, order := range perms {
			list := make([]string, n)
			for i := range list {
				list[i] = string(rune('a'+i%26)) + string(rune('0'+i%10)) + string(rune(i))
			}
			want := make([]string, n)
			for k, i := range order {
				want[k] = list[i]
			}
			kept := slices.Clone(order)
			got := reorder(list, order)
			if !slices.Equal(got, want) {
				t.Errorf("%s of %d: got %q, want %q", name, n, got[:min(n, 5)], want[:min(n, 5)])
			}
			if !slices.Equal(order, kept) {
				t.Errorf("%s of %d: order changed", name, n)
			}
		}
	}
}
