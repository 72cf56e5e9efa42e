package integrate

import (
	"context"
	"math"
	"slices"

	"flamedesk/core"
)

// profileTrack builds the track of a bare profile (.cpuprofile or JS Self-Profiling), as DevTools'
// CPU profile mode does (RULES.md §5): no trace events, and calls straight from the samples. A
// frame opens when a sample's path leaves the previous sample's path and closes at the first
// sample that no longer has it; GC samples sit on top of the previous sample's node; the frames
// still open at the end close at the extrapolated end time. (program), (idle) and
// (garbage collector) are calls like any other here.
//
// Times go through milliseconds as in DevTools (µs / 1000 for the walk, × 1000 for the output).
//
// over is true (and the track empty) when the calls would pass the build's entry budget.
func profileTrack(ctx context.Context, tr *core.Trace, p *core.ProfileModel, prof int32, limit *entryBudget) (t core.Track, over bool) {
	w := walker{p: p, ctx: ctx, counting: true}
	w.limit.from = limit
	// The walk runs twice: once to count the calls, then to record them in columns made to
	// measure. Grown by append instead, the columns of a large profile (1.4 M calls) were copied
	// at every doubling, each copy faulting in fresh pages while the collector, which cannot stop
	// a goroutine in the middle of a copy, spun waiting for it: 0.7 s for a 46 MB profile.
	w.run()
	if !w.limit.over && ctx.Err() == nil {
		w.record()
		w.run()
	}
	if w.limit.over || ctx.Err() != nil {
		return core.Track{Thread: p.Thread, Profile: prof}, w.limit.over
	}
	return w.track(tr, prof), false
}

// none stands for JS's undefined/null node.
const none int32 = -1

type walker struct {
	p     *core.ProfileModel
	ctx   context.Context
	limit grant

	// counting: the walk only counts its calls (calls), and records none of them.
	counting bool
	calls    int

	// Calls in the order they open, which is the tree's pre-order.
	node     []int32
	ts, dur  []float64 // µs
	sample   []int32
	depth    []int32
	parent   []int32 // parent call, -1 for none
	closed   []bool
	root     []bool
	callsOpn []int32 // calls opened and not yet closed

	// The walk's own stack of start times and children's durations, in ms. DevTools lets its
	// stack pointer reach -1 (closing past the root after a hole), so slots are offset by 2.
	top        int
	startMs    []float64
	childDurMs []float64
	pending    []int32

	prevID   int32 // the previous sample's node; none once a hole was met
	gcParent int32 // the node an open GC frame sits on, or none
}

func (w *walker) slot(i int) int {
	s := max(i+2, 0) // only a malformed model closes further past the root

	for s >= len(w.startMs) {
		w.startMs = append(w.startMs, 0)
		w.childDurMs = append(w.childDurMs, 0)
	}
	return s
}

func (w *walker) valid(n int32) bool { return n >= 0 && int(n) < len(w.p.NodeID) }

func (w *walker) open(depth, node int32, sample int, tMs float64) {
	if !w.limit.allow(w.calls + 1) {
		return // the run stops at its next sample
	}
	c := int32(w.calls)
	w.calls++
	w.callsOpn = append(w.callsOpn, c)
	if !w.counting {
		w.node = append(w.node, node)
		w.ts = append(w.ts, tMs*1000)
		w.dur = append(w.dur, 0)
		w.sample = append(w.sample, int32(sample))
		w.depth = append(w.depth, depth)
		w.parent = append(w.parent, -1)
		w.closed = append(w.closed, false)
		w.root = append(w.root, len(w.callsOpn) == 1)
	}
	w.top++
	s := w.slot(w.top)
	w.startMs[s] = tMs
	w.childDurMs[s] = 0
}

// close ends the innermost open frame at tMs and hands its duration to the frame below.
func (w *walker) close(tMs float64) {
	s := w.slot(w.top)
	start := w.startMs[s]
	d := tMs - start
	w.childDurMs[w.slot(w.top-1)] += d
	w.top--
	if len(w.callsOpn) == 0 {
		return // closing the root after a hole: DevTools has no call for it either
	}
	c := w.callsOpn[len(w.callsOpn)-1]
	w.callsOpn = w.callsOpn[:len(w.callsOpn)-1]
	if w.counting {
		return
	}
	w.dur[c] = d * 1000
	w.closed[c] = true
	if len(w.callsOpn) > 0 {
		w.parent[c] = w.callsOpn[len(w.callsOpn)-1]
	}
}

// record ends a counting walk: the next run records as many calls as this one counted, in
// columns of that size, from the same starting state.
func (w *walker) record() {
	n := w.calls
	w.node = make([]int32, 0, n)
	w.ts = make([]float64, 0, n)
	w.dur = make([]float64, 0, n)
	w.sample = make([]int32, 0, n)
	w.depth = make([]int32, 0, n)
	w.parent = make([]int32, 0, n)
	w.closed = make([]bool, 0, n)
	w.root = make([]bool, 0, n)
	w.counting, w.calls = false, 0
}

// run walks the samples, from the state a walker starts in whatever a previous run left.
func (w *walker) run() {
	w.prevID, w.gcParent, w.top = w.p.RootNode, none, 0
	w.callsOpn, w.pending = w.callsOpn[:0], w.pending[:0]
	p := w.p
	n := len(p.Samples)
	if n == 0 || len(p.Timestamps) < n {
		return
	}
	ms := func(i int) float64 { return p.Timestamps[i] / 1000 }
	// DevTools starts at the first timestamp at or after 0 (a lower bound over the sorted times).
	lo, hi := 0, len(p.Timestamps)
	for lo < hi {
		mid := (lo + hi) / 2
		if ms(mid) < 0 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	gc := p.GCNode
	node := none
	si := lo
	for ; si < n; si++ {
		if si&1023 == 1023 && w.ctx.Err() != nil || w.limit.over {
			return
		}
		t := ms(si)
		id := p.Samples[si]
		if !w.valid(id) {
			// A hole (a node id the profile does not have). DevTools loses its previous node
			// there and skips every later sample: one bad id empties the chart. We keep the
			// valid samples and show the hole as a gap, as if the sample were at the root; the
			// load counts the holes in its warnings.
			id = w.holeNode()
		}
		if id == w.prevID {
			continue
		}
		node = id
		prev := w.prevID
		if !w.valid(prev) {
			// After a hole DevTools has lost its previous node and skips every later sample.
			continue
		}
		if gc >= 0 && node == gc {
			w.gcParent = prev
			w.open(p.NodeDepth[prev]+1, gc, si, t)
			w.prevID = id
			continue
		}
		if gc >= 0 && prev == gc && w.gcParent != none {
			w.close(t)
			prev = w.gcParent
			w.prevID = prev
			w.gcParent = none
		}
		w.pending = w.pending[:0]
		// The model's parent links and depths agree, so these walks end at the common
		// ancestor; the budget only stops a malformed model from looping.
		budget := 2*len(p.NodeID) + 4
		for node != none && p.NodeDepth[node] > p.NodeDepth[prev] && budget > 0 {
			budget--
			w.pending = append(w.pending, node)
			node = w.parentOf(node)
		}
		for prev != none && prev != node && budget > 0 {
			budget--
			w.close(t)
			if node != none && p.NodeDepth[node] == p.NodeDepth[prev] {
				w.pending = append(w.pending, node)
				node = w.parentOf(node)
			}
			prev = w.parentOf(prev)
		}
		for len(w.pending) > 0 {
			cur := w.pending[len(w.pending)-1]
			w.pending = w.pending[:len(w.pending)-1]
			node = cur
			w.open(p.NodeDepth[cur], cur, si, t)
		}
		w.prevID = id
	}

	// Close what is still open at the extrapolated end (the profile's end time when that is
	// missing, as DevTools' `|| profileEndTime` does for 0 and NaN).
	end := math.NaN()
	if si < len(p.Timestamps) {
		end = ms(si)
	}
	if end == 0 || math.IsNaN(end) {
		end = p.EndTime / 1000
	}
	if node != none && w.gcParent != none && w.prevID == gc && gc >= 0 {
		w.close(end)
		w.prevID = w.gcParent
	}
	budget := len(p.NodeID)
	for v := w.prevID; w.valid(v) && w.valid(p.NodeParent[v]) && budget > 0; v = p.NodeParent[v] {
		budget--
		w.close(end)
	}
}

// holeNode is the node a hole stands for: the root, or none when the model has no root.
func (w *walker) holeNode() int32 {
	if r := w.p.RootNode; w.valid(r) {
		return r
	}
	return none
}

func (w *walker) parentOf(n int32) int32 {
	if pa := w.p.NodeParent[n]; w.valid(pa) {
		return pa
	}
	return none
}

// track keeps the calls DevTools' tree reaches: the roots, and closed calls whose parent is kept.
func (w *walker) track(tr *core.Trace, prof int32) core.Track {
	n := len(w.node)
	t := core.Track{Thread: w.p.Thread, Profile: prof}
	if n == 0 {
		return t
	}
	first := math.Inf(1)
	for _, ts := range w.ts {
		first = min(first, ts)
	}
	t.Start = core.NewTimes(first, 0)
	t.Start.Off = make([]uint32, 0, n)
	t.Dur = core.NewTimes(0, 0)
	t.Dur.Off = make([]uint32, 0, n)
	t.Depth = make([]uint16, 0, n)
	t.Name = make([]core.StrID, 0, n)
	// The calls' own columns become the track's, compacted in place: a kept call moves to an
	// index no later than its own, after the loop has read it.
	t.Parent = w.parent[:0]
	t.Ref = w.sample[:0]
	t.Node = w.node[:0]
	t.NodeFrame = slices.Clip(w.p.NodeFrame)
	at := make([]int32, n) // call -> track index, -1 when left out
	for c := 0; c < n; c++ {
		at[c] = -1
		parent := int32(-1)
		if !w.root[c] {
			pc := w.parent[c]
			if !w.closed[c] || pc < 0 || at[pc] < 0 {
				t.NotInTree++
				continue
			}
			parent = at[pc]
		}
		at[c] = int32(t.Len())
		d := max(min(int(w.depth[c]), math.MaxUint16), 0)
		t.MaxDepth = max(t.MaxDepth, d)
		node, sample := w.node[c], w.sample[c]
		t.Start.Append(w.ts[c])
		t.Dur.Append(w.dur[c])
		t.Depth = append(t.Depth, uint16(d))
		t.Name = append(t.Name, frameName(tr, w.p.NodeFrame[node]))
		t.Parent = append(t.Parent, parent)
		t.Ref = append(t.Ref, sample)
		t.Node = append(t.Node, node)
	}
	return t
}
