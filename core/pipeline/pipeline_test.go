package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"flamedesk/core"
	"flamedesk/core/cache"
	"flamedesk/internal/fixtures"
)

// TestOpenBuildsTracksOnOneBar opens a real trace from disk and from memory: both build the
// same tracks, and the progress bar only ever moves forward, ending where Open's share ends.
func TestOpenBuildsTracksOnOneBar(t *testing.T) {
	path := fixtures.Path(t, "fixtures", "generated", "gen-trace-small.json.gz")
	var p core.Progress
	fromFile, err := Open(context.Background(), FromPath(path), &p)
	if err != nil {
		t.Fatal(err)
	}
	if len(fromFile.Tracks) == 0 {
		t.Fatal("Open built no tracks")
	}
	if got := p.Overall(); got < Done-1e-6 || got > Done+1e-6 {
		t.Fatalf("the bar ends at %v, want %v", got, Done)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fromMemory, err := Open(context.Background(), Source{Name: "x", Data: data}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(fromMemory.Tracks) != len(fromFile.Tracks) || fromMemory.Events.Len() != fromFile.Events.Len() {
		t.Fatalf("from memory %d tracks, %d events; from the file %d, %d",
			len(fromMemory.Tracks), fromMemory.Events.Len(), len(fromFile.Tracks), fromFile.Events.Len())
	}
}

func TestOpenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Open(ctx, FromPath(fixtures.Path(t, "fixtures", "generated", "gen-trace-small.json.gz")), nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled Open returned %v, want context.Canceled", err)
	}
}

// TestCacheReopensTheSameTrace opens a file twice through a temporary cache: the second open
// reads the cache and returns the same trace (the cache's own tests compare every column); a
// changed file is loaded again.
func TestCacheReopensTheSameTrace(t *testing.T) {
	data, err := os.ReadFile(fixtures.Path(t, "fixtures", "generated", "gen-trace-small.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "trace.json.gz")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	opts := Options{Cache: cache.Dir{Path: filepath.Join(t.TempDir(), "cache")}}
	var first, second, third core.Progress
	loaded, err := opts.Open(context.Background(), FromPath(path), &first)
	if err != nil {
		t.Fatal(err)
	}
	if first.Stage() == stageCache {
		t.Fatal("the first open read a cache")
	}
	reopened, err := opts.Open(context.Background(), FromPath(path), &second)
	if err != nil {
		t.Fatal(err)
	}
	if second.Stage() != stageCache {
		t.Fatalf("the second open's last stage is %q, want %q", second.Stage(), stageCache)
	}
	if got := second.Overall(); got < Done-1e-6 || got > Done+1e-6 {
		t.Fatalf("the bar ends at %v after a cache hit, want %v", got, Done)
	}
	if reopened.Events.Len() != loaded.Events.Len() || len(reopened.Tracks) != len(loaded.Tracks) || reopened.Strings.Len() != loaded.Strings.Len() {
		t.Fatalf("reopened %d events, %d tracks; loaded %d, %d", reopened.Events.Len(), len(reopened.Tracks), loaded.Events.Len(), len(loaded.Tracks))
	}
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	if _, err := opts.Open(context.Background(), FromPath(path), &third); err != nil {
		t.Fatal(err)
	}
	if third.Stage() == stageCache {
		t.Fatal("a changed file was reopened from the cache")
	}
}

// BenchmarkReopen compares a first load with a reopen from the cache: the reopen's ratio metric
// is its time over one first load's (the goal is at most 0.10).
func BenchmarkReopen(b *testing.B) {
	for _, name := range []string{"gen-trace-medium-reload.json.gz", "gen-trace-large.json.gz"} {
		path := fixtures.Find("fixtures", "generated", name)
		if path == "" {
			continue // gen-trace-large is in the optional corpus only
		}
		b.Run(name+"/first", func(b *testing.B) {
			for b.Loop() {
				if _, err := OpenFile(path); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/first+store", func(b *testing.B) {
			opts := Options{Cache: cache.Dir{Path: b.TempDir()}}
			for b.Loop() {
				b.StopTimer()
				os.RemoveAll(opts.Cache.Path)
				b.StartTimer()
				if _, err := opts.OpenFile(path); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/reopen", func(b *testing.B) {
			opts := Options{Cache: cache.Dir{Path: b.TempDir()}}
			// The first load's time is the mean of a few, the first of which writes the cache.
			const firsts = 3
			t0 := time.Now()
			for range firsts {
				if _, err := opts.OpenFile(path); err != nil {
					b.Fatal(err)
				}
				os.RemoveAll(opts.Cache.Path)
			}
			firstNs := float64(time.Since(t0).Nanoseconds()) / firsts
			if _, err := opts.OpenFile(path); err != nil {
				b.Fatal(err)
			}
			t0 = time.Now()
			n := 0
			for b.Loop() {
				var p core.Progress
				if _, err := opts.Open(context.Background(), FromPath(path), &p); err != nil || p.Stage() != stageCache {
					b.Fatalf("not reopened from the cache (%v)", err)
				}
				n++
			}
			b.ReportMetric(float64(time.Since(t0).Nanoseconds())/float64(n)/firstNs, "ratio")
		})
	}
}

// TestBackgroundCacheWriteLeavesTheTraceFree writes the cache on another goroutine while the
// caller adds warnings to the trace (as the timelines do); under -race this checks that the
// writer reads only its snapshot. The written cache then serves the next open.
func TestBackgroundCacheWriteLeavesTheTraceFree(t *testing.T) {
	path := fixtures.Path(t, "fixtures", "generated", "gen-trace-small.json.gz")
	opts := Options{Cache: cache.Dir{Path: t.TempDir()}, Background: true}
	tr, err := opts.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	before := tr.Warnings.Len()
	for i := range 50 {
		tr.Warnings.Addf("added while the cache is written %d", i)
		tr.Strings.Intern(fmt.Sprintf("interned while the cache is written %d", i))
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		var p core.Progress
		back, err := opts.Open(context.Background(), FromPath(path), &p)
		if err != nil {
			t.Fatal(err)
		}
		if p.Stage() == stageCache {
			if back.Warnings.Len() != before {
				t.Fatalf("the cache holds %d warnings, want the %d of the load", back.Warnings.Len(), before)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the background write never produced a cache entry")
		}
	}
}

// TestDeferredCacheWrite hands the cache write to the caller: nothing is written until the caller
// runs it (after the trace it opened was changed, as the window changes it), and then the next open
// reads the trace as loaded.
func TestDeferredCacheWrite(t *testing.T) {
	path := fixtures.Path(t, "fixtures", "generated", "gen-trace-small.json.gz")
	var writes []func()
	opts := Options{Cache: cache.Dir{Path: t.TempDir()}, Defer: func(write func()) { writes = append(writes, write) }}
	tr, err := opts.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(writes) != 1 {
		t.Fatalf("%d writes handed over, want 1", len(writes))
	}
	before := tr.Warnings.Len()
	tr.Warnings.Addf("added before the cache is written")
	key, err := cache.KeyOf(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := opts.Cache.Load(key); err == nil {
		t.Fatal("the cache was written before the caller ran the write")
	}
	writes[0]()
	back, err := opts.Cache.Load(key)
	if err != nil {
		t.Fatalf("the deferred write left no cache entry: %v", err)
	}
	if back.Warnings.Len() != before {
		t.Fatalf("the cache holds %d warnings, want the %d of the load", back.Warnings.Len(), before)
	}
}

// With late tracks (core.Progress.ChooseLate), the cache write waits for them: none is handed over
// until Install, and the file then holds the trace a build without late tracks makes, its tracks
// and warnings, not the ones the window adds in between.
func TestCacheWriteWaitsForLateTracks(t *testing.T) {
	path := fixtures.Path(t, "fixtures", "upstream", "devtools-two-workers.json.gz")
	whole, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var writes []func()
	opts := Options{Cache: cache.Dir{Path: t.TempDir()}, Defer: func(write func()) { writes = append(writes, write) }}
	p := &core.Progress{ChooseLate: func(_ *core.Trace, threads []core.ThreadID, _ []int) []core.ThreadID { return threads[1:] }}
	tr, err := opts.Open(context.Background(), FromPath(path), p)
	if err != nil {
		t.Fatal(err)
	}
	if p.Late == nil || len(writes) != 0 {
		t.Fatalf("late tracks %v, %d writes handed over before they are in", p.Late, len(writes))
	}
	tr.Warnings.Addf("added by the window before the late tracks are in")
	if _, err := p.Late.Build(context.Background()); err != nil {
		t.Fatal(err)
	}
	p.Late.Install()
	if len(writes) != 1 {
		t.Fatalf("%d writes handed over once the late tracks are in, want 1", len(writes))
	}
	// The window moves the trace onto the cache file once written: nothing here may keep the
	// snapshot of the heap copy's columns.
	if l := p.Late.(*lateThenWrite); l.snap != nil || l.write != nil {
		t.Error("the late tracks keep the cache snapshot after handing its write over")
	}
	writes[0]()
	key, err := cache.KeyOf(path)
	if err != nil {
		t.Fatal(err)
	}
	back, err := opts.Cache.Load(key)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Tracks) != len(whole.Tracks) {
		t.Fatalf("the cache holds %d tracks, want %d", len(back.Tracks), len(whole.Tracks))
	}
	for i := range whole.Tracks {
		if back.Tracks[i].Thread != whole.Tracks[i].Thread || back.Tracks[i].Len() != whole.Tracks[i].Len() {
			t.Errorf("cached track %d: thread %d, %d entries; want thread %d, %d", i, back.Tracks[i].Thread, back.Tracks[i].Len(), whole.Tracks[i].Thread, whole.Tracks[i].Len())
		}
	}
	if got, want := fmt.Sprint(back.Warnings.Lines()), fmt.Sprint(whole.Warnings.Lines()); got != want {
		t.Errorf("cached warnings %s, want %s", got, want)
	}
}
