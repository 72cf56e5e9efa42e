package app

import (
	"context"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"

	"flamedesk/core/cache"
)

// The window holds a loaded trace for as long as it is open, a heap of hundreds of MB that is
// almost all live and holds no pointers. With Go's default GOGC=100 the collector lets the heap
// grow to twice that before it runs, and the pages stay resident after it does, so a minute of
// navigation (searches, call trees) took the window from 3.3x to 5x the JSON's size in RSS (issue
// #18). Once a document is shown the window therefore collects at windowGCPercent, which costs
// little here: the columns are pointer-free, so a cycle only marks them; and after each piece of
// background work that left much garbage (a load, the cache write) it returns the freed pages
// to the system at once rather than leaving them to the background scavenger. Searches and call
// trees, whose garbage is smaller, are left to the idle release below: a release stalls an
// allocating goroutine for 10-20 ms on a busy 2-core machine, which a frame should not wait for.
//
// While a file loads the window steps aside: GOGC goes back to the default, which core/load then
// lowers for the time of its read (core/load/gcpace.go) and core/integrate bounds with its own
// soft limit while it builds the tracks.

// windowGCPercent is the GOGC of a window showing a document: the heap grows by a fifth of what
// is live before a collection. Scrolling and zooming allocate about half a MB a second, so that
// is a collection every few minutes of navigation on a large trace.
const windowGCPercent = 20

// heapKeeper sets the window's GOGC and returns freed memory; its zero value is ready to use.
// frameDrawn and stop are called on the UI goroutine, the others from any.
type heapKeeper struct {
	idle *time.Timer // runs idleRelease once no frame was drawn for idleAfter

	mu             sync.Mutex
	allocAtRelease uint64 // the heap's cumulative allocations when the last release began
	loads          int    // loads running: GOGC stays at the default meanwhile
	running        bool   // a release is running
	again          bool   // another release was asked for while it ran
}

// userGOGC says GOGC was set in the environment; the window then leaves the collector as asked.
var userGOGC = os.Getenv("GOGC") != ""

// loadBegan puts GOGC back to the default while a file loads (core/load paces its own read).
func (k *heapKeeper) loadBegan() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.loads++
	if !userGOGC {
		debug.SetGCPercent(100)
	}
}

// loadEnded undoes loadBegan. A load that finished leaves its garbage to the window, which
// releases it once the document is on screen; a cancelled one releases it now.
func (k *heapKeeper) loadEnded(ctx context.Context) {
	k.mu.Lock()
	k.loads = max(k.loads-1, 0)
	k.mu.Unlock()
	if ctx.Err() != nil {
		k.release()
	}
}

// loadEndedAndRelease is loadEnded for a load whose result is not waited for on screen (the
// comparison's B): it releases what the load left at once.
func (k *heapKeeper) loadEndedAndRelease() {
	k.mu.Lock()
	k.loads = max(k.loads-1, 0)
	k.mu.Unlock()
	k.release()
}

// release collects and returns the freed pages to the system on a goroutine of its own (a
// collection of a large trace's heap takes tens of ms), then sets the window's GOGC unless a
// load is running. Calls that come while one runs are folded into one more.
func (k *heapKeeper) release() {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.running {
		k.again = true
		return
	}
	k.running = true
	go func() {
		for {
			k.mu.Lock()
			k.allocAtRelease = heapAllocs()
			k.mu.Unlock()
			debug.FreeOSMemory()
			k.mu.Lock()
			if k.loads == 0 && !userGOGC {
				debug.SetGCPercent(windowGCPercent)
			}
			if !k.again {
				k.running = false
				k.mu.Unlock()
				return
			}
			k.again = false
			k.mu.Unlock()
		}
	}()
}

// Drawing allocates too (about half a MB a second while scrolling), and at windowGCPercent the
// heap may grow by a fifth of a large trace before a collection, pages the background scavenger
// returns slowly. So once the window has drawn nothing for idleAfter, and the heap allocated at
// least idleGarbage since the last release, it releases again: a collection of tens of ms that no
// frame waits for. With the trace's columns on a mapped cache file (cacheswap.go) the live heap is
// mostly the levels, so a few MB of garbage is worth a collection at a pause: 32 MB left ~23 MB
// of freed, unreturned pages after membench's minute of navigation.
const (
	idleAfter   = 2 * time.Second
	idleGarbage = 4 << 20
)

// frameDrawn notes a frame; called on the UI goroutine.
func (k *heapKeeper) frameDrawn() {
	if k.idle == nil {
		k.idle = time.AfterFunc(idleAfter, k.idleRelease)
		return
	}
	k.idle.Reset(idleAfter)
}

// stop stops the idle timer when the window closes.
func (k *heapKeeper) stop() {
	if k.idle != nil {
		k.idle.Stop()
	}
}

func (k *heapKeeper) idleRelease() {
	// The mapped cache file of the trace shown (cacheswap.go, or a reopen) keeps every page read
	// since the last pause: a search reads every name, a call tree a whole thread. They go back
	// now, still in the page cache for the next navigation (cache.Trim).
	cache.Trim()
	k.mu.Lock()
	since := heapAllocs() - k.allocAtRelease
	k.mu.Unlock()
	if since >= idleGarbage {
		k.release()
	}
}

// heapAllocs is the cumulative bytes allocated on the heap.
func heapAllocs() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
