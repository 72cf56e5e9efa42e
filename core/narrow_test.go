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

// halved halves n as core/load does, failing t when HalfPlan declines.
func halved[T int64 | float64](t *testing.T, n *Narrow[T]) (escapes int) {
	t.Helper()
	bias, escapes, ok := n.HalfPlan()
	if !ok {
		t.Fatalf("HalfPlan declined %d values with %d escapes", n.Len(), escapes)
	}
	extra := len(n.Wide) + escapes
	n.Halve(bias, make([]int16, n.Len()), make([]uint32, 0, extra), make([]T, 0, extra))
	if n.Half == nil || n.Small != nil {
		t.Fatalf("not halved: %d half, %d small", len(n.Half), len(n.Small))
	}
	return escapes
}

func TestHalveKeepsEveryValue(t *testing.T) {
	// Deltas around a sampling interval, with the odd gap, negative step and values only Wide holds.
	var floats []float64
	for i := range 5000 {
		floats = append(floats, float64(100+i%900))
	}
	floats[7], floats[100], floats[2000] = 250000, -40, math.NaN()
	floats[3000], floats[4999] = math.Copysign(0, -1), math.MinInt32+1
	var f Narrow[float64]
	appendNarrow(&f, floats, NarrowFloat)
	if esc := halved(t, &f); esc != 2 { // 250000 and MinInt32+1 fall outside the window
		t.Errorf("%d escapes, want 2", esc)
	}
	if got := f.AppendSpan(nil, Span{Len: uint32(len(floats))}); !sameFloats(got, floats) {
		t.Errorf("halved deltas read back differently")
	}
	for _, i := range []int{0, 7, 100, 2000, 3000, 4998, 4999} {
		if got := f.At(i); math.Float64bits(got) != math.Float64bits(floats[i]) {
			t.Errorf("At(%d) = %v, want %v", i, got, floats[i])
		}
	}
	if got := f.AppendSpan(nil, Span{Off: 2000, Len: 1001}); !sameFloats(got, floats[2000:3001]) {
		t.Errorf("span 2000..3001 read back differently")
	}
	f.Truncate(3001)
	if f.Len() != 3001 || len(f.Wide) != 3 || !sameFloats(f.AppendSpan(nil, Span{Len: 3001}), floats[:3001]) {
		t.Errorf("after Truncate(3001): %d values, %d wide", f.Len(), len(f.Wide))
	}

	// Node ids past int16 but within 65535 of each other need no escape at all.
	var ids []int64
	for i := range 3000 {
		ids = append(ids, int64(40000+i*17%60000))
	}
	ids[5] = NoNode
	var n Narrow[int64]
	appendNarrow(&n, ids, NarrowInt)
	if esc := halved(t, &n); esc != 0 {
		t.Errorf("ids within 65535 of each other: %d escapes, want 0", esc)
	}
	if got := n.AppendSpan(nil, Span{Len: uint32(len(ids))}); !slices.Equal(got, ids) {
		t.Errorf("halved ids read back differently")
	}
	if len(n.Wide) != 1 || n.At(5) != NoNode {
		t.Errorf("the id that was wide before: %d wide, At(5) = %d", len(n.Wide), n.At(5))
	}
}

func TestHalfPlanDeclinesSpreadValues(t *testing.T) {
	// Spread over all of int32, most values would escape: Small stays.
	var n Narrow[int64]
	var ids []int64
	for i := range 4096 {
		ids = append(ids, int64(i)*1_000_003-(1<<31-1))
	}
	appendNarrow(&n, ids, NarrowInt)
	if _, esc, ok := n.HalfPlan(); ok {
		t.Errorf("halving values spread over int32 accepted, with %d escapes", esc)
	}
	// A cluster among them that holds all but a few is found, wherever it is.
	for i := range 40000 {
		n.Small = append(n.Small, int32(1<<30+i))
	}
	bias, esc, ok := n.HalfPlan()
	if !ok || esc > 4096 {
		t.Errorf("a cluster of 40000 beside 4096 spread values: ok %v, %d escapes", ok, esc)
	}
	if lo, hi := bias-32767, bias+32767; lo > 1<<30 || hi < 1<<30+39999 {
		t.Errorf("window %d..%d misses the cluster %d..%d", lo, hi, 1<<30, 1<<30+39999)
	}
	all := n.AppendSpan(nil, Span{Len: uint32(n.Len())})
	halved(t, &n)
	if got := n.AppendSpan(nil, Span{Len: uint32(n.Len())}); !slices.Equal(got, all) {
		t.Errorf("halved cluster read back differently")
	}
}

func BenchmarkHalve(b *testing.B) {
	var n Narrow[float64]
	for i := range 5_000_000 {
		n.Small = append(n.Small, int32(100+i%700))
	}
	small := n.Small
	for b.Loop() {
		n = Narrow[float64]{Small: small}
		bias, _, _ := n.HalfPlan()
		n.Halve(bias, make([]int16, n.Len()), nil, nil)
	}
}
