package background

import (
	"runtime"
	"testing"
	"time"
)

// yielded starts a goroutine that calls Yield and returns a channel closed when Yield returns.
func yielded() chan struct{} {
	done := make(chan struct{})
	go func() {
		Yield()
		close(done)
	}()
	return done
}

// returns reports whether done is closed within d.
func returns(done chan struct{}, d time.Duration) bool {
	select {
	case <-done:
		return true
	case <-time.After(d):
		return false
	}
}

func TestYieldWaitsForResume(t *testing.T) {
	if !returns(yielded(), 10*time.Second) {
		t.Fatal("Yield without a pause did not return")
	}

	pause()
	waiting := yielded()
	// Well below maxPause: a Yield that returned by now did not wait for Resume.
	if returns(waiting, maxPause/4) {
		Resume()
		t.Fatal("Yield returned while paused")
	}
	Resume()
	if !returns(waiting, 10*time.Second) {
		t.Fatal("Yield did not return after Resume")
	}
	if !returns(yielded(), 10*time.Second) {
		t.Fatal("Yield after Resume did not return")
	}

	// Pausing twice needs one Resume; resuming twice is harmless.
	pause()
	pause()
	waiting = yielded()
	Resume()
	Resume()
	if !returns(waiting, 10*time.Second) {
		t.Fatal("Yield did not return after a double pause and Resume")
	}
}

func TestYieldWaitsAtMostMaxPause(t *testing.T) {
	pause()
	defer Resume()
	began := time.Now()
	if !returns(yielded(), 10*time.Second) {
		t.Fatal("Yield never returned without Resume")
	}
	if waited := time.Since(began); waited < maxPause {
		t.Fatalf("Yield returned after %v without Resume, before maxPause %v", waited, maxPause)
	}
}

func TestPauseOnlyAfterEnable(t *testing.T) {
	was := enabled.Load()
	enabled.Store(false)
	defer enabled.Store(was)
	Pause()
	defer Resume()
	if resumed.Load() != nil {
		t.Fatal("Pause before Enable paused")
	}
	enabled.Store(true)
	Pause()
	if resumed.Load() == nil {
		t.Fatal("Pause after Enable did not pause")
	}
}

// TestInteractiveFollowsKeepSpares: a window that shows a document (KeepSpares(true)) is
// interactive, one that draws only its loading card is not, and the tools (no Enable) never are.
func TestInteractiveFollowsKeepSpares(t *testing.T) {
	was, procs := enabled.Load(), runtime.GOMAXPROCS(0)
	defer func() { enabled.Store(was); interactive.Store(false); runtime.GOMAXPROCS(procs) }()
	workers.Store(int32(procs))
	enabled.Store(false)
	interactive.Store(false)
	KeepSpares(true)
	if Interactive() {
		t.Fatal("interactive before Enable")
	}
	enabled.Store(true)
	KeepSpares(true)
	if !Interactive() {
		t.Fatal("not interactive with a document shown")
	}
	KeepSpares(false)
	if Interactive() {
		t.Fatal("interactive while only the loading card is drawn")
	}
}

// A load may take every core only where there are two or more and no document is shown.
func TestMayTakeEveryCoreNeedsTwoCoresAndNoDocument(t *testing.T) {
	was, had, procs := enabled.Load(), workers.Load(), runtime.GOMAXPROCS(0)
	defer func() { enabled.Store(was); workers.Store(had); interactive.Store(false); runtime.GOMAXPROCS(procs) }()
	enabled.Store(true)
	for _, c := range []struct {
		workers  int32
		document bool
		want     bool
	}{{1, false, false}, {2, false, true}, {2, true, false}, {8, false, true}, {8, true, false}} {
		workers.Store(c.workers)
		KeepSpares(c.document)
		if got := MayTakeEveryCore(); got != c.want {
			t.Errorf("%d workers, document shown %v: MayTakeEveryCore %v, want %v", c.workers, c.document, got, c.want)
		}
	}
}

// YieldEvery waits for Resume at every 16 K-th step of a loop, and passes the steps between.
func TestYieldEveryWaitsAtItsSteps(t *testing.T) {
	stepped := func(i int) chan struct{} {
		done := make(chan struct{})
		go func() {
			YieldEvery(i)
			close(done)
		}()
		return done
	}
	pause()
	defer Resume()
	for _, i := range []int{0, 1, 0x3ffe, 0x4000} {
		if !returns(stepped(i), 10*time.Second) {
			t.Fatalf("YieldEvery(%#x) waited while paused", i)
		}
	}
	for _, i := range []int{0x3fff, 0x7fff} {
		waiting := stepped(i)
		if returns(waiting, maxPause/4) {
			t.Fatalf("YieldEvery(%#x) returned while paused", i)
		}
		Resume()
		if !returns(waiting, 10*time.Second) {
			t.Fatalf("YieldEvery(%#x) did not return after Resume", i)
		}
		pause()
	}
}
