package integrate

import (
	"context"
	"math"

	"flamedesk/core"
	"flamedesk/internal/background"
)

// This file turns a thread's samples into ProfileCalls the way DevTools' SamplesIntegrator does
// (RULES.md §3), walking the thread's trace events and samples together in time order. The rules
// are DevTools'; the bookkeeping is ours, so that nothing costs O(stack depth) per event:
//
//   - DevTools re-stamps the duration of every open JS frame on each truncation. The last
//     truncation a frame sees is the one that counts, so a frame's duration is settled when it is
//     cut from the stack, and the frames still open at the end take the last truncation's time.
//   - DevTools compares a new sample's stack with the open frames position by position. Open
//     frames are kept as segments that each follow the path of one stack in the profile's
//     frame-path trie, so a comparison is a lowest-common-ancestor query per segment.

// entry is one trace event of a thread, after B/E pairing, as DevTools holds it in a thread's list.
// Its duration is read from Trace.Events (see entryDur) where it is needed, which is seldom
// enough that 16 bytes an entry are worth it over 24.
type entry struct {
	ts    float64
	ev    int32 // index into Trace.Events
	flags uint8
}

const (
	flagInstant    uint8 = 1 << iota // ph I
	flagTask                         // RunTask or RunMicrotasks: JS cannot be on the stack around it
	flagInvocation                   // a JS entry point: samples directly under it are JS calls
	flagTraceID                      // carries a sampleTraceId
)

// end is where the entry ends: its start plus its duration, 0 where the event has none.
func (e *entry) end(ev *core.Events) float64 { return e.ts + entryDur(ev, e.ev) }

// sampleCall is a sample's place in the time-ordered walk.
type sampleCall struct {
	ts     float64
	sample int32
}

// segment says that open frames from start up to the next segment's start (or the top) carry the
// frame keys of trie path `path` at the same positions. path -1 marks frames that follow no single
// path (only possible with malformed profiles); those are compared one by one.
type segment struct {
	start int32
	path  int32
}

// call is one constructed ProfileCall. A deep trace makes millions, so its start is not stored:
// it is the time of the sample or trace event that pushed it (calls.ts).
type call struct {
	dur  float64
	node int32
	// src is the sample index, or for a call built from a trace event's sampleTraceId the
	// complement of the event's index.
	src int32
}

// calls is the integrator's output: the constructed ProfileCalls in the order DevTools creates
// them (time order, parents before children at equal times). A deep trace makes millions of
// them, so they live in fixed-size blocks that are never copied as the list grows, column-wise
// and as narrow as the track they become: a duration as a 32-bit Times offset, the node and the
// source in the bits that the profile's sizes need.
type calls struct {
	blocks []*callBlock
	n      int
	limit  grant        // the build's entry budget: add stops making blocks once it is spent
	source *blockSource // pre-mapped blocks for big jobs; nil to allocate them here
	// sampleTs and eventTs are the profile's Timestamps and Trace.Events.Ts, where calls start.
	sampleTs, eventTs []float64
	// nodeBits and srcBits size the blocks' packed columns.
	nodeBits, srcBits uint64
	// cuts are places where treify may cut the thread's tree in two (see treeCut), in walk
	// order; unsorted is set when a call starts before the one made before it, which rules
	// them out.
	cuts     []treeCut
	unsorted bool
	// endCut, when endCut.part is 1, is the cut where the next walk part begins: the calls of
	// this part all end by its start.
	endCut treeCut
}

// treeCut is a place in the walk where nothing is open: a task that starts after every call made
// before it has ended (its start is later than theirs, and no later than their ends). With the
// events before it ended too (treify checks that), the calls and events before it and those after
// it form two trees that can be built at once.
type treeCut struct {
	entry int32 // the task's entry
	// part is the walk part whose calls the second half starts with: 0 for a cut inside the
	// first, 1 for the cut between the walk's two parts (where calls is 0).
	part  int32
	calls int32 // the calls made before it
	// traceCalls is how many of those calls come from a trace event's sampleTraceId.
	traceCalls int32
}

// cutSpacing is how many calls there are at least between two cuts that the walk notes, and
// before the first. A variable so that tests can cut small trees.
var cutSpacing = 1 << 14

// newCalls returns an empty list for the calls of a profile with the given number of nodes.
func newCalls(sampleTs, eventTs []float64, nodes int) calls {
	return calls{sampleTs: sampleTs, eventTs: eventTs, nodeBits: uint64(nodes), srcBits: uint64(len(sampleTs) + len(eventTs))}
}

// ts is where call x starts: its sample's time as DevTools has it, or its trace event's start.
func (c *calls) ts(x call) float64 {
	if x.src >= 0 {
		return devtoolsMicros(c.sampleTs[x.src])
	}
	return c.eventTs[^x.src]
}

// callBlockBits sizes a block: 8192 calls, 56 KB at most. Most of a trace's profiled threads
// (a page's iframes and workers) make few calls, and a thread takes a block as soon as it makes
// one: at 131072 calls a block (0.9 MB), a real trace with 6 such threads scaled 32 times took
// 1.4x its JSON's size to load, against 1.2x now. The largest threads hand blocks back as the
// tree walk passes them, sooner when they are small.
const callBlockBits = 13

// callBlock holds 1<<callBlockBits calls, column-wise. src is stored as the sample index, or the
// number of samples plus the event's index.
type callBlock struct {
	dur       core.Times
	node, src core.Packed
}

func newCallBlock(nodeBits, srcBits uint64) *callBlock {
	const n = 1 << callBlockBits
	return &callBlock{dur: core.NewTimes(0, n), node: core.NewPacked(n, nodeBits), src: core.NewPacked(n, srcBits)}
}

func (c *calls) len() int { return c.n }

func (c *calls) at(i int32) call {
	b, k := c.blocks[i>>callBlockBits], int(i&(1<<callBlockBits-1))
	src := int32(b.src.At(k))
	if int(src) >= len(c.sampleTs) {
		src = ^(src - int32(len(c.sampleTs)))
	}
	return call{dur: b.dur.At(k), node: int32(b.node.At(k)), src: src}
}

// durOffset is call i's duration as a Times offset from base, which is what its block holds when
// it counts from the same base; ok is false otherwise.
func (c *calls) durOffset(i int32, base float64) (o uint32, ok bool) {
	d := &c.blocks[i>>callBlockBits].dur
	if d.IsWide() || d.Base != base {
		return 0, false
	}
	return d.Off[i&(1<<callBlockBits-1)], true
}

// setDur settles call i's duration.
func (c *calls) setDur(i int32, d float64) {
	c.blocks[i>>callBlockBits].dur.Set(int(i&(1<<callBlockBits-1)), d)
}

// release lets go of the block that holds call i, once nothing reads it any more.
func (c *calls) release(i int32) {
	c.blocks[i>>callBlockBits] = nil
}

// add appends a call of node made by src, with a zero duration until setDur settles it.
func (c *calls) add(node, src int32) int32 {
	if c.n>>callBlockBits == len(c.blocks) {
		switch {
		case c.n > 0 && !c.limit.allow(c.n+1<<callBlockBits):
			// Over the budget: the build fails (see BuildContext). Until the walk notices,
			// new calls stand for the last one, which is left as it is.
			return int32(c.n - 1)
		case c.source != nil:
			c.blocks = append(c.blocks, c.source.next())
		default:
			c.blocks = append(c.blocks, newCallBlock(c.nodeBits, c.srcBits))
		}
	}
	b, k := c.blocks[c.n>>callBlockBits], c.n&(1<<callBlockBits-1)
	s := uint64(src)
	if src < 0 {
		s = uint64(len(c.sampleTs)) + uint64(^src)
	}
	// A block is filled in order from fresh (zeroed) memory: its duration is already 0, and
	// the packed columns need no clearing.
	b.node.Put(k, uint64(node))
	b.src.Put(k, s)
	c.n++
	return int32(c.n - 1)
}

// openFrame is an open JS frame: its call, where it starts (calls.ts of it, kept at hand for
// truncate), and the truncation count when it was pushed (a later truncation has stamped its
// duration).
type openFrame struct {
	start float64
	call  int32
	epoch uint32
}

type integrator struct {
	events *core.Events
	// entry is the index of the entry the walk handles (for the cuts it notes).
	entry int32
	// lastPush is the start of the last call made; maxEnd the latest end (start plus duration)
	// of the calls settled so far; traceCalls how many calls came from a sampleTraceId.
	lastPush, maxEnd float64
	traceCalls       int32
	px               *profileIndex
	samples          []int32
	out              calls
	open             []openFrame // open JS frames, bottom first
	segs             []segment
	locks            []int32
	fake             bool // samples are taken although no JS invocation event is open

	truncations uint32
	lastTruncAt float64

	prevNode int32 // node of the last non-GC sample, for GC samples' stacks
	gcBase   int32 // for the current GC sample: the node whose stack it borrows, or -1
	scratch  []int32
}

// integrateSamples builds a thread's ProfileCalls from its sorted entries and its profile. When ctx
// is cancelled it stops early; the caller discards the result. report, when not nil, is told
// every so often how many entries and samples were walked since it was last told.
func integrateSamples(ctx context.Context, tr *core.Trace, entries []entry, px *profileIndex, report func(int), limit *entryBudget) calls {
	return integratePart(ctx, tr, walkPart{entries: entries, to: len(px.p.Samples), prevNode: -1, cutAt: math.NaN()}, px, report, limit)
}

// integratePart is integrateSamples on one part of the walk (see splitWalk).
func integratePart(ctx context.Context, tr *core.Trace, part walkPart, px *profileIndex, report func(int), limit *entryBudget) calls {
	p := px.p
	entries := part.entries
	in := &integrator{events: &tr.Events, px: px, samples: p.Samples, prevNode: part.prevNode, gcBase: -1,
		lastPush: math.Inf(-1), maxEnd: math.Inf(-1)}
	in.out = newCalls(p.Timestamps, tr.Events.Ts, len(p.NodeID))
	in.out.limit.from, in.out.limit.per = limit, callBytes
	if len(entries)+len(p.Samples) >= bigJob {
		in.out.source = newBlockSource(in.out.nodeBits, in.out.srcBits)
		defer func() {
			in.out.source.close()
			in.out.source = nil
		}()
	}
	// The samples are walked in place (their times are in order): si is the next one that is
	// not a hole, for which DevTools makes no call.
	// upcoming is sample si with its time, worked out once however many events go before it.
	si, nSamples := part.from-1, part.to
	var upcoming sampleCall
	nextSample := func() {
		for si++; si < nSamples; si++ {
			if n := p.Samples[si]; n >= 0 && int(n) < len(p.NodeID) {
				upcoming = sampleCall{ts: devtoolsMicros(p.Timestamps[si]), sample: int32(si)}
				return
			}
		}
	}
	nextSample()

	var evStack []int32 // open trace events, as indexes into entries
	ei := 0
	for steps := 0; ei < len(entries) || si < nSamples; steps++ {
		if steps&0xfff == 0xfff {
			background.Yield()
		}
		if steps&0xffff == 0xffff {
			if report != nil {
				report(0x10000)
			}
			if ctx.Err() != nil {
				break
			}
		}
		if in.out.limit.over {
			break
		}
		var isSample bool
		var ts float64
		s := upcoming
		if si >= nSamples {
			isSample = false
		} else if ei >= len(entries) {
			isSample = true
		} else {
			e := &entries[ei]
			// DevTools' merge: an event goes first when it starts earlier, or at the same time
			// ends later; on a full tie the ProfileCall goes first.
			isSample = !(e.ts < s.ts || (e.ts == s.ts && e.end(in.events) > s.ts))
		}
		var cur int32
		if isSample {
			ts = s.ts
			nextSample()
			in.noteSample(s.sample)
		} else {
			cur = int32(ei)
			ei++
			e := &entries[cur]
			// Instants carry no duration, so they say nothing about the JS stack unless they
			// point at a sample.
			if e.flags&flagInstant != 0 && e.flags&flagTraceID == 0 {
				continue
			}
			ts = e.ts
		}
		for {
			if len(evStack) == 0 {
				if isSample {
					in.onSample(s, nil)
				} else {
					evStack = append(evStack, cur)
					in.entry = cur
					in.onEventStart(tr, &entries[cur])
				}
				break
			}
			parent := &entries[evStack[len(evStack)-1]]
			// The top event ends once something starts at or after its end; whether the new
			// item fits inside it is not checked (DevTools does not either).
			if ts >= parent.end(in.events) {
				in.onEventEnd(parent)
				evStack = evStack[:len(evStack)-1]
				continue
			}
			if isSample {
				in.onSample(s, parent)
			} else {
				in.entry = cur
				in.onEventStart(tr, &entries[cur])
				evStack = append(evStack, cur)
			}
			break
		}
	}
	for len(evStack) > 0 {
		in.onEventEnd(&entries[evStack[len(evStack)-1]])
		evStack = evStack[:len(evStack)-1]
	}
	if !math.IsNaN(part.cutAt) {
		// What the task that starts the next part does first: every open frame ends there.
		in.locks = in.locks[:0]
		in.truncate(0, part.cutAt)
		if !in.out.unsorted && in.lastPush < part.cutAt && in.maxEnd <= part.cutAt {
			in.out.endCut = treeCut{entry: int32(len(entries)), part: 1, traceCalls: in.traceCalls}
		}
	}
	in.finish()
	return in.out
}

// walkPart is a stretch of a thread's walk: its entries and samples [from, to). A walk is cut
// only where it holds nothing over: at a task (RunTask) that starts after every earlier entry
// has ended, every trace event has closed and the task cuts every open frame and lock, so the
// parts can be walked at once and their calls read one after the other. The one thing that
// crosses the cut is the previous sample, whose stack a GC sample borrows (noteSample).
type walkPart struct {
	entries  []entry
	from, to int
	// prevNode is what noteSample made of the samples before from.
	prevNode int32
	// cutAt is the start of the task that begins the next part, NaN for the last part.
	cutAt float64
}

// splitJob is the size (entries plus samples) from which a thread's walk is cut in two parts,
// up to bigJob. A variable so that tests can cut small walks.
var splitJob = 1 << 15

// splitWalk cuts a thread's walk into two parts of about equal size, at a top-level task, or
// returns one part when it has none (or too small a job). A job as big as those whose memory is
// mapped ahead (bigJob) is cut only when splitBig is set: with two parts in flight at once, the
// peak RSS of stats on gen-trace-large went from 0.96-0.97x the JSON to 0.97-1.07x, over issue
// #18's goal. The window sets it (see BuildContext).
func splitWalk(ev *core.Events, entries []entry, p *core.ProfileModel, splitBig bool) []walkPart {
	n := len(p.Samples)
	whole := []walkPart{{entries: entries, to: n, prevNode: -1, cutAt: math.NaN()}}
	// NaN times sort last and go before any entry; a walk with any is left whole.
	if len(entries)+n < splitJob || (len(entries)+n >= bigJob && !splitBig) || n == 0 || math.IsNaN(p.Timestamps[n-1]) {
		return whole
	}
	// A part's cost is about its entries, samples and calls, one as much as another. The calls
	// are not known before the walk: a sample makes about twice as many as its stack rises
	// above the previous sample's (a rise of at least one when the node changes).
	prevRise := int32(-1)
	rise := func(i int) int {
		nd := p.Samples[i]
		if nd < 0 || int(nd) >= len(p.NodeID) || nd == p.GCNode {
			return 1
		}
		r := 1
		if prevRise >= 0 && nd != prevRise {
			r += 2 + 2*max(0, int(p.NodeDepth[nd]-p.NodeDepth[prevRise]))
		}
		prevRise = nd
		return r
	}
	total := len(entries)
	for i := range n {
		total += rise(i)
	}
	prevRise = -1
	best, bestSample, bestGap := -1, 0, total/4
	ends := math.Inf(-1) // the latest end of the entries before k that the walk opens
	s, sampleCost := 0, 0
	for k := range entries {
		e := &entries[k]
		skipped := e.flags&flagInstant != 0 && e.flags&flagTraceID == 0
		if e.flags&flagTask != 0 && !skipped && e.ts >= ends && k > 0 {
			// The samples that the walk takes before e: those that do not start after it.
			end := e.end(ev)
			for s < n {
				ts := devtoolsMicros(p.Timestamps[s])
				if e.ts < ts || (e.ts == ts && end > ts) {
					break
				}
				sampleCost += rise(s)
				s++
			}
			if gap := abs(2*(k+sampleCost) - total); gap < bestGap {
				best, bestSample, bestGap = k, s, gap
			}
		}
		if !skipped {
			ends = max(ends, e.end(ev))
		}
	}
	if best < 0 {
		return whole
	}
	// What noteSample leaves after the first part: the last sample that is not GC, else GC.
	prev := int32(-1)
	for i := bestSample - 1; i >= 0; i-- {
		nd := p.Samples[i]
		if nd < 0 || int(nd) >= len(p.NodeID) {
			continue
		}
		if nd != p.GCNode || p.GCNode < 0 {
			prev = nd
			break
		}
		prev = nd
	}
	return []walkPart{
		{entries: entries[:best], to: bestSample, prevNode: -1, cutAt: entries[best].ts},
		{entries: entries[best:], from: bestSample, to: n, prevNode: prev, cutAt: math.NaN()},
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// devtoolsMicros reproduces DevTools' detour through milliseconds (µs / 1000, then × 1000), so
// that sample times compare with event times exactly as they do there, ties included.
func devtoolsMicros(us float64) float64 { return us / 1000 * 1000 }

// noteSample tracks the last non-GC sample: a GC sample has no stack of its own, so DevTools
// puts it on top of the previous sample's stack (when there is one).
func (in *integrator) noteSample(sample int32) {
	n := in.samples[sample]
	in.gcBase = -1
	if gc := in.px.p.GCNode; gc >= 0 && n == gc && in.prevNode >= 0 {
		in.gcBase = in.prevNode
		return
	}
	in.prevNode = n
}

func (in *integrator) onEventStart(tr *core.Trace, e *entry) {
	if e.flags&flagTask != 0 {
		in.locks = in.locks[:0]
		in.truncate(0, e.ts)
		in.fake = false
		in.noteCut(e.ts)
	}
	if in.fake {
		in.truncate(in.popLock(), e.ts)
		in.fake = false
	}
	if e.flags&flagTraceID != 0 {
		if n, ok := in.traceNode(tr.Events.SampleTraceID(int(e.ev))); ok {
			// A GC node has no stack of its own and no previous sample here: an empty stack.
			base, path := int32(-1), int32(0)
			if n != in.px.p.GCNode {
				base, path = n, in.px.stack[n]
			}
			in.merge(base, path, e.ts, ^e.ev)
		} else {
			in.truncate(int32(len(in.open)), e.ts)
		}
	} else {
		// Without a linked sample the event's "stack" is the open stack itself: every frame
		// matches, nothing is cut, and all open frames are stamped up to the event's start.
		in.truncate(int32(len(in.open)), e.ts)
	}
	in.locks = append(in.locks, int32(len(in.open)))
}

// noteCut notes the task at ts, which has just closed every open frame, as a cut when every call
// so far started before it and ended by it, and enough calls were made since the last cut.
func (in *integrator) noteCut(ts float64) {
	o := &in.out
	if len(in.open) > 0 || o.unsorted || !(in.lastPush < ts) || !(in.maxEnd <= ts) {
		return
	}
	last := 0
	if n := len(o.cuts); n > 0 {
		last = int(o.cuts[n-1].calls)
	}
	if o.n-last < cutSpacing {
		return
	}
	o.cuts = append(o.cuts, treeCut{entry: in.entry, calls: int32(o.n), traceCalls: in.traceCalls})
}

func (in *integrator) onEventEnd(e *entry) {
	in.truncate(in.popLock(), e.end(in.events))
}

func (in *integrator) popLock() int32 {
	if len(in.locks) == 0 {
		return 0
	}
	l := in.locks[len(in.locks)-1]
	in.locks = in.locks[:len(in.locks)-1]
	return l
}

// onSample handles a sample whose innermost open trace event is parent (nil for none).
func (in *integrator) onSample(s sampleCall, parent *entry) {
	if (parent != nil && parent.flags&flagInvocation != 0) || in.fake {
		in.mergeSample(s)
		return
	}
	if len(in.open) == 0 {
		// Tracing may have started in the middle of JS: pretend an invocation is open.
		in.fake = true
		in.mergeSample(s)
		in.locks = append(in.locks, 0)
	}
	// Otherwise the sample falls under a non-JS event while JS frames are open: ignored.
}

// mergeSample merges the stack of the sample noteSample saw last.
func (in *integrator) mergeSample(s sampleCall) {
	px := in.px
	n := in.samples[s.sample]
	base, path := n, px.stack[n]
	if n == px.p.GCNode {
		// The previous sample's stack with the GC frame on top; none without a previous sample.
		base, path = -1, 0
		if in.gcBase >= 0 {
			base = in.gcBase
			path = px.trie.child(px.stack[base], px.key[n])
		}
	}
	in.merge(base, path, s.ts, s.sample)
}

// traceNode resolves a sampleTraceId to a profile node, as DevTools does (node id 0 counts as none).
func (in *integrator) traceNode(id int64) (int32, bool) {
	p := in.px.p
	if id == 0 || p.TraceIDNode == nil {
		return 0, false
	}
	n, ok := p.TraceIDNode[id]
	if !ok || n < 0 || int(n) >= len(p.NodeID) || p.NodeID[n] == 0 {
		return 0, false
	}
	return n, true
}
