package integrate

import (
	"bytes"
	"context"
	"runtime"
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
	w := walker{p: &core.ProfileModel{Thread: 3}, calls: 5, firstUs: 1000}
	w.record(0)
	// Calls in pre-order: 0 root; 1 under 0; 2 under 1, never closed; 3 under 2; 4 under 0.
	parents := []int32{-1, 0, 1, 2, 0}
	depths := []uint16{0, 1, 2, 3, 1}
	for c := range 5 {
		w.t.Start.Set(c, 1000+float64(10*c))
		w.t.Dur.Set(c, float64(100-c))
		w.t.Depth[c] = depths[c]
		w.t.Parent[c] = parents[c]
		w.t.Node[c] = int32(20 + c)
		w.t.Ref[c] = int32(30 + c)
		w.flags[c] = callClosed
	}
	w.flags[0] |= callRoot
	w.flags[2] &^= callClosed
	w.keepTree()
	tk := &w.t
	if tk.Len() != 3 || tk.NotInTree != 2 {
		t.Fatalf("%d calls kept, %d left out; want 3 and 2", tk.Len(), tk.NotInTree)
	}
	for i, want := range []struct {
		call   int
		parent int32
	}{{0, -1}, {1, 0}, {4, 0}} {
		c := want.call
		if tk.Node[i] != int32(20+c) || tk.Ref[i] != int32(30+c) || tk.Depth[i] != depths[c] ||
			tk.Start.At(i) != 1000+float64(10*c) || tk.Dur.At(i) != float64(100-c) || tk.Parent[i] != want.parent {
			t.Errorf("row %d: node %d ref %d depth %d start %v dur %v parent %d; want call %d's, parent %d",
				i, tk.Node[i], tk.Ref[i], tk.Depth[i], tk.Start.At(i), tk.Dur.At(i), tk.Parent[i], c, want.parent)
		}
	}
	if tk.MaxDepth != 1 {
		t.Errorf("MaxDepth %d, want 1 (the deeper calls were left out)", tk.MaxDepth)
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
		Build(tr)
		for _, tk := range tr.Tracks {
			checkProfileTrack(t, &tk)
		}
	})
}

// checkProfileTrack fails t unless tk's columns have one value per call, every parent comes
// before its child and is shallower, and MaxDepth is the deepest call's depth.
func checkProfileTrack(t *testing.T, tk *core.Track) {
	t.Helper()
	n := tk.Len()
	if tk.Start.Len() != n || tk.Dur.Len() != n || len(tk.Name) != n || len(tk.Parent) != n || len(tk.Ref) != n || len(tk.Node) != n {
		t.Fatalf("columns of %d calls: start %d dur %d name %d parent %d ref %d node %d",
			n, tk.Start.Len(), tk.Dur.Len(), len(tk.Name), len(tk.Parent), len(tk.Ref), len(tk.Node))
	}
	deepest := 0
	for i := range n {
		deepest = max(deepest, int(tk.Depth[i]))
		p := tk.Parent[i]
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

// The walk writes its calls straight into the track's columns (32-bit time offsets, 16-bit
// depths), instead of float64 times and int32 depths that the track then copied into its own:
// 60 bytes a call on the fixture below before, about 35 now; on a bare profile of 8.8 M calls
// (22 MB of JSON) the peak RSS went from 553 to about 349 MB.
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
	// 27 bytes a call: node, sample, parent and name (4 each), start and duration offsets (4
	// each), depth (2), and a byte of flags (closed, root); the walk's stacks grow with the
	// depth only. This fixture's negative sample deltas give negative durations, which widen
	// the duration column to float64s: 35. The columns of before took 60 here.
	// The entry budget costs a call at entryBytes, which must cover it.
	if perCall > 44 || perCall > entryBytes {
		t.Errorf("%.1f bytes allocated a call for a track of %d calls, want at most 44", perCall, calls)
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
