package integrate

import (
	"context"
	"testing"

	"flamedesk/core"
	"flamedesk/core/load"
	"flamedesk/internal/fixtures"
)

// The walk over a bare profile's samples sizes its columns once, from a counting pass, instead of
// growing them: grown, a large profile's columns were copied at every doubling, and each copy
// held up the collector (0.7 s for 1.4 M calls). Counted on the largest committed .cpuprofile,
// whose calls would take some 20 doublings of each of 8 columns to grow into.
func TestProfileTrackAllocatesItsColumnsOnce(t *testing.T) {
	path := fixtures.Path(t, "fixtures", "upstream", "devtools-large-profile.cpuprofile.gz")
	tr, err := load.File(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Profiles) != 1 {
		t.Fatalf("%d profiles, want 1", len(tr.Profiles))
	}
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
