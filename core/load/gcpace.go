package load

import (
	"runtime/debug"
	"sync"
)

// loadGCPercent is the collector's target while a load runs: the heap may grow by a tenth over
// what is live before it collects, instead of doubling. Nearly everything a load allocates is
// pointer-free columns, which the collector does not scan, so a cycle costs little; doubling, on
// the other hand, maps (and page-faults) as much memory again as the load keeps, which costs more
// time than the extra cycles and raises the peak RSS by as much.
const loadGCPercent = 10

var gcPace struct {
	sync.Mutex
	loads int // loads running now
	prev  int // the setting before the first of them
}

// paceGC lowers the collector's target for the time of a load and returns what restores it.
// Concurrent loads share one lowering; the last to end restores the setting. A lower setting
// (GOGC=off included) is left as it is.
func paceGC() (restore func()) {
	gcPace.Lock()
	defer gcPace.Unlock()
	if gcPace.loads == 0 {
		gcPace.prev = debug.SetGCPercent(loadGCPercent)
		if gcPace.prev >= 0 && gcPace.prev <= loadGCPercent || gcPace.prev < 0 {
			debug.SetGCPercent(gcPace.prev)
		}
	}
	gcPace.loads++
	return func() {
		gcPace.Lock()
		defer gcPace.Unlock()
		gcPace.loads--
		if gcPace.loads == 0 {
			debug.SetGCPercent(gcPace.prev)
		}
	}
}
