// The soft memory limit that keeps the heap near what is live while the tracks are built.

package integrate

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"

	"flamedesk/core"
	"flamedesk/internal/memlimit"
)

// holdHeap keeps the heap near what is live while the tracks are built, and returns what undoes it.
// Building lets go of each thread's calls as its track fills, but by default the collector would
// only run once the heap doubled, so the freed blocks and the new columns would be mapped at once.
// A soft memory limit makes it collect (and return pages) as it goes, and the heap then sits at the
// limit. The limit is what the whole process may hold, the JSON's size, less what it keeps resident
// outside the runtime's count (its code and data, C libraries) and a 1/32 margin. Where more is
// live than that (a trace of many samples, whose profiles' columns outweigh its events; another
// file open), it follows the live heap instead, an eighth of the JSON's size or of the live heap
// (whichever is more) above it, raised after each collection as the tracks fill, and never above
// what was live at the start and half the JSON's size more. An eighth of the JSON alone is too
// little room where the live heap is several times the JSON: the runtime's own memory, which the
// limit counts, took most of it, and the collector ran back to back (170 cycles while a 55 MB trace
// of 5 M samples built its tracks, which then took 2.5 times as long). A fixed limit there would
// either let the heap grow by half the JSON's size (the peak of such traces reached 0.99-1.12 times
// their JSON) or, set closer, fall below the live heap as the tracks fill, when the collector would
// run back to back (370 cycles, with another file open). Where the live heap is above the limit,
// the collector is capped at half of the CPU; the columns hold no pointers, so a cycle costs
// little.
//
// Builds that run at once share the limit: it is the largest that any of them asks for, and the
// limit from before the first comes back when the last one ends.
//
// A caller that lays tracks out as they are built (laysOut: the window, Progress.TrackBuilt) holds
// the heap at the JSON's size, without taking off what it keeps outside the heap: the GL libraries
// and their buffers (about 80 MB) are there before the load, and the window's goal is 1.3 times the
// JSON. Its layouts are live beside the tracks, so it has no ceiling (followLive). The limit taken
// off as for stats sat below the live heap once the layouts grew, and the collector ran back to
// back (about 20 cycles in the build of gen-trace-large). Without a hold the heap doubled: the
// window's peak RSS by the time its chart was on screen was 450 MB against 400 MB with it (medians
// of 12 runs), and on a trace of gigabytes that doubling is gigabytes. The time is a wash: the hold
// adds 4 to 10 collections, the doubling maps 50 MB more pages, and which costs more depends on how
// dear the host makes fresh pages (the chart was on screen 40 ms sooner with the hold in some
// series of runs, 40 ms later in others).
func holdHeap(tr *core.Trace, laysOut bool) func() {
	json := tr.Stats.JSONBytes
	if json <= 0 {
		return func() {}
	}
	h := &heapHold{whole: json, slack: json / 8}
	if laysOut {
		h.followLive = true
		return startHold(h)
	}
	m := []metrics.Sample{
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
	}
	metrics.Read(m)
	total, ok1 := sampleBytes(m[0])
	released, ok2 := sampleBytes(m[1])
	if rss := residentBytes(); ok1 && ok2 && rss > 0 {
		outside := max(rss-(total-released), 0)
		h.whole = json - outside - json/32
	}
	if h.whole <= 0 {
		return func() {}
	}
	h.ceiling = liveHeap() + json/2
	return startHold(h)
}

// heapHold is what one build asks of the soft memory limit: whole, or, when more than whole is
// live, the live heap and slack (or an eighth of the live heap, if more), up to ceiling (or
// without one: followLive).
type heapHold struct {
	whole, slack, ceiling int64
	// followLive keeps the limit above the live heap however high it goes, by slack and a
	// sixteenth of the live heap for the runtime's own memory (which the limit counts): in the
	// window, whose layouts and lists are live beside the tracks, and the columns of the file it
	// shows when this is a second one. With a ceiling of the whole JSON above the live heap,
	// gen-trace-large's second load came within the runtime's overhead of it, and the collector
	// ran back to back beside the frames: 75 cycles in 0.8 s. With slack alone above the live
	// heap, the overhead took nearly all of it: a cycle for every 1-3 MB allocated.
	followLive bool
}

func (h *heapHold) limit(live int64) int64 {
	if h.followLive {
		return max(h.whole, live+h.slack+live/16)
	}
	return max(h.whole, min(live+max(h.slack, live/8), h.ceiling))
}

// heapHolds are the holds of the builds running now.
var heapHolds struct {
	sync.Mutex
	active []*heapHold
	prev   int64 // the limit before the first of them
	epoch  int   // counts the times active emptied, so that an earlier watch stops
}

// startHold adds h to the holds and sets the limit; stop takes it out again.
func startHold(h *heapHold) (stop func()) {
	hs := &heapHolds
	hs.Lock()
	defer hs.Unlock()
	if len(hs.active) == 0 {
		hs.prev = debug.SetMemoryLimit(-1)
		memlimit.Hold(hs.prev)
		watchHolds(hs.epoch)
	}
	hs.active = append(hs.active, h)
	applyHolds()
	var once sync.Once
	return func() {
		once.Do(func() {
			hs.Lock()
			defer hs.Unlock()
			for k, a := range hs.active {
				if a == h {
					hs.active = append(hs.active[:k], hs.active[k+1:]...)
					break
				}
			}
			if len(hs.active) == 0 {
				hs.epoch++
				debug.SetMemoryLimit(hs.prev)
				memlimit.Release()
				return
			}
			applyHolds()
		})
	}
}

// applyHolds sets the limit to the largest that the active holds ask for from the live heap, never
// above the limit from before them. heapHolds is locked.
func applyHolds() {
	live := liveHeap()
	var limit int64
	for _, h := range heapHolds.active {
		limit = max(limit, h.limit(live))
	}
	debug.SetMemoryLimit(min(max(limit, 1), heapHolds.prev))
}

// watchHolds has the next collection set the limit again from the live heap, and watch the one
// after, while holds of epoch are active: a finalizer runs once per cycle that frees its sentinel.
func watchHolds(epoch int) {
	runtime.SetFinalizer(new([16]byte), func(*[16]byte) {
		hs := &heapHolds
		hs.Lock()
		defer hs.Unlock()
		if hs.epoch != epoch || len(hs.active) == 0 {
			return
		}
		applyHolds()
		watchHolds(epoch)
	})
}

// liveHeap is the heap the last collection found live, 0 when the runtime does not say.
func liveHeap() int64 {
	m := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(m)
	n, _ := sampleBytes(m[0])
	return n
}
