package core

import (
	"math"
	"strings"
)

// EngineBounds is the time range DevTools' engine gives a trace, µs on the trace's clock: the min
// and max over the B, E, X and I events with a non-zero ts whose name does not end in "::UMA"
// (Chrome writes those on unload, sometimes long before or after the recording), max counting an
// X's dur; a TracingStartedInBrowser event sets min to its ts (the last one seen wins). lo is +Inf
// and hi -Inf when no event counts, as in the engine.
func EngineBounds(tr *Trace) (lo, hi float64) {
	ev := &tr.Events
	lo, hi = math.Inf(1), math.Inf(-1)
	// verdict caches the name test per StrID: 0 unknown, 1 counted, 2 left out.
	verdict := make([]uint8, tr.Strings.Len())
	started, hasStarted := 0.0, false
	tsib, hasTSIB := tr.Strings.Lookup("TracingStartedInBrowser")
	for i, ph := range ev.Ph {
		name := ev.Name[i]
		if hasTSIB && name == tsib {
			started, hasStarted = ev.Ts[i], true
		}
		if ph != 'B' && ph != 'E' && ph != 'X' && ph != 'I' {
			continue
		}
		ts := ev.Ts[i]
		if ts == 0 {
			continue
		}
		if int(name) < len(verdict) {
			if verdict[name] == 0 {
				verdict[name] = 1
				if strings.HasSuffix(tr.Strings.Get(name), "::UMA") {
					verdict[name] = 2
				}
			}
			if verdict[name] == 2 {
				continue
			}
		}
		lo = min(lo, ts)
		end := ts
		// A B's Dur is filled in by the B/E pairing; the engine reads only a dur written in the file,
		// and the E's own ts covers the pair's end.
		if ph == 'X' || ph == 'I' {
			if d := ev.Dur[i]; !math.IsNaN(d) {
				end += d
			}
		}
		hi = max(hi, end)
	}
	// CpuProfile events live in the chunk records; an instant one counts like any other event.
	ch := &tr.Chunks
	for i, k := range ch.Kind {
		if k != ChunkWhole {
			continue
		}
		if ph := ch.Ph[i]; ph != 'B' && ph != 'E' && ph != 'X' && ph != 'I' {
			continue
		}
		if ts := ch.Ts[i]; ts != 0 && !math.IsNaN(ts) {
			lo, hi = min(lo, ts), max(hi, ts)
		}
	}
	if hasStarted {
		lo = started
	}
	return lo, hi
}
