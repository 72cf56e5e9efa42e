package timeline

import (
	"context"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"flamedesk/core"
	"flamedesk/core/pipeline"
	"flamedesk/internal/fixtures"
)

// The window's path with a late thread: the Prelayout has core/integrate leave medium's worker
// (lateMinWork lowered to take it), the model shows it as one row not placed, in the place a whole
// build gives it, and a search started then waits for it. Once BuildLate and InstallLate are done,
// the trace and the model are those of a whole build: tracks, order, titles, rows, levels,
// EventDispatch titles, height, and what the search found.
func TestLateTracksEndAsAWholeModel(t *testing.T) {
	lateWhateverTheSize(t)
	path := fixtures.Path(t, "fixtures", "generated", "gen-trace-medium-reload.json.gz")
	ctx := context.Background()
	tr, p, m := windowModel(t, path)
	if p.Late == nil || !m.LateToCome() {
		t.Fatalf("late tracks %v, model waiting for some %v", p.Late, m.LateToCome())
	}
	wholeTrace, err := pipeline.Open(ctx, pipeline.FromPath(path), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := NewWithPanelLanes(wholeTrace)
	if len(m.Tracks) != len(want.Tracks) {
		t.Fatalf("%d tracks before the late ones are in, want %d", len(m.Tracks), len(want.Tracks))
	}
	late := 0
	for ti := range want.Tracks {
		g, w := &m.Tracks[ti], &want.Tracks[ti]
		if g.Thread != w.Thread || g.Title != w.Title || g.Hidden != w.Hidden {
			t.Fatalf("track %d: thread %d %q hidden %v, want thread %d %q hidden %v", ti, g.Thread, g.Title, g.Hidden, w.Thread, w.Title, w.Hidden)
		}
		if slices.Contains(p.Late.Threads(), g.Thread) {
			late++
			if g.Core.Len() != 0 || len(g.Levels) != 1 || g.Placed(0) {
				t.Fatalf("late track %q: %d entries, %d rows, first placed %v", g.Title, g.Core.Len(), len(g.Levels), g.Placed(0))
			}
		}
	}
	if late == 0 {
		t.Fatal("no late track in the model")
	}
	const query = "a"
	found := make(chan *SearchResult, 1)
	go func() { found <- m.Search(query) }()
	if m.DeferredRows() {
		if err := m.PlaceRest(ctx); err != nil {
			t.Fatal(err)
		}
	}
	laid, err := m.BuildLate(ctx, p.Late)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-found:
		t.Fatal("the search ended before the late tracks were in")
	default:
	}
	m.InstallLate(laid)
	if m.LateToCome() {
		t.Fatal("late tracks still to come after InstallLate")
	}
	if laid.tracks != nil || laid.late != nil {
		t.Error("the laid-out late tracks keep their copies once in (they would keep a heap copy of the columns alive)")
	}
	if !reflect.DeepEqual(tr.Tracks, wholeTrace.Tracks) {
		t.Fatal("the trace's tracks differ from a whole build's")
	}
	got := tr.Warnings.Lines()
	slices.Sort(got)
	wantWarnings := wholeTrace.Warnings.Lines()
	slices.Sort(wantWarnings)
	if !slices.Equal(got, wantWarnings) {
		t.Errorf("warnings %q, want %q", got, wantWarnings)
	}
	m.SettleRows()
	for ti := range want.Tracks {
		g, w := &m.Tracks[ti], &want.Tracks[ti]
		if g.rowCount() != len(w.Levels) {
			t.Fatalf("track %q: %d rows, want %d", w.Title, g.rowCount(), len(w.Levels))
		}
		for d := range w.Levels {
			sameLevel(t, g, w, d)
		}
		sameRows(t, g, w)
	}
	if m.ContentHeight() != want.ContentHeight() {
		t.Errorf("content height %v, want %v", m.ContentHeight(), want.ContentHeight())
	}
	if !reflect.DeepEqual(m.dispatchTitles, want.dispatchTitles) {
		t.Errorf("%d EventDispatch titles, want %d", len(m.dispatchTitles), len(want.dispatchTitles))
	}
	wantFound := want.Search(query)
	if got := <-found; got.Len() != wantFound.Len() || !slices.Equal(got.Matches, wantFound.Matches) {
		t.Errorf("the search found %d, the whole model's %d", got.Len(), wantFound.Len())
	}
}

// Late tracks given up (their build failed) end empty, and searches waiting for them go on.
func TestLateTracksAbandoned(t *testing.T) {
	lateWhateverTheSize(t)
	ctx := context.Background()
	_, p, m := windowModel(t, fixtures.Path(t, "fixtures", "generated", "gen-trace-medium-reload.json.gz"))
	if !m.LateToCome() {
		t.Fatal("no late tracks to come")
	}
	if m.DeferredRows() {
		if err := m.PlaceRest(ctx); err != nil {
			t.Fatal(err)
		}
	}
	found := make(chan *SearchResult, 1)
	go func() { found <- m.Search("a") }()
	m.AbandonLate()
	if r := <-found; r.Len() == 0 {
		t.Error("the search found nothing")
	}
	for i := range m.Tracks {
		if tk := &m.Tracks[i]; slices.Contains(p.Late.Threads(), tk.Thread) && (len(tk.Levels) != 0 || tk.pending != nil) {
			t.Errorf("abandoned track %q: %d rows, pending %v", tk.Title, len(tk.Levels), tk.pending != nil)
		}
	}
}

// installLate builds m's late tracks and puts them in, as the window does once the first view is
// shown.
func installLate(t *testing.T, m *Model, late core.LateTracks) {
	t.Helper()
	laid, err := m.BuildLate(context.Background(), late)
	if err != nil {
		t.Fatal(err)
	}
	m.InstallLate(laid)
}

// On every fixture trace (the corpus's too, when there), with every thread chooseLate's other
// rules allow left late whatever its size, the window's path ends, once the late tracks are in,
// with a whole build's model: track order, titles, rows and levels.
func TestLateTracksOnEveryFixture(t *testing.T) {
	lateWhateverTheSize(t)
	var files []string
	for _, dir := range []string{"generated", "upstream"} {
		files = append(files, fixtures.Glob(t, filepath.Join("fixtures", dir, "*.json*"))...)
	}
	lateSeen := 0
	for _, path := range files {
		if testing.Short() && strings.Contains(path, "large") {
			continue
		}
		name := filepath.Base(path)
		ctx := context.Background()
		_, p, m := windowModel(t, path)
		if p.Late == nil {
			continue
		}
		lateSeen += len(p.Late.Threads())
		if m.DeferredRows() {
			if err := m.PlaceRest(ctx); err != nil {
				t.Fatal(err)
			}
		}
		installLate(t, m, p.Late)
		m.SettleRows()
		whole, err := pipeline.Open(ctx, pipeline.FromPath(path), nil)
		if err != nil {
			t.Fatal(err)
		}
		want := NewWithPanelLanes(whole)
		if len(m.Tracks) != len(want.Tracks) {
			t.Fatalf("%s: %d tracks, want %d", name, len(m.Tracks), len(want.Tracks))
		}
		for ti := range want.Tracks {
			g, w := &m.Tracks[ti], &want.Tracks[ti]
			if g.Thread != w.Thread || g.Title != w.Title || g.Hidden != w.Hidden || g.rowCount() != len(w.Levels) {
				t.Fatalf("%s: track %d is thread %d %q (hidden %v, %d rows), want thread %d %q (hidden %v, %d rows)",
					name, ti, g.Thread, g.Title, g.Hidden, g.rowCount(), w.Thread, w.Title, w.Hidden, len(w.Levels))
			}
			for d := range w.Levels {
				sameLevel(t, g, w, d)
			}
		}
		if m.ContentHeight() != want.ContentHeight() {
			t.Errorf("%s: content height %v, want %v", name, m.ContentHeight(), want.ContentHeight())
		}
	}
	if lateSeen == 0 {
		t.Fatal("no fixture had a late track")
	}
	t.Logf("%d late tracks in %d files", lateSeen, len(files))
}

// lateWhateverTheSize lets chooseLate leave threads of any size late, for the rest of the test.
func lateWhateverTheSize(t *testing.T) {
	old := lateMinWork
	lateMinWork = 1
	t.Cleanup(func() { lateMinWork = old })
}

// windowModel opens path as the window does, for a first view 300 px high: its tracks laid out
// as they are built, the late ones left, and the model built for that view.
func windowModel(t *testing.T, path string) (*core.Trace, *core.Progress, *Model) {
	t.Helper()
	ctx := context.Background()
	pl := NewPrelayout(ctx)
	pl.DeferRows(func() float64 { return 300 })
	p := new(core.Progress)
	pl.Hook(p)
	tr, err := pipeline.Open(ctx, pipeline.FromPath(path), p)
	if err != nil {
		t.Fatalf("%s: %v", filepath.Base(path), err)
	}
	m, err := pl.Model(ctx, tr, p, 300)
	if err != nil {
		t.Fatalf("%s: %v", filepath.Base(path), err)
	}
	return tr, p, m
}
