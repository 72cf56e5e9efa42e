package core

import (
	"math"
	"slices"
	"testing"
)

// Every value comes back bit for bit, in whichever form the column ends up.
func TestTimesKeepEveryValueExactly(t *testing.T) {
	detour := func(us float64) float64 { return us / 1000 * 1000 }
	// 1001 µs comes back from the detour as a hair less than itself.
	if v := detour(1001); v == 1001 {
		t.Fatalf("the detour example no longer rounds: %v", v)
	}
	cases := []struct {
		name   string
		base   float64
		values []float64
		wide   bool
	}{
		{"whole µs", 1256089681, []float64{1256089681, 1256089690, 1256089681 + 1<<30}, false},
		{"through the detour", 1000, []float64{detour(1001), 1001, detour(1024003), 1024003}, false},
		{"a fraction", 10, []float64{10, 11, 11.5, 12}, true},
		{"before the base", 10, []float64{10, 9}, true},
		{"past 2^31 µs", 0, []float64{0, 1 << 31}, true},
		{"negative zero", 0, []float64{0, math.Copysign(0, -1)}, true},
		{"NaN", 0, []float64{1, math.NaN()}, true},
		{"a NaN base", math.NaN(), []float64{1, 2}, false},
	}
	for _, c := range cases {
		set := NewTimes(c.base, len(c.values))
		var appended Times
		appended.Base = set.Base
		for i, v := range c.values {
			set.Set(i, v)
			appended.Append(v)
		}
		for _, col := range []*Times{&set, &appended} {
			if col.IsWide() != c.wide {
				t.Errorf("%s: wide %v, want %v", c.name, col.IsWide(), c.wide)
			}
			if col.Len() != len(c.values) {
				t.Fatalf("%s: %d values, want %d", c.name, col.Len(), len(c.values))
			}
			for i, v := range c.values {
				if got := col.At(i); math.Float64bits(got) != math.Float64bits(v) {
					t.Errorf("%s: value %d is %v, want %v", c.name, i, got, v)
				}
			}
		}
	}
}

// Self times follow from durations and parents, as the builders once stored them.
func TestSelfTimesFollowFromTheTree(t *testing.T) {
	// 0 [0,100) > 1 [10,40) > 2 [12,20); 0 > 3 [50,60); 4 [200,205) a root.
	tk := Track{
		Dur:    Times{Wide: []float64{100, 30, 8, 10, 5}},
		Start:  Times{Wide: []float64{0, 10, 12, 50, 200}},
		Depth:  []uint16{0, 1, 2, 1, 0},
		Parent: []int32{-1, 0, 1, 0, -1},
		Name:   make([]StrID, 5),
		Ref:    make([]int32, 5),
		Node:   []int32{-1, -1, -1, -1, -1},
	}
	want := []float64{60, 22, 8, 10, 5}
	all := tk.SelfTimes()
	for i, w := range want {
		if got := tk.SelfAt(i); got != w || all[i] != w {
			t.Errorf("self of %d: SelfAt %v, SelfTimes %v, want %v", i, got, all[i], w)
		}
	}
	if tk.KindAt(0) != EntryEvent || tk.FrameAt(0) != NoFrame {
		t.Errorf("an entry without a node should be an event without a frame")
	}
}

func TestPackedKeepsEveryWidth(t *testing.T) {
	for _, max := range []uint64{0, 1, 2, 7, 1000, 1<<17 + 5, 1<<31 + 3, 1<<63 + 9} {
		const n = 300
		p := NewPacked(n, max)
		// A second column is filled in order with Put, which must keep the same values.
		put := NewPacked(n, max)
		want := make([]uint64, n)
		for i := range want {
			want[i] = (uint64(i) * 0x9E3779B97F4A7C15) % (max + 1)
			if max == 1<<63+9 {
				want[i] = uint64(i) * 0x9E3779B97F4A7C15 >> 1
			}
			p.Set(i, want[i])
			put.Put(i, want[i])
		}
		if !slices.Equal(put.Words, p.Words) {
			t.Fatalf("max %d: Put and Set store different words", max)
		}
		// Rewriting values in place must not disturb the neighbours.
		for i := 0; i < n; i += 3 {
			p.Set(i, want[i])
		}
		p.Truncate(n - 1)
		for i := 0; i < n-1; i++ {
			if got := p.At(i); got != want[i] {
				t.Fatalf("max %d: value %d is %d, want %d", max, i, got, want[i])
			}
		}
		// A run decoded at once reads what At reads, from any start and for any length.
		for _, lo := range []int{0, 1, 63, 64, 130} {
			for _, length := range []int{0, 1, 5, 64, n - 1 - lo} {
				run := make([]uint64, length)
				p.Run(lo, run)
				if !slices.Equal(run, want[lo:lo+length]) {
					t.Fatalf("max %d: Run(%d) of %d differs from At", max, lo, length)
				}
			}
		}
	}
}
