package render

import (
	"math"
	"testing"

	"flamedesk/core"
	"flamedesk/timeline"
)

// The Summary's categories share out the whole range; inside a JS function that calls nothing,
// all of it is scripting; in a gap between top-level entries, all of it is idle.
func TestCategoryTimes(t *testing.T) {
	m := loadModel(t, "fixtures", "generated", "gen-trace-small.json.gz")
	ti := m.ShownTracks()[0]
	ct := m.Tracks[ti].Core
	lo, hi := m.Bounds()
	sum := func(c [NumCategories]float64) (s float64) {
		for _, v := range c {
			s += v
		}
		return s
	}
	if got := sum(CategoryTimes(m, ti, lo, hi)); math.Abs(got-(hi-lo)) > 1e-6*(hi-lo) {
		t.Errorf("whole trace: categories sum to %v µs, want %v", got, hi-lo)
	}
	hasChild := make([]bool, ct.Len())
	for e := 0; e < ct.Len(); e++ {
		if p := ct.ParentAt(e); p >= 0 {
			hasChild[p] = true
		}
	}
	leaf := -1
	for e := 0; e < ct.Len(); e++ {
		if ct.KindAt(e) != core.EntryProfileCall || hasChild[e] || ct.DurAt(e) < 100 {
			continue
		}
		if _, pseudo := callCategory(m.Trace.Strings.Get(m.Trace.Frames[ct.FrameAt(e)].FunctionName)); !pseudo && (leaf < 0 || ct.DurAt(e) > ct.DurAt(leaf)) {
			leaf = e
		}
	}
	if leaf < 0 {
		t.Fatal("no JS leaf call of 100 µs")
	}
	t0, t1 := ct.StartAt(leaf)+ct.DurAt(leaf)/4, ct.StartAt(leaf)+ct.DurAt(leaf)*3/4
	got := CategoryTimes(m, ti, t0, t1)
	if math.Abs(got[CatScripting]-(t1-t0)) > 1e-6 || math.Abs(sum(got)-(t1-t0)) > 1e-6 {
		t.Errorf("inside a leaf JS call: %v, want all %v µs scripting", got, t1-t0)
	}
	// A gap between two top-level entries.
	var ends []float64
	for e := 0; e < ct.Len(); e++ {
		if ct.ParentAt(e) < 0 {
			ends = append(ends, ct.StartAt(e), ct.StartAt(e)+ct.DurAt(e))
		}
	}
	for k := 1; k+1 < len(ends); k += 2 {
		if gap := ends[k+1] - ends[k]; gap > 10 {
			got := CategoryTimes(m, ti, ends[k]+1, ends[k+1]-1)
			if math.Abs(got[CatIdle]-(gap-2)) > 1e-6 {
				t.Errorf("gap [%v, %v]: %v, want all idle", ends[k], ends[k+1], got)
			}
			break
		}
	}
	if got := CategoryTimes(m, timeline.TrackID(len(m.Tracks)), lo, hi); sum(got) != 0 {
		t.Errorf("no such track: %v", got)
	}
}
