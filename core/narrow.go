// Narrow: an arena of 64-bit numbers kept in 4 bytes each where they fit, for the profile
// samples of RawChunks. A trace's ProfileChunks carry a node id and a time delta per sample, and a
// real trace carries millions of samples (over ten thousand per MB of JSON on a page that runs
// scripts), so their 16 bytes a sample were a tenth of the load's memory.

package core

import (
	"math"
	"slices"
	"unsafe"
)

// Narrow is an arena of int64 or float64 values. Each value is in Small, as an int32, when it
// is a whole number that fits one (sample node ids are small, time deltas whole µs); the rest, in
// Wide, at the positions WideAt lists, and Small holds NarrowEscape there. It holds no pointers.
// Append with NarrowInt or NarrowFloat; read with At or AppendSpan.
//
// Once every value is in, Halve may move Small into Half, 2 bytes a value, each an offset from
// HalfBias: a sample-heavy trace (5 million samples in 55 MB of JSON) kept more bytes in these
// arenas, with their growth's spare room, than its whole JSON took.
type Narrow[T int64 | float64] struct {
	Small  []int32
	WideAt []uint32 // ascending positions in Small (or Half) of the values in Wide
	Wide   []T
	// Half, when not nil, holds the values instead of Small: HalfBias plus the int16, or
	// halfEscape where the value is in Wide.
	Half     []int16
	HalfBias int64
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

// halfEscape marks a position of Half whose value is in Wide.
const halfEscape = math.MinInt16

// Len is the number of values.
func (n *Narrow[T]) Len() int {
	if n.Half != nil {
		return len(n.Half)
	}
	return len(n.Small)
}

// At is value i.
func (n *Narrow[T]) At(i int) T {
	if n.Half != nil {
		if h := n.Half[i]; h != halfEscape {
			return T(n.HalfBias + int64(h))
		}
	} else if s := n.Small[i]; s != NarrowEscape {
		return T(s)
	}
	k, _ := slices.BinarySearch(n.WideAt, uint32(i))
	return n.Wide[k]
}

// AppendSpan appends the values s addresses to dst.
func (n *Narrow[T]) AppendSpan(dst []T, s Span) []T {
	k, _ := slices.BinarySearch(n.WideAt, s.Off)
	if n.Half != nil {
		for _, h := range n.Half[s.Off : s.Off+s.Len] {
			if h != halfEscape {
				dst = append(dst, T(n.HalfBias+int64(h)))
				continue
			}
			dst = append(dst, n.Wide[k])
			k++
		}
		return dst
	}
	for _, v := range n.Small[s.Off : s.Off+s.Len] {
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
	if n.Half != nil {
		n.Half = n.Half[:m]
	} else {
		n.Small = n.Small[:m]
	}
	k, _ := slices.BinarySearch(n.WideAt, uint32(m))
	n.WideAt, n.Wide = n.WideAt[:k], n.Wide[:k]
}

// HalfPlan tells whether Halve would make the arena smaller, and with which bias: ok when the
// values of Small that fall outside 16 bits around bias, each of which moves into Wide at 12
// bytes, are few enough that the arena ends up below what Small holds now, spare room included.
// escapes counts them. The bias centres a window of 65535 values on where most values are.
func (n *Narrow[T]) HalfPlan() (bias int64, escapes int, ok bool) {
	if n.Half != nil || len(n.Small) == 0 {
		return 0, 0, false
	}
	// NarrowEscape is int32's least value: it only lowers lo, which is found again without it
	// when it did.
	lo, hi := n.Small[0], n.Small[0]
	for _, v := range n.Small {
		lo, hi = min(lo, v), max(hi, v)
	}
	if lo == NarrowEscape {
		lo = math.MaxInt32
		for _, v := range n.Small {
			if v != NarrowEscape {
				lo = min(lo, v)
			}
		}
	}
	if lo > hi { // every value is wide
		return 0, 0, false
	}
	bias = int64(lo) - math.MinInt16 - 1
	if int64(hi)-int64(lo) > 2*math.MaxInt16 {
		bias = busiestWindow(n.Small, int64(lo), int64(hi))
		for _, v := range n.Small {
			if !fitsHalf(int64(v)-bias) && v != NarrowEscape {
				escapes++
			}
		}
	}
	wideEntry := int(unsafe.Sizeof(uint32(0)) + unsafe.Sizeof(*new(T)))
	return bias, escapes, 2*len(n.Small)+wideEntry*escapes < 4*cap(n.Small)
}

// fitsHalf tells whether an offset from the bias has its own int16 (not halfEscape).
func fitsHalf(d int64) bool { return uint64(d-halfEscape-1) <= 2*math.MaxInt16 }

// busiestWindow returns the bias whose window of 16-bit offsets holds about the most values of
// small in lo..hi, those outside it being the escapes: a histogram of 256 bins, slid one bin at a
// time. Where a bin is wider than a window, it looks again inside the busiest bin (at most three
// times: each look narrows the bins 256 times).
func busiestWindow(small []int32, lo, hi int64) int64 {
	const bins = 256
	for {
		width := (hi-lo)/bins + 1
		var count [bins]int
		for _, v := range small {
			if x := int64(v); x >= lo && x <= hi && v != NarrowEscape {
				count[(x-lo)/width]++
			}
		}
		span := int(2 * math.MaxInt16 / width) // whole bins that fit in a window
		if span < 1 {
			busiest := 0
			for i := range bins {
				if count[i] > count[busiest] {
					busiest = i
				}
			}
			lo, hi = lo+int64(busiest)*width, min(hi, lo+int64(busiest+1)*width-1)
			continue
		}
		best, sum, bestSum := 0, 0, -1
		for i := range bins {
			sum += count[i]
			if i >= span {
				sum -= count[i-span]
			}
			if first := max(0, i-span+1); sum > bestSum {
				best, bestSum = first, sum
			}
		}
		return lo + int64(best)*width - math.MinInt16 - 1
	}
}

// Halve moves Small into Half with the bias HalfPlan chose, the values outside its window into
// Wide. half must have room for Len() values, wideAt and wide for the escapes HalfPlan counted
// more than the arena has now.
func (n *Narrow[T]) Halve(bias int64, half []int16, wideAt []uint32, wide []T) {
	half, wideAt, wide = half[:len(n.Small)], wideAt[:0], wide[:0]
	k := 0
	for i, v := range n.Small {
		if d := int64(v) - bias; fitsHalf(d) {
			half[i] = int16(d)
			continue
		}
		half[i] = halfEscape
		wideAt = append(wideAt, uint32(i))
		if v == NarrowEscape {
			wide = append(wide, n.Wide[k])
			k++
		} else {
			wide = append(wide, T(v))
		}
	}
	*n = Narrow[T]{Half: half, HalfBias: bias, WideAt: wideAt, Wide: wide}
}
