// Narrow: an arena of 64-bit numbers kept in 4 bytes each where they fit, for the profile
// samples of RawChunks. A trace's ProfileChunks carry a node id and a time delta per sample, and a
// real trace carries millions of samples (over ten thousand per MB of JSON on a page that runs
// scripts), so their 16 bytes a sample were a tenth of the load's memory.

package core

import (
	"math"
	"slices"
)

// Narrow is an arena of int64 or float64 values. Each value is in Small, as an int32, when it
// is a whole number that fits one (sample node ids are small, time deltas whole µs); the rest, in
// Wide, at the positions WideAt lists, and Small holds NarrowEscape there. It holds no pointers.
// Append with NarrowInt or NarrowFloat; read with At or AppendSpan.
type Narrow[T int64 | float64] struct {
	Small  []int32
	WideAt []uint32 // ascending positions in Small of the values in Wide
	Wide   []T
}

// NarrowEscape marks a position of Small whose value is in Wide.
const NarrowEscape = math.MinInt32

// NarrowInt returns v as Small keeps it, and whether it can be.
func NarrowInt(v int64) (int32, bool) {
	if v <= NarrowEscape || v > math.MaxInt32 {
		return 0, false
	}
	return int32(v), true
}

// NarrowFloat returns v as Small keeps it, and whether it can be: a whole number in int32's range,
// not -0 (which would read back as +0), nor NaN.
func NarrowFloat(v float64) (int32, bool) {
	if !(v > NarrowEscape && v <= math.MaxInt32) || v != math.Trunc(v) || math.Float64bits(v) == 1<<63 {
		return 0, false
	}
	return int32(v), true
}

// Len is the number of values.
func (n *Narrow[T]) Len() int { return len(n.Small) }

// At is value i.
func (n *Narrow[T]) At(i int) T {
	if s := n.Small[i]; s != NarrowEscape {
		return T(s)
	}
	k, _ := slices.BinarySearch(n.WideAt, uint32(i))
	return n.Wide[k]
}

// AppendSpan appends the values s addresses to dst.
func (n *Narrow[T]) AppendSpan(dst []T, s Span) []T {
	small := n.Small[s.Off : s.Off+s.Len]
	k, _ := slices.BinarySearch(n.WideAt, s.Off)
	for _, v := range small {
		if v != NarrowEscape {
			dst = append(dst, T(v))
			continue
		}
		dst = append(dst, n.Wide[k])
		k++
	}
	return dst
}

// Truncate keeps the first m values.
func (n *Narrow[T]) Truncate(m int) {
	n.Small = n.Small[:m]
	k, _ := slices.BinarySearch(n.WideAt, uint32(m))
	n.WideAt, n.Wide = n.WideAt[:k], n.Wide[:k]
}
