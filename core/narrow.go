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
// An arena is halved while Small is nil: Half then holds the values in 2 bytes each, offsets
// from HalfBias, and the values outside 16 bits of it are in Wide as well. A sample-heavy trace
// (5 million samples in 55 MB of JSON) kept more bytes in these arenas, with their growth's spare
// room, than its whole JSON took. core/load fills an arena halved around AppendBias, widens it
// into Small once the escapes cost more than they save (Widen), and may halve a widened one again
// around a better bias once every value is in (HalfPlan, Halve).
type Narrow[T int64 | float64] struct {
	Small  []int32
	WideAt []uint32 // ascending positions in Small (or Half) of the values in Wide
	Wide   []T
	// Half holds the values while Small is nil: HalfBias plus the int16, or HalfEscape where the
	// value is in Wide.
	Half     []int16
	HalfBias int64
}

// AppendBias is the bias of an arena halved as it fills: offsets 0..65534, where sample node ids
// and time deltas nearly all fall.
const AppendBias = math.MaxInt16

// HalfEscape marks a position of Half whose value is in Wide.
const HalfEscape = math.MinInt16

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
func (n *Narrow[T]) Len() int {
	if n.Small == nil {
		return len(n.Half)
	}
	return len(n.Small)
}

// At is value i.
func (n *Narrow[T]) At(i int) T {
	if n.Small == nil {
		if h := n.Half[i]; h != HalfEscape {
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
	if n.Small == nil {
		for _, h := range n.Half[s.Off : s.Off+s.Len] {
			if h != HalfEscape {
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
	if n.Small == nil {
		n.Half = n.Half[:m]
	} else {
		n.Small = n.Small[:m]
	}
	k, _ := slices.BinarySearch(n.WideAt, uint32(m))
	n.WideAt, n.Wide = n.WideAt[:k], n.Wide[:k]
}

// HalfPlan tells whether Halve would make the arena smaller, and with which bias: ok when the
// values of Small that fall outside 16 bits around bias, each of which moves into Wide at 12
// bytes, are few enough that the arena ends up below 4 bytes a value. escapes counts them. The
// bias centres a window of 65535 values on where most values are. (The spare room is not
// counted: the choice must depend on the values alone, so that a load read on lanes, whose
// arenas grow otherwise, chooses as one read in one pass.)
func (n *Narrow[T]) HalfPlan() (bias int64, escapes int, ok bool) {
	if len(n.Small) == 0 {
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
	return bias, escapes, 2*len(n.Small)+wideEntry*escapes < 4*len(n.Small)
}

// HalfOf is what Half keeps for s, a value that fits Small, and whether it can (false: the value
// goes to Wide).
func (n *Narrow[T]) HalfOf(s int32) (int16, bool) {
	d := int64(s) - n.HalfBias
	return int16(d), fitsHalf(d)
}

// Widen moves a halved arena's values into small, which must have room for Len() of them; fit
// tells which of the values in Wide then fit Small, which leave Wide.
func (n *Narrow[T]) Widen(fit func(T) (int32, bool), small []int32) {
	small = small[:len(n.Half)]
	k, w := 0, 0
	for i, h := range n.Half {
		if h != HalfEscape {
			small[i] = int32(n.HalfBias + int64(h))
			continue
		}
		v := n.Wide[k]
		k++
		if s, ok := fit(v); ok {
			small[i] = s
			continue
		}
		small[i] = NarrowEscape
		n.WideAt[w], n.Wide[w] = uint32(i), v
		w++
	}
	*n = Narrow[T]{Small: small, WideAt: n.WideAt[:w], Wide: n.Wide[:w]}
}

// fitsHalf tells whether an offset from the bias has its own int16 (not HalfEscape).
func fitsHalf(d int64) bool { return uint64(d-HalfEscape-1) <= 2*math.MaxInt16 }

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
		half[i] = HalfEscape
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
