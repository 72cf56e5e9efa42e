package lighthouse

import (
	"math"
	"slices"
)

// Refine narrows every event of s with the known tasks of its thread and stores the result in
// s.Refined. tasks must be sorted by start (KnownTasks returns them so).
//
// For an event whose boundary lies in [earliest, latest], only tasks with an edge inside that
// window say anything, and of those only tasks that cross it (one edge in, one out); a task with
// both edges inside says nothing. A crossing task relates to the synthetic call as its parent, its
// child or an unrelated neighbour, told apart by the window of the call's other boundary:
//
//   - start event, task starting in the window: it ends at or after the call's earliest end, so
//     it is a parent and the call starts no earlier than it; otherwise it is a child and the call
//     starts no later than it. A task ending in the window is finished before the call starts.
//   - end event, task ending in the window: it starts at or before the call's latest start, so it
//     is a parent and the call ends no later than it; otherwise it is a child and the call ends no
//     earlier. A task starting in the window begins after the call ended.
//
// A start also stays after the refined ends at its sample, and an end before the refined starts
// at its sample. Of the window left, a start takes the earliest time and an end the latest, so
// that calls come out as long as the evidence allows (Lighthouse's choice).
//
// Lighthouse scans the tasks for every event; here each sample's window is indexed once (crossing
// tasks sorted by their outer edge, with running minima and maxima), so every event costs a binary
// search.
func Refine(s *Synthetic, tasks []Task) {
	n := s.Len()
	s.Refined = make([]float64, n)
	if n == 0 {
		return
	}
	starts := make([]float64, len(tasks))
	for i := range tasks {
		starts[i] = tasks[i].Start
	}
	byEnd := slices.Clone(tasks)
	slices.SortStableFunc(byEnd, func(a, b Task) int { return cmpFloat(a.End, b.End) })
	ends := make([]float64, len(byEnd))
	for i := range byEnd {
		ends[i] = byEnd[i].End
	}

	// The window of an event's partner: for a B the step of its E, found by a backward pass (and
	// parked in Refined until the forward pass overwrites it), for an E the step of its B, kept on
	// a stack. Both passes read the columns in order; looking partners up by index would miss the
	// cache for nearly every event of a deep profile.
	var stack []int32
	for i := n - 1; i >= 0; i-- {
		if s.Ph[i] == 'E' {
			stack = append(stack, s.Step[i])
		} else if len(stack) > 0 {
			s.Refined[i] = float64(stack[len(stack)-1])
			stack = stack[:len(stack)-1]
		}
	}

	var w window
	step := int32(-1)
	var lo, hi, groupTs float64
	latestEnd, earliestStart := math.Inf(-1), math.Inf(1) // refined events at this ts so far
	for i := 0; i < n; i++ {
		if s.Step[i] != step {
			step = s.Step[i]
			lo, hi = s.stepRange(step)
			w.build(tasks, starts, byEnd, ends, lo, hi)
			// Lighthouse also bounds events by the refined events of the same naive ts; the
			// closing events share theirs with the last sample.
			if ts := naiveOf(lo, hi); ts != groupTs || i == 0 {
				groupTs = ts
				latestEnd, earliestStart = math.Inf(-1), math.Inf(1)
			}
		}
		var ts float64
		if s.Ph[i] == 'B' {
			stack = append(stack, step)
			pairLo, _ := s.stepRange(int32(s.Refined[i]))
			// Tasks starting in the window: parents end at or after the call's earliest end.
			k := lowerBound(w.crossStartEnds, pairLo)
			least := max(lo, w.crossStartMaxStartFrom[k], w.crossEndMaxEnd, latestEnd)
			most := min(hi, w.crossStartMinStartBefore[k])
			ts = least
			if isInfOrNaN(least) && !isInfOrNaN(most) {
				ts = most
			}
			earliestStart = min(earliestStart, ts)
		} else {
			pairStep := step
			if len(stack) > 0 {
				pairStep = stack[len(stack)-1]
				stack = stack[:len(stack)-1]
			}
			_, pairHi := s.stepRange(pairStep)
			// Tasks ending in the window: parents start at or before the call's latest start.
			k := upperBound(w.crossEndStarts, pairHi)
			least := max(lo, w.crossEndMaxEndFrom[k])
			most := min(hi, w.crossEndMinEndBefore[k], w.crossStartMinStart, earliestStart)
			ts = most
			if isInfOrNaN(most) {
				ts = least
			}
			latestEnd = max(latestEnd, ts)
		}
		s.Refined[i] = ts
	}
}

// stepRange is the window [earliest, latest] of the events of a step.
func (s *Synthetic) stepRange(step int32) (lo, hi float64) {
	lo, hi = math.Inf(-1), math.Inf(1)
	if step > 0 {
		lo = s.Times[step-1]
	}
	if int(step) < len(s.Times) {
		hi = s.Times[step]
	}
	return lo, hi
}

// naiveOf is the naive ts of events with window [lo, hi].
func naiveOf(lo, hi float64) float64 {
	if isInfOrNaN(hi) {
		return lo
	}
	return hi
}

// window indexes the tasks that cross one sample interval [lo, hi].
type window struct {
	lo, hi float64

	// Tasks that start inside and end outside, sorted by end.
	crossStartEnds           []float64
	crossStartMaxStartFrom   []float64 // [k]: max start over crossStartEnds[k:]
	crossStartMinStartBefore []float64 // [k]: min start over crossStartEnds[:k]
	crossStartMinStart       float64

	// Tasks that end inside and start outside, sorted by start.
	crossEndStarts       []float64
	crossEndMinEndBefore []float64 // [k]: min end over crossEndStarts[:k]
	crossEndMaxEndFrom   []float64 // [k]: max end over crossEndStarts[k:]
	crossEndMaxEnd       float64

	pairs []Task // scratch
}

func (w *window) build(byStart []Task, starts []float64, byEnd []Task, ends []float64, lo, hi float64) {
	w.lo, w.hi = lo, hi
	inside := func(t float64) bool { return t >= lo && t <= hi }

	w.pairs = w.pairs[:0]
	for k := lowerBound(starts, lo); k < len(starts) && starts[k] <= hi; k++ {
		if t := byStart[k]; !inside(t.End) {
			w.pairs = append(w.pairs, t)
		}
	}
	slices.SortFunc(w.pairs, func(a, b Task) int { return cmpFloat(a.End, b.End) })
	m := len(w.pairs)
	w.crossStartEnds = resize(w.crossStartEnds, m)
	w.crossStartMaxStartFrom = resize(w.crossStartMaxStartFrom, m+1)
	w.crossStartMinStartBefore = resize(w.crossStartMinStartBefore, m+1)
	w.crossStartMinStartBefore[0] = math.Inf(1)
	for k, t := range w.pairs {
		w.crossStartEnds[k] = t.End
		w.crossStartMinStartBefore[k+1] = math.Min(w.crossStartMinStartBefore[k], t.Start)
	}
	w.crossStartMaxStartFrom[m] = math.Inf(-1)
	for k := m - 1; k >= 0; k-- {
		w.crossStartMaxStartFrom[k] = math.Max(w.crossStartMaxStartFrom[k+1], w.pairs[k].Start)
	}
	w.crossStartMinStart = w.crossStartMinStartBefore[m]

	w.pairs = w.pairs[:0]
	for k := lowerBound(ends, lo); k < len(ends) && ends[k] <= hi; k++ {
		if t := byEnd[k]; !inside(t.Start) {
			w.pairs = append(w.pairs, t)
		}
	}
	slices.SortFunc(w.pairs, func(a, b Task) int { return cmpFloat(a.Start, b.Start) })
	m = len(w.pairs)
	w.crossEndStarts = resize(w.crossEndStarts, m)
	w.crossEndMinEndBefore = resize(w.crossEndMinEndBefore, m+1)
	w.crossEndMaxEndFrom = resize(w.crossEndMaxEndFrom, m+1)
	w.crossEndMinEndBefore[0] = math.Inf(1)
	for k, t := range w.pairs {
		w.crossEndStarts[k] = t.Start
		w.crossEndMinEndBefore[k+1] = math.Min(w.crossEndMinEndBefore[k], t.End)
	}
	w.crossEndMaxEndFrom[m] = math.Inf(-1)
	for k := m - 1; k >= 0; k-- {
		w.crossEndMaxEndFrom[k] = math.Max(w.crossEndMaxEndFrom[k+1], w.pairs[k].End)
	}
	w.crossEndMaxEnd = w.crossEndMaxEndFrom[0]
}

func resize(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

// lowerBound is the index of the first element of sorted not less than x.
func lowerBound(sorted []float64, x float64) int {
	lo, hi := 0, len(sorted)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if sorted[mid] < x {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// upperBound is the index of the first element of sorted greater than x.
func upperBound(sorted []float64, x float64) int {
	lo, hi := 0, len(sorted)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if sorted[mid] <= x {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// isInfOrNaN is !Number.isFinite(x): x-x is 0 for finite x and NaN otherwise.
func isInfOrNaN(x float64) bool { return x-x != 0 }
