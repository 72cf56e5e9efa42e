package timeline

import (
	"context"
	"testing"

	"flamedesk/core"
)

// TestMatchFramesFindsEveryCallOfAFunction marks the frames of one function of a real trace and
// checks that exactly its ProfileCalls are found, in time order, and that Contains agrees.
func TestMatchFramesFindsEveryCallOfAFunction(t *testing.T) {
	tr, m, name, hit := parseFramesOfSmallTrace(t)
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

// TestMarkFramesMarksWhatMatchFramesFinds: the highlight's unlisted result counts and marks the
// same entries, and the same spans of every level, as the listed one.
func TestMarkFramesMarksWhatMatchFramesFinds(t *testing.T) {
	_, m, _, hit := parseFramesOfSmallTrace(t)
	listed := m.MatchFrames("parse", hit)
	marked, err := m.MarkFrames(context.Background(), "parse", hit)
	if err != nil {
		t.Fatal(err)
	}
	if marked.Matches != nil || marked.Len() != listed.Len() || listed.Len() == 0 {
		t.Fatalf("marked %d (listing %d), listed %d", marked.Len(), len(marked.Matches), listed.Len())
	}
	for _, ref := range listed.Matches {
		if !marked.Contains(ref) {
			t.Fatalf("%v is listed but not marked", ref)
		}
	}
	for ti := range m.Tracks {
		for li, lv := range m.Tracks[ti].Levels {
			for p := 0; p < lv.Len(); p += 7 {
				s := Span{First: int32(p), Last: int32(min(p+6, lv.Len()-1))}
				if a, b := listed.AnyIn(TrackID(ti), li, s), marked.AnyIn(TrackID(ti), li, s); a != b {
					t.Fatalf("track %d level %d span %v: listed %v, marked %v", ti, li, s, a, b)
				}
			}
		}
	}
}

// parseFramesOfSmallTrace loads gen-trace-small and marks the frames of its function "parse".
func parseFramesOfSmallTrace(t *testing.T) (*core.Trace, *Model, core.StrID, []bool) {
	t.Helper()
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
	return tr, m, name, hit
}
