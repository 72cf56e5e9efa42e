package app

import (
	"sync"

	"flamedesk/core"
	"flamedesk/internal/background"
)

// Later holds work that waits until the window shows a loaded chart and loads nothing: the cache
// write after a first load (pipeline.Options.Defer), which would otherwise take cores from laying
// out the tracks and drawing the first frame. It also carries the write's result back to the
// window (Written). Add and Written may be called from any goroutine.
type Later struct {
	mu    sync.Mutex
	queue []func()
	// reopened is the last written trace read back from its cache file, until the window takes it.
	reopened   *cacheReopen
	invalidate func()
}

// cacheReopen is a trace the window loaded and the same trace read back from the cache file
// written from it, which the window moves its document onto (cacheswap.go).
type cacheReopen struct {
	loaded, reopened *core.Trace
}

// Add queues f; it runs on a goroutine of its own once the window is ready for it.
func (l *Later) Add(f func()) {
	l.mu.Lock()
	l.queue = append(l.queue, f)
	l.mu.Unlock()
}

// Written is pipeline.Options.Written: it hands the window the trace read back from the cache
// file written from loaded. An earlier one not taken yet is dropped (its file was replaced).
func (l *Later) Written(loaded, reopened *core.Trace) {
	l.mu.Lock()
	old := l.reopened
	l.reopened = &cacheReopen{loaded: loaded, reopened: reopened}
	invalidate := l.invalidate
	l.mu.Unlock()
	if old != nil {
		old.drop()
	}
	if invalidate != nil {
		invalidate()
	}
}

// takeReopened returns what Written handed over, once.
func (l *Later) takeReopened() *cacheReopen {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	r := l.reopened
	l.reopened = nil
	return r
}

// setInvalidate is how Written wakes the window.
func (l *Later) setInvalidate(f func()) {
	if l == nil {
		return
	}
	l.mu.Lock()
	l.invalidate = f
	l.mu.Unlock()
}

// start runs what is queued, each on a goroutine, and calls done after each (the cache write
// leaves its encoding buffers behind).
func (l *Later) start(done func()) {
	if l == nil {
		return
	}
	l.mu.Lock()
	q := l.queue
	l.queue = nil
	l.mu.Unlock()
	for _, f := range q {
		go func() {
			background.Lower()
			f()
			done()
		}()
	}
}
