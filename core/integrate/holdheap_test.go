package integrate

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// limitAfterCollection runs a collection and returns the soft memory limit once it differs from
// before (the hold's finalizer sets it after the cycle), or as it is after wait.
func limitAfterCollection(before int64, wait time.Duration) int64 {
	runtime.GC()
	for deadline := time.Now().Add(wait); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if l := debug.SetMemoryLimit(-1); l != before {
			return l
		}
	}
	return debug.SetMemoryLimit(-1)
}

// TestHeldHeapFollowsTheLiveHeap checks that the limit stays its slack above the live heap as the
// heap grows, so that the collector never runs back to back below it, that it never passes its
// ceiling, and that stop gives the limit back.
func TestHeldHeapFollowsTheLiveHeap(t *testing.T) {
	const slack = 8 << 20
	prev := debug.SetMemoryLimit(-1)
	runtime.GC()
	live0 := liveHeap()
	if live0 == 0 {
		t.Skip("the runtime does not report the live heap")
	}
	h := &heapHold{whole: 1, slack: slack, ceiling: live0 + 2*slack + slack/2, prev: prev}
	h.follow()
	limit := debug.SetMemoryLimit(-1)
	// The live heap moves a little between reads (the runtime collects on its own too); the
	// steps are 8 MB.
	near := func(a, b int64) bool { return a-b < 1<<20 && b-a < 1<<20 }
	if live := liveHeap(); !near(limit, live+slack) {
		t.Fatalf("limit %d with %d live: want the live heap and %d more", limit, live, slack)
	}

	var kept [][]byte
	for step := range 3 {
		kept = append(kept, make([]byte, slack))
		wait := 5 * time.Second // the limit is to change, at the latest when the finalizer runs
		if step == 2 {
			wait = 100 * time.Millisecond // it stays at the ceiling
		}
		limit = limitAfterCollection(limit, wait)
		live := liveHeap()
		want := min(live+slack, h.ceiling)
		if !near(limit, want) || limit > h.ceiling {
			t.Fatalf("step %d: limit %d with %d live, want %d", step, limit, live, want)
		}
	}
	if limit != h.ceiling {
		t.Fatalf("limit %d after the live heap grew by %d: want the ceiling %d", limit, 3*slack, h.ceiling)
	}

	h.stop()
	if l := debug.SetMemoryLimit(-1); l != prev {
		t.Fatalf("limit after stop %d, want %d", l, prev)
	}
	kept = append(kept, make([]byte, slack))
	if l := limitAfterCollection(prev, 100*time.Millisecond); l != prev {
		t.Fatalf("limit %d after a collection once stopped, want %d", l, prev)
	}
	runtime.KeepAlive(kept)
}
