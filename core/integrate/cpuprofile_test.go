package integrate

import (
	"bytes"
	"context"
	"math"
	"reflect"
	"runtime"
	"slices"
	"testing"

	"flamedesk/core"
	"flamedesk/core/load"
	"flamedesk/internal/fixtures"
)

// largeProfile loads the largest committed .cpuprofile (46 MB of JSON, 1.4 M calls), one profile.
func largeProfile(t *testing.T) *core.Trace {
	t.Helper()
	path := fixtures.Path(t, "fixtures", "upstream", "devtools-large-profile.cpuprofile.gz")
	tr, err := load.File(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Profiles) != 1 {
		t.Fatalf("%d profiles, want 1", len(tr.Profiles))
	}
	return tr
}

// loadProfile loads a committed bare profile.
func loadProfile(t *testing.T, elems ...string) *core.Trace {
	t.Helper()
	tr, err := load.File(context.Background(), fixtures.Path(t, append([]string{"fixtures"}, elems...)...), nil)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// The walk over a bare profile's samples sizes its columns once, from a counting pass, instead of
// growing them: grown, a large profile's columns were copied at every doubling, and each copy
// held up the collector (0.7 s for 1.4 M calls). Counted on the largest committed .cpuprofile,
// whose calls would take some 20 doublings of each of 8 columns to grow into.
func TestProfileTrackAllocatesItsColumnsOnce(t *testing.T) {
	tr := largeProfile(t)
	var calls int
	allocs := testing.AllocsPerRun(1, func() {
		track, over := profileTrack(context.Background(), tr, &tr.Profiles[0], 0, newEntryBudget(tr))
		if over {
			t.Fatal("over the entry budget")
		}
		calls = track.Len()
	})
	if calls < 1_000_000 {
		t.Fatalf("%d calls; the fixture has 1.4 M", calls)
	}
	// The walker's 8 columns and the track's 6 of its own, plus the walk's 4 stacks, which grow
	// with the profile's depth (258), not with its calls: about 50. Grown columns took 349.
	if allocs > 100 {
		t.Errorf("%.0f allocations for a track of %d calls, want at most 100", allocs, calls)
	}
}

// A call the walk left open is not in DevTools' tree, nor is any call under it: keepTree drops
// them, moves the kept calls up and renumbers their parents. (A whole walk closes every call; the
// samples of a malformed profile can leave some open.)
func TestKeepTreeDropsOpenCallsAndTheirChildren(t *testing.T) {
	p := &core.ProfileModel{Thread: 3, NodeFrame: make([]core.FrameID, 30), Samples: make([]int32, 40), Timestamps: make([]float64, 40)}
	for i := range p.Timestamps {
		p.Timestamps[i] = float64(1000 * i)
	}
	w := walker{tr: &core.Trace{}, p: p, calls: 5, far: 1}
	w.record(0)
	// Calls in pre-order: 0 root; 1 under 0; 2 under 1, never closed; 3 under 2; 4 under 0.
	parents := []int32{-1, 0, 1, 2, 0}
	depths := []uint16{0, 1, 2, 3, 1}
	for c := range 5 {
		w.noteParent(int32(c), depths[c], parents[c])
		w.t.EndRefs.Put(c, uint64(39-c)) // sample 30+c to sample 39-c: (9-2c) ms
		w.t.Depth[c] = depths[c]
		w.t.NodePlus1.Put(c, uint64(21+c))
		w.t.Refs.Put(c, uint64(30+c))
		if c != 2 {
			w.closed[0] |= 1 << c
		}
	}
	w.keepTree()
	tk := &w.t
	if tk.Len() != 3 || tk.NotInTree != 2 {
		t.Fatalf("%d calls kept, %d left out; want 3 and 2", tk.Len(), tk.NotInTree)
	}
	// Call 4 moved up to row 2, after a row at its own depth: its parent is a far one now.
	if !slices.Equal(w.farRow, []int32{2}) || !slices.Equal(w.farTo, []int32{0}) || w.odd {
		t.Errorf("far parents %v -> %v (odd %v), want row 2 -> 0", w.farRow, w.farTo, w.odd)
	}
	w.finish()
	for i, want := range []struct {
		call   int
		parent int32
	}{{0, -1}, {1, 0}, {4, 0}} {
		c := want.call
		if tk.NodeAt(i) != int32(20+c) || tk.RefAt(i) != int32(30+c) || tk.Depth[i] != depths[c] ||
			tk.DurAt(i) != float64(1000*(9-2*c)) || tk.ParentAt(i) != want.parent {
			t.Errorf("row %d: node %d ref %d depth %d dur %v parent %d; want call %d's, parent %d",
				i, tk.NodeAt(i), tk.RefAt(i), tk.Depth[i], tk.DurAt(i), tk.ParentAt(i), c, want.parent)
		}
	}
	if tk.MaxDepth != 1 {
		t.Errorf("MaxDepth %d, want 1 (the deeper calls were left out)", tk.MaxDepth)
	}
}

// A call whose parent the depths cannot give (a call at depth 0 under another, which only a
// malformed node tree makes) turns the track into full columns, which hold any parent, with the
// same rows.
func TestOddParentsExpandTheTrack(t *testing.T) {
	tr := largeProfile(t)
	p := &tr.Profiles[0]
	compact, over := profileTrack(context.Background(), tr, p, 0, nil)
	if over || !compact.Compact || compact.Len() < 1_000_000 {
		t.Fatalf("%d rows, compact %v, over %v; want a compact track of the 1.4 M calls", compact.Len(), compact.Compact, over)
	}
	w := walker{tr: tr, p: p, ctx: context.Background(), counting: true}
	w.run()
	w.record(0)
	w.run()
	w.keepTree()
	// Make the second root at depth 0 a child of the first: the depths cannot say so.
	root := -1
	parents(&w.t, w.farRow, w.farTo, func(c int, parent int32) {
		if c > 0 && parent < 0 && root < 0 {
			root = c
		}
	})
	if root < 0 {
		t.Fatal("the profile has one root call; the test needs two")
	}
	at, _ := slices.BinarySearch(w.farRow, int32(root))
	w.farRow, w.farTo = slices.Insert(w.farRow, at, int32(root)), slices.Insert(w.farTo, at, 0)
	w.odd = true
	w.finish()
	full := &w.t
	if full.Compact || full.Len() != compact.Len() {
		t.Fatalf("expanded: compact %v, %d rows; want full columns of %d rows", full.Compact, full.Len(), compact.Len())
	}
	for i := range full.Len() {
		wantParent := compact.ParentAt(i)
		if i == root {
			wantParent = 0
		}
		if full.StartAt(i) != compact.StartAt(i) || full.DurAt(i) != compact.DurAt(i) || full.NameAt(i) != compact.NameAt(i) ||
			full.NodeAt(i) != compact.NodeAt(i) || full.RefAt(i) != compact.RefAt(i) || full.DepthAt(i) != compact.DepthAt(i) ||
			full.ParentAt(i) != wantParent || full.FrameAt(i) != compact.FrameAt(i) {
			t.Fatalf("row %d: full start %v dur %v name %d node %d ref %d parent %d; compact %v %v %d %d %d %d (parent wanted %d)", i,
				full.StartAt(i), full.DurAt(i), full.NameAt(i), full.NodeAt(i), full.RefAt(i), full.ParentAt(i),
				compact.StartAt(i), compact.DurAt(i), compact.NameAt(i), compact.NodeAt(i), compact.RefAt(i), compact.ParentAt(i), wantParent)
		}
	}
}

// A bare profile's track keeps the samples that end its calls rather than their durations, and
// reads each duration back through milliseconds: the same float64, bit for bit, as the
// durations written out from the model's own times (writeDurations, which a profile whose
// sample times are not whole µs gets); and EndAt gives each call's end from them. On the largest
// committed profile and one from Chrome 65.
func TestEndRefsGiveTheWrittenDurations(t *testing.T) {
	for _, tr := range []*core.Trace{largeProfile(t), loadProfile(t, "upstream", "speedscope-chrome65-sucrase.cpuprofile")} {
		p := &tr.Profiles[0]
		track, over := profileTrack(context.Background(), tr, p, 0, nil)
		if over || track.EndRefs.N == 0 || track.Dur.Len() != 0 {
			t.Fatalf("over %v, %d ends, %d durations; want the calls' ends alone", over, track.EndRefs.N, track.Dur.Len())
		}
		checkEnds(t, track, p)
		negative := 0
		for i := range track.Len() {
			if track.DurAt(i) < 0 {
				negative++
			}
		}
		t.Logf("%d rows, %d negative durations", track.Len(), negative)
	}
}

// FuzzProfileTrack runs hostile .cpuprofile and JS Self-Profiling files through the loader and
// the walk over their samples: whatever the input, the walk must not panic, and the track it
// makes must be a tree in pre-order whose columns agree.
func FuzzProfileTrack(f *testing.F) {
	f.Add(fixtures.ReadHead(f, 64<<10, "fixtures", "upstream", "speedscope-node10-example.cpuprofile"))
	// The head of a larger one: the loader keeps the samples that were read whole.
	f.Add(fixtures.ReadHead(f, 64<<10, "fixtures", "generated", "gen-selfprofile-small.json"))
	// A GC sample first and last, a hole, negative and zero deltas, a node that is its own child.
	f.Add([]byte(`{"nodes":[{"id":1,"callFrame":{"functionName":"(root)","scriptId":"0","url":""},"children":[2,3]},
{"id":2,"callFrame":{"functionName":"(garbage collector)","scriptId":"0","url":""}},
{"id":3,"callFrame":{"functionName":"f","scriptId":"1","url":"a.js"},"children":[4,3]},
{"id":4,"callFrame":{"functionName":"g","scriptId":"1","url":"a.js"}}],
"startTime":0,"endTime":100,"samples":[2,4,3,9,4,2,3,4,2],"timeDeltas":[1,5,-3,0,7,2,1,-10,4]}`))
	f.Add([]byte(`{"frames":[{"name":"f"},{"name":"g","resourceId":0,"line":1,"column":2}],"resources":["a.js"],
"stacks":[{"frameId":0},{"frameId":1,"parentId":0},{"frameId":1,"parentId":1}],
"samples":[{"timestamp":1,"stackId":1},{"timestamp":2},{"timestamp":3,"stackId":2},{"timestamp":2,"stackId":0}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := load.Reader(context.Background(), bytes.NewReader(data), int64(len(data)), nil)
		if err != nil || (tr.Kind != core.InputCPUProfile && tr.Kind != core.InputSelfProfile) {
			return
		}
		// The walk alone: Build would add its heap hold, a collection per input.
		for i := range tr.Profiles {
			p := &tr.Profiles[i]
			tk, over := profileTrack(context.Background(), tr, p, int32(i), newEntryBudget(tr))
			if over {
				continue
			}
			checkProfileTrack(t, &tk)
			checkEnds(t, tk, p)
		}
	})
}

// checkEnds fails t unless a track that keeps its calls' ends (EndRefs) gives the durations the
// walk would have written out from the model's times, and the ends EndAt reads from them.
func checkEnds(t *testing.T, tk core.Track, p *core.ProfileModel) {
	t.Helper()
	if tk.EndRefs.N == 0 {
		return
	}
	w := walker{p: p, t: tk}
	w.writeDurations()
	written := &w.t
	if written.EndRefs.N != 0 || written.Dur.Len() != tk.Len() {
		t.Fatalf("written out: %d ends, %d durations for %d rows", written.EndRefs.N, written.Dur.Len(), tk.Len())
	}
	for i := range tk.Len() {
		a, b := tk.DurAt(i), written.DurAt(i)
		if math.Float64bits(a) != math.Float64bits(b) {
			t.Fatalf("row %d: duration %v from its ends, %v written out", i, a, b)
		}
		// EndAt reads the row once for both its start and its end: the same end as the start
		// plus the written duration, when that is above 0.
		end := written.StartAt(i)
		if b > 0 {
			end += b
		}
		if got := tk.EndAt(i); math.Float64bits(got) != math.Float64bits(end) {
			t.Fatalf("row %d: EndAt %v, want %v", i, got, end)
		}
	}
}

// checkProfileTrack fails t unless tk's columns have one value per call, every parent comes
// before its child and is shallower, a compact track lists exactly the rows whose parent is not
// the one its depths give, and MaxDepth is the deepest call's depth.
func checkProfileTrack(t *testing.T, tk *core.Track) {
	t.Helper()
	n := tk.Len()
	if tk.Compact {
		durs := tk.Dur.Len()
		if tk.EndRefs.N > 0 {
			durs = tk.EndRefs.Len()
			if tk.Dur.Len() != 0 || tk.SampleStart.IsWide() {
				t.Fatalf("EndRefs beside %d durations, or beside wide sample starts", tk.Dur.Len())
			}
		}
		if durs != n || tk.NodePlus1.Len() != n || tk.Refs.Len() != n || len(tk.ParentFar) != len(tk.ParentFarTo) {
			t.Fatalf("compact columns of %d calls: dur %d node %d ref %d far %d/%d",
				n, durs, tk.NodePlus1.Len(), tk.Refs.Len(), len(tk.ParentFar), len(tk.ParentFarTo))
		}
		far := 0
		for i := range n {
			var before uint16
			if i > 0 {
				before = tk.Depth[i-1]
			}
			if _, listed := impliedParent(int32(i), tk.Depth[i], before); listed {
				if far >= len(tk.ParentFar) || tk.ParentFar[far] != int32(i) {
					t.Fatalf("row %d's parent is not implied by the depths, and ParentFar does not list it", i)
				}
				far++
			}
			if tk.EndRefs.N > 0 && tk.EndRefs.At(i) > uint64(tk.SampleStart.Len()) {
				t.Fatalf("row %d ends at sample %d of %d", i, tk.EndRefs.At(i), tk.SampleStart.Len())
			}
			if node := tk.NodeAt(i); node < 0 || int(node) >= len(tk.NodeName) || int(tk.RefAt(i)) >= tk.SampleStart.Len() || tk.RefAt(i) < 0 {
				t.Fatalf("row %d: node %d of %d, ref %d of %d samples", i, node, len(tk.NodeName), tk.RefAt(i), tk.SampleStart.Len())
			}
		}
		if far != len(tk.ParentFar) {
			t.Fatalf("ParentFar lists %d rows, %d have a far parent", len(tk.ParentFar), far)
		}
	} else if tk.Start.Len() != n || tk.Dur.Len() != n || len(tk.Name) != n || len(tk.Parent) != n || len(tk.Ref) != n || len(tk.Node) != n {
		t.Fatalf("columns of %d calls: start %d dur %d name %d parent %d ref %d node %d",
			n, tk.Start.Len(), tk.Dur.Len(), len(tk.Name), len(tk.Parent), len(tk.Ref), len(tk.Node))
	}
	deepest := 0
	for i := range n {
		deepest = max(deepest, int(tk.Depth[i]))
		p := tk.ParentAt(i)
		if p < -1 || int(p) >= i {
			t.Fatalf("call %d has parent %d", i, p)
		}
		if p >= 0 && tk.Depth[p] >= tk.Depth[i] {
			t.Fatalf("call %d at depth %d under call %d at depth %d", i, tk.Depth[i], p, tk.Depth[p])
		}
	}
	if n > 0 && tk.MaxDepth != deepest {
		t.Fatalf("MaxDepth %d, deepest call %d", tk.MaxDepth, deepest)
	}
}

// The walk writes its calls straight into the track's compact columns: on the fixture below, 60
// bytes a call as float64 times and int32 depths copied into the track, 35 as full columns of
// offsets written in place, about 9 as compact rows.
func TestProfileTrackBytesPerCall(t *testing.T) {
	tr := largeProfile(t)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	track, over := profileTrack(context.Background(), tr, &tr.Profiles[0], 0, newEntryBudget(tr))
	runtime.ReadMemStats(&after)
	if over {
		t.Fatal("over the entry budget")
	}
	calls := track.Len()
	if calls < 1_000_000 {
		t.Fatalf("%d calls; the fixture has 1.4 M", calls)
	}
	perCall := float64(after.TotalAlloc-before.TotalAlloc) / float64(calls)
	// About 9 bytes a call: the depth (2), the node (18 bits for this profile's 131 K nodes),
	// the samples that start and end it (16 bits each for 50 K), a closed bit and the far
	// parents of 1 % of the calls (8 bytes each); the sample starts (4 bytes a sample), and the
	// walk's stacks, which grow with the depth only. Full columns took 35 here.
	// The entry budget costs a call at entryBytes, which must cover it.
	if perCall > 12 || perCall > entryBytes {
		t.Errorf("%.1f bytes allocated a call for a track of %d calls, want at most 12", perCall, calls)
	}
	t.Logf("%.1f bytes a call", perCall)
}

// A profile that makes about one call per byte of JSON (samples alternating between two stacks
// 4 deep, 1.6 M calls from 1.6 MB) is well within what a load may hold (48 times the file and
// 64 MB: 140 MB, for some 60 MB of track); the entry budget once costed a call at 128 bytes and
// refused it.
func TestDenseProfileIsNotRefused(t *testing.T) {
	const depth, samples = 4, 400_000
	tr, size := loadCallBomb(t, depth, samples)
	if err := BuildContext(context.Background(), tr, nil); err != nil {
		t.Fatalf("%d KB of JSON making %d calls: %v", size>>10, depth*samples, err)
	}
	if len(tr.Tracks) != 1 || tr.Tracks[0].Len() < depth*(samples-1) {
		t.Fatalf("%d tracks, want 1 of about %d calls", len(tr.Tracks), depth*samples)
	}
}

// A large profile's sample times are worked out on another goroutine while the walks run: the
// track must be the one they give worked out after the walks. On the largest committed profile,
// whose ends read back from the starts, and on a JS Self-Profiling profile, whose times are not
// whole µs, so that its durations are written out.
func TestSampleTimesBesideTheWalksGiveTheSameTrack(t *testing.T) {
	was := parallelTimes
	defer func() { parallelTimes = was }()
	for _, tr := range []*core.Trace{largeProfile(t), loadProfile(t, "generated", "gen-selfprofile-small.json")} {
		p := &tr.Profiles[0]
		parallelTimes = math.MaxInt
		inTurn, over1 := profileTrack(context.Background(), tr, p, 0, nil)
		parallelTimes = 0
		beside, over2 := profileTrack(context.Background(), tr, p, 0, nil)
		if over1 || over2 || inTurn.Len() == 0 {
			t.Fatalf("over %v %v, %d calls", over1, over2, inTurn.Len())
		}
		t.Logf("%d calls, %d durations written out", inTurn.Len(), inTurn.Dur.Len())
		if !reflect.DeepEqual(inTurn, beside) {
			t.Errorf("the tracks differ: %d and %d calls, %d and %d durations", inTurn.Len(), beside.Len(), inTurn.Dur.Len(), beside.Dur.Len())
		}
	}
}
