package calltree

import (
	"fmt"

	"flamedesk/core"
)

// mainThreadName is the thread name Chrome gives a renderer's main thread.
const mainThreadName = "CrRendererMain"

// DefaultProfile picks the profile a call tree shows when none is asked for: the only one of a
// .cpuprofile or self-profile; in a trace, the main thread (CrRendererMain) with the most samples,
// or the profile with the most samples when no main thread was profiled. It returns -1 when the
// trace has no profile.
func DefaultProfile(tr *core.Trace) int {
	best, bestMain := -1, false
	for i := range tr.Profiles {
		p := &tr.Profiles[i]
		isMain := false
		if int(p.Thread) < len(tr.Threads) {
			isMain = tr.Strings.Get(tr.Threads[p.Thread].Name) == mainThreadName
		}
		switch {
		case best < 0,
			isMain && !bestMain,
			isMain == bestMain && len(p.Samples) > len(tr.Profiles[best].Samples):
			best, bestMain = i, isMain
		}
	}
	return best
}

// FindProfile returns the index of the profile of thread pid:tid, -1 when there is none.
func FindProfile(tr *core.Trace, pid, tid int64) int {
	best := -1
	for i := range tr.Profiles {
		p := &tr.Profiles[i]
		if p.Pid == pid && p.Tid == tid && (best < 0 || len(p.Samples) > len(tr.Profiles[best].Samples)) {
			best = i
		}
	}
	return best
}

// ProfileLabel names profile i for people: "CrRendererMain (pid 1, tid 2)".
func ProfileLabel(tr *core.Trace, i int) string {
	p := &tr.Profiles[i]
	name := fmt.Sprintf("Thread %d", p.Tid)
	if int(p.Thread) < len(tr.Threads) {
		name = tr.ThreadLabel(p.Thread)
	}
	return fmt.Sprintf("%s (pid %d, tid %d)", name, p.Pid, p.Tid)
}
