package load

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"flamedesk/core"
	"flamedesk/internal/background"
)

// BuildModel builds DevTools' CPU profile model (CPUProfileDataModel) of one assembled profile.
// Its warnings are dropped: the load that made tr has reported them.
func BuildModel(tr *core.Trace, a *Assembled) core.ProfileModel {
	var w core.Warnings
	own := *a // buildModel takes over arrays of a; the caller keeps its own
	own.TimeDeltas, own.Lines, own.Columns = slices.Clone(a.TimeDeltas), slices.Clone(a.Lines), slices.Clone(a.Columns)
	m, _ := buildModel(context.Background(), tr, &own, &w, nil)
	return m
}

// nodeIndex maps node ids to indexes: a slice when the ids are small and dense (V8 numbers nodes
// from 1), a map otherwise.
type nodeIndex struct {
	dense  []int32
	sparse map[int64]int32
}

func newNodeIndex(ids func(yield func(int64) bool), n int) nodeIndex {
	maxID := int64(-1)
	dense := true
	for id := range ids {
		if id < 0 || id > int64(4*n+1024) {
			dense = false
			break
		}
		maxID = max(maxID, id)
	}
	if dense {
		d := make([]int32, maxID+1)
		for i := range d {
			d[i] = -1
		}
		return nodeIndex{dense: d}
	}
	return nodeIndex{sparse: make(map[int64]int32, n)}
}

func (x *nodeIndex) set(id int64, v int32) {
	if x.sparse != nil {
		x.sparse[id] = v
		return
	}
	x.dense[id] = v
}

func (x *nodeIndex) get(id int64) int32 {
	if x.sparse != nil {
		if v, ok := x.sparse[id]; ok {
			return v
		}
		return -1
	}
	if id >= 0 && id < int64(len(x.dense)) {
		return x.dense[id]
	}
	return -1
}

// buildModel follows CPUProfileDataModel step by step; the comments name the quirks it keeps.
func buildModel(ctx context.Context, tr *core.Trace, a *Assembled, w *core.Warnings, mem *budget) (core.ProfileModel, error) {
	c := &tr.Chunks
	m := core.ProfileModel{
		Pid: a.Pid, Tid: a.Tid, Thread: a.Thread, ProfileID: a.ID,
		ProgramNode: -1, IdleNode: -1, GCNode: -1,
	}
	nodes := a.Nodes
	n := len(nodes)
	if n == 0 {
		return m, nil
	}
	nodeIDs := func(yield func(int64) bool) {
		for _, ni := range nodes {
			if !yield(c.NodeID[ni]) {
				return
			}
		}
	}

	// Raw nodes by id; a repeated id resolves to its last node, as a JS Map does.
	byID := newNodeIndex(nodeIDs, n)
	for j, ni := range nodes {
		if id := c.NodeID[ni]; id != core.NoNode {
			byID.set(id, int32(j))
		}
		background.YieldEvery(j)
	}

	// Children: a profile whose first node has a children array is in the children form; else
	// the children are rebuilt from the parent links, in node order, after any children a node
	// already lists. A parent that is not a known node leaves the node out of the tree.
	var extraOff []int32 // CSR offsets into extraKids by raw position
	var extraKids []int64
	if c.NodeFlags[nodes[0]]&core.NodeHasChildren == 0 {
		count := makeSlice[int32](mem, n+1, n+1)
		for j := 1; j < n; j++ {
			background.YieldEvery(j)
			ni := nodes[j]
			if c.NodeFlags[ni]&core.NodeHasParent == 0 {
				continue
			}
			if p := byID.get(c.NodeParent[ni]); p >= 0 {
				count[p+1]++
			}
		}
		for j := 1; j <= n; j++ {
			count[j] += count[j-1]
		}
		extraOff = count
		extraKids = makeSlice[int64](mem, int(count[n]), int(count[n]))
		fill := clone(mem, count[:n])
		for j := 1; j < n; j++ {
			background.YieldEvery(j)
			ni := nodes[j]
			if c.NodeFlags[ni]&core.NodeHasParent == 0 {
				continue
			}
			if p := byID.get(c.NodeParent[ni]); p >= 0 {
				extraKids[fill[p]] = c.NodeID[ni]
				fill[p]++
			}
		}
	}
	kids := func(j int32, yield func(int64)) {
		for _, id := range c.ChildrenOf(int(nodes[j])) {
			yield(id)
		}
		if extraOff != nil {
			for _, id := range extraKids[extraOff[j]:extraOff[j+1]] {
				yield(id)
			}
		}
	}

	// Depth-first walk with an explicit stack, popping the last child first: the model's node
	// order (and the order of the root's children, which decides the meta nodes) is DevTools'.
	// Each raw node is visited once; DevTools would loop forever on a cycle of children.
	m.NodeID = makeSlice[int64](mem, 0, n)
	m.NodeParent = makeSlice[int32](mem, 0, n)
	m.NodeDepth = makeSlice[int32](mem, 0, n)
	m.NodeFrame = makeSlice[core.FrameID](mem, 0, n)
	visited := makeSlice[bool](mem, n, n)
	modelOf := newNodeIndex(nodeIDs, n)
	add := func(j, parent int32) int32 {
		mi := int32(len(m.NodeID))
		ni := nodes[j]
		depth := int32(-1)
		if parent >= 0 {
			depth = m.NodeDepth[parent] + 1
		}
		m.NodeID = append(m.NodeID, c.NodeID[ni])
		m.NodeParent = append(m.NodeParent, parent)
		m.NodeDepth = append(m.NodeDepth, depth)
		m.NodeFrame = append(m.NodeFrame, c.NodeFrame[ni])
		if t := c.TicksOf(int(ni)); t.Len > 0 {
			m.NodeTicks = setSpan(mem, m.NodeTicks, int(mi), t)
		}
		if id := c.NodeID[ni]; id != core.NoNode {
			modelOf.set(id, mi)
		}
		visited[j] = true
		return mi
	}
	add(0, -1)
	type item struct{ raw, parent int32 }
	var stack []item
	push := func(j, parent int32) {
		kids(j, func(id int64) { stack = append(stack, item{byID.get(id), parent}) })
	}
	push(0, 0)
	revisits := 0
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.raw < 0 {
			continue
		}
		if visited[it.raw] {
			revisits++
			continue
		}
		mi := add(it.raw, it.parent)
		push(it.raw, mi)
		if len(m.NodeID)&0x3fff == 0 {
			background.Yield()
			if err := ctx.Err(); err != nil {
				return m, err
			}
		}
	}
	if revisits > 0 {
		w.Add(fmt.Sprintf("profile %s (pid %d): %d links to nodes already in the tree (cycles or shared children) ignored",
			tr.Strings.Get(a.ID), a.Pid, revisits), 1)
	}
	if dropped := n - len(m.NodeID); dropped > 0 {
		w.Add(fmt.Sprintf("profile %s (pid %d): %d nodes not connected to the root left out, as DevTools does",
			tr.Strings.Get(a.ID), a.Pid, dropped), 1)
	}

	if err := modelSamples(ctx, tr, a, &m, &modelOf, w, mem); err != nil {
		return m, err
	}
	if math.Abs(m.StartTime) > maxTime || math.Abs(m.EndTime) > maxTime {
		w.Add(fmt.Sprintf("profile %s (pid %d): start or end time beyond ±%.0f µs (2^53) clamped to it",
			tr.Strings.Get(a.ID), a.Pid, float64(maxTime)), 1)
		m.StartTime = min(max(m.StartTime, -maxTime), maxTime)
		m.EndTime = min(max(m.EndTime, -maxTime), maxTime)
	}
	findMetaNodes(tr, &m)
	fixMissingSamples(&m)

	if len(a.TraceIDs) > 0 {
		m.TraceIDNode = make(map[int64]int32, len(a.TraceIDs))
		for tid, id := range a.TraceIDs {
			m.TraceIDNode[tid] = modelOf.get(id)
		}
	}
	return m, nil
}

// modelSamples maps the samples to model nodes (-1 for an unknown id), computes their timestamps,
// stable-sorts both by time, and appends the extrapolated end timestamp.
func modelSamples(ctx context.Context, tr *core.Trace, a *Assembled, m *core.ProfileModel, modelOf *nodeIndex, w *core.Warnings, mem *budget) error {
	startMs, endMs := a.StartTime/1000, a.EndTime/1000
	if a.Legacy {
		startMs, endMs = a.StartTime*1000, a.EndTime*1000 // seconds
	}
	m.StartTime, m.EndTime = startMs*1000, endMs*1000
	nIDs := a.sizes.samples
	if !a.HasSamples || nIDs == 0 {
		m.Timestamps = []float64{m.EndTime}
		return nil
	}

	// Timestamps in µs: cumulative deltas from the start, or absolute ones.
	var ts []float64
	explicitEnd := math.NaN()
	switch {
	case a.HasTimeDeltas && !a.Legacy:
		if cap(a.TimeDeltas) > len(a.TimeDeltas) {
			// The deltas become the timestamps in place (assembly left room for the end).
			ts, a.TimeDeltas = a.TimeDeltas, nil
		} else {
			ts = makeSlice[float64](mem, len(a.TimeDeltas), len(a.TimeDeltas)+1)
			background.Copy(ts, a.TimeDeltas)
		}
		t := a.StartTime
		for i, d := range ts {
			t += d
			ts[i] = t
			background.YieldEvery(i)
		}
	case a.HasTimestamps:
		ts = makeSlice[float64](mem, len(a.Timestamps), len(a.Timestamps)+1)
		background.Copy(ts, a.Timestamps)
		if len(ts) == nIDs+1 {
			// The legacy format stores one more timestamp than samples: the end of the last
			// sample. DevTools pairs it with a sample that does not exist and extrapolates past
			// it; we take it as the end.
			explicitEnd = ts[len(ts)-1] / 1000
			ts = ts[:len(ts)-1]
		}
	case a.Legacy:
		// No timestamps at all: DevTools spreads the samples evenly over the profile.
		w.Add(fmt.Sprintf("profile %s (pid %d) has no timestamps: its %d samples are spread evenly from startTime to endTime",
			tr.Strings.Get(a.ID), a.Pid, nIDs), 1)
		ts = makeSlice[float64](mem, nIDs, nIDs+1)
		step := (endMs - startMs) / float64(nIDs)
		for i := range ts {
			ts[i] = (startMs + float64(i)*step) * 1000
		}
	}
	far := 0
	for i, t := range ts {
		if math.Abs(t) > maxTime {
			ts[i] = math.Copysign(maxTime, t)
			far++
		}
		background.YieldEvery(i)
	}
	if far > 0 {
		w.Add(fmt.Sprintf("profile %s (pid %d): %d sample times beyond ±%.0f µs (2^53, where time deltas overflow) clamped to it",
			tr.Strings.Get(a.ID), a.Pid, far, float64(maxTime)), 1)
	}
	if nIDs != len(ts) {
		// Only the samples that have a timestamp count (DevTools sorts by the timestamps'
		// indexes); timestamps without a sample are holes.
		w.Add(fmt.Sprintf("profile %s (pid %d): %d samples but %d timestamps; the extra %s",
			tr.Strings.Get(a.ID), a.Pid, nIDs, len(ts), extraWhat(nIDs, len(ts))), 1)
	}
	ns := len(ts)
	samples := makeSlice[int32](mem, ns, ns)
	unknown, err := mapSampleIDs(ctx, &tr.Chunks, a, modelOf, samples)
	if err != nil {
		return err
	}

	if unknown > 0 {
		w.Add(fmt.Sprintf("profile %s (pid %d): %d samples whose node id is not a node of the profile, or of a node left out of the tree (shown as gaps)",
			tr.Strings.Get(a.ID), a.Pid, unknown), 1)
	}
	// Per-sample positions, where every sample has one (a trace's chunks carry them).
	var lines, cols positionColumn
	assembledLines := positionColumn{wide: a.Lines, narrow: a.lines16}
	assembledCols := positionColumn{wide: a.Columns, narrow: a.cols16}
	linesLen := assembledLines.len()
	if a.zeroLines {
		linesLen = a.sizes.lines
	}
	if linesLen == nIDs && linesLen > 0 {
		// The assembled arrays are taken over where they have the right length, the usual case.
		if a.zeroLines {
			m.SampleLinesZero = true
		} else {
			lines = assembledLines.resized(mem, ns)
		}
		if assembledCols.len() == nIDs {
			cols = assembledCols.resized(mem, ns)
		}
	}
	a.Lines, a.Columns, a.lines16, a.cols16 = nil, nil, nil, nil

	if !slices.IsSorted(ts) {
		mem.charge(int64(len(ts)) * 16) // the pairs stableSortByTime sorts
		stableSortByTime(samples, ts, sampleColumns{wide: [][]int32{lines.wide, cols.wide}, narrow: [][]uint16{lines.narrow, cols.narrow}})
	}
	m.SampleLine, m.SampleColumn = lines.final(), cols.final()

	if ns == 0 {
		m.Timestamps = []float64{m.EndTime}
		return nil
	}
	// DevTools holds timestamps in ms: converting there and back is not always exact, and the
	// ProfileCalls it makes carry the round-tripped values, so we keep those.
	for i, t := range ts {
		ts[i] = t / 1000
	}
	last := ts[ns-1]
	if last != last {
		last = 0 // timestamps.at(-1) || 0
	}
	var endT float64
	if explicitEnd == explicitEnd {
		endT = explicitEnd
	} else {
		endT = last + (last-ts[0])/float64(ns-1)
	}
	ts = append(ts, endT)
	if t0 := ts[0]; t0 != 0 && t0 == t0 {
		startMs = t0
	}
	if te := ts[ns]; te != 0 && te == te {
		endMs = te
	}
	for i, t := range ts {
		ts[i] = min(max(t*1000, -maxTime), maxTime) // the extrapolated end may pass the edge
	}
	m.Samples, m.Timestamps = samples, ts
	m.StartTime, m.EndTime = startMs*1000, endMs*1000
	return nil
}

// positionColumn is a profile's lines or columns while its model is built: in 2 bytes each
// (narrow) where fill found that they all fit, as the model keeps them (core.SamplePositions),
// else in 4 (wide); neither when the profile has none.
type positionColumn struct {
	wide   []int32
	narrow []uint16
}

func (p positionColumn) len() int { return max(len(p.wide), len(p.narrow)) }

// resized is p with n values: p itself when it has as many, else a copy cut or padded with zeros.
func (p positionColumn) resized(mem *budget, n int) positionColumn {
	switch {
	case p.len() == n:
		return p
	case p.narrow != nil:
		narrow := makeSlice[uint16](mem, n, n)
		background.Copy(narrow, p.narrow)
		return positionColumn{narrow: narrow}
	case p.wide != nil:
		wide := makeSlice[int32](mem, n, n)
		background.Copy(wide, p.wide)
		return positionColumn{wide: wide}
	}
	return p
}

// final is p as the model keeps it (fill chose its width).
func (p positionColumn) final() core.SamplePositions {
	return core.SamplePositions{Narrow: p.narrow, Wide: p.wide}
}

// samplePiece is how many sample ids mapSampleIDs reads from the chunks at a time; a variable so
// that tests can cut records into many pieces.
var samplePiece = uint32(1 << 16)

// mapSampleIDs sets samples[i] to the model node of the profile's sample id i, read from the
// chunks in pieces of samplePiece, -1 for an id that is no node's and for the samples past the
// last id, and counts the ids that are neither a node's nor NoNode (which the reader counted).
func mapSampleIDs(ctx context.Context, c *core.RawChunks, a *Assembled, modelOf *nodeIndex, samples []int32) (unknown int, err error) {
	k := 0
	var ids []int64
	for _, r := range a.sampleRecords {
		s := c.Samples[r]
		for off := uint32(0); off < s.Len && k < len(samples); off += samplePiece {
			ids = c.SampleIDs.AppendSpan(ids[:0], core.Span{Off: s.Off + off, Len: min(samplePiece, s.Len-off)})
			for _, id := range ids[:min(len(ids), len(samples)-k)] {
				node := modelOf.get(id)
				if node < 0 && id != core.NoNode {
					unknown++
				}
				samples[k] = node
				k++
			}
			background.Yield()
			if err := ctx.Err(); err != nil {
				return 0, err
			}
		}
	}
	for ; k < len(samples); k++ {
		samples[k] = -1
	}
	return unknown, nil
}

func extraWhat(samples, stamps int) string {
	if samples > stamps {
		return "samples are dropped"
	}
	return "timestamps are holes"
}

// stableSortByTime reorders samples and ts by time, keeping the file order of equal times; the
// extra columns (nil or as long as samples) are reordered with them. NaN times (hostile input
// only) go last.
//
// Samples out of order are usually few and near their place (a chunk's time deltas going back a
// little), so an insertion sort moves them in place first: it allocates nothing, where sorting
// pairs of time and index costs 16 bytes a sample and a copy of each column (a trace of millions
// of samples made that garbage for each of its profiles). It gives up after 4n moves, and the
// pairs finish the sort from where it stopped: the order it leaves keeps equal times in file
// order, which is all the pairs' tie-break by position needs.
func stableSortByTime(samples []int32, ts []float64, extra sampleColumns) {
	cols := sampleColumns{wide: [][]int32{samples}}
	for _, col := range extra.wide {
		if col != nil {
			cols.wide = append(cols.wide, col)
		}
	}
	for _, col := range extra.narrow {
		if col != nil {
			cols.narrow = append(cols.narrow, col)
		}
	}
	moves := 4 * len(ts)
	k := 1
	for ; k < len(ts); k++ {
		background.YieldEvery(k)
		t := ts[k]
		j := k
		for j > 0 && timeAfter(ts[j-1], t) {
			j--
		}
		if j == k {
			continue
		}
		if moves -= k - j; moves < 0 {
			break
		}
		rotateRight(ts[j : k+1])
		for _, col := range cols.wide {
			rotateRight(col[j : k+1])
		}
		for _, col := range cols.narrow {
			rotateRight(col[j : k+1])
		}
	}
	if k < len(ts) {
		sortByTimePairs(ts, cols)
	}
}

// timeAfter says whether a sample at time a sorts after one at b: NaN after every number.
func timeAfter(a, b float64) bool {
	if a != a {
		return b == b
	}
	return a > b
}

// rotateRight moves the last element of s to its front, the others one place up.
func rotateRight[T any](s []T) {
	last := s[len(s)-1]
	background.Copy(s[1:], s[:len(s)-1])
	s[0] = last
}

// sampleColumns are columns of samples that a sort moves with them; none is nil.
type sampleColumns struct {
	wide   [][]int32
	narrow [][]uint16
}

// sortByTimePairs sorts ts and cols (each as long as ts) by time and then by position, which
// keeps the present order of equal times.
func sortByTimePairs(ts []float64, cols sampleColumns) {
	type pair struct {
		t float64
		i int32
	}
	ps := make([]pair, len(ts))
	for i, t := range ts {
		ps[i] = pair{t, int32(i)}
		background.YieldEvery(i)
	}
	slices.SortFunc(ps, func(a, b pair) int {
		switch {
		case timeAfter(a.t, b.t):
			return 1
		case timeAfter(b.t, a.t):
			return -1
		}
		return cmp.Compare(a.i, b.i)
	})
	for k, p := range ps {
		ts[k] = p.t
		background.YieldEvery(k)
	}
	order := func(k int) int32 { return ps[k].i }
	for _, col := range cols.wide {
		permute(col, order)
	}
	for _, col := range cols.narrow {
		permute(col, order)
	}
}

// permute puts col[order(k)] at k, for each k.
func permute[T any](col []T, order func(k int) int32) {
	old := make([]T, len(col))
	background.Copy(old, col)
	for k := range col {
		col[k] = old[order(k)]
		background.YieldEvery(k)
	}
}

// findMetaNodes finds (garbage collector), (program) and (idle) among the root's children, in
// model order, by exact name; a later duplicate replaces an earlier one until all three are found.
func findMetaNodes(tr *core.Trace, m *core.ProfileModel) {
	gc, _ := tr.Strings.Lookup("(garbage collector)")
	program, _ := tr.Strings.Lookup("(program)")
	idle, _ := tr.Strings.Lookup("(idle)")
	for i := 1; i < len(m.NodeID); i++ {
		if m.GCNode >= 0 && m.ProgramNode >= 0 && m.IdleNode >= 0 {
			break
		}
		if m.NodeParent[i] != 0 {
			continue
		}
		switch tr.Frames[m.NodeFrame[i]].FunctionName {
		case 0:
		case gc:
			m.GCNode = int32(i)
		case program:
			m.ProgramNode = int32(i)
		case idle:
			m.IdleNode = int32(i)
		}
	}
}

// fixMissingSamples is DevTools' workaround for V8 failing to walk the stack: a lone (program)
// sample between two samples under the same top-level function takes the previous sample's node.
// The loop is DevTools' own, quirks included: after a hole it skips ahead without moving its
// previous/current pair, and it compares the replaced sample's original node as the next
// "previous".
func fixMissingSamples(m *core.ProfileModel) {
	s := m.Samples
	if m.ProgramNode < 0 || len(s) < 3 {
		return
	}
	// bottom[i]: the depth-0 ancestor of node i (the root for the root).
	bottom := make([]int32, len(m.NodeID))
	for i := range bottom {
		switch p := m.NodeParent[i]; {
		case p < 0:
			bottom[i] = int32(i)
		case m.NodeParent[p] < 0:
			bottom[i] = int32(i)
		default:
			bottom[i] = bottom[p]
		}
	}
	system := func(n int32) bool { return n == m.ProgramNode || n == m.GCNode || n == m.IdleNode }
	prev, cur := s[0], s[1]
	for i := 1; i < len(s)-1; i++ {
		next := s[i+1]
		if prev < 0 || next < 0 {
			continue
		}
		if cur == m.ProgramNode && !system(prev) && !system(next) && bottom[prev] == bottom[next] {
			s[i] = prev
		}
		prev, cur = cur, next
	}
}
