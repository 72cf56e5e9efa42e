package timeline

import (
	"testing"

	"flamedesk/core"
)

// TestMatchFramesFindsEveryCallOfAFunction marks the frames of one function of a real trace and
// checks that exactly its ProfileCalls are found, in time order, and that Contains agrees.
func TestMatchFramesFindsEveryCallOfAFunction(t *testing.T) {
	tr := loadFixture(t, "generated", "gen-trace-small.json.gz")
	m := New(tr)
	name, ok := tr.Strings.Lookup("parse")
	if !ok {
		t.Fatal(`the fixture has no function "parse"`)
	}
	hit := make([]bool, len(tr.Frames))
	for i, f := range tr.Frames {
		hit[i] = f.FunctionName == name
	}
	r := m.MatchFrames("parse", hit)

	want := 0
	for ti := range m.Tracks {
		ct := m.Tracks[ti].Core
		for e := 0; e < ct.Len(); e++ {
			isCall := ct.KindAt(e) == core.EntryProfileCall && tr.Frames[ct.FrameAt(e)].FunctionName == name
			if isCall {
				want++
			}
			if got := r.Contains(EntryRef{Track: TrackID(ti), Entry: int32(e)}); got != isCall {
				t.Fatalf("track %d entry %d: Contains = %v, want %v", ti, e, got, isCall)
			}
		}
	}
	if want == 0 || r.Len() != want {
		t.Fatalf("got %d matches, want %d (and more than none)", r.Len(), want)
	}
	for i := 1; i < len(r.Matches); i++ {
		if m.EntryStart(r.Matches[i]) < m.EntryStart(r.Matches[i-1]) {
			t.Fatalf("matches out of time order at %d", i)
		}
	}
}
