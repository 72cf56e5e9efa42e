package app

import "sync"

// Later holds work that waits until the window shows a loaded chart and loads nothing: the cache
// write after a first load (pipeline.Options.Defer), which would otherwise take cores from laying
// out the tracks and drawing the first frame. Add may be called from any goroutine.
type Later struct {
	mu    sync.Mutex
	queue []func()
}

// Add queues f; it runs on a goroutine of its own once the window is ready for it.
func (l *Later) Add(f func()) {
	l.mu.Lock()
	l.queue = append(l.queue, f)
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
			f()
			done()
		}()
	}
}
