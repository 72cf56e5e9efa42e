package core

import (
	"errors"
	"math"
	"time"
)

// ChunkKind tells which profiler event a RawChunks record was read from.
type ChunkKind uint8

const (
	// ChunkProfile is a "Profile" event: the head of a sampled profile. Its ts is the profile's start
	// on the trace clock, its tid the profiled thread, args.data.source who started it.
	ChunkProfile ChunkKind = iota
	// ChunkData is a "ProfileChunk" event: nodes, samples and time deltas to append to the profile
	// with the same pid and id. Its own tid is the sampler's thread, not the profiled one.
	ChunkData
	// ChunkWhole is a "CpuProfile" event that carries a complete profile in args.data.cpuProfile
	// (Chrome 65/66 traces, and the event DevTools synthesizes around a bare .cpuprofile).
	ChunkWhole
)

func (k ChunkKind) String() string {
	switch k {
	case ChunkProfile:
		return "Profile"
	case ChunkData:
		return "ProfileChunk"
	case ChunkWhole:
		return "CpuProfile"
	}
	return "unknown"
}

// NoNode marks a node id that is absent (a node without "parent") or not a usable integer
// (a sample id written as a string, a fraction, null...). It never equals a real node id.
const NoNode int64 = math.MinInt64

// Node flags in RawChunks.NodeFlags.
const (
	// NodeHasChildren: the node had a "children" array (possibly empty). DevTools decides between
	// the children form and the parent form by looking at this flag on a profile's first node.
	NodeHasChildren uint8 = 1 << iota
	// NodeHasParent: the node had a numeric "parent".
	NodeHasParent
	// NodeHasCallFrame: the node had a "callFrame" object; without one its frame came from the
	// legacy flat fields (functionName, url, lineNumber... on the node itself).
	NodeHasCallFrame
)

// RawChunks keeps the sampled-profile events of a trace (Profile, ProfileChunk, CpuProfile) in
// file order, column-wise, exactly as written apart from interning, so that both DevTools'
// assembly (keyed by pid+id, core/load.Assemble) and Lighthouse's collection (keyed by id alone,
// repeated heads replacing earlier ones) can be computed from the same data without re-reading
// the file. For a .cpuprofile or a JS Self-Profiling file, it holds one ChunkWhole record with
// the profile as read (self-profile stacks become nodes with parent links).
//
// A record's variable-length data live in shared arenas and are addressed by Spans (Off, Len in
// elements, not bytes). A Has* flag tells an absent array from an empty one where the engines
// treat them differently (JS: `[]` is truthy, a missing field is not).
type RawChunks struct {
	// One entry per record.
	Kind  []ChunkKind
	Event []int32 // index of the event in the file's event array, for messages
	Ph    []byte
	Pid   []int64
	Tid   []int64
	// ID is the event's "id" as written: a string as is, a number as its JSON text; "" when absent.
	ID []StrID
	// IDIsString is true when "id" was a JSON string. Lighthouse ignores events whose id is not a
	// string; DevTools keys by the value, so the number 1 and the string "1" are different ids.
	IDIsString []bool
	Ts         []float64 // µs; NaN when absent
	// DataStartTime and DataEndTime are args.data.startTime and args.data.endTime; NaN when absent.
	// (DevTools ignores both: it starts a profile at the Profile event's ts. Lighthouse uses
	// args.data.startTime when it is non-zero.)
	DataStartTime []float64
	DataEndTime   []float64
	// ProfileStartTime and ProfileEndTime are args.data.cpuProfile.startTime / endTime; NaN when
	// absent. A ChunkWhole record's profile starts here (µs, or seconds in the legacy head form).
	ProfileStartTime []float64
	ProfileEndTime   []float64
	// Source is args.data.source ("Internal", "Inspector", "SelfProfiling"...), "" when absent.
	Source []StrID

	// Nodes addresses args.data.cpuProfile.nodes in the Node* columns.
	Nodes []Span
	// Samples addresses args.data.cpuProfile.samples in SampleIDs; HasSamples tells whether the
	// field was present.
	Samples    []Span
	HasSamples []bool
	// TimeDeltas addresses args.data.timeDeltas in Deltas (the only deltas DevTools reads from a
	// ProfileChunk); ProfileTimeDeltas addresses args.data.cpuProfile.timeDeltas (what a
	// CpuProfile event and a .cpuprofile carry, and Lighthouse's fallback).
	TimeDeltas           []Span
	HasTimeDeltas        []bool
	ProfileTimeDeltas    []Span
	HasProfileTimeDeltas []bool
	// Timestamps addresses the legacy absolute cpuProfile.timestamps (µs) in Stamps.
	Timestamps    []Span
	HasTimestamps []bool
	// Lines and Columns address args.data.lines / args.data.columns in Positions.
	Lines      []Span
	HasLines   []bool
	Columns    []Span
	HasColumns []bool
	// TraceIDs addresses the pairs of args.data.cpuProfile.trace_ids in TraceIDKey/TraceIDNode.
	TraceIDs []Span

	// Node columns, one entry per node of every record.
	NodeID     []int64   // NoNode when not an integer
	NodeParent []int64   // NoNode when absent
	NodeFrame  []FrameID // the call frame, interned in Trace.Frames with DevTools' defaults
	NodeFlags  []uint8   // NodeHas* bits
	// NodeChildren addresses the node's "children" ids in Children (Len 0 when absent: see
	// NodeHasChildren). It ends after the last node that has children (nil when none has, as in
	// a trace): read it through ChildrenOf.
	NodeChildren []Span
	// NodeTicks addresses a .cpuprofile node's "positionTicks" in Positions as (line, ticks)
	// pairs: how many of the node's samples fell on each 1-based line of its script. Len 0
	// when absent. Like NodeChildren, it ends after the last node that has some: read it
	// through TicksOf.
	NodeTicks []Span

	// Arenas.
	Children    []int64
	SampleIDs   Narrow[int64]   // NoNode for a sample that is not an integer
	Deltas      Narrow[float64] // time deltas, µs
	Stamps      []float64       // absolute sample times (the legacy timestamps, a self-profile's)
	Positions   []int32
	TraceIDKey  []int64
	TraceIDNode []int64
}

// Len is the number of records.
func (c *RawChunks) Len() int { return len(c.Kind) }

// NodeRange returns the node indexes [from, to) of record i.
func (c *RawChunks) NodeRange(i int) (from, to int) {
	s := c.Nodes[i]
	return int(s.Off), int(s.Off + s.Len)
}

// AppendSamples appends the sample node ids of record i to dst.
func (c *RawChunks) AppendSamples(dst []int64, i int) []int64 {
	return c.SampleIDs.AppendSpan(dst, c.Samples[i])
}

// AppendTimeDeltas appends args.data.timeDeltas of record i to dst.
func (c *RawChunks) AppendTimeDeltas(dst []float64, i int) []float64 {
	return c.Deltas.AppendSpan(dst, c.TimeDeltas[i])
}

// AppendProfileTimeDeltas appends args.data.cpuProfile.timeDeltas of record i to dst.
func (c *RawChunks) AppendProfileTimeDeltas(dst []float64, i int) []float64 {
	return c.Deltas.AppendSpan(dst, c.ProfileTimeDeltas[i])
}

// TimestampsOf returns the absolute sample times of record i.
func (c *RawChunks) TimestampsOf(i int) []float64 { return spanOf(c.Stamps, c.Timestamps[i]) }

// ChildrenOf returns the "children" ids of node n.
func (c *RawChunks) ChildrenOf(n int) []int64 {
	if n >= len(c.NodeChildren) {
		return nil
	}
	return spanOf(c.Children, c.NodeChildren[n])
}

// TicksOf addresses the positionTicks of node n in Positions (Len 0 when it has none).
func (c *RawChunks) TicksOf(n int) Span {
	if n >= len(c.NodeTicks) {
		return Span{}
	}
	return c.NodeTicks[n]
}

func spanOf[T any](arena []T, s Span) []T {
	return arena[s.Off : s.Off+s.Len : s.Off+s.Len]
}

// LoadStats is what the loader measured, for `flamedesk stats`. Later stages (tracks) may append
// their own entries to Stages.
type LoadStats struct {
	FileBytes  int64 // bytes read from the file (compressed size for gzip)
	JSONBytes  int64 // bytes of JSON parsed (after decompression)
	Gzip       bool
	Events     int // trace events kept in Trace.Events
	Chunks     int // Profile / ProfileChunk / CpuProfile records
	Nodes      int // nodes in the chosen profiles' models
	Samples    int // samples in the chosen profiles' models
	Stages     []StageTime
	TotalAlloc uint64 // bytes allocated during the load (runtime.MemStats.TotalAlloc delta)
	// MemoryBudget is the bytes the load could hold (see core/load's budget.go), 0 when none
	// was set; the tracks built from the trace may take as much again.
	MemoryBudget int64
}

// ErrMemoryBudget is wrapped by the error of a load or a build of tracks that would take more
// memory than its budget.
var ErrMemoryBudget = errors.New("over the memory budget")

// StageTime is the wall time of one loading stage, e.g. "read" or "assemble".
type StageTime struct {
	Name string
	Dur  time.Duration
}
