package app

import (
	"fmt"
	"math"
	"sync"

	"flamedesk/core"
	"flamedesk/core/lighthouse"
	"flamedesk/timeline"
)

// timing holds both ways of timing JS calls for one document: DevTools' sampled boundaries (the
// tracks core/integrate built) and Lighthouse's refinement to task edges, computed on first use on
// its own goroutine (it takes about half a second on a large trace).
type timing struct {
	sampled []core.Track

	mu       sync.Mutex
	pending  bool
	computed *lighthouse.Timing
	arrived  bool
}

// setRefinedTiming switches the ProfileCall bars between DevTools' sampled timing and Lighthouse's
// refinement to task edges, and remembers the choice.
func (u *ui) setRefinedTiming(on bool) {
	u.settings.Refined = on
	_ = u.settings.save()
	if d := u.doc; d != nil {
		u.applyTiming(d)
	}
}

// applyTiming shows the document with the timing the settings ask for, starting the refinement
// if it has not been computed yet.
func (u *ui) applyTiming(d *document) {
	t := &d.timing
	if t.sampled == nil {
		t.sampled = d.trace.Tracks
	}
	want := t.sampled
	if u.settings.Refined {
		t.mu.Lock()
		computed := t.computed
		if computed == nil && !t.pending {
			t.pending = true
			// RefinedTiming reads the trace's tracks: it gets a copy of the header with the sampled
			// ones, so the UI goroutine can keep swapping what it shows.
			view := *d.trace
			view.Tracks = t.sampled
			invalidate := u.win.Invalidate
			go func() {
				res := lighthouse.RefinedTiming(&view)
				t.mu.Lock()
				t.computed, t.pending, t.arrived = res, false, true
				t.mu.Unlock()
				invalidate()
			}()
		}
		t.mu.Unlock()
		if computed == nil {
			u.timingBusy = true
			return
		}
		want = computed.Tracks
	}
	u.timingBusy = false
	if len(want) > 0 && len(d.trace.Tracks) > 0 && &want[0] == &d.trace.Tracks[0] {
		return
	}
	d.trace.Tracks = want
	d.rebuildModel()
	u.chart.reset()
	u.overview.reset()
	u.panel.details.reset()
}

// pollTiming installs a refinement that finished.
func (u *ui) pollTiming() {
	d := u.doc
	if d == nil {
		return
	}
	t := &d.timing
	t.mu.Lock()
	arrived := t.arrived
	t.arrived = false
	t.mu.Unlock()
	if arrived && u.settings.Refined {
		u.applyTiming(d)
	}
}

// refinedLines describes where a refined call's boundaries could lie, e.g. "started between 12.30
// and 12.46 ms".
func refinedLines(u *ui, d *document, ref timeline.EntryRef) []detailLine {
	if !u.settings.Refined {
		return nil
	}
	d.timing.mu.Lock()
	computed := d.timing.computed
	d.timing.mu.Unlock()
	if computed == nil {
		return nil
	}
	ct := d.model.Tracks[ref.Track].Core
	idx := -1
	for i := range computed.Tracks {
		if &computed.Tracks[i] == ct {
			idx = i
		}
	}
	if idx < 0 || computed.Calls[idx] == nil {
		return []detailLine{{"Timing", "sampled: this thread has no known tasks to refine against"}}
	}
	calls := computed.Calls[idx]
	c := int(ct.Ref[ref.Entry])
	if c < 0 || c >= calls.Len() {
		return nil
	}
	origin := d.view.Origin()
	between := func(verb string, lo, hi float64) string {
		if math.IsInf(lo, 0) || math.IsInf(hi, 0) {
			return fmt.Sprintf("%s at the edge of the profile", verb)
		}
		return fmt.Sprintf("%s between %.2f and %.2f ms", verb, (lo-origin)/1000, (hi-origin)/1000)
	}
	return []detailLine{
		{"Refined", fmt.Sprintf("%s – %s (Lighthouse)", formatDuration(calls.Start[c]-origin), formatDuration(calls.Finish[c]-origin))},
		{"Began", between("started", calls.StartEarliest[c], calls.StartLatest[c])},
		{"Ended", between("ended", calls.FinishEarliest[c], calls.FinishLatest[c])},
	}
}
