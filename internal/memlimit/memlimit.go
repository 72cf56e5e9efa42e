// Package memlimit owns what the process's Go memory limit is outside the holds that lower it for
// a while: a build of tracks keeps the heap near what is live with a soft limit near the JSON's
// size (core/integrate), and a load that starts meanwhile (a second file, a comparison) must size
// its budget from the limit the process runs under, not from that hold's.
package memlimit

import (
	"runtime/debug"
	"sync"
)

var held struct {
	sync.Mutex
	on    bool
	limit int64
}

// Hold notes that the Go memory limit is lowered for a while from outside, the limit before the
// hold; Release ends it. Holds do not nest: the caller keeps one for all of its own.
func Hold(outside int64) {
	held.Lock()
	held.on, held.limit = true, outside
	held.Unlock()
}

// Release ends the hold: the Go memory limit is the process's own again.
func Release() {
	held.Lock()
	held.on = false
	held.Unlock()
}

// Outside is the Go memory limit the process runs under: the one from before a hold while one is
// on, else the current one.
func Outside() int64 {
	held.Lock()
	defer held.Unlock()
	if held.on {
		return held.limit
	}
	return debug.SetMemoryLimit(-1)
}
