package integrate

import (
	"context"
	"math"
	"slices"

	"flamedesk/core"
	"flamedesk/internal/background"
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
// The track is Compact, as a trace's is: a call's start is its sample's (SampleStart), its name
// its node's, and its parent follows from the depths except where ParentFar lists it. Such a
// profile makes one to thirty calls a sample from 8 to 10 bytes of JSON a sample, so the track
// is most of what the load holds: a call costs about 9 bytes this way, 27 as full columns.
//
// over is true (and the track empty) when the calls would pass the build's entry budget.
func profileTrack(ctx context.Context, tr *core.Trace, p *core.ProfileModel, prof int32, limit *entryBudget) (t core.Track, over bool) {
	w := walker{tr: tr, p: p, ctx: ctx, counting: true}
	w.limit.from = limit
	// The samples' start times depend on the model alone: they are worked out on another core
	// while this one walks, where they were a third of the track's time after the walks (5 M
	// samples: a division or two per sample, each pass). Without a second core, or for a small
	// profile, finish works them out itself.
	if background.Workers() > 1 && len(p.Samples) >= parallelTimes {
		times := make(chan sampleTimes, 1)
		go func() {
			background.Lower()
			times <- profileSampleTimes(p)
		}()
		w.times = times
	}
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
	w.finish()
	return w.t, false
}

// none stands for JS's undefined/null node.
const none int32 = -1

type walker struct {
	tr    *core.Trace
	p     *core.ProfileModel
	ctx   context.Context
	limit grant

	// counting: the walk only counts its calls (calls) and those whose parent the depths do not
	// give (far), and records none of them.
	counting bool
	calls    int
	far      int

	// The calls in the order they open, which is the tree's pre-order, one per row of t's compact
	// columns. farRow and farTo list the calls whose parent is not the one the depths give
	// (core.Track.ParentAt): the rows a compact track lists in ParentFar, and odd ones, which
	// only a malformed node tree makes and the compact columns cannot hold: a call at depth 0
	// under another, a root deeper than 0, a call whose parent is not the row the depths point
	// to (odd says there is one).
	t             core.Track
	farRow, farTo []int32
	odd           bool
	closed        []uint64 // a bit per call, set once it closed
	callsOpn      []int32  // calls opened and not yet closed
	lastDepth     uint16   // the depth of the call opened last

	// The walk's own stack of start times and children's durations, in ms. DevTools lets its
	// stack pointer reach -1 (closing past the root after a hole), so slots are offset by 2.
	top        int
	startMs    []float64
	childDurMs []float64
	pending    []int32

	prevID   int32 // the previous sample's node; none once a hole was met
	gcParent int32 // the node an open GC frame sits on, or none

	// times brings the samples' times, worked out beside the walks (profileSampleTimes).
	times <-chan sampleTimes
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

// impliedParent is the parent a compact track gives row c at depth d when the row before is at
// depth before: none at depth 0, the row before when that is one level up, else far (the row is
// listed in ParentFar).
func impliedParent(c int32, d, before uint16) (parent int32, far bool) {
	switch {
	case d == 0:
		return -1, false
	case c > 0 && before+1 == d:
		return c - 1, false
	}
	return -1, true
}

// noteParent records call c's parent where the depths do not give it.
func (w *walker) noteParent(c int32, d uint16, parent int32) {
	implied, far := impliedParent(c, d, w.lastDepth)
	w.lastDepth = d
	if !far && parent == implied {
		return
	}
	if w.counting {
		w.far++
		return
	}
	w.odd = w.odd || !far || parent < 0
	w.farRow = append(w.farRow, c)
	w.farTo = append(w.farTo, parent)
}

func (w *walker) open(depth, node int32, sample int, tMs float64) {
	if !w.limit.allow(w.calls + 1) {
		return // the run stops at its next sample
	}
	c := int32(w.calls)
	w.calls++
	parent := none
	if len(w.callsOpn) > 0 {
		parent = w.callsOpn[len(w.callsOpn)-1]
	}
	w.callsOpn = append(w.callsOpn, c)
	d := uint16(max(min(depth, math.MaxUint16), 0))
	w.noteParent(c, d, parent)
	if !w.counting {
		t := &w.t
		t.Depth[c] = d
		t.NodePlus1.Put(int(c), uint64(node)+1)
		t.Refs.Put(int(c), uint64(sample))
		t.EndRefs.Put(int(c), uint64(sample)) // a call never closed lasts 0
	}
	w.top++
	s := w.slot(w.top)
	w.startMs[s] = tMs
	w.childDurMs[s] = 0
}

// close ends the innermost open frame at tMs, the time of sample endRef (the number of samples
// for the profile's end), and hands its duration to the frame below.
func (w *walker) close(endRef int, tMs float64) {
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
	w.t.EndRefs.Set(int(c), uint64(endRef))
	w.closed[c>>6] |= 1 << (c & 63)
}

func (w *walker) isClosed(c int) bool { return w.closed[c>>6]&(1<<(c&63)) != 0 }

// record ends a counting walk: the next run writes as many calls as this one counted into the
// track's columns, made that long, from the same starting state.
func (w *walker) record(prof int32) {
	n, far := w.calls, w.far
	w.t = core.Track{Thread: w.p.Thread, Profile: prof, Compact: true}
	w.counting, w.calls, w.far, w.lastDepth = false, 0, 0, 0
	if n == 0 {
		return
	}
	t := &w.t
	t.Depth = make([]uint16, n)
	t.NodePlus1 = core.NewPacked(n, uint64(len(w.p.NodeFrame)))
	t.Refs = core.NewPacked(n, uint64(len(w.p.Samples)))
	t.EndRefs = core.NewPacked(n, uint64(len(w.p.Samples)))
	t.NodeFrame = slices.Clip(w.p.NodeFrame)
	w.farRow, w.farTo = make([]int32, 0, far), make([]int32, 0, far)
	w.closed = make([]uint64, (n+63)/64)
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
		if si&1023 == 1023 {
			background.Yield()
			if w.ctx.Err() != nil {
				return
			}
		}
		if w.limit.over {
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
			w.close(si, t)
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
			w.close(si, t)
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
	w.t.EndMs = end
	if node != none && w.gcParent != none && w.prevID == gc && gc >= 0 {
		w.close(n, end)
		w.prevID = w.gcParent
	}
	budget := len(p.NodeID)
	for v := w.prevID; w.valid(v) && w.valid(p.NodeParent[v]) && budget > 0; v = p.NodeParent[v] {
		budget--
		w.close(n, end)
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

// parents calls visit(c, parent) for every row c of t in order, with its parent as the depths
// and the far list (farRow, farTo) give it, reading Depth[c-1] at row c: a caller may rewrite
// the rows before c as it goes.
func parents(t *core.Track, farRow, farTo []int32, visit func(c int, parent int32)) {
	k := 0
	for c := range t.Len() {
		var before uint16
		if c > 0 {
			before = t.Depth[c-1]
		}
		parent, _ := impliedParent(int32(c), t.Depth[c], before)
		if k < len(farRow) && farRow[k] == int32(c) {
			parent = farTo[k]
			k++
		}
		visit(c, parent)
	}
}

// keepTree keeps the calls DevTools' tree reaches: the roots, and closed calls whose parent is
// kept. A whole walk keeps every call, and the columns stay as they are; otherwise they are
// compacted in place (a kept call moves to a row no later than its own) and the far list is
// made anew for the rows' new places.
func (w *walker) keepTree() {
	t := &w.t
	n := t.Len()
	all := true
	parents(t, w.farRow, w.farTo, func(c int, parent int32) {
		all = all && (parent < 0 || w.isClosed(c))
	})
	if !all {
		at := make([]int32, n) // call -> row, -1 when left out
		farRow, farTo := w.farRow, w.farTo
		w.farRow, w.farTo, w.odd, w.lastDepth = nil, nil, false, 0
		k := int32(0)
		parents(t, farRow, farTo, func(c int, parent int32) {
			at[c] = -1
			if parent >= 0 && (!w.isClosed(c) || at[parent] < 0) {
				t.NotInTree++
				return
			}
			at[c] = k
			if parent >= 0 {
				parent = at[parent]
			}
			t.EndRefs.Set(int(k), t.EndRefs.At(c))
			t.Depth[k] = t.Depth[c]
			t.NodePlus1.Set(int(k), t.NodePlus1.At(c))
			t.Refs.Set(int(k), t.Refs.At(c))
			w.noteParent(k, t.Depth[k], parent)
			k++
		})
		t.EndRefs.Truncate(int(k))
		t.Depth = t.Depth[:k]
		t.NodePlus1.Truncate(int(k))
		t.Refs.Truncate(int(k))
	}
	for _, d := range t.Depth {
		t.MaxDepth = max(t.MaxDepth, int(d))
	}
}

// finish gives the track the columns a compact track reads its starts and names from, and its
// far parents; or, when a malformed node tree gave a call a parent the compact columns cannot
// hold, writes it out in full columns instead.
func (w *walker) finish() {
	t := &w.t
	if t.Len() == 0 {
		w.t = core.Track{Thread: t.Thread, Profile: t.Profile, NotInTree: t.NotInTree}
		return
	}
	st := w.sampleTimes()
	t.Start = core.Times{Base: st.starts.Base}
	t.SampleStart = st.starts
	if !st.endsFromStarts {
		w.writeDurations()
	}
	if w.odd {
		w.expand()
		return
	}
	t.ParentFar, t.ParentFarTo = slices.Clip(w.farRow), slices.Clip(w.farTo)
	t.NodeName = make([]core.StrID, len(t.NodeFrame))
	for n, f := range t.NodeFrame {
		t.NodeName[n] = frameName(w.tr, f)
	}
}

// sampleTimes is what a bare profile's track takes from its samples' times: where the calls of
// each sample start (sampleStarts), and whether every sample's time in ms, as the walk reads it,
// comes back from those (core.Track.EndRefs): whole µs within the offsets' range, which is every
// sample of most profiles. Otherwise the durations are written out (writeDurations).
type sampleTimes struct {
	starts         core.Times
	endsFromStarts bool
}

// parallelTimes is the number of samples from which a profile's sampleTimes are worked out beside
// its walks. A variable so that tests can take the other path.
var parallelTimes = 1 << 16

// sampleTimes is the samples' times that profileTrack set to be worked out beside the walks, or
// else those worked out now.
func (w *walker) sampleTimes() sampleTimes {
	if w.times == nil {
		return profileSampleTimes(w.p)
	}
	return <-w.times
}

func profileSampleTimes(p *core.ProfileModel) sampleTimes {
	st := sampleTimes{starts: sampleStarts(p)}
	if st.starts.IsWide() || st.starts.Len() != len(p.Samples) {
		return st
	}
	t := core.Track{SampleStart: st.starts}
	for r := range st.starts.Len() {
		if math.Float64bits(t.SampleMs(r)) != math.Float64bits(p.Timestamps[r]/1000) {
			return st
		}
		background.YieldEvery(r)
	}
	st.endsFromStarts = true
	return st
}

// writeDurations turns EndRefs into the Dur column, for a profile whose sample times SampleStart
// cannot give back.
func (w *walker) writeDurations() {
	t, p := &w.t, w.p
	ms := func(r int) float64 {
		if r >= len(p.Samples) {
			return t.EndMs
		}
		return p.Timestamps[r] / 1000
	}
	n := t.Len()
	t.Dur = core.NewTimes(0, n)
	for i := range n {
		t.Dur.Set(i, (ms(int(t.EndRefs.At(i)))-ms(int(t.Refs.At(i))))*1000)
	}
	t.EndRefs, t.EndMs = core.Packed{}, 0
}

// expand turns the compact rows into full columns: start, name, parent, ref and node per row.
func (w *walker) expand() {
	t := &w.t
	n := t.Len()
	if t.EndRefs.N > 0 {
		w.writeDurations()
	}
	starts := t.SampleStart
	first := math.Inf(1)
	for i := range n {
		first = min(first, starts.At(int(t.Refs.At(i))))
	}
	t.Start = core.NewTimes(first, n)
	t.Name = make([]core.StrID, n)
	t.Parent = make([]int32, n)
	t.Ref = make([]int32, n)
	t.Node = make([]int32, n)
	parents(t, w.farRow, w.farTo, func(c int, parent int32) {
		ref, node := t.Refs.At(c), int32(t.NodePlus1.At(c))-1
		t.Start.Set(c, starts.At(int(ref)))
		t.Name[c] = frameName(w.tr, t.NodeFrame[node])
		t.Parent[c], t.Ref[c], t.Node[c] = parent, int32(ref), node
	})
	t.Compact = false
	t.NodePlus1, t.Refs, t.SampleStart = core.Packed{}, core.Packed{}, core.Times{}
}
