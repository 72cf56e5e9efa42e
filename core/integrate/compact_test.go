package integrate

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"flamedesk/core"
	"flamedesk/core/load"
	"flamedesk/internal/fixtures"
)

// The compact tracks keep a parent only where it is not the row before, and derive starts, names
// and refs from per-event and per-sample columns. On every fixture trace, each row's parent must
// be the nearest earlier row one level up (the pre-order the tracks promise), lie around it in
// time, and the self times read one at a time must agree with the ones read in one pass.
func TestCompactTracksKeepTheTree(t *testing.T) {
	var files []string
	for _, dir := range []string{"generated", "upstream"} {
		files = append(files, fixtures.Glob(t, filepath.Join("fixtures", dir, "*.json*"))...)
	}
	compact := 0
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
			checkTree(t, filepath.Base(path), tr, tk)
		}
	}
	if compact == 0 {
		t.Fatal("no compact track among the fixtures")
	}
}

func checkTree(t *testing.T, name string, tr *core.Trace, tk *core.Track) {
	t.Helper()
	var open []int32 // the open rows, one per level
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
		if tk.KindAt(i) == core.EntryEvent {
			if r := tk.RefAt(i); tr.Events.Ts[r] != tk.StartAt(i) || tr.Events.Name[r] != tk.NameAt(i) {
				t.Fatalf("%s thread %d row %d: event %d starts at %v named %d, the row at %v named %d", name, tk.Thread, i, r,
					tr.Events.Ts[r], tr.Events.Name[r], tk.StartAt(i), tk.NameAt(i))
			}
		}
		open = append(open[:min(d, len(open))], int32(i))
	}
}
