package integrate

import (
	"context"
	"runtime"
	"strings"
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

// The walk records its calls in the columns the track keeps (32-bit time offsets, 16-bit
// depths) and the track takes them over, instead of float64 times and int32 depths that the
// track then copied into its own: 52 bytes a call at the peak before, 28 now (60 and 36 on
// the fixture below, whose durations need float64s), which on a bare
// profile of 8.8 M calls (22 MB of JSON) was 553 against 349 MB of peak RSS.
func TestProfileTrackBytesPerCall(t *testing.T) {
	path := fixtures.Path(t, "fixtures", "upstream", "devtools-large-profile.cpuprofile.gz")
	tr, err := load.File(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Profiles) != 1 {
		t.Fatalf("%d profiles, want 1", len(tr.Profiles))
	}
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
	// 28 bytes a call: node, sample, parent and name (4 each), start and duration offsets (4
	// each), depth (2), and whether a call closed and is a root (1 each); the walk's stacks
	// grow with the depth only. This fixture's negative sample deltas give negative durations,
	// which widen the duration column to float64s: 36. The columns of before took 60 here.
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
	js := fixtures.CallBomb(depth, samples)
	tr, err := load.Reader(context.Background(), strings.NewReader(js), int64(len(js)), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := BuildContext(context.Background(), tr, nil); err != nil {
		t.Fatalf("%d KB of JSON making %d calls: %v", len(js)>>10, depth*samples, err)
	}
	if len(tr.Tracks) != 1 || tr.Tracks[0].Len() < depth*(samples-1) {
		t.Fatalf("%d tracks, want 1 of about %d calls", len(tr.Tracks), depth*samples)
	}
}
