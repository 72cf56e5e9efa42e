// Package background keeps a window responsive while it works in the background (loading a file,
// building a call tree, searching). Once the window calls Enable, goroutines of that work that
// call Lower run on OS threads of lower scheduling priority, so that on a busy machine the
// window's own thread and the GL driver's threads get the CPU first; and the Go scheduler gets
// spare Ps, so that the window's goroutine never waits for one held by a background worker that
// the OS has set aside. Without Enable (the command-line tools), both are no-ops and pools keep
// their width.
package background

import (
	"runtime"
	"sync/atomic"
)

// niceness is how much lower the background threads' priority is: at 10 the Linux scheduler
// gives a runnable thread of default priority about ten times their share of a core.
const niceness = 10

// spareProcs is how many Ps Enable adds: the loader's own goroutines (the parser and its
// decompressor, the worker pools) can hold the others.
const spareProcs = 2

var (
	enabled atomic.Bool
	workers atomic.Int32
)

// Enable turns Lower on for the rest of the process and raises GOMAXPROCS by spareProcs, keeping
// Workers at what GOMAXPROCS was. Call it once, before starting background work.
func Enable() {
	if enabled.Swap(true) {
		return
	}
	procs := runtime.GOMAXPROCS(0)
	workers.Store(int32(procs))
	runtime.GOMAXPROCS(procs + spareProcs)
}

// Workers is how many goroutines a pool of CPU-bound work should start: GOMAXPROCS, less the Ps
// that Enable set aside for the window.
func Workers() int {
	if n := workers.Load(); n > 0 {
		return int(n)
	}
	return runtime.GOMAXPROCS(0)
}

// Lower, after Enable, locks the calling goroutine to its OS thread and lowers that thread's
// scheduling priority, for the rest of the goroutine's life: call it first thing in a goroutine
// that runs background work and then ends. The thread is never unlocked, so the runtime discards
// it with the goroutine rather than handing its priority to other work. Failures are ignored:
// the work then runs at the usual priority.
func Lower() {
	if !enabled.Load() {
		return
	}
	runtime.LockOSThread()
	lowerThread(niceness)
}
