package app

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"flamedesk/core"
	"flamedesk/core/pipeline"
	"flamedesk/timeline"
)

// medium's worker is a large thread below the main thread's rows: the window shows the trace
// before the worker's track is built, as one row not placed yet, then builds it once that chart
// is on screen, and puts it in. A search started before it is in waits for it and finds what a
// whole build's model finds; the trace ends as a whole build
// makes it; --time-to-ready also says when every track is in; and the refined timing, when set,
// is built once the worker is in (showing it clears the search, as any change of timing does).
func TestLateTracksGoInOnceTheChartIsShown(t *testing.T) {
	for _, refined := range []bool{false, true} {
		lateTracksGoIn(t, refined)
	}
}

func lateTracksGoIn(t *testing.T, refined bool) {
	var log bytes.Buffer
	path := fixture(t, "generated", "gen-trace-medium-reload.json.gz")
	h := loadedHarness(t, Options{Source: SourceFromPath(path), ReadyLog: &log, Started: time.Now()},
		func(s *settings) { s.Refined = refined })
	d := h.u.doc
	if d.late == nil {
		t.Fatal("medium's worker came with the other tracks")
	}
	worker := d.late.Threads()[0]
	m := d.model
	ti := slices.IndexFunc(m.Tracks, func(tk timeline.Track) bool { return tk.Thread == worker })
	if ti < 0 || m.Tracks[ti].Core.Len() != 0 || m.Tracks[ti].Placed(0) {
		t.Fatalf("the worker's track to come: index %d", ti)
	}
	if d.timing.refine.Pending() {
		t.Fatal("the refined timing started before every track was in")
	}
	if h.u.ready.frameDone(h.u, time.Now()) {
		t.Fatal("the window asked to exit without ExitWhenReady")
	}
	h.u.startSearch("a")
	h.u.afterFrame()
	if !h.u.rest.Pending() {
		t.Fatal("the late track is not built once the first chart is on screen")
	}
	h.idle()
	if d.late != nil {
		t.Fatal("the late track is not in once the window is idle")
	}
	h.u.ready.frameDone(h.u, time.Now())

	whole, err := pipeline.Open(t.Context(), pipeline.FromPath(path), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(d.trace.Tracks, whole.Tracks) {
		t.Fatal("the trace's tracks differ from a whole build's")
	}
	wm := timeline.NewWithPanelLanes(whole)
	if d.timing.sampled.ContentHeight() != wm.ContentHeight() {
		t.Errorf("the chart is %.0f px high, the whole build's %.0f", d.timing.sampled.ContentHeight(), wm.ContentHeight())
	}
	if refined {
		if d.timing.refined == nil || d.model != d.timing.refined {
			t.Error("the refined timing asked for is not shown once every track is in")
		}
	} else {
		want := wm.Search("a")
		if got := d.search; got == nil || got.Len() != want.Len() || !slices.Equal(got.Matches, want.Matches) {
			t.Errorf("the search started before the worker was in found %v, a whole build's model %d", got, want.Len())
		}
	}
	if !regexp.MustCompile(`(?m)^all tracks in: \d+ ms after start \(1 built after the first chart\)$`).Match(log.Bytes()) {
		t.Errorf("--time-to-ready does not say when every track was in: %q", log.String())
	}
}

// failingLate is late tracks whose build fails as one over the memory budget would.
type failingLate struct{ core.LateTracks }

func (failingLate) Build(context.Context) ([]core.Track, error) {
	return nil, fmt.Errorf("%w: its tracks would take more than 1 MB", core.ErrMemoryBudget)
}

// When the late tracks cannot be built, the window says how many threads' tracks it does not
// show and why, and the late track ends empty: nothing waits for it any more.
func TestLateTracksThatFailAreGivenUpWithABanner(t *testing.T) {
	h := loadedHarness(t, Options{Source: SourceFromPath(fixture(t, "generated", "gen-trace-medium-reload.json.gz"))}, nil)
	d := h.u.doc
	if d.late == nil {
		t.Fatal("medium's worker came with the other tracks")
	}
	worker := d.late.Threads()[0]
	d.late = failingLate{d.late}
	h.u.startSearch("a")
	h.u.afterFrame()
	h.idle()
	if d.late != nil || d.model.LateToCome() {
		t.Fatal("the late track is still to come after its build failed")
	}
	if want := "Tracks of 1 thread not shown: "; !strings.HasPrefix(h.u.banner, want) || !strings.Contains(h.u.banner, "memory") {
		t.Errorf("banner %q, want one starting %q that gives the reason", h.u.banner, want)
	}
	ti := slices.IndexFunc(d.model.Tracks, func(tk timeline.Track) bool { return tk.Thread == worker })
	if tk := &d.model.Tracks[ti]; tk.Core.Len() != 0 || len(tk.Levels) != 0 {
		t.Errorf("the worker's track has %d entries and %d rows after its build failed", tk.Core.Len(), len(tk.Levels))
	}
	if d.search == nil || d.search.Len() == 0 {
		t.Error("the search started before the build failed found nothing")
	}
}
