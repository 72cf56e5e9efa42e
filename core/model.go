// Package core owns everything between the bytes of a profile file and the per-thread columns that
// the timeline draws: the shared data model (this file), and in its sub-packages the format readers
// and chunk assembly (core/load), the sample/trace integration that builds each thread's tree
// (core/integrate), Lighthouse-style refinement (core/lighthouse) and the call tree with its
// transforms (core/calltree).
//
// Everything here is stored column-wise with interned strings and int32 indexes instead of pointers,
// so that a trace of millions of events costs the garbage collector almost nothing to scan.
package core

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
)

// FrameID names an interned CallFrame in Trace.Frames. NoFrame marks an entry without one.
type FrameID uint32

// NoFrame is the FrameID of trace events, which have no call frame.
const NoFrame FrameID = ^FrameID(0)

// CallFrame is V8's description of a JS function, with DevTools' defaults already applied:
// a missing url is "", a missing line or column is -1, and scriptId is kept in its string form.
type CallFrame struct {
	FunctionName StrID
	URL          StrID
	ScriptID     StrID
	CodeType     StrID
	Line         int32 // 0-based, -1 when unknown
	Column       int32 // 0-based, -1 when unknown
}

// ThreadID indexes Trace.Threads.
type ThreadID uint32

// Thread is one (pid, tid) of the trace with the names its metadata events gave it.
type Thread struct {
	Pid, Tid         int64
	Name             StrID // thread_name, "" when the trace has none
	ProcessName      StrID // process_name, "" when the trace has none
	SortIndex        int32 // thread_sort_index, 0 when absent
	ProcessSortIndex int32 // process_sort_index, 0 when absent
	HasSortIndex     bool
}

// Span addresses bytes in an arena such as Events.ArgsArena.
type Span struct{ Off, Len uint32 }

// Events holds the trace's events in file order, one column per field. Profile and ProfileChunk
// events are not kept here: their data lives in Trace.Chunks.
type Events struct {
	Ph     []byte
	Name   []StrID
	Cat    []StrID
	Ts     []float64 // µs, on the trace's own clock
	Dur    []float64 // µs; for a B paired with its E, the pair's length; NaN when the event has none
	Thread []ThreadID
	// Args lists, in increasing event order, the events whose raw args JSON is kept (only where
	// something uses it: names, the data of FunctionCall, EvaluateScript and similar) and where
	// it is. Read it through ArgsJSON. A fifth of the events have some, so they are kept aside
	// rather than in a column of their own (12 bytes each instead of 8 for every event).
	Args []EventArgs
	// ArgsArena holds the kept args' bytes; a loaded trace keeps at most ArgsBlockSize bytes here
	// and the rest in ArgsMore, blocks of up to ArgsBlockSize bytes of which block n holds the
	// offsets from (n+1)·ArgsBlockSize on. One event's args never straddle two blocks. (The
	// columns never move as they fill: a flat arena would be copied at each growth.)
	ArgsArena []byte
	ArgsMore  [][]byte
	// Snapshots lists, in increasing event order, the Screenshot events whose image was decoded
	// out of their args, and where its bytes are in the args arena. The args then hold
	// "snapshot":"" instead of the base64 text, which takes a third more memory and is most of a
	// trace that has screenshots. Only canonical base64 is decoded, so that encoding the image
	// gives the text back exactly.
	Snapshots []EventArgs
	// SampleTraceIDs lists, in increasing event order, the events that have a sampleTraceId
	// (args.data.sampleTraceId, args.sampleTraceId or args.beginData.sampleTraceId) other than 0,
	// and its value. Read it through SampleTraceID; a tenth of the events have one.
	SampleTraceIDs []EventTraceID
	// AsyncIDs holds, in event order, the id of the events that can pair asynchronously (phases b,
	// e, n, S, T, F, p) and of Screenshot events, the only ones whose id anything reads. Few events
	// have one, so they are kept aside rather than in a column of their own.
	AsyncIDs []AsyncID
}

// EventArgs says where the kept args of one event are.
type EventArgs struct {
	Event int32
	Span
}

// EventTraceID is the sampleTraceId of one event.
type EventTraceID struct {
	Event int32
	ID    int64
}

// eventIndex returns where event i is in list (sorted by event, whose event field is eventOf),
// and whether it is there.
func eventIndex[T any](list []T, i int, eventOf func(*T) int32) (int, bool) {
	lo, hi := 0, len(list)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if int(eventOf(&list[m])) < i {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, lo < len(list) && int(eventOf(&list[lo])) == i
}

// SampleTraceID returns event i's sampleTraceId, 0 when it has none.
func (e *Events) SampleTraceID(i int) int64 {
	if k, ok := eventIndex(e.SampleTraceIDs, i, func(t *EventTraceID) int32 { return t.Event }); ok {
		return e.SampleTraceIDs[k].ID
	}
	return 0
}

// IDSource tells which field of an event its async id came from.
type IDSource uint8

const (
	NoID         IDSource = iota
	IDField               // "id": a string, or a number in its JavaScript text form
	IDGlobal              // "id2": {"global": …}
	IDLocal               // "id2": {"local": …}
	IDUnreadable          // an "id" field that is neither a string nor a number (null, an object…)
)

// AsyncID is the async id of one event: DevTools' extractId, id else id2.global else id2.local.
type AsyncID struct {
	Event  int32
	ID     StrID
	Source IDSource
}

// AsyncIDOf returns the async id of event i, NoID when it has none (or is not one of those kept).
func (e *Events) AsyncIDOf(i int) (StrID, IDSource) {
	ids := e.AsyncIDs
	lo, hi := 0, len(ids)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if int(ids[m].Event) < i {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(ids) && int(ids[lo].Event) == i {
		return ids[lo].ID, ids[lo].Source
	}
	return 0, NoID
}

// Len is the number of events.
func (e *Events) Len() int { return len(e.Ts) }

// ArgsBlockShift is log2 of ArgsBlockSize.
const ArgsBlockShift = 20

// ArgsBlockSize is the size of the blocks of Events.ArgsMore.
const ArgsBlockSize = 1 << ArgsBlockShift

// ArgsJSON returns the kept raw args of event i, or nil.
func (e *Events) ArgsJSON(i int) []byte {
	if k, ok := eventIndex(e.Args, i, func(a *EventArgs) int32 { return a.Event }); ok {
		return e.ArgsAt(e.Args[k].Span)
	}
	return nil
}

// Snapshot returns the image of event i (a Screenshot) that the loader decoded out of its args;
// ok is false when it kept the base64 text in the args instead.
func (e *Events) Snapshot(i int) (image []byte, ok bool) {
	if k, found := eventIndex(e.Snapshots, i, func(a *EventArgs) int32 { return a.Event }); found {
		return e.ArgsAt(e.Snapshots[k].Span), true
	}
	return nil, false
}

// ArgsAt returns the bytes s addresses in ArgsArena or ArgsMore, nil when it is empty or points
// past them.
func (e *Events) ArgsAt(s Span) []byte {
	if s.Len == 0 {
		return nil
	}
	off, n := uint64(s.Off), uint64(s.Len)
	if off+n <= uint64(len(e.ArgsArena)) {
		return e.ArgsArena[off : off+n]
	}
	if b := off>>ArgsBlockShift - 1; off >= ArgsBlockSize && b < uint64(len(e.ArgsMore)) {
		blk := e.ArgsMore[b]
		if o := off & (ArgsBlockSize - 1); o+n <= uint64(len(blk)) {
			return blk[o : o+n]
		}
	}
	return nil
}

// ProfileModel is DevTools' CPU profile data model of one assembled profile: nodes in an indexed
// tree, samples stable-sorted by time with one extrapolated end timestamp.
type ProfileModel struct {
	Pid, Tid  int64
	Thread    ThreadID
	ProfileID StrID // the Profile event's id, e.g. "0x1"

	// Nodes, index 0 is the root. Parent is -1 for the root.
	NodeID     []int64
	NodeParent []int32
	NodeDepth  []int32 // root -1, its children 0
	NodeFrame  []FrameID
	// NodeTicks is the node's positionTicks (a .cpuprofile's per-line sample counts), addressing
	// (line, ticks) pairs in Trace.Chunks.Positions; Len 0 when the node has none. It ends after
	// the last node that has some (nil for a trace, whose nodes never have any).
	NodeTicks []Span

	// Samples holds node indexes, -1 for a sample whose node id is unknown (a hole).
	Samples []int32
	// Timestamps are µs, len(Samples)+1: the last one is the extrapolated end.
	Timestamps []float64
	// SampleLine and SampleColumn are the 1-based script position of each sample's top frame
	// (a trace's ProfileChunk "lines" and "columns"), parallel to Samples; empty when the profile
	// has none, 0 where V8 did not know.
	SampleLine, SampleColumn SamplePositions
	// SampleLinesZero says that every sample has line 0 (and column 0) although SampleLine is
	// empty: the chunks have no lines at all, and a zero per sample would take bytes a sample
	// for nothing. An empty SampleColumn beside a SampleLine likewise means column 0 throughout.
	SampleLinesZero bool
	// SampleTraceIDs maps a trace id (from trace_ids) to a node index, where the profile has them.
	TraceIDNode map[int64]int32

	StartTime, EndTime float64 // µs
	RootNode           int32
	ProgramNode        int32 // -1 when absent
	IdleNode           int32 // -1 when absent
	GCNode             int32 // -1 when absent
}

// EntryKind tells a trace event from a ProfileCall in a Track.
type EntryKind uint8

const (
	EntryEvent EntryKind = iota
	EntryProfileCall
)

// Track is one thread's tree of trace events and ProfileCalls in pre-order (parent before children,
// siblings by start), one column per field. Within one depth, entries are in increasing start order.
//
// A deep trace makes millions of entries, so the columns are kept narrow: times as 32-bit offsets
// where they are whole microseconds (Times), and what follows from other columns is not stored:
// the self time (from Dur and Parent), and for tracks whose ProfileCalls all have a node, the kind
// and frame (from Node and NodeFrame). A Compact track (the ones core/integrate builds from a
// trace) also stores no start or name per row: a ProfileCall starts at its sample's time and is
// named after its node's frame, and an event's start, name and event index sit in per-event
// columns that its ref indexes; a parent is stored only where it is not the row before, and node
// and ref in the bits they need (13 bytes a row in all on gen-trace-large instead of 26). Read
// entries through the accessors (StartAt, KindAt…), never the columns.
type Track struct {
	Thread ThreadID
	// Start (µs) and Name are per row unless the track is Compact; a Compact track keeps only
	// Start.Base, the whole µs its times count from.
	Start  Times
	Dur    Times    // µs
	Depth  []uint16 // 0 for roots
	Name   []StrID
	Parent []int32 // index into this Track, -1 for roots
	// Ref is the event index into Trace.Events for an event, and the sample index into the
	// profile's Samples for a ProfileCall (-1 for one that no single sample made). Read it
	// through RefAt: a Compact track keeps it in Refs.
	Ref []int32
	// Node is the profile node index of a ProfileCall, -1 for events (and for a ProfileCall
	// without one, which only a track with a Kind column has).
	Node []int32
	// KindColumn and FrameColumn are nil when they follow from Node (read them through KindAt and
	// FrameAt): an entry with a node is a ProfileCall
	// whose frame is NodeFrame[node], one without is an event with NoFrame.
	KindColumn  []EntryKind
	FrameColumn []FrameID
	// NodeFrame is the frame of each node of the thread's profile: the profile's own NodeFrame,
	// shared (neither is ever written once built).
	NodeFrame []FrameID

	// Compact says that Start, Name, Parent, Ref and Node are left out and the columns below
	// stand in for them.
	Compact bool
	// A row's parent follows from the depths where it is the row before (the depth is one more)
	// or none (depth 0), as it is for 93 % of the rows of a deep trace. ParentFar lists the other
	// rows, in increasing order, and ParentFarTo their parents.
	ParentFar   []int32
	ParentFarTo []int32
	// NodePlus1 is Node plus one, and Refs is Ref as the row's kind reads it: an event's index
	// into EventRef; a ProfileCall's sample index, or the number of samples plus k for the k-th
	// call made from a trace event (CallStart[k]).
	NodePlus1 Packed
	Refs      Packed
	// EventRef, EventStart and EventName hold, per event row in row order, its index into
	// Trace.Events, its start and its name.
	EventRef   []int32
	EventStart Times
	EventName  []StrID
	// SampleStart is, per sample of the profile, where the ProfileCalls it made start (its time
	// through DevTools' detour through milliseconds).
	SampleStart Times
	// SampleOf, when not nil, is the sample of each value of SampleStart, which then holds only
	// the samples that calls start at: a thread with many more samples than calls (a mostly
	// idle one) would otherwise keep a start for every sample. Refs index SampleStart either way.
	SampleOf []int32
	// EndRefs, when it has rows, stands in for Dur in a compact track of a bare profile, whose
	// durations are differences of two sample times in milliseconds and so rarely a whole µs
	// (a float64 each in Dur): per row, the sample at which the call ended, or SampleStart.Len()
	// for the profile's end, EndMs. A duration is then (end ms - start ms) × 1000, as DevTools
	// computes it, with a sample's ms read back from SampleStart's whole-µs offset (every one
	// is whole when EndRefs is used).
	EndRefs Packed
	EndMs   float64
	// CallStart is the start of each ProfileCall made from a trace event's sampleTraceId.
	CallStart []float64
	// NodeName is the function name of each node of the thread's profile.
	NodeName []StrID

	// Profile indexes Trace.Profiles for this thread's ProfileCalls, -1 when it has none.
	Profile  int32
	MaxDepth int
	// NotInTree counts entries that started inside their parent but ended after it; DevTools leaves
	// them out of the tree and so do we.
	NotInTree int
}

// Len is the number of entries.
func (t *Track) Len() int { return len(t.Depth) }

// StartAt is entry i's start, µs.
func (t *Track) StartAt(i int) float64 {
	if !t.Compact {
		return t.Start.At(i)
	}
	r := int(t.Refs.At(i))
	if t.NodePlus1.At(i) == 0 {
		return t.EventStart.At(r)
	}
	return t.callStart(r)
}

// callStart is the start of the ProfileCall of a Compact track whose ref is r: a sample's start,
// or that of a call made from a trace event (CallStart). It is kept small enough for the compiler
// to inline it into StartAt and EndAt, which the chart calls for every entry it places or draws.
func (t *Track) callStart(r int) float64 {
	if n := t.SampleStart.Len(); r >= n {
		return t.CallStart[r-n]
	}
	return t.SampleStart.At(r)
}

// DurAt is entry i's duration, µs.
func (t *Track) DurAt(i int) float64 {
	if t.EndRefs.N == 0 {
		return t.Dur.At(i)
	}
	return t.endRefsDur(i, int(t.Refs.At(i)))
}

// endRefsDur is the duration of row i of a track with EndRefs, whose ref (its first sample) is r:
// (end ms - start ms) × 1000, as DevTools computes it.
func (t *Track) endRefsDur(i, r int) float64 {
	return (t.SampleMs(int(t.EndRefs.At(i))) - t.SampleMs(r)) * 1000
}

// EndAt is entry i's end, µs: its start plus its duration, or its start alone when the duration
// is not above 0 (or NaN). A bare profile's track holds calls alone, so that its row's ref gives
// both its start and its duration's first sample: read once, its end costs two packed reads
// instead of four, which the chart's merging of narrow entries makes often.
func (t *Track) EndAt(i int) float64 {
	var start, dur float64
	if t.EndRefs.N > 0 {
		r := int(t.Refs.At(i))
		start, dur = t.callStart(r), t.endRefsDur(i, r)
	} else {
		start, dur = t.StartAt(i), t.DurAt(i)
	}
	if !(dur > 0) {
		return start
	}
	return start + dur
}

// SampleMs is sample r's time in ms as a bare profile's walk read it (EndMs for r past the
// samples), read back from SampleStart's offsets: for a track with EndRefs.
func (t *Track) SampleMs(r int) float64 {
	sm := &t.SampleStart
	if r >= len(sm.Off) {
		return t.EndMs
	}
	return (sm.Base + float64(sm.Off[r]&^detoured)) / 1000
}

// SelfAt is entry i's self time, µs: its duration minus its children's, subtracted in row order
// as the builders did. It walks i's subtree: in pre-order that is the rows after i whose parent
// is i or a later row.
func (t *Track) SelfAt(i int) float64 {
	self := t.DurAt(i)
	n := t.Len()
	for j := i + 1; j < n; j++ {
		p := int(t.ParentAt(j))
		if p < i {
			break
		}
		if p == i {
			self -= t.DurAt(j)
		}
	}
	return self
}

// SelfTimes returns every entry's self time at once, in one pass.
func (t *Track) SelfTimes() []float64 {
	self := make([]float64, t.Len())
	for i := range self {
		self[i] = t.DurAt(i)
	}
	for i := range self {
		if p := t.ParentAt(i); p >= 0 {
			self[p] -= t.DurAt(i)
		}
	}
	return self
}

// DepthAt is entry i's depth, 0 for roots.
func (t *Track) DepthAt(i int) uint16 { return t.Depth[i] }

// KindAt tells whether entry i is a trace event or a ProfileCall.
func (t *Track) KindAt(i int) EntryKind {
	if t.KindColumn != nil {
		return t.KindColumn[i]
	}
	if t.NodeAt(i) >= 0 {
		return EntryProfileCall
	}
	return EntryEvent
}

// KindsAt sets kinds[k] to KindAt(lo+k) for each k: a run of entries at once, a compact track's
// node column decoded in one pass rather than a value at a time.
func (t *Track) KindsAt(lo int, kinds []EntryKind) {
	switch {
	case t.KindColumn != nil:
		copy(kinds, t.KindColumn[lo:lo+len(kinds)])
	case !t.Compact:
		for k, n := range t.Node[lo : lo+len(kinds)] {
			kinds[k] = EntryEvent
			if n >= 0 {
				kinds[k] = EntryProfileCall
			}
		}
	default:
		// A node of 0 is none.
		var nodes [256]uint64
		for run := 0; run < len(kinds); run += len(nodes) {
			n := min(len(nodes), len(kinds)-run)
			t.NodePlus1.Run(lo+run, nodes[:n])
			for k, node := range nodes[:n] {
				kinds[run+k] = EntryEvent
				if node != 0 {
					kinds[run+k] = EntryProfileCall
				}
			}
		}
	}
}

// NameAt is entry i's name.
func (t *Track) NameAt(i int) StrID {
	if !t.Compact {
		return t.Name[i]
	}
	if n := t.NodePlus1.At(i); n > 0 {
		return t.NodeName[n-1]
	}
	return t.EventName[t.Refs.At(i)]
}

// FrameAt is entry i's call frame, NoFrame for an event.
func (t *Track) FrameAt(i int) FrameID {
	if t.FrameColumn != nil {
		return t.FrameColumn[i]
	}
	if n := t.NodeAt(i); n >= 0 && int(n) < len(t.NodeFrame) {
		return t.NodeFrame[n]
	}
	return NoFrame
}

// ParentAt is the index of entry i's parent, -1 for a root.
func (t *Track) ParentAt(i int) int32 {
	if !t.Compact {
		return t.Parent[i]
	}
	d := t.Depth[i]
	if d == 0 {
		return -1
	}
	if i > 0 && t.Depth[i-1]+1 == d {
		return int32(i - 1)
	}
	k, _ := slices.BinarySearch(t.ParentFar, int32(i))
	return t.ParentFarTo[k]
}

// RefAt is entry i's event index into Trace.Events, or for a ProfileCall its sample index (-1
// when no single sample made it).
func (t *Track) RefAt(i int) int32 {
	if !t.Compact {
		return t.Ref[i]
	}
	r := int(t.Refs.At(i))
	if t.NodePlus1.At(i) == 0 {
		return t.EventRef[r]
	}
	if r < t.SampleStart.Len() {
		if t.SampleOf != nil {
			return t.SampleOf[r]
		}
		return int32(r)
	}
	return -1
}

// NodeAt is entry i's profile node, -1 for an event.
func (t *Track) NodeAt(i int) int32 {
	if !t.Compact {
		return t.Node[i]
	}
	return int32(t.NodePlus1.At(i)) - 1
}

// TicksOf is node n's NodeTicks (Len 0 when it has none).
func (m *ProfileModel) TicksOf(n int) Span {
	if n < 0 || n >= len(m.NodeTicks) {
		return Span{}
	}
	return m.NodeTicks[n]
}

// InputKind is what kind of file a Trace came from.
type InputKind uint8

const (
	InputTrace InputKind = iota
	InputCPUProfile
	InputSelfProfile
)

func (k InputKind) String() string {
	switch k {
	case InputCPUProfile:
		return "cpuprofile"
	case InputSelfProfile:
		return "selfprofile"
	}
	return "trace"
}

// Trace is a loaded file: everything the layers above read.
type Trace struct {
	Kind    InputKind
	Strings *Strings
	Frames  []CallFrame
	Threads []Thread
	Events  Events
	// Profiles holds one DevTools model per profiled thread (the chosen profile, RULES.md §1).
	Profiles []ProfileModel
	// Tracks holds one tree per thread that has entries, filled by core/integrate.
	Tracks []Track
	// Bounds of all events and samples, µs.
	MinTs, MaxTs float64
	// EventBounds says that MinTs and MaxTs are EngineBounds, the bounds of a DevTools trace's
	// own events, which the loader found: the panel's lists need them again (core/timelines),
	// and a scan of every event for them took 3 ms of gen-trace-large's wait for its chart, twice.
	EventBounds bool
	Warnings    Warnings
	// Chunks keeps the raw Profile/ProfileChunk/CpuProfile data in file order (see RawChunks).
	Chunks RawChunks
	// Stats is what the loader measured (sizes, counts, time per stage).
	Stats LoadStats
	// Metadata is the raw JSON of a trace's top-level "metadata" object, nil when it has none.
	Metadata []byte
	// Original is where source maps put each frame (core/sourcemap fills it after integration);
	// nil when no map applied.
	Original *OriginalFrames
}

// OriginalFrames holds, per FrameID, the original position that a source map gives a frame: extra
// columns beside Trace.Frames, which keep the engine's own values.
type OriginalFrames struct {
	// Mapped is false for a frame no map covers; its other columns are then zero.
	Mapped []bool
	// Name is the original function name: the map's name where it has one, else the engine's.
	Name []StrID
	// URL is the original source file as the map names it, with bundler prefixes such as
	// webpack://project/ removed (e.g. "src/text.ts").
	URL []StrID
	// Line and Column are 0-based, like CallFrame's.
	Line, Column []int32
}

// Shown returns frame f as it is displayed: with its original name, URL and position when a source
// map covers it and original is true, else as the engine recorded it.
func (tr *Trace) Shown(f FrameID, original bool) CallFrame {
	if int(f) >= len(tr.Frames) {
		return CallFrame{Line: -1, Column: -1}
	}
	cf := tr.Frames[f]
	if o := tr.Original; original && o != nil && int(f) < len(o.Mapped) && o.Mapped[f] {
		cf.FunctionName, cf.URL, cf.Line, cf.Column = o.Name[f], o.URL[f], o.Line[f], o.Column[f]
	}
	return cf
}

// IsMapped reports whether a source map covers frame f.
func (tr *Trace) IsMapped(f FrameID) bool {
	o := tr.Original
	return o != nil && int(f) < len(o.Mapped) && o.Mapped[f]
}

// Warnings counts what was skipped or repaired while loading, so that nothing is dropped silently.
// Each distinct message is counted, e.g. "events with a non-numeric ts skipped" ×37.
type Warnings struct {
	counts map[string]int
	order  []string
}

// Add counts n occurrences of what.
func (w *Warnings) Add(what string, n int) {
	if n <= 0 {
		return
	}
	if w.counts == nil {
		w.counts = map[string]int{}
	}
	if _, ok := w.counts[what]; !ok {
		w.order = append(w.order, what)
	}
	w.counts[what] += n
}

// Addf counts one occurrence of a formatted message.
func (w *Warnings) Addf(format string, args ...any) { w.Add(fmt.Sprintf(format, args...), 1) }

// AddAll adds every warning of from to w with its count, in from's order, as Add would.
func (w *Warnings) AddAll(from *Warnings) {
	for _, m := range from.order {
		w.Add(m, from.counts[m])
	}
}

// Len is the number of distinct warnings.
func (w *Warnings) Len() int { return len(w.order) }

// Lines renders the warnings in the order they first occurred: "37 × events with a non-numeric ts
// skipped", or the message alone when it happened once.
func (w *Warnings) Lines() []string {
	out := make([]string, 0, len(w.order))
	for _, m := range w.order {
		if n := w.counts[m]; n > 1 {
			out = append(out, fmt.Sprintf("%d × %s", n, m))
		} else {
			out = append(out, m)
		}
	}
	return out
}

// Progress is shared between a loading goroutine and the UI: bytes done out of the total.
type Progress struct {
	Done  atomic.Int64
	Total atomic.Int64
	stage atomic.Value // string
	// The current stage fills [phaseStart, phaseStart+phaseShare] of the whole bar (Overall), in
	// millionths, so that a bar over several stages moves on instead of restarting at each one.
	phaseStart, phaseShare atomic.Int64
	// shown is the furthest Overall has said, in millionths: the stage that ends clears its count
	// (Done) before the next one's part of the bar is set, and a bar read between the two would go
	// back to the start of the ending stage's part.
	shown atomic.Int64
	// TrackBuilt, when set before the load starts, is handed each thread's track as soon as
	// core/integrate has built it, on the goroutine that built it, while other threads' tracks
	// are still being built: the window lays a track out there (timeline.Prelayout) instead of
	// after the whole build. The track's columns are final; tr.Tracks later holds a copy of it
	// that shares them. It must return quickly.
	TrackBuilt func(tr *Trace, t *Track)
	// ChooseLate, when set before the load starts, is asked once which threads' tracks
	// core/integrate may build after the others: it is given each thread that has a track to
	// build and the work it takes (trace events plus samples), and returns those to leave. The window
	// leaves the large threads that its first view cannot show, so that the one it shows first is
	// built with every core. Their places in Trace.Tracks then hold empty tracks of their threads,
	// and Late says how to build them.
	ChooseLate func(tr *Trace, threads []ThreadID, work []int) []ThreadID
	// Late is set by core/integrate, on the loading goroutine, when it left threads as
	// ChooseLate asked; nil otherwise.
	Late LateTracks
}

// LateTracks are the tracks of a trace that core/integrate left to be built after the others
// (Progress.ChooseLate). Until Install their places in Trace.Tracks hold empty tracks (Len 0) of
// their threads, and Trace.Warnings lacks the warnings of the tracks' build, the others' too.
type LateTracks interface {
	// Threads are the threads whose tracks are late, in the order of their places in Tracks.
	Threads() []ThreadID
	// Build builds the tracks, in Threads' order, reading the trace and writing nothing in it: it
	// may run on any goroutine, beside readers of the trace, once. It gives up with ctx.Err()
	// soon after ctx is cancelled, and fails when the tracks would take more than the load's
	// memory budget.
	Build(ctx context.Context) ([]Track, error)
	// Warnings are those of the whole track build, late tracks and others, in the order a build
	// without late tracks adds them; valid once Build has returned without error.
	Warnings() *Warnings
	// Install puts the tracks Build returned in their places in Trace.Tracks and adds Warnings to
	// the trace's. Call it once, after Build succeeded, while nothing else reads the trace.
	Install()
}

// NoteTrackBuilt calls TrackBuilt, if p and it are set.
func (p *Progress) NoteTrackBuilt(tr *Trace, t *Track) {
	if p != nil && p.TrackBuilt != nil {
		p.TrackBuilt(tr, t)
	}
}

// SetPhase says which part of the whole bar the stages from now on fill: from start, share of
// it (both in [0, 1]). Without it a stage fills the whole bar.
func (p *Progress) SetPhase(start, share float64) {
	if p != nil {
		p.phaseStart.Store(int64(start * 1e6))
		p.phaseShare.Store(int64(share*1e6) + 1)
	}
}

// Overall is how far along the whole bar is, in [0, 1]: the current stage's Fraction placed in
// the part of the bar SetPhase gave it, and never less than it said before once phases are set.
func (p *Progress) Overall() float64 {
	if p == nil {
		return 0
	}
	share := p.phaseShare.Load()
	if share == 0 {
		return p.Fraction()
	}
	v := min(float64(p.phaseStart.Load())/1e6+float64(share-1)/1e6*p.Fraction(), 1)
	now := int64(v * 1e6)
	for {
		was := p.shown.Load()
		if now <= was {
			return float64(was) / 1e6
		}
		if p.shown.CompareAndSwap(was, now) {
			return float64(now) / 1e6 // in millionths as the later reads, which may be less than v
		}
	}
}

// SetStage names what the loader is doing now, e.g. "reading" or "building tracks".
func (p *Progress) SetStage(s string) {
	if p != nil {
		p.stage.Store(s)
	}
}

// Stage returns what SetStage last said.
func (p *Progress) Stage() string {
	if p == nil {
		return ""
	}
	s, _ := p.stage.Load().(string)
	return s
}

// Fraction is Done/Total in [0, 1], 0 when the total is unknown.
func (p *Progress) Fraction() float64 {
	if p == nil {
		return 0
	}
	t := p.Total.Load()
	if t <= 0 {
		return 0
	}
	f := float64(p.Done.Load()) / float64(t)
	return min(max(f, 0), 1)
}

// ThreadLabel is a display name for thread t: its name, or "Thread TID".
func (tr *Trace) ThreadLabel(t ThreadID) string {
	th := tr.Threads[t]
	if n := tr.Strings.Get(th.Name); n != "" {
		return n
	}
	return fmt.Sprintf("Thread %d", th.Tid)
}

// Entries returns each distinct warning with its count, in first-occurrence order.
func (w *Warnings) Entries() (messages []string, counts []int) {
	counts = make([]int, len(w.order))
	for i, m := range w.order {
		counts[i] = w.counts[m]
	}
	return w.order, counts
}
