package app

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"time"

	"flamedesk/core"
	"flamedesk/core/pipeline"
	"flamedesk/timeline"
)

// Source is what to open: a file on disk, or bytes already in memory (the bundled sample).
type Source = pipeline.Source

// SourceFromPath names a file on disk.
func SourceFromPath(path string) Source { return pipeline.FromPath(path) }

// LoadFunc turns a Source into a Trace with its Tracks built. It runs off the UI goroutine, must
// return promptly with ctx.Err() once ctx is cancelled, and reports progress through p.
type LoadFunc func(ctx context.Context, src Source, p *core.Progress) (*core.Trace, error)

// loadJob is one load in flight. The UI goroutine polls it once per frame; the worker only touches
// progress (atomics) and, once, the result fields under mu.
type loadJob struct {
	src      Source
	progress core.Progress
	cancel   context.CancelFunc
	started  time.Time

	mu      sync.Mutex
	done    bool
	trace   *core.Trace
	model   *timeline.Model
	err     error
	elapsed time.Duration
}

// errLoadCancelled is what a job reports after the user pressed Cancel.
var errLoadCancelled = errors.New("loading cancelled")

func startLoad(src Source, load LoadFunc, invalidate func()) *loadJob {
	ctx, cancel := context.WithCancel(context.Background())
	j := &loadJob{src: src, cancel: cancel, started: time.Now()}
	go func() {
		tr, err := load(ctx, src, &j.progress)
		var m *timeline.Model
		if err == nil && ctx.Err() == nil {
			// The display model takes a noticeable time on large traces: it is built here too,
			// so the window never waits for it.
			j.progress.SetStage("laying out tracks")
			m = timeline.New(tr)
		}
		if ctx.Err() != nil {
			tr, m, err = nil, nil, errLoadCancelled
		}
		j.mu.Lock()
		j.done, j.trace, j.model, j.err, j.elapsed = true, tr, m, err, time.Since(j.started)
		j.mu.Unlock()
		invalidate()
	}()
	// Progress has no completion signal of its own, so a ticker keeps the progress bar moving.
	go func() {
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for range t.C {
			if j.finished() {
				return
			}
			invalidate()
		}
	}()
	return j
}

func (j *loadJob) finished() bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.done
}

// result returns the outcome once the job is done.
func (j *loadJob) result() (tr *core.Trace, m *timeline.Model, elapsed time.Duration, ok bool, err error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.trace, j.model, j.elapsed, j.done, j.err
}

func dirOf(path string) string { return filepath.Dir(path) }
