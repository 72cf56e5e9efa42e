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
	w := walker{p: p, ctx: ctx, counting: true, first: math.Inf(1)}
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

	// first is the earliest start of a call, in µs, found by the counting walk: the base of the
	// start column the recording walk fills.
	first float64

	// Calls in the order they open, which is the tree's pre-order. Start and duration are kept
	// as the track keeps them (32-bit offsets unless a value needs more), and so are depths, so
	// that the track takes the columns over instead of holding its own beside them: on a
	// profile of 8.8 M calls the walk's float64 times and int32 depths put 52 bytes a call
	// at the peak, 28 now.
	node     []int32
	start    core.Times
	dur      core.Times
	sample   []int32
	depth    []uint16
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
	if w.counting {
		w.first = min(w.first, tMs*1000)
	} else {
		w.node[c] = node
		w.start.Set(int(c), tMs*1000)
		w.sample[c] = int32(sample)
		w.depth[c] = uint16(max(min(depth, math.MaxUint16), 0))
		w.root[c] = len(w.callsOpn) == 1
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
	w.dur.Set(int(c), d*1000)
	w.closed[c] = true
	if len(w.callsOpn) > 0 {
		w.parent[c] = w.callsOpn[len(w.callsOpn)-1]
	}
}

// record ends a counting walk: the next run records as many calls as this one counted, in
// columns of that size, from the same starting state.
func (w *walker) record() {
	n := w.calls
	w.node = make([]int32, n)
	w.start = core.NewTimes(w.first, n)
	w.dur = core.NewTimes(0, n)
	w.sample = make([]int32, n)
	w.depth = make([]uint16, n)
	w.parent = make([]int32, n)
	w.closed = make([]bool, n)
	w.root = make([]bool, n)
	if n >= bigJob {
		adviseHuge(w.node)
		adviseHuge(w.start.Off)
		adviseHuge(w.dur.Off)
		adviseHuge(w.sample)
		adviseHuge(w.depth)
		adviseHuge(w.closed)
		adviseHuge(w.root)
		adviseHuge(w.parent)
	}
	for i := range w.parent {
		w.parent[i] = -1
	}
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
// The calls' own columns become the track's, compacted in place: a kept call moves to an index
// no later than its own, after the loop has read it.
func (w *walker) track(tr *core.Trace, prof int32) core.Track {
	n := len(w.node)
	t := core.Track{Thread: w.p.Thread, Profile: prof}
	if n == 0 {
		return t
	}
	t.Start = w.start
	t.Dur = w.dur
	t.Depth = w.depth
	t.Parent = w.parent
	t.Ref = w.sample
	t.Node = w.node
	t.Name = make([]core.StrID, n)
	if n >= bigJob {
		adviseHuge(t.Name)
	}
	t.NodeFrame = slices.Clip(w.p.NodeFrame)
	// at maps a call to its track index, -1 when left out; until a call is left out the two
	// are the same, so it is only made at the first one.
	var at []int32
	kept := 0
	for c := 0; c < n; c++ {
		parent := int32(-1)
		if !w.root[c] {
			pc := w.parent[c]
			if pc >= 0 && at != nil {
				pc = at[pc]
			}
			if !w.closed[c] || pc < 0 {
				if at == nil {
					at = make([]int32, n)
					for i := range c {
						at[i] = int32(i)
					}
				}
				at[c] = -1
				t.NotInTree++
				continue
			}
			parent = pc
		}
		if at != nil {
			at[c] = int32(kept)
		}
		d := w.depth[c]
		t.MaxDepth = max(t.MaxDepth, int(d))
		node := w.node[c]
		t.Name[kept] = frameName(tr, w.p.NodeFrame[node])
		t.Parent[kept] = parent
		if kept != c {
			t.Start.Set(kept, t.Start.At(c))
			t.Dur.Set(kept, t.Dur.At(c))
			t.Depth[kept] = d
			t.Ref[kept] = w.sample[c]
			t.Node[kept] = node
		}
		kept++
	}
	t.Start.Truncate(kept)
	t.Dur.Truncate(kept)
	t.Depth = t.Depth[:kept]
	t.Name = t.Name[:kept]
	t.Parent = t.Parent[:kept]
	t.Ref = t.Ref[:kept]
	t.Node = t.Node[:kept]
	return t
}
