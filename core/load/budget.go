package load

import (
	"fmt"
	"math"
	"runtime/debug"
	"sync/atomic"
	"unsafe"

	"flamedesk/core"
	"flamedesk/internal/memlimit"
)

// The memory budget of a load. A small file can describe gigabytes of data (a gzip bomb inflates
// 1000-fold; a sample id costs two bytes of JSON and tens of bytes once loaded), so every growth of
// the loader's columns, arenas and tables is charged to a budget before it is allocated, and a load
// that would pass it ends with ErrMemoryBudget instead of the process dying of "out of memory".
//
// The rule: the machine's share is a quarter of the smallest of the physical memory, the cgroup's
// memory limit, the address-space and data-segment limits (ulimit -v, ulimit -d) and twice the Go
// memory limit (GOMEMLIMIT, a soft limit the collector works to keep: FitMemoryLimit sets it to half
// of a hard one), so that the tracks, the timeline and the window built from what is loaded
// (about as much again) and the garbage collector's headroom still fit. For a file that is not
// gzip and whose size is known, the budget is also at most fileBytesFactor times its size plus
// fileBytesSlack: no valid input needs more, so a file that asks for more is refused early.
const (
	machineShare    = 4
	fileBytesFactor = 48
	fileBytesSlack  = 64 << 20
	// defaultMachine stands in for the physical memory where it cannot be read.
	defaultMachine = 8 << 30
)

// ErrMemoryBudget is wrapped by the error of a load that would take more memory than its budget.
var ErrMemoryBudget = core.ErrMemoryBudget

// budgetError reports a load that went over its budget.
type budgetError struct {
	limit int64
	what  string
}

func (e *budgetError) Error() string {
	return fmt.Sprintf("loading it would take more than %s of memory, the budget for this file on this machine (%s)",
		mbString(e.limit), e.what)
}

func (e *budgetError) Unwrap() error { return ErrMemoryBudget }

func mbString(n int64) string {
	return fmt.Sprintf("%d MB", n>>20)
}

// budget tracks the bytes a load holds in its growable data. A nil *budget charges nothing (the
// exported helpers used by tests and tools). charge panics with a *budgetError, which the load
// turns back into an error (see catchBudget): the hot loops stay free of error plumbing. It is
// safe for concurrent use: the end of a load fills columns on two goroutines.
type budget struct {
	limit int64
	used  atomic.Int64
	why   string
}

// newBudget returns the budget of a load whose input is size bytes (-1 when unknown).
func newBudget(size int64, gz bool) *budget {
	machine, why := machineMemory()
	b := &budget{limit: machine / machineShare, why: fmt.Sprintf("a quarter of %s %s", mbString(machine), why)}
	if !gz && size >= 0 {
		if f := fileBytesFactor*size + fileBytesSlack; f < b.limit {
			b.limit, b.why = f, fmt.Sprintf("%d times the file size plus %s", fileBytesFactor, mbString(fileBytesSlack))
		}
	}
	return b
}

// machineMemory is the smallest of the limits the process runs under, and which one it is.
func machineMemory() (int64, string) {
	best, why := int64(defaultMachine), "(assumed physical memory)"
	if phys := physicalMemory(); phys > 0 {
		best, why = phys, "physical memory"
	}
	for _, l := range processLimits() {
		if l.bytes < best {
			best, why = l.bytes, l.name
		}
	}
	// The Go memory limit is a soft one, kept with a collector working harder: half of it is
	// counted like a quarter of a hard one. The one the process runs under: a build of tracks
	// that runs meanwhile lowers it to about its JSON's size while it lasts (core/integrate).
	if goLimit := memlimit.Outside(); goLimit > 0 && goLimit < best/2 {
		best, why = goLimit*2, "twice the Go memory limit"
	}
	return best, why
}

type processLimit struct {
	name  string
	bytes int64
}

// charge accounts for n more bytes, or panics with a *budgetError when they do not fit.
func (b *budget) charge(n int64) {
	if b == nil {
		return
	}
	for {
		used := b.used.Load()
		if n > b.limit-used {
			panic(&budgetError{limit: b.limit, what: b.why})
		}
		if b.used.CompareAndSwap(used, used+n) {
			return
		}
	}
}

// release gives back n bytes that are no longer held (a column that moved to a bigger block).
func (b *budget) release(n int64) {
	if b != nil {
		if b.used.Add(-n) < 0 {
			b.used.Store(0) // never below zero
		}
	}
}

// room is how many more bytes fit.
func (b *budget) room() int64 {
	if b == nil {
		return math.MaxInt64
	}
	return b.limit - b.used.Load()
}

// makeSlice is make([]T, n, c) charged to the budget.
func makeSlice[T any](b *budget, n, c int) []T {
	var zero T
	b.charge(int64(c) * int64(unsafe.Sizeof(zero)))
	return make([]T, n, c)
}

// catchBudget turns a budget panic into *err; any other panic goes on.
func catchBudget(err *error) {
	if r := recover(); r != nil {
		be, ok := r.(*budgetError)
		if !ok {
			panic(r)
		}
		*err = be
	}
}

// FitMemoryLimit sets the Go memory limit (the garbage collector's soft target) to half of the
// process's hard memory limit (ulimit -v or -d, or the cgroup's), unless GOMEMLIMIT or an earlier
// call set a lower one. Under a hard limit the heap must not grow to twice what is live before the
// collector runs, as it does by default: the address space it maps stays mapped. Commands call it
// once at start.
func FitMemoryLimit() {
	hard := int64(math.MaxInt64)
	for _, l := range processLimits() {
		if l.bytes > 0 {
			hard = min(hard, l.bytes)
		}
	}
	if hard == math.MaxInt64 {
		return
	}
	if cur := debug.SetMemoryLimit(-1); hard/2 < cur {
		debug.SetMemoryLimit(hard / 2)
	}
}
