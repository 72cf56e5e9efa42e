package integrate

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// limitBecomes runs a collection and waits (up to 5 s: the hold's finalizer sets the limit after
// the cycle, when the finalizer goroutine gets to it) until the soft memory limit is within 1 MB
// of want(), which it reads again each time; it returns the last limit and want.
func limitBecomes(want func() int64) (limit, wanted int64) {
	runtime.GC()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		limit, wanted = debug.SetMemoryLimit(-1), want()
		if d := limit - wanted; (d < 1<<20 && d > -1<<20) || time.Now().After(deadline) {
			return limit, wanted
		}
	}
}

// TestHeldHeapFollowsTheLiveHeap checks that the limit stays its slack above the live heap as the
// heap grows, so that the collector never runs back to back below it, that it stops at its
// ceiling, that a second build's hold raises it and its end lowers it back, and that the limit
// from before comes back when the last hold ends.
func TestHeldHeapFollowsTheLiveHeap(t *testing.T) {
	const slack = 8 << 20
	prev := debug.SetMemoryLimit(-1)
	runtime.GC()
	live0 := liveHeap()
	if live0 == 0 {
		t.Skip("the runtime does not report the live heap")
	}
	h := &heapHold{whole: 1, slack: slack, ceiling: live0 + 2*slack + slack/2}
	stop := startHold(h)
	t.Cleanup(stop)
	follows := func() int64 { return min(liveHeap()+slack, h.ceiling) }
	if limit, want := limitBecomes(follows); limit-want >= 1<<20 || want-limit >= 1<<20 {
		t.Fatalf("limit %d, want %d: the live heap and %d more", limit, want, slack)
	}

	var kept [][]byte
	for step := range 3 {
		kept = append(kept, make([]byte, slack))
		limit, want := limitBecomes(follows)
		if d := limit - want; d >= 1<<20 || d <= -1<<20 || limit > h.ceiling {
			t.Fatalf("step %d: limit %d with %d live, want %d", step, limit, liveHeap(), want)
		}
	}
	if limit := debug.SetMemoryLimit(-1); limit != h.ceiling {
		t.Fatalf("limit %d after the live heap grew by %d: want the ceiling %d", limit, 3*slack, h.ceiling)
	}

	// A second build that asks for more raises the limit while it runs.
	second := &heapHold{whole: h.ceiling + slack}
	stopSecond := startHold(second)
	if limit := debug.SetMemoryLimit(-1); limit != second.whole {
		t.Fatalf("limit %d with a second hold, want its %d", limit, second.whole)
	}
	stopSecond()
	if limit := debug.SetMemoryLimit(-1); limit != h.ceiling {
		t.Fatalf("limit %d once the second hold ended, want the first's %d", limit, h.ceiling)
	}

	stop()
	if l := debug.SetMemoryLimit(-1); l != prev {
		t.Fatalf("limit after the last hold %d, want %d", l, prev)
	}
	kept = append(kept, make([]byte, slack))
	runtime.GC()
	time.Sleep(100 * time.Millisecond)
	if l := debug.SetMemoryLimit(-1); l != prev {
		t.Fatalf("limit %d after a collection once the holds ended, want %d", l, prev)
	}
	runtime.KeepAlive(kept)
}
