package integrate

import (
	"fmt"
	"math"
	"slices"
	"sync"

	"flamedesk/core"

	"flamedesk/internal/background"
)

// This file nests a thread's events and ProfileCalls into its track (treify). A big thread's
// tree is built in two halves at once, cut where nothing is open (see treeCut).

// splitTree is the size (rows) from which treify builds a thread's tree in two halves at once.
// A variable so that tests can cut small trees.
var splitTree = bigJob

// treify merges the thread's sorted entries with its ProfileCalls and nests them (RULES.md §4):
// an item starting at or after the open parent's end closes the parent; an item that starts
// inside its parent but ends after it is left out of the tree (DevTools keeps it only in the
// thread's flat list); depth is the number of open ancestors. Entries come out in pre-order, which
// is the merged order itself.
//
// The calls are read once, in creation order, and each block of them is let go as soon as the
// walk has passed it, so that the calls and the track they become are not both held whole.
//
// es are the thread's events in entry order, traceIDs how many of them have a sampleTraceId;
// the calls are those of the walk's parts, one part after the other.
func treify(tr *core.Trace, th core.ThreadID, es []int32, traceIDs int, parts []calls, p *core.ProfileModel, prof int32, warnings *[]string) core.Track {
	ev := &tr.Events
	n := len(es)
	for i := range parts {
		n += parts[i].len()
	}
	// Both lists are in time order: the first of either starts first.
	first := math.Inf(1)
	if len(es) > 0 {
		first = ev.Ts[es[0]]
	}
	for i := range parts {
		if c := &parts[i]; c.len() > 0 {
			first = min(first, c.ts(c.at(0)))
			break
		}
	}
	base := core.NewTimes(first, 0).Base
	var nodeFrame []core.FrameID
	samples := 0
	if p != nil {
		nodeFrame = p.NodeFrame
		samples = len(p.Samples)
	} else {
		traceIDs = 0
	}
	t := core.Track{
		Thread:    th,
		Start:     core.Times{Base: base},
		Dur:       core.NewTimes(0, n),
		Depth:     make([]uint16, n),
		NodePlus1: core.NewPacked(n, uint64(len(nodeFrame))),
		Refs:      core.NewPacked(n, uint64(max(len(es), samples+traceIDs))),
		Compact:   true,
		Profile:   -1,
	}
	if n >= bigJob {
		adviseHuge(t.Dur.Off)
		adviseHuge(t.Depth)
		adviseHuge(t.NodePlus1.Words)
		adviseHuge(t.Refs.Words)
	}
	w := treeWalk{ev: ev, t: &t, es: es, parts: parts, samples: samples, eEnd: len(es), cEndPart: len(parts), guard: -1, keepBlock: -1}
	w.eventStart = core.Times{Base: base}
	cut, ok := chooseCut(ev, es, parts, &t, n)
	if !ok {
		w.own(len(es))
		w.run()
	} else {
		// The half after the cut starts with nothing open, at the row it would have with
		// nothing left out before it; its rows are moved down after the fact when some were.
		before := int(cut.calls) // calls before the cut
		if cut.part == 1 {
			before = parts[0].len()
		}
		after := treeWalk{ev: ev, t: &t, es: es, parts: parts, samples: samples,
			ei: int(cut.entry), eEnd: len(es), pi: int(cut.part), ci: int(cut.calls), cEndPart: len(parts), k: int(cut.entry) + before,
			eventBase: int(cut.entry), callStartBase: int(cut.traceCalls), keepBlock: -1}
		if cut.part == 0 {
			// The block holding the first call after the cut may hold calls before it too.
			after.keepBlock = int(cut.calls) >> callBlockBits
			w.keepBlock = after.keepBlock
		}
		after.eventStart = core.Times{Base: base}
		after.own(len(es) - int(cut.entry))
		after.guard = after.k + guardRows
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			background.Lower()
			after.run()
		}()
		w.eEnd, w.cEndPart, w.cEnd = int(cut.entry), int(cut.part), int(cut.calls)
		w.own(len(es))
		w.run()
		wg.Wait()
		w.join(&after)
		if b := after.keepBlock; b >= 0 && b < len(parts[0].blocks) {
			parts[0].blocks[b] = nil
		}
	}
	k := w.k
	t.MaxDepth, t.NotInTree = w.maxDepth, w.notInTree
	t.EventRef, t.EventName, t.EventStart, t.CallStart = w.eventRef, w.eventName, w.eventStart, w.callStart
	t.ParentFar, t.ParentFarTo = w.parentFar, w.parentFarTo
	t.Dur.Truncate(k)
	if k < n {
		t.Depth = t.Depth[:k]
		t.NodePlus1.Truncate(k)
		t.Refs.Truncate(k)
	}
	t.EventStart.Clip()
	t.EventRef, t.EventName = slices.Clip(t.EventRef), slices.Clip(t.EventName)
	if w.calls > 0 {
		t.Profile = prof
		t.NodeFrame = slices.Clip(nodeFrame)
		t.NodeName = make([]core.StrID, len(nodeFrame))
		for n, f := range nodeFrame {
			t.NodeName[n] = frameName(tr, f)
		}
		if 2*w.calls < samples {
			sparseSampleStarts(&t, p)
		} else {
			t.SampleStart = sampleStarts(p)
		}
	}
	if w.deep > 0 {
		*warnings = append(*warnings, fmt.Sprintf("thread %d: entries deeper than %d shown at that depth", tr.Threads[th].Tid, math.MaxUint16))
	}
	return t
}

// sparseSampleStarts gives t, whose calls start at fewer than half of p's samples, the starts of
// those samples alone (core.Track.SampleOf), and has its calls' Refs index them: a profiled
// thread that is mostly idle kept 4 bytes for each of its samples to give a few calls their
// starts (20 MB of a 57 MB trace of 5 M samples and 5900 calls).
func sparseSampleStarts(t *core.Track, p *core.ProfileModel) {
	samples, n := uint64(len(p.Samples)), t.Len()
	var used []int32
	for i := range n {
		if t.NodePlus1.At(i) != 0 {
			if r := t.Refs.At(i); r < samples {
				used = append(used, int32(r))
			}
		}
	}
	slices.Sort(used)
	used = slices.Compact(used)
	if len(used) > 0 && int(used[len(used)-1]) >= len(p.Timestamps) {
		t.SampleStart = sampleStarts(p) // a sample without a time: as the whole column reads it
		return
	}
	for i := range n {
		if t.NodePlus1.At(i) == 0 {
			continue
		}
		r := t.Refs.At(i)
		if r < samples {
			k, _ := slices.BinarySearch(used, int32(r))
			t.Refs.Set(i, uint64(k))
		} else {
			t.Refs.Set(i, r-samples+uint64(len(used)))
		}
	}
	first := math.Inf(1)
	for _, s := range used {
		first = min(first, devtoolsMicros(p.Timestamps[s]))
	}
	t.SampleStart = core.NewTimes(first, len(used))
	for k, s := range used {
		t.SampleStart.Set(k, devtoolsMicros(p.Timestamps[s]))
	}
	t.SampleOf = slices.Clip(used)
}

// guardRows is how many rows past the cut the second half holds back from the packed columns
// until the first is done: enough to cover the two 64-bit words that the first half's last row
// may write, at one bit per value or more.
const guardRows = 130

// chooseCut picks the cut (noted by the walk) whose two halves are closest in size, among those
// where the events before it have ended too and the two halves can be written at once; ok is
// false when there is none, or the tree is too small to be worth it.
func chooseCut(ev *core.Events, es []int32, parts []calls, t *core.Track, n int) (treeCut, bool) {
	if n < splitTree || len(parts) == 0 || len(parts) > 2 || t.NodePlus1.Bits == 0 || t.Refs.Bits == 0 {
		return treeCut{}, false
	}
	// The cuts inside a whole walk, or the one between the two parts of a cut walk.
	cuts := parts[0].cuts
	if len(parts) == 2 {
		cuts = nil
		if parts[0].endCut.part == 1 && !parts[1].unsorted {
			cuts = []treeCut{parts[0].endCut}
		}
	}
	if len(cuts) == 0 || parts[0].unsorted {
		return treeCut{}, false
	}
	// The halves write the duration column at once: neither may have to widen it.
	for i := range parts {
		for _, b := range parts[i].blocks {
			if b == nil || b.dur.IsWide() || b.dur.Base != t.Dur.Base {
				return treeCut{}, false
			}
		}
	}
	best, found, bestGap := treeCut{}, false, n/4
	ends := math.Inf(-1) // the latest end of the events before k
	prev := math.Inf(-1)
	for k, e := range es {
		ts := ev.Ts[e]
		if !(ts >= prev) {
			return treeCut{}, false // not in time order (NaN included)
		}
		prev = ts
		for len(cuts) > 0 && int(cuts[0].entry) == k {
			cut := cuts[0]
			cuts = cuts[1:]
			c, next, before := &parts[cut.part], int(cut.calls), int(cut.calls)
			if cut.part == 1 {
				before = parts[0].len()
			}
			if gap := abs(2*(k+before) - n); gap < bestGap && ends <= ts && next < c.len() && before > 0 {
				// The first call after the cut must start after the task, so that the merge
				// puts the task first (the walk saw that the calls before it start before).
				if x := c.at(int32(next)); c.ts(x) > ts {
					best, found, bestGap = cut, true, gap
				}
			}
		}
		if d := ev.Dur[e]; !math.IsNaN(d) {
			if !t.Dur.Fits(d) {
				return treeCut{}, false
			}
			ends = max(ends, ts+d)
		} else {
			ends = max(ends, ts)
		}
	}
	return best, found
}

// treeWalk nests one stretch of the merged events and calls: all of them, or one half of a cut
// tree. It writes the track's rows from row k up and keeps the rest of the track (events'
// columns, far parents) in lists of its own.
type treeWalk struct {
	ev      *core.Events
	t       *core.Track
	es      []int32
	parts   []calls
	samples int

	// ei and eEnd bound the events; pi and ci are the next call, call cEnd of part cEndPart
	// the one to stop before.
	ei, eEnd       int
	pi, ci         int
	cEndPart, cEnd int
	k              int // the next row
	eventBase      int // the first event row's index into the track's event columns
	callStartBase  int
	// guard is the first row of the packed columns that this walk writes directly; the rows
	// before it wait in held until the walk of the first half is done (-1: none wait).
	guard int
	held  []heldRow
	// keepBlock is a block of calls shared with the other half, which neither lets go.
	keepBlock int

	stack                  []openRow
	x                      call
	xts                    float64
	xsrc                   int32
	haveTs                 bool
	maxDepth, notInTree    int
	deep, calls            int
	eventRef               []int32
	eventName              []core.StrID
	eventStart             core.Times
	callStart              []float64
	parentFar, parentFarTo []int32
}

type openRow struct {
	row        int32
	start, end float64
}

// heldRow is a row's packed values (node+1 0 for an event) held back near the cut.
type heldRow struct {
	row            int
	nodePlus1, ref uint64
}

// own makes the walk's lists, with room for n events.
func (w *treeWalk) own(n int) {
	w.eventRef = make([]int32, 0, n)
	w.eventStart.Off = make([]uint32, 0, n)
	w.eventName = make([]core.StrID, 0, n)
}

// put writes row k's packed values, or holds them back when the other half may still write the
// words they share.
func (w *treeWalk) put(k int, nodePlus1, ref uint64) {
	if k < w.guard {
		w.held = append(w.held, heldRow{k, nodePlus1, ref})
		return
	}
	if nodePlus1 != 0 {
		w.t.NodePlus1.Put(k, nodePlus1)
	}
	w.t.Refs.Put(k, ref)
}

func (w *treeWalk) run() {
	ev, t, es, parts := w.ev, w.t, w.es, w.parts
	read := false
	for step := 1; ; step++ {
		if step&4095 == 0 {
			background.Yield()
		}
		for w.pi < len(parts) && w.ci >= parts[w.pi].len() {
			w.pi, w.ci = w.pi+1, 0
		}
		haveCall := w.pi < w.cEndPart || (w.pi == w.cEndPart && w.ci < w.cEnd)
		if w.ei >= w.eEnd && !haveCall {
			break
		}
		var isCall bool
		var ts, dur float64
		if haveCall && !read {
			c := &parts[w.pi]
			w.x = c.at(int32(w.ci))
			// A sample pushes its new frames one after the other: they share its start.
			if w.x.src != w.xsrc || !w.haveTs {
				w.xts, w.xsrc, w.haveTs = c.ts(w.x), w.x.src, true
			}
			read = true
		}
		x, xts := w.x, w.xts
		switch {
		case !haveCall:
		case w.ei >= w.eEnd:
			isCall = true
		default:
			// DevTools merges the constructed calls, in creation order, into the sorted entries
			// with its event comparator: earlier start first, then later end, then the call.
			e := es[w.ei]
			switch ets := ev.Ts[e]; {
			case ets < xts:
			case ets > xts:
				isCall = true
			default:
				isCall = !(ets+entryDur(ev, e) > xts+x.dur)
			}
		}
		if isCall {
			ts, dur = xts, x.dur
		} else {
			ts, dur = ev.Ts[es[w.ei]], entryDur(ev, es[w.ei])
		}
		// Starting before the open parent cannot happen with sorted input (DevTools would throw);
		// closing the parent keeps malformed input loadable.
		stack := w.stack
		for len(stack) > 0 && (ts >= stack[len(stack)-1].end || ts < stack[len(stack)-1].start) {
			stack = stack[:len(stack)-1]
		}
		parent := int32(-1)
		if len(stack) > 0 {
			parent = stack[len(stack)-1].row
		}
		k := w.k
		if parent >= 0 && ts+dur > stack[len(stack)-1].end {
			w.notInTree++
		} else {
			depth := len(stack)
			if depth > math.MaxUint16 {
				depth = math.MaxUint16
				w.deep++
			}
			w.maxDepth = max(w.maxDepth, depth)
			t.Depth[k] = uint16(depth)
			// Rows are written once each, in order, into zeroed columns: Put, not Set.
			// The row before is the parent exactly when it is one level up (pre-order), so
			// only the other parents are listed.
			if parent >= 0 && !(int(parent) == k-1 && t.Depth[k-1]+1 == t.Depth[k]) {
				w.parentFar = append(w.parentFar, int32(k))
				w.parentFarTo = append(w.parentFarTo, parent)
			}
			if isCall {
				// Where the call's block counts from the track's base, its offset is the one Set
				// would work out again.
				if o, ok := parts[w.pi].durOffset(int32(w.ci), t.Dur.Base); ok && !t.Dur.IsWide() {
					t.Dur.Off[k] = o
				} else {
					t.Dur.Set(k, x.dur)
				}
				ref := uint64(x.src)
				if x.src < 0 {
					ref = uint64(w.samples + w.callStartBase + len(w.callStart))
					w.callStart = append(w.callStart, xts)
				}
				w.put(k, uint64(x.node)+1, ref)
				w.calls++
			} else {
				e := es[w.ei]
				w.put(k, 0, uint64(w.eventBase+len(w.eventRef)))
				w.eventRef = append(w.eventRef, e)
				w.eventStart.Append(ev.Ts[e])
				w.eventName = append(w.eventName, ev.Name[e])
				// Events.Dur holds what the entry had: a B's paired length, NaN for none.
				if d := ev.Dur[e]; !math.IsNaN(d) {
					t.Dur.Set(k, d)
				}
			}
			stack = append(stack, openRow{int32(k), ts, ts + dur})
			w.k++
		}
		w.stack = stack
		if isCall {
			w.ci++
			read = false
			if w.ci&(1<<callBlockBits-1) == 0 {
				if b := (w.ci - 1) >> callBlockBits; w.pi > 0 || b != w.keepBlock {
					parts[w.pi].release(int32(w.ci - 1))
				}
			}
		} else {
			w.ei++
		}
	}
}

// join appends the second half's rows and lists to those of w, the first half, which has ended
// where the second began.
func (w *treeWalk) join(after *treeWalk) {
	t := w.t
	from := after.guard - guardRows // the second half's first row
	for _, h := range after.held {
		if h.nodePlus1 != 0 {
			t.NodePlus1.Put(h.row, h.nodePlus1)
		}
		t.Refs.Put(h.row, h.ref)
	}
	rows := after.k - from
	if shift := from - w.k; shift > 0 {
		// Rows were left out before the cut: move the second half's rows down, and its
		// references into the event and call-start lists with them.
		evShift := after.eventBase - len(w.eventRef)
		csShift := after.callStartBase - len(w.callStart)
		copy(t.Depth[w.k:], t.Depth[from:after.k])
		copy(t.Dur.Off[w.k:], t.Dur.Off[from:after.k])
		for i := range rows {
			node, ref := t.NodePlus1.At(from+i), t.Refs.At(from+i)
			switch {
			case node == 0:
				ref -= uint64(evShift)
			case int(ref) >= w.samples:
				ref -= uint64(csShift)
			}
			t.NodePlus1.Set(w.k+i, node)
			t.Refs.Set(w.k+i, ref)
		}
		for r := w.k + rows; r < after.k; r++ {
			t.NodePlus1.Set(r, 0)
			t.Refs.Set(r, 0)
		}
		for i := range after.parentFar {
			after.parentFar[i] -= int32(shift)
			after.parentFarTo[i] -= int32(shift)
		}
	}
	w.k += rows
	w.eventRef = append(w.eventRef, after.eventRef...)
	w.eventName = append(w.eventName, after.eventName...)
	for i := range after.eventStart.Len() {
		w.eventStart.Append(after.eventStart.At(i))
	}
	w.callStart = append(w.callStart, after.callStart...)
	w.parentFar = append(w.parentFar, after.parentFar...)
	w.parentFarTo = append(w.parentFarTo, after.parentFarTo...)
	w.maxDepth = max(w.maxDepth, after.maxDepth)
	w.notInTree += after.notInTree
	w.deep += after.deep
	w.calls += after.calls
}
