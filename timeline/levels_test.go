package timeline

import (
	"cmp"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"flamedesk/core"
	"flamedesk/core/pipeline"
	"flamedesk/core/timelines"
	"flamedesk/internal/fixtures"
)

// The levels of every track of every fixture, on depths and on the panel's drawn rows, are the
// reference build's bit for bit: entries, running maxima, stand values and their block maxima.
func TestLevelsMatchTheReferenceBuild(t *testing.T) {
	if raceEnabled {
		t.Skip("one goroutine, and minutes over every fixture under -race: run without it")
	}
	paths := fixtures.Glob(t, "fixtures/upstream/*")
	paths = append(paths, fixtures.Glob(t, "fixtures/generated/gen-*")...)
	for _, p := range paths {
		if testing.Short() && filepath.Base(p) == "gen-trace-large.json.gz" {
			continue
		}
		t.Run(filepath.Base(p), func(t *testing.T) {
			tr, err := pipeline.OpenFile(p)
			if err != nil {
				t.Skip(err)
			}
			var vis *timelines.Visibility
			if tr.Kind == core.InputTrace {
				vis = timelines.NewVisibility(tr, false)
			}
			for ti := range tr.Tracks {
				ct := &tr.Tracks[ti]
				sameLevels(t, ti, ct, buildLevels(ct), referenceLevels(ct, nil))
				if vis != nil {
					rows := drawnRows(tr, ct, vis)
					if want := referenceDrawnRows(tr, ct, vis); !slices.Equal(rows, want) {
						t.Fatalf("track %d: drawn rows differ from the reference's", ti)
					}
					if rows != nil {
						sameLevels(t, ti, ct, buildLevelsOnRows(ct, rows), referenceLevels(ct, rows))
					}
				}
			}
		})
	}
}

// Deep tracks (more rows than one bucket), rows left out, overlapping siblings, unsorted levels
// and NaN times all build as the reference does.
func TestLevelsMatchTheReferenceOnHostileTracks(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 18))
	for round := range 40 {
		ct, rows := hostileTrack(rng, 1+rng.IntN(3000), round%2 == 0, 0)
		sameLevels(t, round, ct, buildLevels(ct), referenceLevels(ct, nil))
		sameLevels(t, round, ct, buildLevelsOnRows(ct, rows), referenceLevels(ct, rows))
	}
}

// Tracks large enough to be placed on two goroutines (splitRow), shallow or deeper than a bucket
// of rows, build as the reference does. The size is lowered for the test, so that it runs under
// -race too.
func TestLevelsPlacedOnTwoGoroutinesMatchTheReference(t *testing.T) {
	placeOnTwoFrom(t, 2000)
	rng := rand.New(rand.NewPCG(18, 7))
	for round := range 20 {
		ct, rows := hostileTrack(rng, 2500+rng.IntN(20000), false, 20+rng.IntN(40))
		if round%2 == 0 {
			// Rows 13 apart: more than one bucket of rows.
			for i := range rows {
				ct.Depth[i] *= 13
				if rows[i] > 0 {
					rows[i] *= 13
				}
			}
		}
		sameLevels(t, round, ct, buildLevels(ct), referenceLevels(ct, nil))
		sameLevels(t, round, ct, buildLevelsOnRows(ct, rows), referenceLevels(ct, rows))
	}
}

// Tracks whose times are whole µs, which placeWhole places, build as the reference does: with
// gaps and entries long enough for stand values past 2^24 and running maxima more than 2^31 µs
// past their level's first start, siblings out of start order, durations of 0 and below, and,
// in some, one time partway that went through the milliseconds detour, after which the rest is
// placed by placeSpan; on one goroutine and on two.
func TestLevelsMatchTheReferenceOnWholeTracks(t *testing.T) {
	placeOnTwoFrom(t, 2000)
	rng := rand.New(rand.NewPCG(9, 18))
	for round := range 30 {
		ct, rows := wholeTrack(rng, 100+rng.IntN(6000), round%3 == 0, round%2 == 0)
		if ct.Start.IsWide() || ct.Dur.IsWide() {
			t.Fatalf("round %d: the track's times are not kept as whole µs", round)
		}
		sameLevels(t, round, ct, buildLevels(ct), referenceLevels(ct, nil))
		sameLevels(t, round, ct, buildLevelsOnRows(ct, rows), referenceLevels(ct, rows))
	}
}

// wholeTrack makes a track of n entries at random depths (to beyond a bucket of rows when deep)
// whose times are whole µs, far apart or long now and then (after the detour); with detour, one
// start at depth 0 partway through the track is a time the milliseconds detour left a hair off a
// whole µs, the last of a run of entries placed at once, followed by one a µs and that hair later. About one entry in six is
// left out of the rows.
func wholeTrack(rng *rand.Rand, n int, deep, detour bool) (*core.Track, []int32) {
	const origin = 100000
	ct := &core.Track{Start: core.NewTimes(origin, n), Dur: core.NewTimes(-3, n), Depth: make([]uint16, n)}
	rows := make([]int32, n)
	depth, start := 0, float64(origin)
	spoilt, held := -1, 0.0 // held: the start of the entries after the spoilt one
	if detour && n > 4*spanRun {
		// The last entry of a run: on one goroutine, the entry after it starts the next run.
		spoilt = (n/2/spanRun+1)*spanRun - 1
	}
	for i := range n {
		switch {
		case deep && rng.IntN(3) != 0:
			depth = min(depth+1, 600)
		case depth > 0:
			depth = rng.IntN(depth + 1)
		}
		// The entry after it starts a hair and a µs after it and takes no time: a gap that no
		// float32 holds.
		after := spoilt >= 0 && i == spoilt+1
		if i == spoilt || after {
			depth = 0
		}
		ct.Depth[i], rows[i] = uint16(depth), int32(depth)
		if rng.IntN(6) == 0 && i != spoilt && !after {
			rows[i] = -1
		}
		start += float64(rng.IntN(8))
		dur := float64(rng.IntN(30) - 3)
		switch rng.IntN(200) {
		case 0:
			if start < 1<<30 && i > spoilt {
				start += float64(1<<24 + rng.IntN(1<<26)) // a gap whose stand value is past 2^24
			}
		case 1:
			if i > spoilt {
				dur = float64(1<<31 - 4 - rng.IntN(100)) // a running maximum 2^31 µs past the level's start
			}
		case 2:
			if depth > 0 || spoilt < 0 { // row 0 stays in order, or its stand values are redone
				start -= float64(rng.IntN(50)) // before its predecessors
			}
		}
		ct.Start.Set(i, max(start, origin))
		if i == spoilt {
			// A start past every end before it, a hair below a whole µs, kept as a detoured
			// offset: row 0's running maximum.
			start += 40
			for k := 1.0; k < 1e6; k++ {
				if v := (start + k) / 1000 * 1000; v < start+k {
					start, held = start+k, start+k
					ct.Start.Set(i, v)
					break
				}
			}
			dur = -1
		}
		if after {
			ct.Start.Set(i, held+1)
			dur = 0
		}
		ct.Dur.Set(i, dur)
	}
	ct.MaxDepth = int(slices.Max(ct.Depth))
	return ct, rows
}

// hostileTrack makes a track of n entries with overlapping and out-of-order siblings, NaN times
// and fractional starts, and panel rows that leave about one entry in six out; deep runs go
// beyond one bucket of rows. With spread > 0 a shallow track's entries spread over that many
// depths, else they stay at depth 0.
func hostileTrack(rng *rand.Rand, n int, deep bool, spread int) (*core.Track, []int32) {
	ct := &core.Track{Start: core.NewTimes(0, 0), Dur: core.NewTimes(0, 0)}
	depth := 0
	rows := make([]int32, n)
	for i := range n {
		switch {
		case deep && rng.IntN(4) != 0:
			depth = min(depth+1, math.MaxUint16) // deep runs: beyond one bucket of rows
		case depth > 0:
			depth = rng.IntN(depth + 1)
		case spread > 0:
			depth = rng.IntN(spread)
		}
		ct.Depth = append(ct.Depth, uint16(depth))
		start := float64(i*10) + float64(rng.IntN(5))
		if rng.IntN(20) == 0 {
			start = float64(rng.IntN(n * 10)) // out of order, overlapping
		}
		dur := float64(rng.IntN(40)) - 5
		switch rng.IntN(50) {
		case 0:
			start = math.NaN()
		case 1:
			dur = math.NaN()
		case 2:
			start += 0.3
		}
		ct.Start.Append(start)
		ct.Dur.Append(dur)
		rows[i] = int32(depth)
		if rng.IntN(6) == 0 {
			rows[i] = -1
		}
	}
	return ct, rows
}

// maxEnds reads a level's running maximum ends.
func maxEnds(lv *Level, ct *core.Track) []float64 {
	out := make([]float64, lv.Len())
	for i := range out {
		out[i] = lv.MaxEndAt(ct, i)
	}
	return out
}

func sameLevels(t *testing.T, track int, ct *core.Track, got []Level, want []refLevel) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("track %d: %d levels, want %d", track, len(got), len(want))
	}
	bits := func(f []float64) []uint64 {
		out := make([]uint64, len(f))
		for i, v := range f {
			out[i] = math.Float64bits(v)
		}
		return out
	}
	for d := range got {
		g, w := &got[d], &want[d]
		if g.maxEnd.IsWide() {
			// A float64 a maximum: the level was to keep the positions of its latest ends.
			t.Fatalf("track %d level %d keeps its maximum ends as float64s", track, d)
		}
		if !slices.Equal(g.Entries, w.Entries) || !slices.Equal(bits(maxEnds(g, ct)), bits(w.MaxEnd)) ||
			!slices.Equal(g.stand, w.stand) || !slices.Equal(g.blockMax, w.blockMax) ||
			!slices.Equal(g.superMax, w.superMax) {
			t.Fatalf("track %d level %d differs from the reference build (%d entries, want %d)", track, d, g.Len(), w.Len())
		}
	}
}

// referenceLevels is the previous, straightforward build of the levels (scatter into level
// order, then sort, running maxima and stand per level), kept to check the faster one against.
func referenceLevels(ct *core.Track, rows []int32) []refLevel {
	row := func(i int) int {
		if rows != nil {
			return int(rows[i])
		}
		return int(ct.DepthAt(i))
	}
	n := 0
	maxDepth := -1
	for i := range ct.Len() {
		if d := row(i); d >= 0 {
			maxDepth = max(maxDepth, d)
			n++
		}
	}
	if maxDepth < 0 {
		return nil
	}
	next := make([]int, maxDepth+2)
	for i := range ct.Len() {
		if d := row(i); d >= 0 {
			next[d+1]++
		}
	}
	for d := 1; d < len(next); d++ {
		next[d] += next[d-1]
	}
	levels := make([]refLevel, maxDepth+1)
	entries := make([]int32, n)
	maxEnds := make([]float64, n) // ends in level order first; running maxima after
	starts := make([]float64, n)  // scratch
	for d := range levels {
		levels[d] = refLevel{Entries: entries[next[d]:next[d+1]], MaxEnd: maxEnds[next[d]:next[d+1]]}
	}
	for i := range ct.Len() {
		d := row(i)
		if d < 0 {
			continue
		}
		p := next[d]
		next[d]++
		entries[p] = int32(i)
		starts[p] = ct.StartAt(i)
		maxEnds[p] = referenceEnd(ct, i)
	}
	stands := make([]uint16, n)
	off := 0
	for d := range levels {
		lv := &levels[d]
		m := lv.Len()
		st := starts[off : off+m]
		if !slices.IsSorted(st) {
			order := make([]int, m)
			for i := range order {
				order[i] = i
			}
			slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(st[a], st[b]) })
			es, ss, ends := slices.Clone(lv.Entries), slices.Clone(st), slices.Clone(lv.MaxEnd)
			for i, o := range order {
				lv.Entries[i], st[i], lv.MaxEnd[i] = es[o], ss[o], ends[o]
			}
		}
		runMax := math.Inf(-1)
		for i, end := range lv.MaxEnd {
			if end > runMax { // a NaN start is skipped, not spread
				runMax = end
			}
			lv.MaxEnd[i] = runMax
		}
		lv.stand = stands[off : off+m]
		referenceStand(lv, st)
		off += m
	}
	return levels
}

func referenceStand(lv *refLevel, starts []float64) {
	for i := range lv.Entries {
		if i == 0 {
			lv.stand[0] = referenceBF16(math.Inf(1))
			continue
		}
		start, prevEnd := starts[i], lv.MaxEnd[i-1]
		gap := start - prevEnd
		added := lv.MaxEnd[i] - max(start, prevEnd)
		lv.stand[i] = referenceBF16(max(gap*MergeGapDivisor, added))
	}
	// The block maxima one value at a time, both kinds at once, as buildBlockMax did before it
	// took each block's maximum in registers and a super-block's over its blocks.
	n := len(lv.stand)
	lv.blockMax = make([]uint16, (n+(1<<blockShift)-1)>>blockShift)
	lv.superMax = make([]uint16, (n+(1<<superShift)-1)>>superShift)
	for i, v := range lv.stand {
		lv.blockMax[i>>blockShift] = max(lv.blockMax[i>>blockShift], v)
		lv.superMax[i>>superShift] = max(lv.superMax[i>>superShift], v)
	}
}

// referenceBF16 is the least bfloat16 not below v, as bits (0 for v at or below 0, +Inf for
// NaN): the float32 rounded up, cut to its top half, and one step up where the cut lost
// something.
func referenceBF16(v float64) uint16 {
	switch {
	case math.IsNaN(v):
		v = math.Inf(1)
	case v <= 0:
		return 0
	}
	f := roundUp32(v)
	cut := math.Float32bits(f) >> 16 << 16
	if math.Float32frombits(cut) < f {
		cut += 1 << 16
	}
	return uint16(cut >> 16)
}

// referenceEnd is entry i's start plus its duration when that is above 0, from StartAt and DurAt:
// what core.Track.EndAt must give.
func referenceEnd(ct *core.Track, i int) float64 {
	start, dur := ct.StartAt(i), ct.DurAt(i)
	if dur > 0 {
		return start + dur
	}
	return start
}

// refLevel is a level as the reference build made it, its running maximum ends as float64s.
type refLevel struct {
	Entries                   []int32
	MaxEnd                    []float64
	stand, blockMax, superMax []uint16
}

func (l *refLevel) Len() int { return len(l.Entries) }

// referenceDrawnRows is the previous drawnRows, which found each entry's parent through the Parent
// column and kept a row below every entry.
func referenceDrawnRows(tr *core.Trace, ct *core.Track, vis *timelines.Visibility) []int32 {
	var rows, below []int32 // allocated at the first entry left out
	for e := 0; e < ct.Len(); e++ {
		drawn := vis.Entry(tr, ct, e)
		if rows == nil {
			if drawn {
				continue
			}
			// Up to here every entry sat on the row of its depth.
			rows, below = make([]int32, ct.Len()), make([]int32, ct.Len())
			for k := 0; k < e; k++ {
				rows[k], below[k] = int32(ct.DepthAt(k)), int32(ct.DepthAt(k))+1
			}
		}
		// below[p] is the row p's children go on; pre-order puts every parent before its children.
		base := int32(0)
		if p := ct.ParentAt(e); p >= 0 {
			base = below[p]
		}
		if drawn {
			rows[e], below[e] = base, base+1
		} else {
			rows[e], below[e] = -1, base
		}
	}
	return rows
}

// Tracks large enough for drawnRows to lay out in two halves get the rows the reference gives;
// and a track whose second half does not stand alone (an entry two deeper than the one before
// it) gets the rows of the whole track laid out in one go. The size is lowered for the test, so
// that the fixtures' tracks take that path and it runs under -race too.
func TestDrawnRowsInHalvesMatchTheReference(t *testing.T) {
	was := parallelPlaceEntries
	t.Cleanup(func() { parallelPlaceEntries = was })
	halves, leftOut, jumped, oneSided := 0, 0, 0, 0
	for _, name := range []string{"gen-trace-small.json.gz", "gen-trace-medium-reload.json.gz"} {
		tr, err := pipeline.OpenFile(fixtures.Path(t, "fixtures", "generated", name))
		if err != nil {
			t.Fatal(err)
		}
		vis := timelines.NewVisibility(tr, false)
		for ti := range tr.Tracks {
			parallelPlaceEntries = 500
			ct := &tr.Tracks[ti]
			cut := topLevelNear(ct, ct.Len()/2)
			if ct.Len() < parallelPlaceEntries || cut == 0 {
				continue
			}
			halves++
			got := drawnRows(tr, ct, vis)
			if want := referenceDrawnRows(tr, ct, vis); !slices.Equal(got, want) {
				t.Fatalf("%s track %d: drawn rows differ from the reference's", name, ti)
			}
			if got != nil {
				leftOut++
				// The same trace with every entry of one half drawn (its events renamed after a
				// drawn one), so that only the other half leaves entries out.
				for _, half := range [][2]int{{0, cut}, {cut, ct.Len()}} {
					tr2, ok := allDrawn(tr, ct, vis, half[0], half[1])
					if !ok {
						continue
					}
					vis2 := timelines.NewVisibility(tr2, false)
					want := referenceDrawnRows(tr2, ct, vis2)
					if want == nil {
						continue
					}
					if rows, ok := drawnRowsInHalves(tr2, ct, vis2, cut); !ok || !slices.Equal(rows, want) {
						t.Fatalf("%s track %d, entries %d-%d all drawn: drawn rows differ from the reference's", name, ti, half[0], half[1])
					}
					oneSided++
				}
			}
			// The entry after the cut two deeper than the cut: the second half cannot be laid
			// out alone.
			if cut+1 >= ct.Len() || ct.Depth[cut+1] != 1 {
				continue
			}
			jumped++
			bent := *ct
			bent.Depth = slices.Clone(ct.Depth)
			bent.Depth[cut+1] = 2
			got = drawnRows(tr, &bent, vis)
			parallelPlaceEntries = bent.Len() + 1
			if want := drawnRows(tr, &bent, vis); !slices.Equal(got, want) {
				t.Fatalf("%s track %d: a second half that does not stand alone: rows differ from one pass's", name, ti)
			}
		}
	}
	if halves == 0 || leftOut == 0 || jumped == 0 || oneSided == 0 {
		t.Fatalf("tracks laid out in halves %d, of which leave entries out %d, cut one-sided %d, bent %d: each must be some",
			halves, leftOut, oneSided, jumped)
	}
}

// allDrawn is a copy of tr in which ct's entries lo to hi are all drawn: their events are renamed
// after an event that vis draws. ok is false when ct has none.
func allDrawn(tr *core.Trace, ct *core.Track, vis *timelines.Visibility, lo, hi int) (*core.Trace, bool) {
	drawn := core.StrID(0)
	found := false
	for e := range ct.Len() {
		if ct.KindAt(e) == core.EntryEvent && vis.Entry(tr, ct, e) {
			drawn, found = tr.Events.Name[ct.RefAt(e)], true
			break
		}
	}
	if !found {
		return nil, false
	}
	tr2 := *tr
	tr2.Events.Name = slices.Clone(tr.Events.Name)
	for e := lo; e < hi; e++ {
		if ct.KindAt(e) == core.EntryEvent {
			tr2.Events.Name[ct.RefAt(e)] = drawn
		}
	}
	return &tr2, true
}

// placeOnTwoFrom lowers, for the rest of the test, the size from which a track's levels are placed
// on two goroutines, so that small test tracks take that path too.
func placeOnTwoFrom(t *testing.T, entries int) {
	was := parallelPlaceEntries
	parallelPlaceEntries = entries
	t.Cleanup(func() { parallelPlaceEntries = was })
}
