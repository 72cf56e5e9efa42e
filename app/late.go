// Late tracks: the tracks of large threads the first view cannot show, built once it is on
// screen (timeline/late.go) and put in on the UI goroutine.

package app

import (
	"context"
	"fmt"
	"sync"

	"flamedesk/core"
	"flamedesk/internal/background"
	"flamedesk/timeline"
)

// restDone is what rest hands back: the late tracks laid out for model, or why they are not.
type restDone struct {
	model   *timeline.Model
	late    *timeline.LateLaidOut
	lateErr error
}

// restOf is rest's work for model m: the rows its first view left out (Model.PlaceRest), and
// beside them the late tracks (nil for none): on gen-trace-large every track was in 330-360 ms
// after the first chart this way, 375-455 ms with one after the other. A late build that fails is
// reported in restDone, not as rest's error, which says only that it was cancelled.
func restOf(m *timeline.Model, late core.LateTracks) func(ctx context.Context) (restDone, error) {
	return func(ctx context.Context) (restDone, error) {
		done := restDone{model: m}
		var wg sync.WaitGroup
		if late != nil {
			wg.Go(func() {
				background.Lower()
				done.late, done.lateErr = m.BuildLate(ctx, late)
			})
		}
		var err error
		if m.DeferredRows() {
			err = m.PlaceRest(ctx)
		}
		wg.Wait()
		if err == nil {
			err = ctx.Err()
		}
		return done, err
	}
}

// lateDone puts the late tracks rest built into the open document, or, when their build failed,
// gives them up with a banner. Nothing else reads the document's tracks in the background then:
// searches and highlights wait for the late tracks (timeline.Model.WaitPlaced), the refinement of
// JS timing waits to start until they are in (applyTiming), and the call tree, the comparison, the
// source view and the filmstrip read the profiles, events and screenshots, never the tracks; the
// cache is written only after (core/pipeline).
func (u *ui) lateDone(done restDone) {
	d := u.doc
	if d.late == nil || done.model != d.timing.sampled {
		return
	}
	n := len(d.late.Threads())
	d.late = nil
	if done.lateErr != nil {
		done.model.AbandonLate()
		u.banner = fmt.Sprintf("Tracks of %s not shown: %v", plural(n, "thread", "threads"), done.lateErr)
	} else {
		done.model.InstallLate(done.late)
	}
	// What shows the late tracks: the chart, and the overview, whose picture has a row per track;
	// and the refined timing, when asked for.
	u.chart.invalidate()
	u.overview.reset()
	if u.settings.Refined {
		u.applyTiming()
	}
}
