// Package task runs the window's background work: loading a file, building a call tree,
// searching, refining call timing, showing a file dialog. Each is a Future: starting a newer one
// cancels the older, whose result, if it still arrives, is dropped; the window polls once per
// frame and is woken by Invalidate when a result is ready.
package task

import (
	"context"
	"sync"

	"flamedesk/internal/background"
)

// Future is the latest run of one kind of work. Its zero value is ready to use; set Invalidate
// so that the window redraws when a result arrives. Start, Cancel and Poll are called from the UI
// goroutine; the work runs on its own.
type Future[T any] struct {
	Invalidate func()

	mu     sync.Mutex
	gen    uint64
	cancel context.CancelFunc
	busy   bool
	ready  bool
	// running counts the goroutines of runs not yet returned, cancelled ones included.
	running int
	value   T
	err     error
}

// Start runs work on a new goroutine, cancelling the run before it. work must return promptly
// once ctx is cancelled; its result is then dropped.
func (f *Future[T]) Start(work func(ctx context.Context) (T, error)) {
	ctx, cancel := context.WithCancel(context.Background())
	f.mu.Lock()
	if f.cancel != nil {
		f.cancel()
	}
	f.gen++
	gen := f.gen
	f.cancel, f.busy, f.ready = cancel, true, false
	f.running++
	var zero T
	f.value, f.err = zero, nil
	invalidate := f.Invalidate
	f.mu.Unlock()
	go func() {
		background.Lower()
		v, err := work(ctx)
		f.mu.Lock()
		if gen == f.gen && ctx.Err() == nil {
			f.value, f.err, f.ready, f.busy = v, err, true, false
		}
		f.running--
		f.mu.Unlock()
		cancel()
		if invalidate != nil {
			invalidate()
		}
	}()
}

// Cancel stops the running work, if any; its result will not be delivered.
func (f *Future[T]) Cancel() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.cancel != nil {
		f.cancel()
		f.cancel = nil
	}
	f.gen++
	f.busy, f.ready = false, false
}

// Busy reports whether work is running.
func (f *Future[T]) Busy() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.busy
}

// Running reports whether a goroutine of any run, a cancelled one included, may still be at
// work: unlike Busy, which a Cancel clears at once, it stays true until the work returned.
func (f *Future[T]) Running() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.running > 0
}

// Pending reports whether work is running or its result has not been polled yet.
func (f *Future[T]) Pending() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.busy || f.ready
}

// Poll returns the result of the latest run once, the first time it is called after the run
// finished; ok is false otherwise.
func (f *Future[T]) Poll() (v T, err error, ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.ready {
		return v, nil, false
	}
	f.ready = false
	v, err = f.value, f.err
	var zero T
	f.value, f.err = zero, nil
	return v, err, true
}
