package load

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// loadGCPercent is the collector's target while a load runs: the heap may grow by a tenth over
// what is live before it collects, instead of doubling. Nearly everything a load allocates is
// pointer-free columns, which the collector does not scan, so a cycle costs little; doubling, on
// the other hand, maps (and page-faults) as much memory again as the load keeps, which costs more
// time than the extra cycles and raises the peak RSS by as much.
const loadGCPercent = 10

// paceFromLive is the live heap from which the load's target applies. Below it a tenth is a few
// hundred KB, so a load would start with a collection every millisecond or two (about 30 of the
// medium trace's 33 cycles came before 30 MB) for memory that does not matter to the peak.
const paceFromLive = 24 << 20

var gcPace struct {
	sync.Mutex
	loads int  // loads running now
	prev  int  // the setting before the first of them
	paced bool // loadGCPercent is set
	epoch int  // counts lowerings, so that a watcher of an earlier one stops
}

// paceGC lowers the collector's target for the time of a load, once the live heap reaches
// paceFromLive, and returns what restores it. Concurrent loads share one lowering; the last to
// end restores the setting. A setting at or below loadGCPercent (GOGC=off included) is left as
// it is.
func paceGC() (restore func()) {
	gcPace.Lock()
	defer gcPace.Unlock()
	if gcPace.loads == 0 {
		gcPace.prev = debug.SetGCPercent(loadGCPercent)
		debug.SetGCPercent(gcPace.prev)
		gcPace.paced = false
		gcPace.epoch++
		if gcPace.prev > loadGCPercent {
			watchLiveHeap(gcPace.epoch)
		}
	}
	gcPace.loads++
	return func() {
		gcPace.Lock()
		defer gcPace.Unlock()
		gcPace.loads--
		if gcPace.loads == 0 {
			gcPace.epoch++
			if gcPace.paced {
				debug.SetGCPercent(gcPace.prev)
				gcPace.paced = false
			}
		}
	}
}

// watchLiveHeap looks at the live heap after every collection (a finalizer runs once per cycle
// that frees its sentinel) and lowers the target once it reaches paceFromLive, while the loads
// of epoch run.
func watchLiveHeap(epoch int) {
	sentinel := new([16]byte)
	runtime.SetFinalizer(sentinel, func(*[16]byte) {
		gcPace.Lock()
		defer gcPace.Unlock()
		if gcPace.epoch != epoch || gcPace.paced {
			return
		}
		live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		metrics.Read(live)
		if live[0].Value.Kind() != metrics.KindUint64 || live[0].Value.Uint64() >= paceFromLive {
			debug.SetGCPercent(loadGCPercent)
			gcPace.paced = true
			return
		}
		watchLiveHeap(epoch)
	})
}
