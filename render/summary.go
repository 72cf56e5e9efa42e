package render

import (
	"flamedesk/core"
	"flamedesk/timeline"
)

// CategoryTimes is the Summary of the Performance panel: the time a thread spent in each
// category within [t0, t1], µs, counting each entry's own time (its clipped duration less its
// children's), and Idle for the time no top-level entry covers. ProfileCalls count as scripting
// unless V8 names them (program), (idle) or (garbage collector). O(entries of the track).
func CategoryTimes(m *timeline.Model, track timeline.TrackID, t0, t1 float64) [NumCategories]float64 {
	var out [NumCategories]float64
	if track < 0 || int(track) >= len(m.Tracks) || !(t1 > t0) {
		return out
	}
	tr := m.Trace
	ct := m.Tracks[track].Core
	clip := func(e int) float64 {
		s, end := max(ct.StartAt(e), t0), min(ct.StartAt(e)+ct.DurAt(e), t1)
		return max(end-s, 0)
	}
	covered := 0.0
	for e := 0; e < ct.Len(); e++ {
		d := clip(e)
		if d == 0 {
			continue
		}
		out[entryCategory(tr, ct, e)] += d
		if p := ct.ParentAt(e); p >= 0 {
			out[entryCategory(tr, ct, int(p))] -= d
		} else {
			covered += d
		}
	}
	out[CatIdle] += max(t1-t0-covered, 0)
	for c := range out {
		out[c] = max(out[c], 0)
	}
	return out
}

// NumCategories is the number of categories.
const NumCategories = int(numCategories)

func entryCategory(tr *core.Trace, ct *core.Track, e int) Category {
	if ct.KindAt(e) == core.EntryProfileCall {
		if f := ct.FrameAt(e); int(f) < len(tr.Frames) {
			if c, ok := callCategory(tr.Strings.Get(tr.Frames[f].FunctionName)); ok {
				return c
			}
		}
		return CatScripting
	}
	cat := ""
	if ev := ct.RefAt(e); ev >= 0 && int(ev) < tr.Events.Len() {
		cat = tr.Strings.Get(tr.Events.Cat[ev])
	}
	return EventCategory(tr.Strings.Get(ct.NameAt(e)), cat)
}
