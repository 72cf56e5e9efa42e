package app

import (
	"fmt"
	"math"
	"sync"

	"flamedesk/core/lighthouse"
	"flamedesk/timeline"
)

// timing holds both ways of timing JS calls for one document: DevTools' sampled boundaries (the
// tracks core/integrate built) and Lighthouse's refinement to task edges. The refinement and its
// display model are made on first use on their own goroutine (about a second on a large trace);
// switching back and forth afterwards is instant.
type timing struct {
	sampled *timeline.Model

	mu       sync.Mutex
	pending  bool
	computed *lighthouse.Timing
	refined  *timeline.Model
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
	want := t.sampled
	if u.settings.Refined {
		t.mu.Lock()
		refined := t.refined
		if refined == nil && !t.pending {
			t.pending = true
			// The refinement reads the trace's tracks and the model keeps its trace: both get a
			// copy of the trace's header, sharing everything but the list of tracks.
			view := *d.trace
			invalidate := u.win.Invalidate
			go func() {
				res := lighthouse.RefinedTiming(&view)
				view.Tracks = res.Tracks
				m := timeline.New(&view)
				t.mu.Lock()
				t.computed, t.refined, t.pending, t.arrived = res, m, false, true
				t.mu.Unlock()
				invalidate()
			}()
		}
		t.mu.Unlock()
		if refined == nil {
			u.timingBusy = true
			return
		}
		want = refined
	}
	u.timingBusy = false
	if d.model == want {
		return
	}
	d.setModel(want)
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
	t := &d.timing
	t.mu.Lock()
	computed, refined := t.computed, t.refined
	t.mu.Unlock()
	if computed == nil || d.model != refined {
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
