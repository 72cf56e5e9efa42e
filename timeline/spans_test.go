package timeline

import (
	"math"
	"math/rand/v2"
	"testing"

	"flamedesk/core"
)

func randomModel(t testing.TB, seed uint64, origin float64, n int) *Model {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, seed*7+1))
	budget := n
	entries := randomTree(rng, origin, 10e6, 12, &budget)
	tr := synthTrace([]synthThread{{pid: 1, tid: 1, name: "CrRendererMain", pname: "Renderer"}}, [][]synthEntry{entries})
	return New(tr)
}

func TestLevelsSplitTheTreeByDepth(t *testing.T) {
	m := randomModel(t, 1, 1e9, 20000)
	tk := &m.Tracks[0]
	seen := 0
	for d, lv := range tk.Levels {
		for i, e := range lv.Entries {
			seen++
			if int(tk.Core.DepthAt(int(e))) != d {
				t.Fatalf("entry %d of depth %d on level %d", e, tk.Core.DepthAt(int(e)), d)
			}
			if i > 0 {
				prev := lv.Entries[i-1]
				if tk.Core.StartAt(int(e)) < tk.Core.StartAt(int(prev)) {
					t.Fatalf("level %d not in start order at %d", d, i)
				}
				if lv.MaxEndAt(tk.Core, i) < lv.MaxEndAt(tk.Core, i-1) {
					t.Fatalf("MaxEnd decreases on level %d at %d", d, i)
				}
			}
		}
	}
	if seen != tk.Core.Len() {
		t.Fatalf("levels hold %d entries, track %d", seen, tk.Core.Len())
	}
}

func TestVisibleRangeMatchesAScan(t *testing.T) {
	m := randomModel(t, 2, 1e9, 20000)
	tk := &m.Tracks[0]
	rng := rand.New(rand.NewPCG(3, 4))
	lo, hi := m.Bounds()
	for q := 0; q < 300; q++ {
		t0 := lo + (hi-lo)*rng.Float64()
		t1 := t0 + (hi-lo)*math.Pow(10, -6*rng.Float64())
		for d := range tk.Levels {
			lv := &tk.Levels[d]
			first, last := lv.VisibleRange(tk.Core, t0, t1)
			for p, e := range lv.Entries {
				in := referenceEnd(tk.Core, int(e)) >= t0 && tk.Core.StartAt(int(e)) <= t1
				if in != (p >= first && p < last) {
					t.Fatalf("level %d window [%f, %f]: position %d visible=%v, range [%d, %d)", d, t0, t1, p, in, first, last)
				}
			}
		}
	}
}

// referenceSpans applies the merge rule one entry at a time, without any skipping: the
// definition SpanIter must agree with. A run that begins left of the window is reported whole.
func referenceSpans(lv *Level, ct *core.Track, t0, t1, w float64) []Span {
	it := SpanIter{lv: lv, ct: ct, t1: t1, minW: w}
	var out []Span
	n := lv.Len()
	for k := lv.FirstEndingAfter(ct, t0); k < n && ct.StartAt(int(lv.Entries[k])) <= t1; {
		first, last := k, k
		if it.narrow(k) {
			for first > 0 && it.joined(first) {
				first--
			}
			for last+1 < n && it.joined(last+1) {
				last++
			}
		}
		out = append(out, Span{Start: ct.StartAt(int(lv.Entries[first])), First: int32(first), Last: int32(last)})
		k = last + 1
	}
	return out
}

func collect(it SpanIter) []Span {
	var out []Span
	for {
		s, ok := it.Next()
		if !ok {
			return out
		}
		out = append(out, s)
	}
}

func TestSpanIterMatchesTheMergeRule(t *testing.T) {
	m := randomModel(t, 5, 86_400_000_000, 30000)
	tk := &m.Tracks[0]
	rng := rand.New(rand.NewPCG(6, 7))
	lo, hi := m.Bounds()
	merged := 0
	for q := 0; q < 200; q++ {
		span := (hi - lo) * math.Pow(10, -5*rng.Float64())
		t0 := lo + (hi-lo-span)*rng.Float64()
		t1 := t0 + span
		w := 3 * span / 1600
		for d := range tk.Levels {
			lv := &tk.Levels[d]
			got := collect(lv.Spans(tk.Core, t0, t1, w))
			want := referenceSpans(lv, tk.Core, t0, t1, w)
			if len(got) != len(want) {
				t.Fatalf("q%d level %d: %d spans, reference %d", q, d, len(got), len(want))
			}
			for i := range got {
				g, r := got[i], want[i]
				if g.First != r.First || g.Last != r.Last || g.Start != r.Start {
					t.Fatalf("q%d level %d span %d: %+v, reference %+v", q, d, i, g, r)
				}
				if g.Merged() {
					merged++
				}
				if g.End != lv.MaxEndAt(tk.Core, int(g.Last)) {
					t.Fatalf("span end %f, want MaxEnd %f", g.End, lv.MaxEndAt(tk.Core, int(g.Last)))
				}
			}
		}
	}
	if merged == 0 {
		t.Fatal("the random trees never merged: the test does not test merging")
	}
}

func TestMergeIsStableWhilePanning(t *testing.T) {
	m := randomModel(t, 8, 1e9, 30000)
	tk := &m.Tracks[0]
	lo, hi := m.Bounds()
	span := (hi - lo) / 50
	w := 4 * span / 1600
	for d := range tk.Levels {
		lv := &tk.Levels[d]
		// Pan in steps of 37 px: a span is the same whichever window it is seen through, so
		// every span seen in two consecutive windows must be identical.
		var prev map[int32]Span
		for t0 := lo; t0+span <= hi; t0 += 37 * span / 1600 {
			cur := map[int32]Span{}
			for _, s := range collect(lv.Spans(tk.Core, t0, t0+span, w)) {
				cur[s.First] = s
				if o, ok := prev[s.First]; ok && o != s {
					t.Fatalf("level %d: span %+v at t0=%f was %+v one pan step before", d, s, t0, o)
				}
			}
			prev = cur
		}
	}
}

func TestMergeOnlyGrowsWhenZoomingOut(t *testing.T) {
	// Zooming out never splits a merge: every run at a width W1 lies inside one run at W2 > W1.
	m := randomModel(t, 9, 1e9, 30000)
	tk := &m.Tracks[0]
	lo, hi := m.Bounds()
	for d := range tk.Levels {
		lv := &tk.Levels[d]
		for w := (hi - lo) / 1e7; w < (hi-lo)/100; w *= 1.7 {
			fine := collect(lv.Spans(tk.Core, lo, hi, w))
			coarse := collect(lv.Spans(tk.Core, lo, hi, w*1.7))
			j := 0
			for _, s := range fine {
				for j < len(coarse) && coarse[j].Last < s.First {
					j++
				}
				if j == len(coarse) || coarse[j].First > s.First || coarse[j].Last < s.Last {
					t.Fatalf("level %d: run [%d, %d] at width %g split at width %g", d, s.First, s.Last, w, w*1.7)
				}
			}
		}
	}
}

func TestSpansCoverEveryVisibleEntryOnce(t *testing.T) {
	m := randomModel(t, 10, 1e9, 20000)
	tk := &m.Tracks[0]
	lo, hi := m.Bounds()
	for d := range tk.Levels {
		lv := &tk.Levels[d]
		first, last := lv.VisibleRange(tk.Core, lo, hi)
		next := int32(first) // the whole trace is in view: no run begins left of it
		for _, s := range collect(lv.Spans(tk.Core, lo, hi, (hi-lo)/500)) {
			if s.First != next {
				t.Fatalf("level %d: span starts at %d, want %d", d, s.First, next)
			}
			for p := s.First; p <= s.Last; p++ {
				e := lv.Entries[p]
				if tk.Core.StartAt(int(e)) < s.Start || referenceEnd(tk.Core, int(e)) > s.End {
					t.Fatalf("level %d: entry %d [%f, %f] outside its span [%f, %f]", d, p, tk.Core.StartAt(int(e)), referenceEnd(tk.Core, int(e)), s.Start, s.End)
				}
			}
			next = s.Last + 1
		}
		if int(next) != last {
			t.Fatalf("level %d: spans end at %d, visible range at %d", d, next, last)
		}
	}
}

func TestSpanIterIsCheapOnDenseLevels(t *testing.T) {
	// A million back-to-back 1 µs entries at full zoom-out are one merged span, found without
	// allocating (BenchmarkSpanIterDenseLevel shows it also costs microseconds, not a walk).
	const n = 1_000_000
	ct := &core.Track{}
	for i := 0; i < n; i++ {
		ct.Start.Append(1e9 + float64(i))
		ct.Dur.Append(1)
		ct.Depth = append(ct.Depth, 0)
	}
	lv := buildLevels(ct)[0]
	spans := collect(lv.Spans(ct, 1e9, 1e9+n, 3*float64(n)/1600))
	if len(spans) != 1 || spans[0].Count() != n {
		t.Fatalf("got %d spans (first %+v), want one merged span of %d", len(spans), spans[0], n)
	}
	allocs := testing.AllocsPerRun(10, func() {
		it := lv.Spans(ct, 1e9, 1e9+n, 3*float64(n)/1600)
		for {
			if _, ok := it.Next(); !ok {
				break
			}
		}
	})
	if allocs != 0 {
		t.Fatalf("iterating allocates %v times", allocs)
	}
}

func BenchmarkSpanIterDenseLevel(b *testing.B) {
	const n = 1_000_000
	ct := &core.Track{}
	for i := 0; i < n; i++ {
		ct.Start.Append(1e9 + float64(i)*2)
		ct.Dur.Append(1)
		ct.Depth = append(ct.Depth, 0)
	}
	lv := buildLevels(ct)[0]
	b.ReportAllocs()
	for b.Loop() {
		it := lv.Spans(ct, 1e9, 1e9+2*n, 3*2*float64(n)/1600)
		for {
			if _, ok := it.Next(); !ok {
				break
			}
		}
	}
}

func TestStandingSearchesMatchScans(t *testing.T) {
	// One level of 20,000 entries (five super-blocks) with gaps and widths over many orders of
	// magnitude; the block-skipping searches must agree with plain scans for every width.
	rng := rand.New(rand.NewPCG(31, 32))
	ct := &core.Track{}
	at := 1e9
	for i := 0; i < 20000; i++ {
		at += math.Pow(10, rng.Float64()*6-3) * float64(rng.IntN(2))
		d := math.Pow(10, rng.Float64()*6-3)
		ct.Start.Append(at)
		ct.Dur.Append(d)
		ct.Depth = append(ct.Depth, 0)
		at += d
	}
	lv := buildLevels(ct)[0]
	for q := 0; q < 2000; q++ {
		w := math.Pow(10, rng.Float64()*7-3)
		lo := rng.IntN(lv.Len() + 1)
		want := lv.Len()
		for i := lo; i < lv.Len(); i++ {
			if standFloat(lv.stand[i]) >= w {
				want = i
				break
			}
		}
		if got := lv.firstStanding(lo, w); got != want {
			t.Fatalf("firstStanding(%d, %g) = %d, want %d", lo, w, got, want)
		}
		hi := rng.IntN(lv.Len())
		want = -1
		for i := hi; i >= 0; i-- {
			if standFloat(lv.stand[i]) >= w {
				want = i
				break
			}
		}
		if got := lv.lastStanding(hi, w); got != want {
			t.Fatalf("lastStanding(%d, %g) = %d, want %d", hi, w, got, want)
		}
	}
	// stand is never below the exact value it rounds.
	for i := 1; i < lv.Len(); i++ {
		s, prev := ct.StartAt(int(lv.Entries[i])), lv.MaxEndAt(ct, i-1)
		if exact := max(MergeGapDivisor*(s-prev), lv.MaxEndAt(ct, i)-max(s, prev)); standFloat(lv.stand[i]) < exact {
			t.Fatalf("stand[%d] = %g below %g", i, standFloat(lv.stand[i]), exact)
		}
	}
}

func TestStandRoundingDoesNotSplitRuns(t *testing.T) {
	// Gaps of exactly 0.1 µs count MergeGapDivisor times, stored rounded up to a bfloat16; at a
	// merge width between the two (just past the exact value, where a float32 would not yet
	// differ from it, and further on) the entries are joined, and the iterator must say so.
	ct := &core.Track{}
	for i := 0; i < 10000; i++ {
		ct.Start.Append(float64(i) * 0.125)
		ct.Dur.Append(0.025)
		ct.Depth = append(ct.Depth, 0)
	}
	lv := buildLevels(ct)[0]
	for _, w := range []float64{MergeGapDivisor * 0.1000000001, MergeGapDivisor * 0.1 * 1.001} {
		if standFloat(lv.stand[5]) < w || (0.125-0.025)*MergeGapDivisor >= w {
			t.Fatalf("the fixture does not straddle the rounding at %g: stand %g", w, standFloat(lv.stand[5]))
		}
		spans := collect(lv.Spans(ct, 0, 1250, w))
		if len(spans) != 1 || spans[0].Count() != 10000 {
			t.Fatalf("at %g: %d spans, want one run of 10000", w, len(spans))
		}
		// Seen from the middle, the run still starts at the first entry.
		spans = collect(lv.Spans(ct, 600, 700, w))
		if len(spans) != 1 || spans[0].First != 0 {
			t.Fatalf("at %g from the middle: %+v", w, spans)
		}
	}
}

// A merged span is drawn as busy from end to end, so it must never cover a gap that can be seen.
// On a real profile at the fitted view (where the defect showed: one span at depth 12 claimed
// 3,569 entries over 21.9 of 22 s while depth 0 showed about 40 gaps), no merged span of any
// level covers a gap wider than a pixel between two of its entries.
func TestMergedSpansCoverNoVisibleGap(t *testing.T) {
	tr := loadFixture(t, "upstream", "speedscope-chrome65-sucrase.cpuprofile")
	m := New(tr)
	lo, hi := m.Bounds()
	const widthPx, minBarPx = 1400.0, 3.0
	px := (hi - lo) / widthPx
	checked, longest := 0, 0
	for ti := range m.Tracks {
		tk := &m.Tracks[ti]
		for li := range tk.Levels {
			lv := &tk.Levels[li]
			it := lv.Spans(tk.Core, lo, hi, minBarPx*px)
			for s, ok := it.Next(); ok; s, ok = it.Next() {
				if !s.Merged() {
					continue
				}
				checked++
				longest = max(longest, s.Count())
				for k := s.First + 1; k <= s.Last; k++ {
					if gap := tk.Core.StartAt(int(lv.Entries[k])) - lv.MaxEndAt(tk.Core, int(k-1)); gap > px {
						t.Fatalf("track %d level %d: a span of %d entries over %.1f ms covers a gap of %.1f ms (a pixel is %.1f ms)",
							ti, li, s.Count(), (s.End-s.Start)/1000, gap/1000, px/1000)
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no merged spans at the fitted view: the test checks nothing")
	}
	t.Logf("%d merged spans, the largest of %d entries", checked, longest)
}

// Stand bits are the least bfloat16 not below the value, and comparing them with a width's
// threshold as integers says what comparing their values with the width says, over values and
// widths across every order of magnitude, 0, infinities and NaN.
func TestStandBitsCompareAsTheirValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 16))
	special := []float64{0, math.Copysign(0, -1), -1, math.Inf(1), math.Inf(-1), math.NaN(), 1 << 24, math.MaxFloat32, math.MaxFloat64}
	pick := func() float64 {
		if rng.IntN(8) == 0 {
			return special[rng.IntN(len(special))]
		}
		return math.Pow(10, rng.Float64()*80-40)
	}
	for range 200000 {
		x, w := pick(), pick()
		b := standBits(x)
		v := standFloat(b)
		if !math.IsNaN(x) && x > 0 {
			if v < x {
				t.Fatalf("standBits(%g) = %g, below it", x, v)
			}
			if below := standFloat(b - 1); b > 0 && below >= x {
				t.Fatalf("standBits(%g) = %g, but %g is not below it either", x, v, below)
			}
		}
		if got, want := b >= standThreshold(w), v >= w; got != want {
			t.Fatalf("stand %g (from %g) against width %g: bits say %v, values %v", v, x, w, got, want)
		}
	}
}
