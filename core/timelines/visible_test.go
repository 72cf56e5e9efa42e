package timelines

import (
	"testing"

	"flamedesk/core"
	"flamedesk/internal/fixtures"
)

// A run of entries looked up at once (EntriesAt, over core.Track.KindsAt) is drawn or not as each
// entry looked up alone, whatever the run's start and length, on every track of traces whose
// tracks are compact and, as a cache keeps them, with their node and kind columns spelled out.
func TestEntriesAtIsEntryForARun(t *testing.T) {
	for _, path := range [][]string{
		{"generated", "gen-trace-medium-reload.json.gz"},
		{"upstream", "devtools-web-dev.json.gz"},
		{"upstream", "speedscope-chrome66-worker.json"},
	} {
		t.Run(path[1], func(t *testing.T) {
			tr := loadTrace(t, fixtures.Path(t, append([]string{"fixtures"}, path...)...))
			compact, calls, hidden := 0, 0, 0
			for ti := range tr.Tracks {
				ct := &tr.Tracks[ti]
				if ct.Compact {
					compact++
				}
				checkRuns(t, tr, ct, &calls, &hidden)
				// The same entries with the columns a compact track leaves out.
				wide := *ct
				wide.Compact, wide.Node, wide.KindColumn = false, make([]int32, ct.Len()), make([]core.EntryKind, ct.Len())
				wide.Ref = make([]int32, ct.Len())
				for e := range ct.Len() {
					wide.Node[e], wide.KindColumn[e], wide.Ref[e] = ct.NodeAt(e), ct.KindAt(e), ct.RefAt(e)
				}
				checkRuns(t, tr, &wide, new(int), new(int))
				wide.KindColumn = nil
				checkRuns(t, tr, &wide, new(int), new(int))
			}
			if compact == 0 || calls == 0 || hidden == 0 {
				t.Fatalf("%d compact tracks, %d profile calls, %d entries not drawn: the runs were not tried on each", compact, calls, hidden)
			}
		})
	}
}

// checkRuns compares EntriesAt and KindsAt with Entry and KindAt on ct, over runs of several
// starts and lengths, counting the profile calls and the entries not drawn it saw.
func checkRuns(t *testing.T, tr *core.Trace, ct *core.Track, calls, hidden *int) {
	t.Helper()
	vis := NewVisibility(tr, false)
	n := ct.Len()
	for _, step := range []int{1, 7, 256, 300, 1000} {
		drawn := make([]bool, step)
		kinds := make([]core.EntryKind, step)
		for lo := 0; lo < n; lo += step {
			m := min(step, n-lo)
			vis.EntriesAt(tr, ct, lo, drawn[:m])
			ct.KindsAt(lo, kinds[:m])
			for k := range m {
				e := lo + k
				if kinds[k] != ct.KindAt(e) {
					t.Fatalf("track of thread %d, entry %d (run from %d): kind %v, want %v", ct.Thread, e, lo, kinds[k], ct.KindAt(e))
				}
				if drawn[k] != vis.Entry(tr, ct, e) {
					t.Fatalf("track of thread %d, entry %d (run from %d): drawn %v, want %v", ct.Thread, e, lo, drawn[k], !drawn[k])
				}
				if step == 1 {
					if kinds[k] == core.EntryProfileCall {
						*calls++
					}
					if !drawn[k] {
						*hidden++
					}
				}
			}
		}
	}
}
