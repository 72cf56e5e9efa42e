// Package background keeps a window responsive while it works in the background (loading a file,
// building a call tree, searching). Once the window calls Enable and shows a document, goroutines
// of that work that call Lower run on OS threads of lower scheduling priority, so that on a busy
// machine the window's own thread and the GL driver's threads get the CPU first; and the Go
// scheduler gets spare Ps, so that the window's goroutine never waits for one held by a
// background worker that the OS has set aside. While the window renders a frame (Pause), the
// loops of that work wait at their next Yield (pause.go). Without Enable (the command-line
// tools), all of these are no-ops and pools keep their width.
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
	enabled     atomic.Bool
	workers     atomic.Int32
	interactive atomic.Bool
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

// KeepSpares says whether the spare Ps Enable added are kept (true after Enable). They cost CPU
// while background work runs: the scheduler and the collector's idle workers spin on them. On
// 2 cores the load of gen-trace-large took 7.5-7.7 s of CPU with them and 5.3-5.6 s without
// (half the context switches). A window that draws only its loading card needs no P at once, so
// it gives them back until it shows a document. Call it from one goroutine.
func KeepSpares(keep bool) {
	if !enabled.Load() {
		return
	}
	interactive.Store(keep)
	n := int(workers.Load())
	if keep {
		n += spareProcs
	}
	if runtime.GOMAXPROCS(0) != n {
		runtime.GOMAXPROCS(n)
	}
}

// Interactive reports whether the window shows a document (KeepSpares(true)): work that could
// take every core to finish sooner, such as a second file's load, should then leave the window
// what it needs to stay fluid.
func Interactive() bool { return interactive.Load() }

// MayTakeEveryCore reports whether a load may spread its work over every core: there is more than
// one, and no shown document's frames need one (Interactive). The load's lanes (core/load) and the
// cut of a large thread's walk (core/integrate) follow it.
func MayTakeEveryCore() bool { return Workers() > 1 && !Interactive() }

// Workers is how many goroutines a pool of CPU-bound work should start: GOMAXPROCS, less the Ps
// that Enable set aside for the window.
func Workers() int {
	if n := workers.Load(); n > 0 {
		return int(n)
	}
	return runtime.GOMAXPROCS(0)
}

// Lower, after Enable and while the window shows a document (Interactive), locks the calling
// goroutine to its OS thread and lowers that thread's scheduling priority, for the rest of the
// goroutine's life: call it first thing in a goroutine that runs background work and then ends.
// The thread is never unlocked, so the runtime discards it with the goroutine rather than handing
// its priority to other work. Failures are ignored: the work then runs at the usual priority.
//
// Before a document is shown (a first file's load, beside the loading card) it does nothing: the
// card's frames need no priority, and threads locked one to a goroutine made every hand-over
// between the load's goroutines a switch between OS threads. gen-trace-large under Xvfb, 12
// interleaved pairs: twice the context switches, and the load ended 89 ms later (medians 937
// and 848 ms after start).
func Lower() {
	if !enabled.Load() || !interactive.Load() {
		return
	}
	runtime.LockOSThread()
	lowerThread(niceness)
}
