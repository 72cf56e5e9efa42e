package integrate

import (
	"bytes"
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

// FuzzLateTracks builds hostile traces twice: whole, and leaving the threads that the fuzzer's
// mask picks late. Whatever the input, the late build must not panic, and once its tracks are in
// the trace must hold the tracks and warnings of the whole build.
func FuzzLateTracks(f *testing.F) {
	f.Add(fixtures.ReadHead(f, 6<<10, "fixtures", "upstream", "devtools-two-workers.json.gz"), uint64(0b10))
	f.Add(fixtures.ReadHead(f, 4<<10, "fixtures", "generated", "gen-trace-small.json.gz"), uint64(0b110))
	// Two threads with events and a profile each, one of them a worker.
	chunk := func(id, tid string) string {
		return `{"ph":"P","name":"Profile","id":"` + id + `","pid":1,"tid":` + tid + `,"ts":90,"args":{"data":{"startTime":90}}},` +
			`{"ph":"P","name":"ProfileChunk","id":"` + id + `","pid":1,"tid":` + tid + `,"ts":95,"args":{"data":{"cpuProfile":{"nodes":[` +
			`{"id":1,"callFrame":{"functionName":"(root)","scriptId":0}},{"id":2,"parent":1,"callFrame":{"functionName":"f","scriptId":1,"url":"a.js"}},` +
			`{"id":3,"parent":2,"callFrame":{"functionName":"g","scriptId":1,"url":"a.js"}}],"samples":[2,3,3,1,2]},"timeDeltas":[20,5,5,10,5]}}}`
	}
	f.Add([]byte(`{"traceEvents":[{"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"CrRendererMain"}},`+
		`{"ph":"M","name":"thread_name","pid":1,"tid":2,"args":{"name":"DedicatedWorker thread"}},`+
		`{"ph":"X","name":"RunTask","cat":"disabled-by-default-devtools.timeline","pid":1,"tid":1,"ts":100,"dur":50},`+
		`{"ph":"X","name":"FunctionCall","cat":"devtools.timeline","pid":1,"tid":1,"ts":110,"dur":30},`+
		`{"ph":"X","name":"RunTask","cat":"disabled-by-default-devtools.timeline","pid":1,"tid":2,"ts":100,"dur":60},`+
		chunk("0x1", "1")+","+chunk("0x2", "2")+`]}`), uint64(0b1))
	f.Fuzz(func(t *testing.T, data []byte, mask uint64) {
		whole, err := load.Reader(context.Background(), bytes.NewReader(data), int64(len(data)), nil)
		if err != nil {
			return
		}
		tr, err := load.Reader(context.Background(), bytes.NewReader(data), int64(len(data)), nil)
		if err != nil {
			t.Fatalf("the second load of the same input failed: %v", err)
		}
		if err := BuildContext(context.Background(), whole, nil); err != nil {
			return // the entry budget: the late build is not reached either
		}
		p := &core.Progress{ChooseLate: func(_ *core.Trace, threads []core.ThreadID, _ []int) []core.ThreadID {
			var late []core.ThreadID
			for i, th := range threads {
				if mask>>(i%64)&1 != 0 {
					late = append(late, th)
				}
			}
			return late
		}}
		if err := BuildContext(context.Background(), tr, p); err != nil {
			t.Fatalf("the build with late threads failed where the whole one did not: %v", err)
		}
		if p.Late != nil {
			if _, err := p.Late.Build(context.Background()); err != nil {
				t.Fatalf("late build: %v", err)
			}
			p.Late.Install()
		}
		if len(tr.Tracks) != len(whole.Tracks) {
			t.Fatalf("%d tracks, the whole build has %d", len(tr.Tracks), len(whole.Tracks))
		}
		for i := range whole.Tracks {
			if !reflect.DeepEqual(tr.Tracks[i], whole.Tracks[i]) {
				t.Fatalf("track %d (thread %d) differs from the whole build's", i, whole.Tracks[i].Thread)
			}
		}
		if got, want := tr.Warnings.Lines(), whole.Warnings.Lines(); !slices.Equal(got, want) {
			t.Fatalf("warnings %q, the whole build's %q", got, want)
		}
	})
}
