package timeline

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"flamedesk/core"
	"flamedesk/core/pipeline"
	"flamedesk/core/timelines"
	"flamedesk/internal/fixtures"
)

// A model built with the tracks laid out while core/integrate built them is the model built
// after it: every track's rows and levels, for a trace (rows filtered by the panel's rule) and
// for profiles (rows are the depths).
func TestPrelayoutGivesTheModelOfABuildAfterTheLoad(t *testing.T) {
	for _, name := range []string{"gen-trace-medium-reload.json.gz", "gen-cpuprofile-prettier-format.cpuprofile", "gen-selfprofile-small.json"} {
		t.Run(name, func(t *testing.T) {
			path := fixtures.Path(t, "fixtures", "generated", name)
			pl := NewPrelayout(context.Background())
			p := &core.Progress{TrackBuilt: pl.TrackBuilt}
			tr, err := pipeline.Open(context.Background(), pipeline.FromPath(path), p)
			if err != nil {
				t.Fatal(err)
			}
			handed := len(pl.laid)
			if handed == 0 || handed != len(tr.Tracks) {
				t.Fatalf("%d tracks handed over while building, of %d", handed, len(tr.Tracks))
			}
			settle(t, pl)
			// The lists too, from scratch (this build built none ahead); a profile has none.
			pl.StartLists(tr)
			if started := pl.lists != nil; started != (tr.Kind == core.InputTrace) {
				t.Fatalf("lists started: %v, for a %v", started, tr.Kind)
			}
			built := 0
			// Where each track's first level begins, to tell that the model took it.
			first := map[core.ThreadID]*int32{}
			for th, e := range pl.laid {
				if e.built {
					built++
				}
				if len(e.laid.levels) > 0 && len(e.laid.levels[0].Entries) > 0 {
					first[th] = &e.laid.levels[0].Entries[0]
				}
			}
			if built != handed {
				t.Fatalf("%d tracks were laid out ahead, of %d", built, handed)
			}
			got, err := pl.Model(context.Background(), tr, p, 0)
			if err != nil {
				t.Fatal(err)
			}
			want := NewWithPanelLanes(tr)
			if gotJSON, wantJSON := mustJSON(t, got.Panel), mustJSON(t, want.Panel); gotJSON != wantJSON || len(got.Lanes) != len(want.Lanes) {
				t.Fatalf("the lists differ: %d lanes, want %d:\n%.300s\nwant\n%.300s", len(got.Lanes), len(want.Lanes), gotJSON, wantJSON)
			}
			if len(got.Tracks) != len(want.Tracks) || len(got.Tracks) == 0 {
				t.Fatalf("%d tracks, want %d", len(got.Tracks), len(want.Tracks))
			}
			for i := range want.Tracks {
				g, w := &got.Tracks[i], &want.Tracks[i]
				if g.Thread != w.Thread || !slices.Equal(g.Rows, w.Rows) || len(g.Levels) != len(w.Levels) {
					t.Fatalf("track %d (%s): rows or level count differ", i, w.Title)
				}
				if len(g.Levels) > 0 && len(g.Levels[0].Entries) > 0 && first[g.Thread] != &g.Levels[0].Entries[0] {
					t.Fatalf("track %d (%s) was laid out again", i, w.Title)
				}
				for d := range w.Levels {
					if !slices.Equal(g.Levels[d].Entries, w.Levels[d].Entries) || !slices.Equal(maxEnds(&g.Levels[d], g.Core), maxEnds(&w.Levels[d], w.Core)) ||
						!slices.Equal(g.Levels[d].stand, w.Levels[d].stand) {
						t.Fatalf("track %d (%s) level %d differs", i, w.Title, d)
					}
				}
			}
			if pl.laid != nil {
				t.Fatal("the Prelayout still holds the tracks after Model")
			}
		})
	}
}

// The panel's lists that the Prelayout builds ahead, while core/integrate still builds the
// tracks, are the lists built after the build, and the trace's warnings come out the same and in
// the same order: on traces with frames, network, timings, extension tracks and workers, two of
// them with warnings of the lists' own.
func TestPrelayoutBuildsThePanelListsAhead(t *testing.T) {
	for _, path := range [][]string{
		{"generated", "gen-trace-medium-reload.json.gz"},
		{"upstream", "devtools-web-dev.json.gz"},
		{"upstream", "devtools-two-workers.json.gz"},
		{"upstream", "devtools-extension-tracks-and-marks.json.gz"},
		{"upstream", "speedscope-chrome65-simple-timeline.json"},
		{"upstream", "speedscope-chrome66-worker.json"},
	} {
		for _, start := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/StartLists=%v", path[1], start), func(t *testing.T) {
				listsAheadMatch(t, fixtures.Path(t, append([]string{"fixtures"}, path...)...), start)
			})
		}
	}
}

// listsAheadMatch builds file's lists ahead with a Prelayout, and then the model, starting the
// lists before it (StartLists) when start is set, and compares them with a build after the load.
func listsAheadMatch(t *testing.T, file string, start bool) {
	ctx := context.Background()
	pl := NewPrelayout(ctx)
	p := new(core.Progress)
	pl.Hook(p)
	hand := p.TrackBuilt
	var once sync.Once
	p.TrackBuilt = func(tr *core.Trace, ct *core.Track) {
		first := false
		once.Do(func() { first = true })
		if !first {
			hand(tr, ct)
			return
		}
		// The build holds back until the lists are built ahead, counted unfinished
		// meanwhile, as when its largest thread is still being built: the worker runs out
		// of tracks before the build is over.
		held := p.Total.Load()
		p.Done.Add(-held)
		hand(tr, ct)
		deadline := time.Now().Add(time.Minute)
		for {
			pl.mu.Lock()
			done := pl.earlyDone
			pl.mu.Unlock()
			if done != nil {
				<-done
				break
			}
			if time.Now().After(deadline) {
				t.Error("the lists were not started ahead in a minute")
				break
			}
			time.Sleep(time.Millisecond)
		}
		p.Done.Add(held)
	}
	tr, err := pipeline.Open(ctx, pipeline.FromPath(file), p)
	if err != nil {
		t.Fatal(err)
	}
	pl.StopEarly(ctx)
	if pl.early == nil {
		t.Fatal("no lists built ahead")
	}
	if start {
		pl.StartLists(tr)
		if pl.lists == nil || pl.early != nil {
			t.Fatal("StartLists did not take the lists built ahead")
		}
	}
	got, err := pl.Model(ctx, tr, p, 0)
	if err != nil {
		t.Fatal(err)
	}
	if pl.early != nil || pl.lists != nil {
		t.Fatal("the Prelayout still holds the lists after Model")
	}
	wantTrace, err := pipeline.OpenFile(file)
	if err != nil {
		t.Fatal(err)
	}
	// The window's model built after the load, whose meta adds its warnings too.
	wantModel := NewWithPanelLanes(wantTrace)
	want := wantModel.Panel
	if gotJSON, wantJSON := mustJSON(t, got.Panel), mustJSON(t, want); gotJSON != wantJSON {
		t.Fatalf("the lists built ahead differ from those built after the load:\n%.400s\nwant\n%.400s", gotJSON, wantJSON)
	}
	if !slices.Equal(got.Panel.Meta.MainThreads, want.Meta.MainThreads) || len(want.Meta.MainThreads) == 0 && filepath.Base(file) == "devtools-web-dev.json.gz" {
		t.Fatalf("main threads %v, want %v", got.Panel.Meta.MainThreads, want.Meta.MainThreads)
	}
	if g, w := tr.Warnings.Lines(), wantTrace.Warnings.Lines(); !slices.Equal(g, w) {
		t.Fatalf("warnings\n%q\nwant\n%q", g, w)
	}
	if g, w := len(got.Lanes), len(wantModel.Lanes); g != w {
		t.Fatalf("%d lanes, want %d", g, w)
	}
}

// mustJSON is v as JSON.
func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A cancelled load leaves nothing running: the worker ends, and Model gives up.
func TestPrelayoutStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	pl := NewPrelayout(ctx)
	p := &core.Progress{TrackBuilt: pl.TrackBuilt}
	tr, err := pipeline.Open(context.Background(), pipeline.FromPath(fixtures.Path(t, "fixtures", "generated", "gen-trace-small.json.gz")), p)
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	if m, err := pl.Model(ctx, tr, p, 0); err == nil || m != nil {
		t.Fatalf("Model after cancel: %v, %v", m != nil, err)
	}
}

// settle waits until pl's worker has laid out every track queued so far, as a load's slower
// threads give it time to.
func settle(t *testing.T, pl *Prelayout) {
	deadline := time.Now().Add(time.Minute)
	for {
		pl.mu.Lock()
		queued := len(pl.queue)
		pl.mu.Unlock()
		if queued == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the worker did not take its queue in a minute")
		}
		time.Sleep(time.Millisecond)
	}
	pl.mu.Lock()
	var done []chan struct{}
	for _, e := range pl.laid {
		if e.claimed {
			done = append(done, e.done)
		}
	}
	pl.mu.Unlock()
	for _, c := range done {
		<-c
	}
}

// Hooked to a build, the Prelayout lets a track take a second goroutine only when the build has
// finished every thread as the track comes (its work all counted done): before, the other core
// is building the others. The model it gives is the same either way (the test above).
func TestPrelayoutTakesASecondGoroutineOnceTheBuildIsOver(t *testing.T) {
	tr, err := pipeline.OpenFile(fixtures.Path(t, "fixtures", "generated", "gen-trace-medium-reload.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Tracks) < 2 {
		t.Fatalf("%d tracks", len(tr.Tracks))
	}
	pl := NewPrelayout(context.Background())
	p := new(core.Progress)
	pl.Hook(p)
	if p.TrackBuilt == nil {
		t.Fatal("Hook did not hand the build the Prelayout's TrackBuilt")
	}
	first, second := &tr.Tracks[0], &tr.Tracks[1]
	p.Total.Store(100)
	p.Done.Store(60)
	p.TrackBuilt(tr, first)
	p.Done.Store(100)
	p.TrackBuilt(tr, second)
	settle(t, pl)
	if e := pl.laid[first.Thread]; e == nil || e.parallel {
		t.Errorf("the track that came while the build went on may take a second goroutine")
	}
	if e := pl.laid[second.Thread]; e == nil || !e.parallel {
		t.Errorf("the track that came last may not take a second goroutine")
	}
	// Unhooked, as before: every track may.
	free := NewPrelayout(context.Background())
	free.TrackBuilt(tr, first)
	settle(t, free)
	if e := free.laid[first.Thread]; e == nil || !e.parallel {
		t.Errorf("without a build's counts a track may not take a second goroutine")
	}
}

// The lanes of the lists built ahead are never higher than the model's lanes: the Prelayout
// walks the rows of a thread that a first view shows below them (firstViewRows), and a thread
// pushed down less than that would show rows not walked. On every committed DevTools trace, and
// on most the lanes ahead are all but the frames'.
func TestLanesAheadAreNoHigherThanTheModels(t *testing.T) {
	checked := 0
	eachDevToolsTrace(t, testing.Short(), func(name string, tr *core.Trace) {
		ahead := lanesHeight(BuildLanes(timelines.BuildEarly(tr).Partial()))
		m := NewWithPanelLanes(tr)
		if ahead > m.LanesHeight() {
			t.Errorf("%s: the lanes ahead are %v px high, the model's %v", name, ahead, m.LanesHeight())
		}
		if ahead > 0 {
			checked++
		}
	})
	if checked == 0 {
		t.Fatal("no trace had lanes ahead")
	}
}
