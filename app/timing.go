package app

import (
	"context"
	"fmt"
	"math"

	"flamedesk/app/task"
	"flamedesk/core/lighthouse"
	"flamedesk/timeline"
)

// timing holds both ways of timing JS calls for one document: DevTools' sampled boundaries (the
// tracks core/integrate built) and Lighthouse's refinement to task edges. The refinement and its
// display model are made on first use as a background task (about a second on a large trace);
// switching back and forth afterwards is instant.
type timing struct {
	sampled  *timeline.Model
	refine   task.Future[refinement]
	computed *lighthouse.Timing
	refined  *timeline.Model
}

// refinement is what the refinement task hands back.
type refinement struct {
	timing *lighthouse.Timing
	model  *timeline.Model
}

// busy reports whether the refinement is being computed.
func (t *timing) busy() bool { return t.refine.Busy() }

// applyTiming shows the document with the timing the settings ask for, starting the refinement
// if it has not been computed yet.
func (u *ui) applyTiming() {
	d := u.doc
	if d == nil {
		return
	}
	if d.late != nil {
		// The refinement reads every track: it waits for the late ones (lateDone).
		return
	}
	t := &d.timing
	want := t.sampled
	if u.settings.Refined {
		if t.refined == nil {
			if !t.refine.Busy() {
				// The refinement reads the trace's tracks and the model keeps its trace: both get a
				// copy of the trace's header, sharing everything but the list of tracks.
				view := *d.trace
				t.refine.Start(func(ctx context.Context) (refinement, error) {
					res := lighthouse.RefinedTiming(&view)
					view.Tracks = res.Tracks
					return refinement{timing: res, model: timeline.New(&view)}, ctx.Err()
				})
			}
			return
		}
		want = t.refined
	} else {
		t.refine.Cancel()
	}
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
	if r, err, ok := d.timing.refine.Poll(); ok && err == nil {
		// The refined model is built from the trace's tracks alone; its lanes are the sampled
		// model's, taken here on the UI goroutine, which alone changes them.
		r.model.UsePanelOf(d.timing.sampled)
		d.timing.computed, d.timing.refined = r.timing, r.model
		if u.settings.Refined {
			u.applyTiming()
		}
	}
}

// refinedLines describes where a refined call's boundaries could lie, e.g. "started between 12.30
// and 12.46 ms".
func refinedLines(d *document, ref timeline.EntryRef) []detailLine {
	t := &d.timing
	computed, refined := t.computed, t.refined
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
		return []detailLine{{label: "Timing", value: "sampled: this thread has no known tasks to refine against"}}
	}
	calls := computed.Calls[idx]
	c := int(ct.RefAt(int(ref.Entry)))
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
		{label: "Refined", value: fmt.Sprintf("%s – %s (Lighthouse)", formatDuration(calls.Start[c]-origin), formatDuration(calls.Finish[c]-origin))},
		{label: "Began", value: between("started", calls.StartEarliest[c], calls.StartLatest[c])},
		{label: "Ended", value: between("ended", calls.FinishEarliest[c], calls.FinishLatest[c])},
	}
}
