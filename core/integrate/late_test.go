package integrate

import (
	"context"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"flamedesk/core"
	"flamedesk/core/load"
	"flamedesk/internal/fixtures"
)

// A build that leaves threads late (Progress.ChooseLate) must end, once the late tracks are built
// and installed, with the tracks and warnings of a build that left none; before, the late
// threads' places hold empty tracks, and the progress counts only the work done.
func TestLateTracksEndAsAWholeBuild(t *testing.T) {
	files := []string{
		fixtures.Path(t, "fixtures", "generated", "gen-trace-medium-reload.json.gz"),
		fixtures.Path(t, "fixtures", "upstream", "devtools-two-workers.json.gz"),
	}
	lateSeen := 0
	for _, path := range files {
		name := filepath.Base(path)
		whole, err := load.File(context.Background(), path, nil)
		if err != nil {
			t.Fatal(err)
		}
		Build(whole)
		tr, err := load.File(context.Background(), path, nil)
		if err != nil {
			t.Fatal(err)
		}
		var asked []core.ThreadID
		p := &core.Progress{ChooseLate: func(_ *core.Trace, threads []core.ThreadID, work []int) []core.ThreadID {
			// Every thread but the one with the most work.
			most := slices.Index(work, slices.Max(work))
			for i, th := range threads {
				if i != most {
					asked = append(asked, th)
				}
			}
			return asked
		}}
		if err := BuildContext(context.Background(), tr, p); err != nil {
			t.Fatal(err)
		}
		if len(asked) == 0 || p.Late == nil {
			t.Fatalf("%s: %d threads asked to be late, late tracks %v", name, len(asked), p.Late)
		}
		late := p.Late.Threads()
		lateSeen += len(late)
		if len(tr.Tracks) != len(whole.Tracks) {
			t.Fatalf("%s: %d tracks before the late ones are built, want %d", name, len(tr.Tracks), len(whole.Tracks))
		}
		for i := range tr.Tracks {
			if isLate := slices.Contains(late, tr.Tracks[i].Thread); isLate != (tr.Tracks[i].Len() == 0) {
				t.Errorf("%s: track %d (thread %d) has %d entries, late %v", name, i, tr.Tracks[i].Thread, tr.Tracks[i].Len(), isLate)
			}
		}
		if p.Done.Load() != p.Total.Load() {
			t.Errorf("%s: progress %d of %d", name, p.Done.Load(), p.Total.Load())
		}
		before := tr.Warnings.Lines() // the load's and the pairing's only
		built, err := p.Late.Build(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(built) != len(late) {
			t.Fatalf("%s: %d late tracks built for %d threads", name, len(built), len(late))
		}
		if got, want := append(before, p.Late.Warnings().Lines()...), whole.Warnings.Lines(); !slices.Equal(got, want) {
			t.Errorf("%s: warnings before the late build %q and from it %q, want %q", name, before, p.Late.Warnings().Lines(), want)
		}
		p.Late.Install()
		for i := range whole.Tracks {
			if !reflect.DeepEqual(tr.Tracks[i], whole.Tracks[i]) {
				t.Errorf("%s: track %d (thread %d) differs from a whole build's", name, i, whole.Tracks[i].Thread)
			}
		}
		if got, want := tr.Warnings.Lines(), whole.Warnings.Lines(); !slices.Equal(got, want) {
			t.Errorf("%s: warnings %q, want %q", name, got, want)
		}
		if _, err := p.Late.Build(context.Background()); err == nil {
			t.Errorf("%s: a second Build did not fail", name)
		}
	}
	if lateSeen < 3 {
		t.Errorf("%d late tracks in all; the fixtures should give more", lateSeen)
	}
}

// A cancelled late build returns the context's error and leaves the trace as it was.
func TestLateTracksCancelled(t *testing.T) {
	tr, err := load.File(context.Background(), fixtures.Path(t, "fixtures", "upstream", "devtools-two-workers.json.gz"), nil)
	if err != nil {
		t.Fatal(err)
	}
	p := &core.Progress{ChooseLate: func(_ *core.Trace, threads []core.ThreadID, _ []int) []core.ThreadID { return threads[1:] }}
	if err := BuildContext(context.Background(), tr, p); err != nil || p.Late == nil {
		t.Fatalf("build: %v, late %v", err, p.Late)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Late.Build(ctx); err != context.Canceled {
		t.Errorf("cancelled late build: %v", err)
	}
	for i := range tr.Tracks {
		if slices.Contains(p.Late.Threads(), tr.Tracks[i].Thread) && tr.Tracks[i].Len() != 0 {
			t.Errorf("track %d filled by a cancelled build", i)
		}
	}
}

// Asked to leave every thread, the build leaves none: nothing would be shown.
func TestLateTracksNotAll(t *testing.T) {
	tr, err := load.File(context.Background(), fixtures.Path(t, "fixtures", "upstream", "devtools-two-workers.json.gz"), nil)
	if err != nil {
		t.Fatal(err)
	}
	p := &core.Progress{ChooseLate: func(_ *core.Trace, threads []core.ThreadID, _ []int) []core.ThreadID { return threads }}
	if err := BuildContext(context.Background(), tr, p); err != nil {
		t.Fatal(err)
	}
	if p.Late != nil {
		t.Errorf("every thread left late: %v", p.Late.Threads())
	}
	for i := range tr.Tracks {
		if tr.Tracks[i].Len() == 0 {
			t.Errorf("track %d empty", i)
		}
	}
}
