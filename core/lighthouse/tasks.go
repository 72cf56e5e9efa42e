package lighthouse

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"flamedesk/core"
)

// Task is one known task of a thread: a trace event whose start and end are exact, in µs on the
// trace's clock. Start and End already went through Lighthouse's ms round trip (see KnownTasks).
type Task struct {
	Name       core.StrID
	Start, End float64
}

// ThreadEvent is the little of a trace event that the task tree needs.
type ThreadEvent struct {
	Ph   byte
	Name core.StrID
	Ts   float64
	Dur  float64 // NaN when the event has none
}

// Errors that make Lighthouse give up on a thread's tasks; the thread then gets no refinement.
var (
	ErrUnmatchedEnd    = errors.New("unmatched end events")
	ErrChildAfterEnd   = errors.New("child cannot end after parent")
	ErrImpossibleChild = errors.New("impossible children")
	ErrTaskTiming      = errors.New("invalid task timing data")
	ErrNoTasks         = errors.New("no tasks")
	// ErrTooNested is ours: Lighthouse's B/E matching is quadratic in how deeply events of one
	// name nest, and a thread that would take too long is given up rather than hang the app.
	ErrTooNested = errors.New("B/E events of one name nest too deeply")
)

// matchBudget bounds the steps spent matching B and E events, per event of the thread. Real
// traces need one or two.
const matchBudget = 64

// taskNode is a task while the tree is being built. Lighthouse keeps a duration beside the end and
// updates them separately when it stretches a parent, so both are kept to sort exactly like it.
type taskNode struct {
	name       core.StrID
	eventTs    float64 // the ts of the event that opened the task (start can move in a swap)
	start, end float64
	dur        float64
	unbounded  bool
	parent     int32
	lastChild  int32
	children   int32
}

// KnownTasks builds the task tree of one thread the way Lighthouse's main-thread-tasks does and
// returns its tasks sorted by start (longer first on ties). events are the thread's events in file
// order; traceEnd is the largest ts+dur of the whole file, where an unclosed B ends.
//
// Only X, B and E events matter. The error cases are Lighthouse's: an E with no B, or a child that
// ends more than 1 ms after its parent. URL attribution and timers are not built since they do not
// move any task's bounds.
func KnownTasks(events []ThreadEvent, traceEnd float64) ([]Task, error) {
	order, err := lighthouseOrder(events)
	if err != nil {
		return nil, err
	}
	var starts, ends []int32
	for _, i := range order {
		switch events[i].Ph {
		case 'X', 'B':
			starts = append(starts, i)
		case 'E':
			ends = append(ends, i)
		}
	}
	nodes, err := pairStartsAndEnds(events, starts, ends, traceEnd)
	if err != nil {
		return nil, err
	}
	if len(nodes) == 0 {
		return nil, ErrNoTasks
	}
	sorted := make([]int32, len(nodes))
	for i := range sorted {
		sorted[i] = int32(i)
	}
	byStartLongerFirst := func(s []int32) {
		sort.SliceStable(s, func(a, b int) bool {
			x, y := &nodes[s[a]], &nodes[s[b]]
			if d := x.start - y.start; d != 0 && !math.IsNaN(d) {
				return d < 0
			}
			return y.dur-x.dur < 0
		})
	}
	byStartLongerFirst(sorted)
	if err := linkTasks(nodes, sorted); err != nil {
		return nil, err
	}
	for i := range nodes {
		n := &nodes[i]
		if n.parent >= 0 && n.end > nodes[n.parent].end {
			return nil, ErrChildAfterEnd
		}
		if math.IsInf(n.start, 0) || math.IsNaN(n.start) || math.IsInf(n.end, 0) || math.IsNaN(n.end) {
			return nil, ErrTaskTiming
		}
	}
	byStartLongerFirst(sorted)

	// Lighthouse hands tasks over in ms since the first task and the refinement turns them back
	// into µs from the first task's event ts. The round trip can move a time by an ulp, and the
	// refinement compares these times with sample times exactly, so it is repeated here.
	first := &nodes[sorted[0]]
	origin := first.start
	toMs := func(t float64) float64 { return (t - origin) / 1000 }
	base := first.eventTs - float64(toMs(first.start)*1000)
	out := make([]Task, len(sorted))
	for k, i := range sorted {
		n := &nodes[i]
		out[k] = Task{
			Name:  n.name,
			Start: base + float64(toMs(n.start)*1000),
			End:   base + float64(toMs(n.end)*1000),
		}
	}
	return out, nil
}

// lighthouseOrder returns the indexes of events sorted the way Lighthouse sorts a thread before
// building tasks: by ts, and within one ts the E events first, then B and X events longest first,
// then the rest, each in file order. A B's length there is the distance to its E (searched by
// name with nesting), or "very long" when it has none.
func lighthouseOrder(events []ThreadEvent) ([]int32, error) {
	budget := matchBudget * (len(events) + 1024)
	order := make([]int32, len(events))
	for i := range order {
		order[i] = int32(i)
	}
	sort.SliceStable(order, func(a, b int) bool { return events[order[a]].Ts < events[order[b]].Ts })

	var byName map[core.StrID][]int32 // positions in order of B and E events, per name
	posOf := func(name core.StrID) []int32 {
		if byName == nil {
			byName = map[core.StrID][]int32{}
			for p, i := range order {
				if ph := events[i].Ph; ph == 'B' || ph == 'E' {
					byName[events[i].Name] = append(byName[events[i].Name], int32(p))
				}
			}
		}
		return byName[name]
	}
	const maxSafeInteger = 1<<53 - 1
	var group []int32
	length := map[int32]float64{}
	for lo := 0; lo < len(order); {
		hi := lo + 1
		for hi < len(order) && events[order[hi]].Ts == events[order[lo]].Ts {
			hi++
		}
		if hi-lo > 1 {
			group = group[:0]
			clear(length)
			for _, i := range order[lo:hi] {
				if events[i].Ph == 'E' {
					group = append(group, i)
				}
			}
			nStarts := len(group)
			for _, i := range order[lo:hi] {
				ev := &events[i]
				switch ev.Ph {
				case 'X':
					length[i] = orZero(ev.Dur)
				case 'B':
					length[i] = maxSafeInteger
					positions := posOf(ev.Name)
					k := sort.Search(len(positions), func(k int) bool { return positions[k] >= int32(hi) })
					nested := 0
					for ; k < len(positions); k++ {
						if budget--; budget < 0 {
							return nil, ErrTooNested
						}
						other := &events[order[positions[k]]]
						if other.Ph == 'E' {
							if nested == 0 {
								length[i] = other.Ts - ev.Ts
								break
							}
							nested--
						} else {
							nested++
						}
					}
				default:
					continue
				}
				group = append(group, i)
			}
			starts := group[nStarts:]
			sort.SliceStable(starts, func(a, b int) bool {
				d := orZero(length[starts[b]]) - orZero(length[starts[a]])
				if d != 0 && !math.IsNaN(d) {
					return d < 0
				}
				return starts[a] < starts[b]
			})
			for _, i := range order[lo:hi] {
				if ph := events[i].Ph; ph != 'E' && ph != 'B' && ph != 'X' {
					group = append(group, i)
				}
			}
			copy(order[lo:hi], group)
		}
		lo = hi
	}
	return order, nil
}

// orZero is JavaScript's `x || 0` for a number.
func orZero(x float64) float64 {
	if math.IsNaN(x) {
		return 0
	}
	return x
}

// pairStartsAndEnds makes one task per X or B event. A B takes the first later E of its name that
// is not claimed by a nested start of the same name, where "nested" means any X or B of that name
// that starts after it and strictly before that E; this is Lighthouse's counting, which is not
// plain bracket matching when timestamps tie. A B with no E ends at traceEnd.
func pairStartsAndEnds(events []ThreadEvent, starts, ends []int32, traceEnd float64) ([]taskNode, error) {
	// Per name: the ts of its starts in start order, and its ends as a linked list in end order.
	type nameEnds struct {
		startTs []float64
		head    int32
	}
	perName := map[core.StrID]*nameEnds{}
	get := func(name core.StrID) *nameEnds {
		p := perName[name]
		if p == nil {
			p = &nameEnds{head: -1}
			perName[name] = p
		}
		return p
	}
	rank := make([]int32, len(starts))
	for k, i := range starts {
		p := get(events[i].Name)
		rank[k] = int32(len(p.startTs))
		p.startTs = append(p.startTs, events[i].Ts)
	}
	next := make([]int32, len(ends))
	for k := len(ends) - 1; k >= 0; k-- {
		p := get(events[ends[k]].Name)
		next[k] = p.head
		p.head = int32(k)
	}
	remaining := len(ends)
	budget := matchBudget * (len(starts) + len(ends) + 1024)

	nodes := make([]taskNode, 0, len(starts))
	for k, i := range starts {
		ev := &events[i]
		n := taskNode{name: ev.Name, eventTs: ev.Ts, start: ev.Ts, parent: -1, lastChild: -1}
		if ev.Ph == 'X' {
			n.end = ev.Ts + orZero(ev.Dur)
			n.dur = n.end - n.start
			nodes = append(nodes, n)
			continue
		}
		p := perName[ev.Name]
		// An E of this name that is earlier than this B can never be claimed: later starts are
		// later still. Lighthouse fails on it once all starts are done; fail now.
		if p.head >= 0 && events[ends[p.head]].Ts < ev.Ts {
			return nil, ErrUnmatchedEnd
		}
		matched, prev := int32(-1), int32(-1)
		r := 0
		for e := p.head; e >= 0; prev, e = e, next[e] {
			if budget--; budget < 0 {
				return nil, ErrTooNested
			}
			ts := events[ends[e]].Ts
			below := sort.SearchFloat64s(p.startTs, ts) // starts of this name with ts < the E's
			nested := below - int(rank[k]) - 1
			if nested <= r {
				matched = e
				break
			}
			r++
		}
		if matched < 0 {
			n.end = traceEnd
			n.unbounded = true
		} else {
			n.end = events[ends[matched]].Ts
			if prev < 0 {
				p.head = next[matched]
			} else {
				next[prev] = next[matched]
			}
			remaining--
		}
		n.dur = n.end - n.start
		nodes = append(nodes, n)
	}
	if remaining > 0 {
		return nil, fmt.Errorf("%w: %d", ErrUnmatchedEnd, remaining)
	}
	return nodes, nil
}

// linkTasks gives each task its parent, walking the tasks by start like Lighthouse and applying
// its repairs: a child that overruns its parent by less than 1 ms stretches the parent (and its
// ancestors); an unclosed child is cut at its parent's end; a "child" that started less than 1 ms
// after a childless parent and outlasts it is taken to be the real parent, and the two swap.
func linkTasks(nodes []taskNode, sorted []int32) error {
	cur := int32(-1)
	for _, nx := range sorted {
		for cur >= 0 && !math.IsInf(nodes[cur].end, 0) && !math.IsNaN(nodes[cur].end) && nodes[cur].end <= nodes[nx].start {
			cur = nodes[cur].parent
		}
		if cur >= 0 {
			c, n := &nodes[cur], &nodes[nx]
			if n.end > c.end {
				overrun := n.end - c.end
				switch {
				case overrun < 1000:
					c.end = n.end
					c.dur += overrun
					for a := c.parent; a >= 0 && nodes[a].end < n.end; a = nodes[a].parent {
						nodes[a].dur += n.end - nodes[a].end
						nodes[a].end = n.end
					}
				case n.unbounded:
					n.end = c.end
					n.dur = n.end - n.start
				case n.start-c.start < 1000 && c.children == 0:
					realParent, realChild := nx, cur
					grand := c.parent
					if grand >= 0 {
						if nodes[grand].lastChild != realChild {
							return ErrImpossibleChild
						}
						nodes[grand].lastChild = realParent
					}
					nodes[realParent].parent = grand
					nodes[realParent].start = nodes[realChild].start
					nodes[realParent].dur = nodes[realParent].end - nodes[realParent].start
					cur, nx = realParent, realChild
				default:
					return ErrChildAfterEnd
				}
			}
			nodes[nx].parent = cur
			nodes[cur].lastChild = nx
			nodes[cur].children++
		}
		cur = nx
	}
	return nil
}
