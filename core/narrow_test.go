package core

import (
	"math"
	"slices"
	"testing"
)

// appendNarrow appends vs to n as core/load does, with fit telling which go narrow.
func appendNarrow[T int64 | float64](n *Narrow[T], vs []T, fit func(T) (int32, bool)) {
	for _, v := range vs {
		s, ok := fit(v)
		if !ok {
			n.WideAt = append(n.WideAt, uint32(len(n.Small)))
			n.Wide = append(n.Wide, v)
			s = NarrowEscape
		}
		n.Small = append(n.Small, s)
	}
}

// sameFloats compares bit for bit, so that -0 and NaN count.
func sameFloats(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}

func TestNarrowKeepsEveryValue(t *testing.T) {
	floats := []float64{125, 0, -3, math.Copysign(0, -1), 0.5, math.NaN(), math.Inf(1), math.MaxInt32, math.MaxInt32 + 1,
		math.MinInt32, math.MinInt32 + 1, 1e15, 7}
	var f Narrow[float64]
	appendNarrow(&f, floats, NarrowFloat)
	// Whole numbers in int32's range go narrow; -0, fractions, NaN, infinities, values past
	// int32 and the escape value itself go wide.
	if want := []uint32{3, 4, 5, 6, 8, 9, 11}; !slices.Equal(f.WideAt, want) {
		t.Errorf("wide positions %v, want %v", f.WideAt, want)
	}
	if got := f.AppendSpan(nil, Span{Off: 0, Len: uint32(len(floats))}); !sameFloats(got, floats) {
		t.Errorf("read back %v, want %v", got, floats)
	}
	for i, v := range floats {
		if got := f.At(i); math.Float64bits(got) != math.Float64bits(v) {
			t.Errorf("At(%d) = %v, want %v", i, got, v)
		}
	}
	// A span that starts past some wide values finds its own.
	if got := f.AppendSpan(nil, Span{Off: 5, Len: 5}); !sameFloats(got, floats[5:10]) {
		t.Errorf("span 5..10: %v, want %v", got, floats[5:10])
	}
	f.Truncate(6)
	if f.Len() != 6 || len(f.Wide) != 3 || !sameFloats(f.AppendSpan(nil, Span{Len: 6}), floats[:6]) {
		t.Errorf("after Truncate(6): %d values, %d wide", f.Len(), len(f.Wide))
	}

	ints := []int64{1, NoNode, 1 << 40, math.MinInt32, math.MaxInt32, -5}
	var n Narrow[int64]
	appendNarrow(&n, ints, NarrowInt)
	if want := []uint32{1, 2, 3}; !slices.Equal(n.WideAt, want) {
		t.Errorf("wide positions %v, want %v", n.WideAt, want)
	}
	if got := n.AppendSpan([]int64{9}, Span{Len: uint32(len(ints))}); !slices.Equal(got, append([]int64{9}, ints...)) {
		t.Errorf("read back %v, want 9 then %v", got, ints)
	}
}
