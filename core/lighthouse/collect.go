package lighthouse

import (
	"math"
	"sort"

	"flamedesk/core"
)

// ProfileEvent is a Profile or ProfileChunk event reduced to what Lighthouse reads from it.
type ProfileEvent struct {
	Chunk    bool // a ProfileChunk; otherwise a Profile
	ID       string
	IDString bool // the id was a JSON string; Lighthouse ignores events whose id is not
	Pid, Tid int64
	Thread   core.ThreadID
	Ts       float64
	// StartTime is args.data.startTime, NaN when absent.
	StartTime float64
	// Nodes and Samples come from args.data.cpuProfile.
	Nodes   []Node
	Samples []int64
	// TimeDeltas is args.data.timeDeltas, or args.data.cpuProfile.timeDeltas when the former is
	// absent.
	TimeDeltas []float64
}

// Collect assembles the profiles of one process the way Lighthouse does: events are taken in ts
// order (file order on ties) and keyed by id alone. A Profile starts a profile, replacing an
// earlier one with the same id; a ProfileChunk appends to the profile of its id and is dropped when
// there is none. Profiles come out in the order their ids first appeared.
//
// The id alone is the key within one process; ids such as "0x1" recur in other processes, which
// is why callers collect each process on its own.
func Collect(events []ProfileEvent) []Profile {
	order := make([]int, len(events))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return events[order[a]].Ts < events[order[b]].Ts })

	var out []Profile
	slot := map[string]int{}
	for _, i := range order {
		ev := &events[i]
		if !ev.IDString {
			continue
		}
		k, seen := slot[ev.ID]
		if !ev.Chunk {
			start := ev.StartTime
			if start == 0 || math.IsNaN(start) {
				start = ev.Ts
			}
			p := Profile{
				ID: ev.ID, Pid: ev.Pid, Tid: ev.Tid, Thread: ev.Thread, StartTime: start,
				Nodes:      append([]Node(nil), ev.Nodes...),
				Samples:    append([]int64(nil), ev.Samples...),
				TimeDeltas: append([]float64(nil), ev.TimeDeltas...),
			}
			if seen {
				out[k] = p
			} else {
				slot[ev.ID] = len(out)
				out = append(out, p)
			}
			continue
		}
		if !seen {
			continue
		}
		p := &out[k]
		p.Nodes = append(p.Nodes, ev.Nodes...)
		p.Samples = append(p.Samples, ev.Samples...)
		p.TimeDeltas = append(p.TimeDeltas, ev.TimeDeltas...)
	}
	return out
}
