package integrate

import (
	"context"
	"testing"

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
