package lighthouse

import "flamedesk/core"

// Timing is the refined JS call timing of a whole trace, ready for the timeline to swap in.
type Timing struct {
	// Tracks runs parallel to Trace.Tracks. Where a thread's profile was refined, its track has
	// the ProfileCalls rebuilt from the refined B/E events (see Merge: a ProfileCall's Ref is its
	// index in Calls[i]); elsewhere it is the thread's own track.
	Tracks []core.Track
	// Calls runs parallel to Trace.Tracks: the refined calls of the thread with both boundaries'
	// windows, nil where the thread has none.
	Calls []*Calls
	// Results are Lighthouse's results for every profile of the trace.
	Results []Result
}

// RefinedTiming refines every profiled thread of tr (whose Tracks must be built) and rebuilds the
// tracks of the refined ones. A thread with several Lighthouse profiles takes the one with the id
// of its DevTools profile, else the one with the most events.
func RefinedTiming(tr *core.Trace) *Timing {
	t := &Timing{Results: FromTrace(tr), Tracks: make([]core.Track, len(tr.Tracks)), Calls: make([]*Calls, len(tr.Tracks))}
	best := map[core.ThreadID]int{}
	for i := range t.Results {
		r := &t.Results[i]
		if !r.Refined() {
			continue
		}
		th := r.Profile.Thread
		j, ok := best[th]
		if !ok || betterFor(tr, th, r, &t.Results[j]) {
			best[th] = i
		}
	}
	for i := range tr.Tracks {
		base := &tr.Tracks[i]
		j, ok := best[base.Thread]
		if !ok {
			t.Tracks[i] = *base
			continue
		}
		c := CallsOf(tr, &t.Results[j], true)
		t.Calls[i] = c
		t.Tracks[i] = Merge(base, c)
	}
	return t
}

// betterFor tells whether r is a better source of thread th's calls than cur.
func betterFor(tr *core.Trace, th core.ThreadID, r, cur *Result) bool {
	matches := func(x *Result) bool {
		for i := range tr.Profiles {
			if m := &tr.Profiles[i]; m.Thread == th && m.Pid == x.Profile.Pid && tr.Strings.Get(m.ProfileID) == x.Profile.ID {
				return true
			}
		}
		return false
	}
	if a, b := matches(r), matches(cur); a != b {
		return a
	}
	return r.Events.Len() > cur.Events.Len()
}
