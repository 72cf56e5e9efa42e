package timelines

import (
	"math"
	"sort"

	"flamedesk/core"
)

// rawDur is the dur written in the file for event i, 0 when it has none: what the engine's
// comparators read from an unpaired event.
func rawDur(ev *core.Events, i int32) float64 {
	// A B's Dur is filled by the pairing; the file's own dur of a B is never kept.
	if d := ev.Dur[i]; !math.IsNaN(d) && ev.Ph[i] != 'B' {
		return d
	}
	return 0
}

// startsBefore is the engine's event order: by start, then the one that ends later first.
// It reports -1, 0 or 1.
func startsBefore(aTs, aEnd, bTs, bEnd float64) int {
	switch {
	case aTs < bTs:
		return -1
	case aTs > bTs:
		return 1
	case aEnd > bEnd:
		return -1
	case aEnd < bEnd:
		return 1
	}
	return 0
}

// sortEvents orders event indexes stably by start, longer first, with each event's own dur.
func sortEvents(ev *core.Events, list []int32) {
	sort.SliceStable(list, func(a, b int) bool {
		x, y := list[a], list[b]
		return startsBefore(ev.Ts[x], ev.Ts[x]+rawDur(ev, x), ev.Ts[y], ev.Ts[y]+rawDur(ev, y)) < 0
	})
}

// isAsyncPhase tells the async phases: nestable b/e/n and the legacy S/T/F/p.
func isAsyncPhase(ph byte) bool {
	switch ph {
	case 'b', 'e', 'n', 'S', 'T', 'F', 'p':
		return true
	}
	return false
}
