package integrate

import (
	"sync/atomic"

	"flamedesk/core"
)

// entryBytes is what one entry of a CPU profile's track costs while it is built: its compact
// row (depth, packed node and sample refs, a closed bit, and a far parent for a few calls) is
// about 9 bytes (TestProfileTrackBytesPerCall), and a profile whose sample times are not whole
// µs adds a float64 duration a call; the walk's stacks grow with the depth only. The budget
// (48 times the file) refuses a profile only where its calls would truly not fit: at 128 bytes
// a call it refused a 44 MB .cpuprofile of 4 M samples and 17.6 M calls, which loads in 0.7 GB.
const entryBytes = 24

// callBytes is what one ProfileCall of a trace costs while its track is built: the call under
// construction (about 9 bytes), the compact track's row (about 13) and room for the stacks.
const callBytes = 32

// entryGrant is how many entries a job takes from the shared budget at a time.
const entryGrant = 4096

// entryBudget bounds the entries one build makes, over all its jobs. A profile of a few hundred
// KB can make billions of calls (samples alternating between two stacks a thousand frames deep
// open and close a thousand calls each), so the walks stop when the budget is spent and the build
// ends with core.ErrMemoryBudget. The budget is the load's own (Stats.MemoryBudget): the tracks
// may take as much memory again as the loaded data. A nil budget (a trace built by hand) has no
// bound.
type entryBudget struct {
	left atomic.Int64 // bytes
	max  int64        // bytes
}

func newEntryBudget(tr *core.Trace) *entryBudget {
	if tr.Stats.MemoryBudget <= 0 {
		return nil
	}
	b := &entryBudget{max: tr.Stats.MemoryBudget}
	b.left.Store(b.max)
	return b
}

// grant is one job's share of the budget, taken in steps.
type grant struct {
	from    *entryBudget
	per     int // bytes an entry costs; entryBytes when 0
	granted int // entries
	over    bool
}

// allow reports whether the job may hold n entries, taking more from the budget as needed.
func (g *grant) allow(n int) bool {
	if g.from == nil || n <= g.granted {
		return true
	}
	if g.over {
		return false
	}
	step := max(entryGrant, n-g.granted)
	per := g.per
	if per == 0 {
		per = entryBytes
	}
	if g.from.left.Add(-int64(step)*int64(per)) < 0 {
		g.over = true
		return false
	}
	g.granted += step
	return true
}
