package background

import (
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

// threadNice is the nice value of the calling goroutine's thread (getpriority returns 20-nice).
// It may run on other goroutines than the test's, so it reports errors with t.Error.
func threadNice(t *testing.T) int {
	p, err := unix.Getpriority(unix.PRIO_PROCESS, unix.Gettid())
	if err != nil {
		t.Error(err)
	}
	return 20 - p
}

func TestLowerOnlyAfterEnableAndOnlyItsThread(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	base := threadNice(t)
	procs := runtime.GOMAXPROCS(0)
	// Enable lasts for the process: a run with -count above 1 starts from before it again.
	enabled.Store(false)
	workers.Store(0)
	defer enabled.Store(false)

	got := make(chan int)
	go func() {
		Lower() // not enabled: nothing changes
		got <- threadNice(t)
	}()
	if n := <-got; n != base {
		t.Fatalf("Lower before Enable: nice %d, want %d", n, base)
	}
	if Workers() != procs {
		t.Fatalf("Workers before Enable = %d, want GOMAXPROCS %d", Workers(), procs)
	}

	Enable()
	defer runtime.GOMAXPROCS(procs)
	if Workers() != procs || runtime.GOMAXPROCS(0) != procs+spareProcs {
		t.Fatalf("after Enable: Workers %d, GOMAXPROCS %d; want %d and %d", Workers(), runtime.GOMAXPROCS(0), procs, procs+spareProcs)
	}
	// The spares go and come back; Workers stays.
	KeepSpares(false)
	if Workers() != procs || runtime.GOMAXPROCS(0) != procs {
		t.Fatalf("without spares: Workers %d, GOMAXPROCS %d; want %d and %d", Workers(), runtime.GOMAXPROCS(0), procs, procs)
	}
	// No document is shown: the work keeps its thread as it is.
	go func() {
		Lower()
		got <- threadNice(t)
	}()
	if n := <-got; n != base {
		t.Fatalf("Lower before a document is shown: nice %d, want %d", n, base)
	}
	KeepSpares(true)
	if Workers() != procs || runtime.GOMAXPROCS(0) != procs+spareProcs {
		t.Fatalf("with spares again: Workers %d, GOMAXPROCS %d; want %d and %d", Workers(), runtime.GOMAXPROCS(0), procs, procs+spareProcs)
	}
	go func() {
		Lower()
		got <- threadNice(t)
	}()
	want := min(base+niceness, 19)
	if n := <-got; n != want {
		t.Fatalf("a background goroutine's thread has nice %d, want %d", n, want)
	}
	if n := threadNice(t); n != base {
		t.Fatalf("the test's own thread has nice %d after a background goroutine lowered its own, want %d", n, base)
	}
}
