package background

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestCopyIsTheBuiltinCopy checks Copy against copy on slices of several pieces and of none,
// of different lengths, and overlapping either way, for a plain and a pointer type.
func TestCopyIsTheBuiltinCopy(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	piece := copyPiece / 4
	for _, n := range []int{0, 1, piece - 1, piece, piece + 1, 3*piece + 7} {
		src := make([]int32, n)
		for i := range src {
			src[i] = r.Int32()
		}
		for _, dn := range []int{n, n / 2, n + 5} {
			want, got := make([]int32, dn), make([]int32, dn)
			wn, gn := copy(want, src), Copy(got, src)
			if wn != gn || !slices.Equal(want, got) {
				t.Fatalf("n %d into %d: copied %d, want %d, or the elements differ", n, dn, gn, wn)
			}
		}
		for _, shift := range []int{1, piece / 2, piece + 3} {
			if shift >= n {
				continue
			}
			for _, right := range []bool{true, false} {
				want, got := slices.Clone(src), slices.Clone(src)
				if right {
					copy(want[shift:], want)
					Copy(got[shift:], got)
				} else {
					copy(want, want[shift:])
					Copy(got, got[shift:])
				}
				if !slices.Equal(want, got) {
					t.Fatalf("n %d, overlap by a shift of %d (right %v): the elements differ", n, shift, right)
				}
			}
		}
	}
	strs := make([]*int, 3*copyPiece/8+1)
	for i := range strs {
		v := i
		strs[i] = &v
	}
	got := make([]*int, len(strs))
	if Copy(got, strs) != len(strs) || !slices.Equal(got, strs) {
		t.Fatal("pointers copied wrong")
	}
}
