package lighthouse

import (
	"testing"

	"flamedesk/core"
	"flamedesk/core/integrate"
	"flamedesk/internal/fixtures"
)

// TestRefinedTimingTracks swaps the refined calls into the real tracks of traces with a main
// thread and workers, and checks that every rebuilt track is a proper tree that keeps all calls
// and trace events, and that calls start inside the windows the samples allow.
func TestRefinedTimingTracks(t *testing.T) {
	for _, name := range []string{"generated/gen-trace-small.json.gz", "upstream/devtools-two-workers.json.gz"} {
		t.Run(name, func(t *testing.T) {
			tr := loadTrace(t, fixtures.Path(t, "fixtures", name))
			integrate.Build(tr)
			tm := RefinedTiming(tr)
			if len(tm.Tracks) != len(tr.Tracks) || len(tm.Calls) != len(tr.Tracks) {
				t.Fatalf("%d tracks and %d call sets for %d threads", len(tm.Tracks), len(tm.Calls), len(tr.Tracks))
			}
			refined := 0
			for i := range tm.Tracks {
				c := tm.Calls[i]
				if c == nil {
					continue
				}
				refined++
				checkTree(t, tr.ThreadLabel(tm.Tracks[i].Thread), &tm.Tracks[i])
				checkTree(t, "calls", &c.Track)
				// Every call and every trace event of the thread's own track is kept.
				calls, events, baseEvents := 0, 0, 0
				for k := 0; k < tm.Tracks[i].Len(); k++ {
					if tm.Tracks[i].KindAt(k) == core.EntryProfileCall {
						calls++
					} else {
						events++
					}
				}
				for k := 0; k < tr.Tracks[i].Len(); k++ {
					if tr.Tracks[i].KindAt(k) == core.EntryEvent {
						baseEvents++
					}
				}
				if calls != c.Len() || events != baseEvents {
					t.Errorf("%s: %d of %d calls and %d of %d events in the merged track",
						tr.ThreadLabel(tm.Tracks[i].Thread), calls, c.Len(), events, baseEvents)
				}
				for k := 0; k < c.Len(); k++ {
					if c.Start[k] < c.StartEarliest[k] || c.Start[k] > c.StartLatest[k] {
						t.Errorf("call %d starts at %v outside %v..%v", k, c.Start[k], c.StartEarliest[k], c.StartLatest[k])
						break
					}
				}
			}
			if refined == 0 {
				t.Error("no thread was refined")
			}
		})
	}
}

// checkTree asserts pre-order with children inside their parents at the next depth.
func checkTree(t *testing.T, label string, tk *core.Track) {
	t.Helper()
	const eps = 1e-6
	for k := 0; k < tk.Len(); k++ {
		p := tk.ParentAt(k)
		if p < 0 {
			if tk.DepthAt(k) != 0 {
				t.Errorf("%s: root %d at depth %d", label, k, tk.DepthAt(k))
				return
			}
			continue
		}
		if int(p) >= k || tk.DepthAt(k) != tk.DepthAt(int(p))+1 ||
			tk.StartAt(k) < tk.StartAt(int(p))-eps || tk.StartAt(k)+tk.DurAt(k) > tk.StartAt(int(p))+tk.DurAt(int(p))+eps || tk.DurAt(k) < 0 {
			t.Errorf("%s: entry %d (%v +%v, depth %d) does not fit its parent %d (%v +%v, depth %d)",
				label, k, tk.StartAt(k), tk.DurAt(k), tk.DepthAt(k), p, tk.StartAt(int(p)), tk.DurAt(int(p)), tk.DepthAt(int(p)))
			return
		}
	}
}
