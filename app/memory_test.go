package app

import (
	"context"
	"runtime/debug"
	"testing"
	"time"

	"gioui.org/io/key"
)

// gcPercent reads GOGC without changing it for long.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// settled waits until k has no release running.
func settled(t *testing.T, k *heapKeeper) {
	t.Helper()
	for range 1000 {
		k.mu.Lock()
		running := k.running
		k.mu.Unlock()
		if !running {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("the release never ended")
}

func TestHeapKeeperLowersGOGCOnlyWhileNoLoadRuns(t *testing.T) {
	if userGOGC {
		t.Skip("GOGC is set in the environment: the window leaves it alone")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	var k heapKeeper
	k.loadBegan()
	k.loadBegan() // the comparison's B loads beside A
	if p := gcPercent(); p != 100 {
		t.Fatalf("GOGC %d while loading, want the default", p)
	}
	k.loadEndedAndRelease()
	settled(t, &k)
	if p := gcPercent(); p != 100 {
		t.Fatalf("GOGC %d with a load still running, want the default", p)
	}
	ctx, cancel := context.WithCancel(context.Background())
	k.loadEnded(ctx)
	k.release() // the window's, once the document is on screen
	settled(t, &k)
	if p := gcPercent(); p != windowGCPercent {
		t.Fatalf("GOGC %d once shown, want %d", p, windowGCPercent)
	}
	k.loadBegan()
	if p := gcPercent(); p != 100 {
		t.Fatalf("GOGC %d while a second file loads, want the default", p)
	}
	cancel()
	k.loadEnded(ctx) // cancelled: releases without waiting for the window
	settled(t, &k)
	if p := gcPercent(); p != windowGCPercent {
		t.Fatalf("GOGC %d after a cancelled load, want %d", p, windowGCPercent)
	}
}

// TestClearedSearchLeavesNoResultBehind: after a search was stepped through and cleared, nothing
// in the document still points at its result (on a large trace, millions of matches).
func TestClearedSearchLeavesNoResultBehind(t *testing.T) {
	h := newHarness(t, SourceFromPath(fixture(t, "generated", smallTrace)))
	d := h.u.doc
	h.press("F", key.ModShortcut)
	h.typeText("Layout")
	h.idle()
	h.press(key.NameReturn, 0)
	h.idle()
	if d.search == nil || d.search.Len() == 0 || d.orderOf != d.search {
		t.Fatal("the search found nothing to step through")
	}
	first := d.search
	h.typeText("Tree") // a new query: "LayoutTree"
	h.idle()
	if d.search == first || d.orderOf == first {
		t.Fatal("the stepping order still points at the previous result")
	}
	h.press(key.NameEscape, 0)
	h.idle()
	if d.search != nil || d.order != nil || d.orderOf != nil {
		t.Fatal("a cleared search left its result or its stepping order")
	}
}
