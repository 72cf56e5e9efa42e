package integrate

import (
	"context"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"flamedesk/core"
	"flamedesk/core/load"
	"flamedesk/internal/fixtures"
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
	h, prev, stop := startTestHold(t, slack, 2*slack+slack/2, false)
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

// TestWindowHoldFollowsTheLiveHeapPastItsCeiling checks that the window's hold (followLive) keeps
// the limit above the live heap by its slack and the runtime's share when the heap grows past
// what a stats hold's ceiling would allow: there, the collector would run back to back.
func TestWindowHoldFollowsTheLiveHeapPastItsCeiling(t *testing.T) {
	const slack = 8 << 20
	h, prev, stop := startTestHold(t, slack, slack, true)
	var kept [][]byte
	for range 3 {
		kept = append(kept, make([]byte, slack))
	}
	follows := func() int64 { live := liveHeap(); return live + slack + live/16 }
	limit, want := limitBecomes(follows)
	if d := limit - want; d >= 1<<20 || d <= -1<<20 {
		t.Fatalf("limit %d with %d live, want %d", limit, liveHeap(), want)
	}
	if limit <= h.ceiling {
		t.Fatalf("limit %d with %d live: held at the ceiling %d", limit, liveHeap(), h.ceiling)
	}
	runtime.KeepAlive(kept)
	stop()
	if l := debug.SetMemoryLimit(-1); l != prev {
		t.Fatalf("limit after the hold %d, want %d", l, prev)
	}
}

// startTestHold starts a hold of slack whose ceiling is the live heap after a collection and
// above more, and returns it, the limit from before it and what stops it (also at the test's
// end).
func startTestHold(t *testing.T, slack, above int64, followLive bool) (h *heapHold, prev int64, stop func()) {
	t.Helper()
	prev = debug.SetMemoryLimit(-1)
	runtime.GC()
	live0 := liveHeap()
	if live0 == 0 {
		t.Skip("the runtime does not report the live heap")
	}
	h = &heapHold{whole: 1, slack: slack, ceiling: live0 + above, followLive: followLive}
	stop = startHold(h)
	t.Cleanup(stop)
	return h, prev, stop
}

// TestWindowHoldsTheWholeJSON checks the two holds' limits for a JSON far above the live heap:
// the stats hold takes off what the process keeps outside the heap and a margin, the window's
// (laysOut) is the JSON's size.
func TestWindowHoldsTheWholeJSON(t *testing.T) {
	runtime.GC()
	if liveHeap() == 0 || residentBytes() == 0 {
		t.Skip("the runtime or the system does not report the live heap or the resident size")
	}
	prev := debug.SetMemoryLimit(-1)
	json := liveHeap() + 1<<30
	tr := &core.Trace{}
	tr.Stats.JSONBytes = json

	stop := holdHeap(tr, true)
	window := debug.SetMemoryLimit(-1)
	stop()
	if window != json {
		t.Errorf("window's limit %d, want the JSON's size %d", window, json)
	}

	stop = holdHeap(tr, false)
	stats := debug.SetMemoryLimit(-1)
	stop()
	if stats > json-json/32 || stats <= 0 {
		t.Errorf("stats' limit %d, want at most %d: the JSON less what is outside the heap and 1/32", stats, json-json/32)
	}
	if l := debug.SetMemoryLimit(-1); l != prev {
		t.Errorf("limit after the holds %d, want %d", l, prev)
	}
}

// A file that starts loading while another's tracks are built (a comparison opened at once) has
// a budget from the memory limit the process runs under, not from the hold that keeps the other's
// heap near its small JSON's size: it loads, where it was refused "more than 2 MB of memory".
func TestALoadBesideAHoldKeepsItsBudget(t *testing.T) {
	small := &core.Trace{Stats: core.LoadStats{JSONBytes: 1 << 20}}
	stop := holdHeap(small, true)
	defer stop()
	if limit := debug.SetMemoryLimit(-1); limit > 8<<20 {
		t.Skipf("the hold left a limit of %d MB: it cannot squeeze a load", limit>>20)
	}
	tr, err := load.File(context.Background(), fixtures.Path(t, "fixtures", "generated", "gen-trace-small.json.gz"), nil)
	if err != nil {
		t.Fatalf("a load beside a hold: %v", err)
	}
	if tr.Stats.JSONBytes < 4<<20 {
		t.Fatalf("the trace has %d bytes of JSON: too few to pass the hold's budget anyway", tr.Stats.JSONBytes)
	}
}

// TestStatsHoldLeavesRoomAboveALargeLiveHeap checks the stats hold where the live heap is several
// times the JSON (a trace that is mostly samples): the limit stays an eighth of the live heap
// above it, not only an eighth of the JSON, so that each collection has garbage to free, and it
// still never passes the ceiling.
func TestStatsHoldLeavesRoomAboveALargeLiveHeap(t *testing.T) {
	const json = 55 << 20
	h := &heapHold{whole: json - json/32, slack: json / 8, ceiling: 200 << 20}
	for live := int64(json); live <= 240<<20; live += 5 << 20 {
		limit := h.limit(live)
		if limit > max(h.ceiling, h.whole) {
			t.Fatalf("live %d MB: limit %d MB above the ceiling %d MB", live>>20, limit>>20, h.ceiling>>20)
		}
		if room := limit - live; room < live/8 && limit < h.ceiling {
			t.Fatalf("live %d MB: limit %d MB leaves %d MB, under an eighth of the live heap", live>>20, limit>>20, room>>20)
		}
	}
	// Where the JSON is the larger, its eighth is the room, as before.
	big := &heapHold{whole: 1 << 30, slack: 128 << 20, ceiling: 2 << 30}
	if got, want := big.limit(1<<30+1), int64(1<<30+1+128<<20); got != want {
		t.Fatalf("limit %d, want the live heap and the JSON's eighth, %d", got, want)
	}
}
