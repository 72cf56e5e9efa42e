package load

import (
	"context"
	"fmt"
	"math"
	"unsafe"

	"flamedesk/core"
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
	// Samples are node ids; HasSamples is false when the profile has no samples array at all.
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
}

// Assemble runs DevTools' chunk assembly over tr.Chunks and returns one profile per profiled
// thread, in the order DevTools lists them (by process in order of first appearance, then by
// thread). The load has already done this (its warnings are in tr.Warnings); this is for tests
// and tools that want the raw arrays, which the load does not keep.
func Assemble(tr *core.Trace) []Assembled {
	var w core.Warnings
	asm, _ := assemble(context.Background(), tr, &w, nil)
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
	// ahead is what the ProfileChunks not yet appended will add: the arrays are sized for all of
	// them at their first growth, instead of doubling (which copies them over and over, and
	// maps and faults in twice their size).
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
	copy(ns, s)
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
			Lines: []int32{}, Columns: []int32{},
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
					pid, tr.Strings.Get(p.ID), len(p.Samples)), 1)
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
	a.HasSamples = c.HasSamples[i]
	a.Samples = c.AppendSamples(makeSlice[int64](mem, 0, int(c.Samples[i].Len)), i)
	a.HasTimeDeltas = c.HasProfileTimeDeltas[i]
	a.TimeDeltas = c.AppendProfileTimeDeltas(makeSlice[float64](mem, 0, int(c.ProfileTimeDeltas[i].Len)), i)
	a.HasTimestamps = c.HasTimestamps[i]
	a.Timestamps = clone(mem, c.TimestampsOf(i))
	// The legacy head form (nodes without a callFrame) has its times in seconds, and absolute
	// timestamps or none at all (then the samples are spread evenly, see modelSamples).
	a.Legacy = (a.HasTimestamps || !a.HasTimeDeltas) && from < to && c.NodeFlags[from]&core.NodeHasCallFrame == 0
	a.StartTime = zeroIfNaN(c.ProfileStartTime[i])
	a.EndTime = zeroIfNaN(c.ProfileEndTime[i])
	a.Lines, a.Columns = nil, nil
	if c.HasLines[i] {
		a.Lines = clone(mem, spanInt32s(c, c.Lines[i]))
	}
	if c.HasColumns[i] {
		a.Columns = clone(mem, spanInt32s(c, c.Columns[i]))
	}
	a.TraceIDs = nil
	mergeTraceIDs(c, i, a)
	p.Tid, p.hasThread = c.Tid[i], true
}

// appendChunk applies a ProfileChunk the way SamplesHandler does: nodes, samples, deltas, lines
// and columns are appended; trace ids merged; then, only if samples and deltas still match in
// count, the end time is computed (once) and the source taken.
func appendChunk(tr *core.Trace, mem *budget, c *core.RawChunks, i int, p *preProfile) {
	a := &p.Assembled
	ahead := p.ahead
	p.ahead.add(sizesOf(c, i), -1)
	from, to := c.NodeRange(i)
	a.Nodes = growFor(mem, a.Nodes, to-from, ahead.nodes)
	for n := from; n < to; n++ {
		a.Nodes = append(a.Nodes, int32(n))
	}
	samples := int(c.Samples[i].Len)
	if a.HasSamples {
		a.Samples = c.AppendSamples(growFor(mem, a.Samples, samples, ahead.samples), i)
	}
	if a.HasTimeDeltas {
		// One more: the model turns the deltas into its timestamps in place, and adds the end.
		a.TimeDeltas = c.AppendTimeDeltas(growFor(mem, a.TimeDeltas, int(c.TimeDeltas[i].Len), ahead.deltas+1), i)
	}
	// Chunks without lines or columns count as zeros, one per sample.
	if a.Lines != nil {
		if c.HasLines[i] {
			a.Lines = append(growFor(mem, a.Lines, int(c.Lines[i].Len), ahead.lines), spanInt32s(c, c.Lines[i])...)
		} else {
			a.Lines = append(growFor(mem, a.Lines, samples, ahead.lines), make([]int32, samples)...)
		}
	}
	if a.Columns != nil {
		if c.HasColumns[i] {
			a.Columns = append(growFor(mem, a.Columns, int(c.Columns[i].Len), ahead.columns), spanInt32s(c, c.Columns[i])...)
		} else {
			a.Columns = append(growFor(mem, a.Columns, samples, ahead.columns), make([]int32, samples)...)
		}
	}
	mergeTraceIDs(c, i, a)
	if a.HasSamples && a.HasTimeDeltas && len(a.Samples) != len(a.TimeDeltas) {
		// DevTools logs "Failed to parse CPU profile." and returns here, after appending.
		p.mismatched++
		return
	}
	if (a.EndTime == 0 || math.IsNaN(a.EndTime)) && a.HasTimeDeltas {
		end := a.StartTime
		for _, d := range a.TimeDeltas {
			end += d
		}
		a.EndTime = end
	}
	if src := tr.Strings.Get(c.Source[i]); validSource(src) {
		a.Source = c.Source[i]
	}
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
