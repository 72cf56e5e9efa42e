// Tests of stableSortByTime, which orders a profile's samples by time.
package load

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestStableSortByTimeKeepsFileOrderOfEqualTimes checks the sort against the standard library's
// stable sort on nearly sorted times (its insertion-sort path), shuffled ones (past its move
// budget) and ones with NaN, which go last.
func TestStableSortByTimeKeepsFileOrderOfEqualTimes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	cases := map[string]func(i int) float64{
		"nearly sorted": func(i int) float64 { return float64(i/2 - rng.IntN(3)) },
		"shuffled":      func(int) float64 { return float64(rng.IntN(50)) },
		// Sorted but for a stretch that goes back: the insertion sort moves part of it in place
		// before its budget runs out, and the pairs finish from there.
		"a stretch back": func(i int) float64 {
			if i >= 1000 && i < 1300 {
				return float64(i/4 - 200)
			}
			return float64(i / 4)
		},
		"one late sample": func(i int) float64 {
			if i == 1999 {
				return 3
			}
			return float64(i / 3)
		},
		"with NaN": func(i int) float64 {
			if rng.IntN(7) == 0 {
				return math.NaN()
			}
			return float64(i%40 - rng.IntN(5))
		},
	}
	for name, at := range cases {
		n := 2000
		ts := make([]float64, n)
		samples := make([]int32, n)
		lines := make([]int32, n)
		columns := make([]uint16, n)
		for i := range ts {
			ts[i] = at(i)
			samples[i] = int32(i)
			lines[i] = int32(-i)
			columns[i] = uint16(3 * i)
		}
		want := slices.Clone(samples)
		slices.SortStableFunc(want, func(a, b int32) int {
			x, y := ts[a], ts[b]
			switch {
			case math.IsNaN(x) && math.IsNaN(y):
				return 0
			case math.IsNaN(x):
				return 1
			case math.IsNaN(y):
				return -1
			case x < y:
				return -1
			case x > y:
				return 1
			}
			return 0
		})
		wantTs := make([]float64, n)
		for k, i := range want {
			wantTs[k] = ts[i]
		}
		stableSortByTime(samples, ts, sampleColumns{wide: [][]int32{lines}, narrow: [][]uint16{columns}})
		for k := range samples {
			same := ts[k] == wantTs[k] || math.IsNaN(ts[k]) && math.IsNaN(wantTs[k])
			if samples[k] != want[k] || lines[k] != -want[k] || columns[k] != uint16(3*want[k]) || !same {
				t.Fatalf("%s: position %d holds sample %d (line %d, time %v), want %d (time %v)",
					name, k, samples[k], lines[k], ts[k], want[k], wantTs[k])
			}
		}
	}
}
