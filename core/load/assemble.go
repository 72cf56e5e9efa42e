package load

import (
	"context"
	"fmt"
	"math"
	"unsafe"

	"flamedesk/core"
	"flamedesk/internal/background"
)

// Assembled is one profile as DevTools' SamplesHandler assembles it from the raw chunks, before
// the CPU profile model: its nodes in the order they were appended, its samples and time deltas
// concatenated across chunks. Assemble returns the chosen one per thread.
type Assembled struct {
	Pid, Tid   int64
	Thread     core.ThreadID
	ID         core.StrID // the profile id, e.g. "0x1"
	IDIsString bool
	Source     core.StrID // "Internal", "Inspector", "SelfProfiling" or ""
	// StartTime is the Profile event's ts (µs); EndTime is what SamplesHandler computes on the
	// first chunk: the start plus that chunk's deltas (a quirk: it is not the profile's end).
	StartTime, EndTime float64
	// Nodes indexes the node columns of Trace.Chunks.
	Nodes []int32
	// Samples are node ids, filled by Assemble only (see sampleRecords); HasSamples is false
	// when the profile has no samples array at all.
	Samples    []int64
	HasSamples bool
	// TimeDeltas are µs between samples, the first one from StartTime.
	TimeDeltas    []float64
	HasTimeDeltas bool
	// Timestamps are absolute sample times (µs) for profiles that have them instead of deltas:
	// the legacy .cpuprofile head form and JS Self-Profiling traces.
	Timestamps    []float64
	HasTimestamps bool
	// Legacy marks the head form (DevTools: profile.head), whose start and end are in seconds.
	Legacy         bool
	Lines, Columns []int32
	// TraceIDs maps a sample trace id to a node id (chunks' trace_ids merged, later wins).
	TraceIDs map[int64]int64

	// The per-sample arrays (Samples, TimeDeltas, Timestamps, Lines, Columns) are filled from the
	// raw chunks only when the profile's model is about to be built (fill), one profile at a
	// time: assembling every profile's first held them all at once, 24 bytes a sample beside the
	// chunks' own. Until then the assembly keeps which records make them and how long each is.
	whole   int32   // the CpuProfile record whose data the arrays start with, -1 when none
	chunks  []int32 // the ProfileChunk records appended after it, in order
	sizes   chunkSizes
	linesOn bool // Lines (Columns) is not nil: no CpuProfile record, or one that had lines
	colsOn  bool
	filled  bool
	// zeroLines (zeroCols) says that Lines (Columns) were left nil by fill although they are on:
	// no record had any, so they would be a zero per sample.
	zeroLines, zeroCols bool
	// sampleRecords are the records whose sample ids, in order, are the profile's (sizes.samples
	// of them). The model reads them from the chunks itself, mapping each to its node as it goes
	// (mapSampleIDs): copied out as int64s beside the model's own int32s, they were 12 of the 28
	// bytes a sample that made the peak of a trace of one long profile. Only Assemble copies them
	// into Samples (copyIDs).
	sampleRecords []int32
	copyIDs       bool
	// lines16 and cols16 hold the lines (columns) instead of Lines (Columns) where every one of
	// the profile's fits 2 bytes (core.SamplePositions), as the model keeps them; only the load's
	// fill makes them (not Assemble's).
	lines16, cols16 []uint16
}

// Assemble runs DevTools' chunk assembly over tr.Chunks and returns one profile per profiled
// thread, in the order DevTools lists them (by process in order of first appearance, then by
// thread). The load has already done this (its warnings are in tr.Warnings); this is for tests
// and tools that want the raw arrays, which the load does not keep.
func Assemble(tr *core.Trace) []Assembled {
	var w core.Warnings
	asm, _ := assemble(context.Background(), tr, &w, nil)
	for i := range asm {
		asm[i].copyIDs = true
		asm[i].fill(&tr.Chunks, nil, false)
	}
	return asm
}

type profileKey struct {
	pid   int64
	id    core.StrID
	isStr bool
	// Chrome 65/66 wrote id-less CpuProfile events, one per thread: each is its own profile.
	// (DevTools reads only the ph X form, which always has an id.)
	anonTid int64
	anon    bool
}

type preProfile struct {
	Assembled
	hasThread  bool
	mismatched int // chunks after which samples and deltas differed in count
	// ahead is what the ProfileChunks not yet appended will add: Nodes is sized for all of them
	// at its first growth, instead of doubling (which copies it over and over, and maps and
	// faults in twice its size). The per-sample arrays are sized once, by fill.
	ahead chunkSizes
}

// chunkSizes counts what ProfileChunks add to a profile's arrays.
type chunkSizes struct{ nodes, samples, deltas, lines, columns int }

// sizesOf is what appendChunk adds for record i at most.
func sizesOf(c *core.RawChunks, i int) chunkSizes {
	from, to := c.NodeRange(i)
	samples := int(c.Samples[i].Len)
	s := chunkSizes{nodes: to - from, samples: samples, deltas: int(c.TimeDeltas[i].Len), lines: samples, columns: samples}
	if c.HasLines[i] {
		s.lines = int(c.Lines[i].Len)
	}
	if c.HasColumns[i] {
		s.columns = int(c.Columns[i].Len)
	}
	return s
}

func (s *chunkSizes) add(o chunkSizes, sign int) {
	s.nodes += sign * o.nodes
	s.samples += sign * o.samples
	s.deltas += sign * o.deltas
	s.lines += sign * o.lines
	s.columns += sign * o.columns
}

// growFor makes room for n more elements of s: when it must move, room for ahead of them (the
// rest of the profile's chunks, n included), so that it moves once.
func growFor[T any](mem *budget, s []T, n, ahead int) []T {
	if cap(s)-len(s) >= n {
		return s
	}
	ns := makeSlice[T](mem, len(s), len(s)+max(n, ahead))
	background.Copy(ns, s)
	var zero T
	mem.release(int64(cap(s)) * int64(unsafe.Sizeof(zero)))
	return ns
}

func validSource(s string) bool {
	return s == "Internal" || s == "Inspector" || s == "SelfProfiling"
}

func assemble(ctx context.Context, tr *core.Trace, w *core.Warnings, mem *budget) ([]Assembled, error) {
	c := &tr.Chunks
	byKey := map[profileKey]*preProfile{}
	var pids []int64
	byPid := map[int64][]*preProfile{}
	keyOf := func(i int) profileKey {
		k := profileKey{pid: c.Pid[i], id: c.ID[i], isStr: c.IDIsString[i]}
		if c.Kind[i] == core.ChunkWhole && c.ID[i] == 0 {
			k.anon, k.anonTid = true, c.Tid[i]
		}
		return k
	}
	ahead := map[profileKey]chunkSizes{}
	for i := range c.Len() {
		if c.Kind[i] == core.ChunkData {
			k := keyOf(i)
			s := ahead[k]
			s.add(sizesOf(c, i), 1)
			ahead[k] = s
		}
	}
	get := func(i int) *preProfile {
		k := keyOf(i)
		if p, ok := byKey[k]; ok {
			return p
		}
		p := &preProfile{Assembled: Assembled{
			Pid: k.pid, ID: k.id, IDIsString: k.isStr,
			HasSamples: true, HasTimeDeltas: true,
			whole: -1, linesOn: true, colsOn: true,
		}, ahead: ahead[k]}
		byKey[k] = p
		if _, ok := byPid[k.pid]; !ok {
			pids = append(pids, k.pid)
		}
		byPid[k.pid] = append(byPid[k.pid], p)
		return p
	}
	for i := range c.Len() {
		if i&1023 == 0 {
			background.Yield()
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		p := get(i)
		switch c.Kind[i] {
		case core.ChunkProfile:
			// DevTools starts the profile at the event's ts, not at args.data.startTime (another clock).
			p.StartTime = c.Ts[i]
			if math.IsNaN(p.StartTime) {
				p.StartTime = 0
				if v := c.DataStartTime[i]; !math.IsNaN(v) {
					p.StartTime = v
				}
				w.Addf("Profile event %d has no numeric ts; its profile starts at %g", c.Event[i], p.StartTime)
			}
			p.Tid, p.hasThread = c.Tid[i], true
			if src := tr.Strings.Get(c.Source[i]); validSource(src) {
				p.Source = c.Source[i]
			}
		case core.ChunkWhole:
			wholeProfile(mem, c, i, p)
		case core.ChunkData:
			appendChunk(tr, mem, c, i, p)
		}
	}

	var out []Assembled
	threadOf := map[threadKey]core.ThreadID{}
	for i, t := range tr.Threads {
		threadOf[threadKey{t.Pid, t.Tid}] = core.ThreadID(i)
	}
	for _, pid := range pids {
		var tids []int64
		byTid := map[int64][]*preProfile{}
		for _, p := range byPid[pid] {
			if !p.hasThread {
				w.Add(fmt.Sprintf("ProfileChunk with no Profile head (pid %d, id %s): %d samples skipped",
					pid, tr.Strings.Get(p.ID), p.sizes.samples), 1)
				continue
			}
			if p.mismatched > 0 {
				w.Add(fmt.Sprintf("profile %s (pid %d): %d chunks left samples and time deltas of different lengths; kept as DevTools keeps them (timestamps decide which samples count)",
					tr.Strings.Get(p.ID), pid, p.mismatched), 1)
			}
			if _, ok := byTid[p.Tid]; !ok {
				tids = append(tids, p.Tid)
			}
			byTid[p.Tid] = append(byTid[p.Tid], p)
		}
		for _, tid := range tids {
			cands := byTid[tid]
			chosen := choose(tr, cands)
			if len(cands) > 1 {
				w.Add(fmt.Sprintf("%d more profiles of thread %d (pid %d) not shown: DevTools keeps one per thread",
					len(cands)-1, tid, pid), 1)
			}
			if len(chosen.Nodes) == 0 {
				w.Add(fmt.Sprintf("profile %s (pid %d, tid %d) has no nodes: skipped", tr.Strings.Get(chosen.ID), pid, tid), 1)
				continue
			}
			a := chosen.Assembled
			th, ok := threadOf[threadKey{pid, tid}]
			if !ok {
				th = core.ThreadID(len(tr.Threads))
				tr.Threads = append(tr.Threads, core.Thread{Pid: pid, Tid: tid}) // (not reached: heads register their thread)
				threadOf[threadKey{pid, tid}] = th
			}
			a.Thread = th
			out = append(out, a)
		}
	}
	return out, nil
}

// choose picks DevTools' profile for a thread: source Internal first, then Inspector, else the
// first seen (a .cpuprofile has a single candidate, so the CPU-profile priority never matters).
func choose(tr *core.Trace, cands []*preProfile) *preProfile {
	for _, want := range [...]string{"Internal", "Inspector"} {
		for _, p := range cands {
			if tr.Strings.Get(p.Source) == want {
				return p
			}
		}
	}
	return cands[0]
}

// wholeProfile handles a CpuProfile event: DevTools replaces the profile's data with the event's
// cpuProfile object wholesale, and takes the thread from the event.
func wholeProfile(mem *budget, c *core.RawChunks, i int, p *preProfile) {
	from, to := c.NodeRange(i)
	a := &p.Assembled
	a.Nodes = makeSlice[int32](mem, 0, to-from)
	for n := from; n < to; n++ {
		a.Nodes = append(a.Nodes, int32(n))
	}
	a.whole, a.chunks = int32(i), a.chunks[:0]
	a.HasSamples = c.HasSamples[i]
	a.HasTimeDeltas = c.HasProfileTimeDeltas[i]
	a.HasTimestamps = c.HasTimestamps[i]
	a.sizes = chunkSizes{samples: int(c.Samples[i].Len), deltas: int(c.ProfileTimeDeltas[i].Len)}
	// The legacy head form (nodes without a callFrame) has its times in seconds, and absolute
	// timestamps or none at all (then the samples are spread evenly, see modelSamples).
	a.Legacy = (a.HasTimestamps || !a.HasTimeDeltas) && from < to && c.NodeFlags[from]&core.NodeHasCallFrame == 0
	a.StartTime = zeroIfNaN(c.ProfileStartTime[i])
	a.EndTime = zeroIfNaN(c.ProfileEndTime[i])
	a.linesOn, a.colsOn = c.HasLines[i], c.HasColumns[i]
	if a.linesOn {
		a.sizes.lines = int(c.Lines[i].Len)
	}
	if a.colsOn {
		a.sizes.columns = int(c.Columns[i].Len)
	}
	a.TraceIDs = nil
	mergeTraceIDs(c, i, a)
	p.Tid, p.hasThread = c.Tid[i], true
}

// appendChunk applies a ProfileChunk the way SamplesHandler does: nodes, samples, deltas, lines
// and columns are appended (to the records that fill them, see Assembled.chunks); trace ids
// merged; then, only if samples and deltas still match in count, the end time is computed (once)
// and the source taken.
func appendChunk(tr *core.Trace, mem *budget, c *core.RawChunks, i int, p *preProfile) {
	a := &p.Assembled
	ahead := p.ahead
	p.ahead.add(sizesOf(c, i), -1)
	from, to := c.NodeRange(i)
	a.Nodes = growFor(mem, a.Nodes, to-from, ahead.nodes)
	for n := from; n < to; n++ {
		a.Nodes = append(a.Nodes, int32(n))
	}
	a.chunks = append(a.chunks, int32(i))
	add := sizesOf(c, i) // chunks without lines or columns count as zeros, one per sample
	if a.HasSamples {
		a.sizes.samples += add.samples
	}
	if a.HasTimeDeltas {
		a.sizes.deltas += add.deltas
	}
	if a.linesOn {
		a.sizes.lines += add.lines
	}
	if a.colsOn {
		a.sizes.columns += add.columns
	}
	mergeTraceIDs(c, i, a)
	if a.HasSamples && a.HasTimeDeltas && a.sizes.samples != a.sizes.deltas {
		// DevTools logs "Failed to parse CPU profile." and returns here, after appending.
		p.mismatched++
		return
	}
	if (a.EndTime == 0 || math.IsNaN(a.EndTime)) && a.HasTimeDeltas {
		a.EndTime = a.deltasEnd(c)
	}
	if src := tr.Strings.Get(c.Source[i]); validSource(src) {
		a.Source = c.Source[i]
	}
}

// deltasEnd is the start time plus the time deltas appended so far, added one by one in their
// order as SamplesHandler adds them.
func (a *Assembled) deltasEnd(c *core.RawChunks) float64 {
	end := a.StartTime
	var buf []float64
	each := func(d []float64) {
		for _, v := range d {
			end += v
		}
	}
	if a.whole >= 0 {
		buf = c.AppendProfileTimeDeltas(buf[:0], int(a.whole))
		each(buf)
	}
	for _, k := range a.chunks {
		buf = c.AppendTimeDeltas(buf[:0], int(k))
		each(buf)
	}
	return end
}

// fill makes the profile's per-sample arrays from the records the assembly noted, each sized
// once: the CpuProfile record's data, then every ProfileChunk's appended. With sparse, lines or
// columns that no record has are not made (zeroLines, zeroCols): a trace of a Chrome that does not
// record them would keep a zero per sample, 8 bytes a sample for nothing.
func (a *Assembled) fill(c *core.RawChunks, mem *budget, sparse bool) {
	if a.filled {
		return
	}
	a.filled = true
	n := a.sizes
	a.Samples, a.sampleRecords = nil, nil
	if a.copyIDs {
		a.Samples = makeSlice[int64](mem, 0, n.samples)
	}
	// One more delta: the model turns the deltas into its timestamps in place, and adds the end.
	a.TimeDeltas = makeSlice[float64](mem, 0, n.deltas+1)
	if sparse {
		a.zeroLines = a.linesOn && !a.anyRecord(c.HasLines)
		a.zeroCols = a.colsOn && !a.anyRecord(c.HasColumns)
	}
	a.Lines, a.Columns, a.lines16, a.cols16 = nil, nil, nil, nil
	linesNarrow, colsNarrow := false, false
	if a.linesOn = a.linesOn && !a.zeroLines; a.linesOn {
		if linesNarrow = !a.copyIDs && a.positionsFit(c, c.HasLines, c.Lines); linesNarrow {
			a.lines16 = makeSlice[uint16](mem, 0, n.lines)
		} else {
			a.Lines = makeSlice[int32](mem, 0, n.lines)
		}
	}
	if a.colsOn = a.colsOn && !a.zeroCols; a.colsOn {
		if colsNarrow = !a.copyIDs && a.positionsFit(c, c.HasColumns, c.Columns); colsNarrow {
			a.cols16 = makeSlice[uint16](mem, 0, n.columns)
		} else {
			a.Columns = makeSlice[int32](mem, 0, n.columns)
		}
	}
	lines := positionsFill{on: a.linesOn, narrow: linesNarrow, to16: &a.lines16, to32: &a.Lines, spans: c.Lines}
	cols := positionsFill{on: a.colsOn, narrow: colsNarrow, to16: &a.cols16, to32: &a.Columns, spans: c.Columns}
	if w := int(a.whole); w >= 0 {
		a.appendSamples(c, w)
		a.TimeDeltas = c.AppendProfileTimeDeltas(a.TimeDeltas, w)
		a.Timestamps = clone(mem, c.TimestampsOf(w))
		lines.add(c, w, true, 0)
		cols.add(c, w, true, 0)
	}
	for _, k := range a.chunks {
		background.Yield()
		i := int(k)
		samples := int(c.Samples[i].Len)
		if a.HasSamples {
			a.appendSamples(c, i)
		}
		if a.HasTimeDeltas {
			a.TimeDeltas = c.AppendTimeDeltas(a.TimeDeltas, i)
		}
		lines.add(c, i, c.HasLines[i], samples)
		cols.add(c, i, c.HasColumns[i], samples)
	}
	a.chunks = nil
}

// appendSamples adds record i to sampleRecords, and its sample ids to Samples when copyIDs.
func (a *Assembled) appendSamples(c *core.RawChunks, i int) {
	a.sampleRecords = append(a.sampleRecords, int32(i))
	if a.copyIDs {
		a.Samples = c.AppendSamples(a.Samples, i)
	}
}

// positionsFit says whether the lines (or columns: has and spans are RawChunks' HasLines and Lines,
// or HasColumns and Columns) of the profile's records all fit 2 bytes; a record without them
// adds zeros, which do.
func (a *Assembled) positionsFit(c *core.RawChunks, has []bool, spans []core.Span) bool {
	if a.whole >= 0 && !core.PositionsFit(spanInt32s(c, spans[a.whole])) {
		return false
	}
	for _, k := range a.chunks {
		if has[k] && !core.PositionsFit(spanInt32s(c, spans[k])) {
			return false
		}
	}
	return true
}

// positionsFill appends the records' lines (or columns) to a profile's, in 2 bytes each where
// narrow, else in 4; nothing where not on.
type positionsFill struct {
	on, narrow bool
	to16       *[]uint16
	to32       *[]int32
	spans      []core.Span // RawChunks.Lines or Columns
}

// add appends record i's values where it has them (has), else a zero for each of its samples.
func (p positionsFill) add(c *core.RawChunks, i int, has bool, samples int) {
	switch {
	case !p.on:
	case p.narrow && has:
		*p.to16 = appendNarrowPositions(*p.to16, spanInt32s(c, p.spans[i]))
	case p.narrow:
		*p.to16 = append(*p.to16, make([]uint16, samples)...)
	case has:
		*p.to32 = append(*p.to32, spanInt32s(c, p.spans[i])...)
	default:
		*p.to32 = append(*p.to32, make([]int32, samples)...)
	}
}

// appendNarrowPositions appends vs, which fit 2 bytes each, to dst.
func appendNarrowPositions(dst []uint16, vs []int32) []uint16 {
	for _, v := range vs {
		dst = append(dst, uint16(v))
	}
	return dst
}

// anyRecord says whether has (RawChunks.HasLines or HasColumns) is true for a record of the profile.
func (a *Assembled) anyRecord(has []bool) bool {
	if a.whole >= 0 && has[a.whole] {
		return true
	}
	for _, k := range a.chunks {
		if has[k] {
			return true
		}
	}
	return false
}

func mergeTraceIDs(c *core.RawChunks, i int, a *Assembled) {
	s := c.TraceIDs[i]
	if s.Len == 0 {
		return
	}
	if a.TraceIDs == nil {
		a.TraceIDs = map[int64]int64{}
	}
	for j := s.Off; j < s.Off+s.Len; j++ {
		a.TraceIDs[c.TraceIDKey[j]] = c.TraceIDNode[j]
	}
}

// clone copies s into a new slice charged to mem.
func clone[T any](mem *budget, s []T) []T {
	return append(makeSlice[T](mem, 0, len(s)), s...)
}

func spanInt32s(c *core.RawChunks, s core.Span) []int32 { return c.Positions[s.Off : s.Off+s.Len] }

func zeroIfNaN(v float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	return v
}
