package integrate

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"flamedesk/core"
	"flamedesk/core/load"
	"flamedesk/internal/fixtures"
)

// The compact tracks keep a parent only where it is not the row before, and derive starts, names
// and refs from per-event and per-sample columns (of some samples only, for a thread with far
// fewer calls than samples). On every fixture trace, each row's parent must be the nearest
// earlier row one level up (the pre-order the tracks promise), lie around it in time, a call must
// start at its own sample's time, and the self times read one at a time must agree with the
// ones read in one pass.
func TestCompactTracksKeepTheTree(t *testing.T) {
	var files []string
	for _, dir := range []string{"generated", "upstream"} {
		files = append(files, fixtures.Glob(t, filepath.Join("fixtures", dir, "*.json*"))...)
	}
	compact, sparse := 0, 0
	for _, path := range files {
		if strings.Contains(path, "selfprofile") || (testing.Short() && strings.Contains(path, "large")) {
			continue
		}
		tr, err := load.File(context.Background(), path, nil)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		Build(tr)
		for ti := range tr.Tracks {
			tk := &tr.Tracks[ti]
			if !tk.Compact {
				continue
			}
			compact++
			if tk.SampleOf != nil {
				sparse++
			}
			checkTree(t, filepath.Base(path), tr, tk)
		}
	}
	if compact == 0 || sparse == 0 {
		t.Fatalf("%d compact tracks among the fixtures, %d of them with the starts of some samples only; want some of both", compact, sparse)
	}
}

func checkTree(t *testing.T, name string, tr *core.Trace, tk *core.Track) {
	t.Helper()
	var open []int32 // the open rows, one per level
	calls := 0       // the calls met that start at a CallStart
	self := tk.SelfTimes()
	for i := range tk.Len() {
		d := int(tk.DepthAt(i))
		want := int32(-1)
		if d > 0 && d <= len(open) {
			want = open[d-1]
		}
		p := tk.ParentAt(i)
		if d < 0xffff && p != want {
			t.Fatalf("%s thread %d row %d at depth %d: parent %d, the row one level up is %d", name, tk.Thread, i, d, p, want)
		}
		if p >= 0 && (tk.StartAt(i) < tk.StartAt(int(p)) || tk.StartAt(i)+tk.DurAt(i) > tk.StartAt(int(p))+tk.DurAt(int(p))) {
			t.Fatalf("%s thread %d row %d [%v +%v] outside its parent %d [%v +%v]", name, tk.Thread, i,
				tk.StartAt(i), tk.DurAt(i), p, tk.StartAt(int(p)), tk.DurAt(int(p)))
		}
		if i%97 == 0 && tk.SelfAt(i) != self[i] {
			t.Fatalf("%s thread %d row %d: SelfAt %v, SelfTimes %v", name, tk.Thread, i, tk.SelfAt(i), self[i])
		}
		if tk.KindAt(i) == core.EntryProfileCall {
			// A call starts at its sample's time through milliseconds, or at its CallStart.
			want := math.NaN()
			if r := tk.RefAt(i); r >= 0 {
				if p := &tr.Profiles[tk.Profile]; int(r) < len(p.Timestamps) {
					want = devtoolsMicros(p.Timestamps[r])
				}
			} else if calls < len(tk.CallStart) {
				want = tk.CallStart[calls]
				calls++
			}
			if tk.StartAt(i) != want {
				t.Fatalf("%s thread %d row %d: call of sample %d at %v, want %v", name, tk.Thread, i, tk.RefAt(i), tk.StartAt(i), want)
			}
		}
		if tk.KindAt(i) == core.EntryEvent {
			if r := tk.RefAt(i); tr.Events.Ts[r] != tk.StartAt(i) || tr.Events.Name[r] != tk.NameAt(i) {
				t.Fatalf("%s thread %d row %d: event %d starts at %v named %d, the row at %v named %d", name, tk.Thread, i, r,
					tr.Events.Ts[r], tr.Events.Name[r], tk.StartAt(i), tk.NameAt(i))
			}
		}
		open = append(open[:min(d, len(open))], int32(i))
	}
}
