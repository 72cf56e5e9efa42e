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

	// First decide which events end up in which profile, then copy each profile's data once:
	// appending chunk by chunk would copy the arrays of a long profile several times over.
	type instance struct {
		head   int
		chunks []int
	}
	var instances []instance
	var final []int // per id slot, its current instance
	slot := map[string]int{}
	for _, i := range order {
		ev := &events[i]
		if !ev.IDString {
			continue
		}
		k, seen := slot[ev.ID]
		switch {
		case !ev.Chunk:
			instances = append(instances, instance{head: i})
			if seen {
				final[k] = len(instances) - 1
			} else {
				slot[ev.ID] = len(final)
				final = append(final, len(instances)-1)
			}
		case seen:
			in := &instances[final[k]]
			in.chunks = append(in.chunks, i)
		}
	}

	out := make([]Profile, len(final))
	for k, which := range final {
		in := instances[which]
		head := &events[in.head]
		start := head.StartTime
		if start == 0 || math.IsNaN(start) {
			start = head.Ts
		}
		nodes, samples, deltas := len(head.Nodes), len(head.Samples), len(head.TimeDeltas)
		for _, c := range in.chunks {
			nodes += len(events[c].Nodes)
			samples += len(events[c].Samples)
			deltas += len(events[c].TimeDeltas)
		}
		p := Profile{
			ID: head.ID, Pid: head.Pid, Tid: head.Tid, Thread: head.Thread, StartTime: start,
			Nodes:      append(make([]Node, 0, nodes), head.Nodes...),
			Samples:    append(make([]int64, 0, samples), head.Samples...),
			TimeDeltas: append(make([]float64, 0, deltas), head.TimeDeltas...),
		}
		for _, c := range in.chunks {
			p.Nodes = append(p.Nodes, events[c].Nodes...)
			p.Samples = append(p.Samples, events[c].Samples...)
			p.TimeDeltas = append(p.TimeDeltas, events[c].TimeDeltas...)
		}
		out[k] = p
	}
	return out
}
