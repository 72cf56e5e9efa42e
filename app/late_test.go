package app

import (
	"bytes"
	"image"
	"reflect"
	"regexp"
	"slices"
	"testing"
	"time"

	"flamedesk/core/pipeline"
	"flamedesk/timeline"
)

// medium's worker is a large thread below the main thread's rows: the window shows the trace
// before the worker's track is built, as one row not placed yet, then builds it once that chart
// is on screen, and puts it in. A search started before it
// is in waits for it and finds what a whole build's model finds; the trace ends as a whole build
// makes it; --time-to-ready also says when every track is in; and the refined timing, when set,
// is built once the worker is in (showing it clears the search, as any change of timing does).
func TestLateTracksGoInOnceTheChartIsShown(t *testing.T) {
	for _, refined := range []bool{false, true} {
		lateTracksGoIn(t, refined)
	}
}

func lateTracksGoIn(t *testing.T, refined bool) {
	var log bytes.Buffer
	h := &harness{t: t, host: &fakeHost{woken: make(chan struct{}, 1)}, size: image.Pt(1400, 900),
		now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), config: t.TempDir()}
	path := fixture(t, "generated", "gen-trace-medium-reload.json.gz")
	h.u = newUI(h.host, Options{Source: SourceFromPath(path), Load: pipeline.Open, ConfigDir: h.config,
		ReadyLog: &log, Started: time.Now()})
	h.u.settings.Refined = refined
	t.Cleanup(func() {
		h.u.load.Cancel()
		h.u.rest.Cancel()
		h.u.search.Cancel()
		h.u.panel.tree.build.Cancel()
		if h.u.doc != nil {
			h.u.doc.timing.refine.Cancel()
		}
	})
	for deadline := time.Now().Add(time.Minute); h.u.doc == nil; {
		if time.Now().After(deadline) {
			t.Fatal("the trace did not load within a minute")
		}
		h.u.ready.frameDone(h.u, time.Now())
		time.Sleep(10 * time.Millisecond)
		h.layOutFrame()
		if h.u.doc == nil {
			h.u.afterFrame()
		}
	}
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
