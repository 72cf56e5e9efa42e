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
	w := walker{tr: tr, p: p, ctx: ctx, counting: true, firstUs: math.Inf(1)}
	w.limit.from = limit
	// The walk runs twice: once to count the calls, then to write them straight into the track's
	// columns, made to measure. Grown by append instead, the columns of a large profile (1.4 M
	// calls) were copied at every doubling, each copy faulting in fresh pages while the
	// collector, which cannot stop a goroutine in the middle of a copy, spun waiting for it: 0.7 s
	// for a 46 MB profile.
	w.run()
	if w.limit.over || ctx.Err() != nil {
		return core.Track{Thread: p.Thread, Profile: prof}, w.limit.over
	}
	w.record(prof)
	w.run()
	if w.limit.over || ctx.Err() != nil {
		return core.Track{Thread: p.Thread, Profile: prof}, w.limit.over
	}
	w.keepTree()
	return w.t, false
}

// none stands for JS's undefined/null node.
const none int32 = -1

// A call's flags: it opened with no call open below it; it was closed.
const (
	callRoot uint8 = 1 << iota
	callClosed
)

type walker struct {
	tr    *core.Trace
	p     *core.ProfileModel
	ctx   context.Context
	limit grant

	// counting: the walk only counts its calls (calls) and finds the earliest start (firstUs),
	// and records none of them.
	counting bool
	calls    int
	firstUs  float64

	// The calls in the order they open, which is the tree's pre-order, one per index of t's
	// columns; t.Parent holds each one's parent call (-1 for none) until keepTree.
	t        core.Track
	flags    []uint8 // callRoot, callClosed
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
	if w.counting {
		w.firstUs = min(w.firstUs, tMs*1000)
	} else {
		t := &w.t
		t.Start.Set(int(c), tMs*1000)
		t.Depth[c] = uint16(max(min(depth, math.MaxUint16), 0))
		t.Name[c] = frameName(w.tr, w.p.NodeFrame[node])
		t.Parent[c] = -1
		t.Ref[c] = int32(sample)
		t.Node[c] = node
		if len(w.callsOpn) == 1 {
			w.flags[c] = callRoot
		}
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
	w.t.Dur.Set(int(c), d*1000)
	w.flags[c] |= callClosed
	if len(w.callsOpn) > 0 {
		w.t.Parent[c] = w.callsOpn[len(w.callsOpn)-1]
	}
}

// record ends a counting walk: the next run writes as many calls as this one counted into the
// track's columns, made that long, from the same starting state.
func (w *walker) record(prof int32) {
	n := w.calls
	w.t = core.Track{Thread: w.p.Thread, Profile: prof}
	w.counting, w.calls = false, 0
	if n == 0 {
		return
	}
	t := &w.t
	t.Start = core.NewTimes(w.firstUs, n)
	t.Dur = core.NewTimes(0, n)
	t.Depth = make([]uint16, n)
	t.Name = make([]core.StrID, n)
	t.Parent = make([]int32, n)
	t.Ref = make([]int32, n)
	t.Node = make([]int32, n)
	t.NodeFrame = slices.Clip(w.p.NodeFrame)
	w.flags = make([]uint8, n)
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

// keepTree keeps the calls DevTools' tree reaches: the roots, and closed calls whose parent is
// kept; and turns each kept call's parent call into its index in the track. A whole walk keeps
// every call, and the columns stay as they are; otherwise they are compacted in place (a kept
// call moves to an index no later than its own).
func (w *walker) keepTree() {
	t := &w.t
	n := t.Len()
	kept := func(c int, at []int32) bool {
		if w.flags[c]&callRoot != 0 {
			return true
		}
		pc := t.Parent[c]
		return w.flags[c]&callClosed != 0 && pc >= 0 && (at == nil || at[pc] >= 0)
	}
	all := true
	for c := range n {
		if !kept(c, nil) {
			all = false
			break
		}
	}
	if all {
		for _, d := range t.Depth {
			t.MaxDepth = max(t.MaxDepth, int(d))
		}
		return
	}
	at := make([]int32, n) // call -> track index, -1 when left out
	k := 0
	for c := range n {
		at[c] = -1
		if !kept(c, at) {
			t.NotInTree++
			continue
		}
		at[c] = int32(k)
		parent := int32(-1)
		if w.flags[c]&callRoot == 0 {
			parent = at[t.Parent[c]]
		}
		t.Start.Move(k, c)
		t.Dur.Move(k, c)
		t.Depth[k], t.Name[k], t.Parent[k], t.Ref[k], t.Node[k] = t.Depth[c], t.Name[c], parent, t.Ref[c], t.Node[c]
		t.MaxDepth = max(t.MaxDepth, int(t.Depth[k]))
		k++
	}
	t.Start.Truncate(k)
	t.Dur.Truncate(k)
	t.Depth, t.Name, t.Parent, t.Ref, t.Node = t.Depth[:k], t.Name[:k], t.Parent[:k], t.Ref[:k], t.Node[:k]
}
