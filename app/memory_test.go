package app

import (
	"context"
	"runtime/debug"
	"testing"
	"time"
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
