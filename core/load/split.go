// Parsing the event array of a trace on several cores.
//
// Chrome writes one event per line, so a line that starts with '{' almost always starts an event.
// The loader cuts the array there into segments and hands each to a lane: a goroutine with a
// loader of its own, whose tables (strings, threads, call frames) persist from one segment to the
// next, and which reads everything, profile data included, into columns and arenas of its own.
// The load's own loader then merges the lanes' segments in file order, renumbering as it copies,
// so that the trace is exactly the one a read in one pass gives: strings, threads and frames get
// their ids in the order they first appear, events and profile records their indexes, and every
// warning its count and first event.
//
// Anything a lane cannot take for certain (malformed JSON, a '{' at a line's start inside a string,
// the array's end, an arena near its cap) stops the lane at that event: the merge takes what came
// before it, and the loader goes back to that byte and reads on in one pass from there.

package load

import (
	"bytes"
	"math"
	"unsafe"

	"flamedesk/core"
	"flamedesk/internal/background"
)

// The sizes of a segment: at least segmentMin bytes (so that handing it over costs nothing next
// to parsing it), cut at the last event start before segmentMax. Tests make them tiny.
var (
	segmentMin = 64 << 10
	segmentMax = 512 << 10
)

// laneCount is how many lanes a load uses: one more than cores, as a lane waits from the end of
// its segment until it is merged. None on one core, and none for gzip on two: inflating keeps a
// core half busy, and what is left does not pay for the merge. (gen-trace-medium-reload on 2
// cores, medians of 21 runs of the read stage: from the JSON itself 126 ms in one pass, 86 ms
// split; from gzip 100 ms in one pass, 100-115 ms split.) None either beside a window that shows
// a document: the lanes would take the cores its frames need (framebench's second load of
// gen-trace-large uncompressed: p95 26-29 ms while loading, against 24-28 in one pass). Tests set
// it.
var laneCount = func(gzip bool) int {
	n := background.Workers()
	if !background.MayTakeEveryCore() || (gzip && n < 3) {
		return 0
	}
	return n + 1
}

// lane limits: a lane's tables are started afresh past these, so that a trace of endless distinct
// names or threads is not held twice.
const (
	laneMaxStrings = 1 << 16
	laneMaxThreads = 1 << 12
	laneMaxFrames  = 1 << 16
)

// laneState is what a lane's loader keeps beside a load's: where the current event began, and
// what the merge must do other than copy (profile records, metadata).
type laneState struct {
	// The current event's start: its offset and index among the segment's events, the lengths of
	// the string and frame tables, and the counts its own reading may change.
	from, ordinal int64
	strs, frames  int
	badUTF8       int
	badSampleIDs  int
	badNodeIDs    int
	badDeltas     int
	badTraceIDs   int
	records       []laneRecord
	meta          []metaEntry
	stopped       bool
	stop          laneMark
}

// laneMark is the state of a lane's segment before one of its events: the lengths of its tables
// and columns, and the aggregates (warning counts, bounds) of the events before it.
type laneMark struct {
	from, ordinal         int64
	strs, threads, frames int
	events, asyncIDs      int
	metas, records        int
	counts                counts
	badUTF8               int
	minTs, maxTs          float64
}

// laneRecord is a profile record of a lane: the lane before its event, and where its data begin
// in the lane's RawChunks arenas.
type laneRecord struct {
	at   laneMark
	data chunkMark
}

// metaEntry is a metadata event's effect (see loader.metadata), applied by the merge.
type metaEntry struct {
	fl        uint16
	hasName   bool
	hasSort   bool
	thread    core.ThreadID
	pid       int64
	name      core.StrID
	sortIndex int32
}

// begin notes the start of an event.
func (ls *laneState) begin(l *loader) {
	ls.from, ls.ordinal = l.s.offset(), int64(l.nEvents)
	ls.strs, ls.frames, ls.badUTF8 = l.strs.Len(), len(l.tr.Frames), l.s.badUTF8
	ls.badSampleIDs, ls.badNodeIDs, ls.badDeltas, ls.badTraceIDs = l.w.badSampleIDs, l.w.badNodeIDs, l.w.badDeltas, l.w.badTraceIDs
}

// mark returns the lane's state before the current event.
func (ls *laneState) mark(l *loader) laneMark {
	m := laneMark{
		from: ls.from, ordinal: ls.ordinal,
		strs: ls.strs, threads: len(l.tr.Threads), frames: ls.frames,
		events: l.cols.ts.Len(), asyncIDs: len(l.tr.Events.AsyncIDs),
		metas: len(ls.meta), records: l.ch.Len(),
		counts: l.w, badUTF8: ls.badUTF8, minTs: l.minTs, maxTs: l.maxTs,
	}
	m.counts.badSampleIDs, m.counts.badNodeIDs = ls.badSampleIDs, ls.badNodeIDs
	m.counts.badDeltas, m.counts.badTraceIDs = ls.badDeltas, ls.badTraceIDs
	return m
}

// end returns the lane's state after its last event.
func (ls *laneState) end(l *loader) laneMark {
	m := ls.mark(l)
	m.strs, m.frames, m.counts, m.badUTF8 = l.strs.Len(), len(l.tr.Frames), l.w, l.s.badUTF8
	m.ordinal = int64(l.nEvents)
	return m
}

// record notes that the current event is a profile record.
func (ls *laneState) record(l *loader) {
	ls.records = append(ls.records, laneRecord{at: ls.mark(l), data: l.pend.mark})
}

// logMetadata records what loader.metadata would do.
func (ls *laneState) logMetadata(l *loader, f *event, th core.ThreadID, fl uint16) {
	e := metaEntry{fl: fl, thread: th, pid: f.pid, hasName: f.hasArgName, hasSort: f.hasSortIndex, sortIndex: f.sortIndex}
	if fl&(flagThreadName|flagProcessName) != 0 && f.hasArgName {
		e.name = l.internBytes(f.argName)
	}
	ls.meta = append(ls.meta, e)
}

// apply does what loader.metadata does, on the load's loader.
func (e *metaEntry) apply(l *loader, th core.ThreadID, name core.StrID) {
	t := &l.tr.Threads[th]
	switch {
	case e.fl&flagThreadName != 0 && e.hasName:
		t.Name = name
	case e.fl&flagProcessName != 0 && e.hasName:
		l.procName[e.pid] = name
	case e.fl&flagThreadSort != 0 && e.hasSort:
		t.SortIndex, t.HasSortIndex = e.sortIndex, true
	case e.fl&flagProcessSort != 0 && e.hasSort:
		l.procSort[e.pid] = e.sortIndex
	}
}

// lane parses segments on its own goroutine.
type lane struct {
	l    *loader
	seg  []byte // the segment, copied
	base int64  // its stream offset
	// The ids the load's loader gave the lane's strings, threads and frames so far.
	strMap   []core.StrID
	thrMap   []core.ThreadID
	frameMap []core.FrameID
	err      error
	run      chan struct{}
	done     chan struct{}
}

// splitter hands segments of the event array to lanes and merges them back in order.
type splitter struct {
	l     *loader
	lanes int
	idle  []*lane
	busy  []*lane // in file order
	all   []*lane
	off   bool // after a lane stopped: the rest is read in one pass
	// retryAt is the stream offset before which no segment is cut: there is no line start '{'
	// before it.
	retryAt int64
}

// newSplitter returns a splitter for l's event array, or nil when laneCount says to read it in
// one pass.
func (l *loader) newSplitter() *splitter {
	n := laneCount(l.gzip)
	if n < 2 || l.lane != nil {
		return nil
	}
	return &splitter{l: l, lanes: n}
}

// step is the splitter's part of the loader's loop over the event array, at an event's start
// when atEvent: it hands a segment to a lane, or else merges what the lanes have, for the loader
// to read on itself. again is true when the loader's position moved (a segment handed over, or
// the loader sent back by a lane's stop).
func (sp *splitter) step(atEvent bool) (again bool, err error) {
	if atEvent && !sp.off {
		if handed, err := sp.handOff(); err != nil || handed {
			return true, err
		}
	}
	return sp.drain()
}

// close stops the lanes.
func (sp *splitter) close() {
	if sp == nil {
		return
	}
	for _, ln := range sp.busy {
		<-ln.done
	}
	sp.busy = nil
	for _, ln := range sp.all {
		close(ln.run)
		ln.l.cols.reset(ln.l.mem)
	}
	sp.all, sp.idle = nil, nil
}

// handOff cuts a segment at the scanner's position, which is at an event's '{', and gives it to a
// lane. It reports false when no segment can be cut there (the caller reads the event itself), and
// also true after a lane's stop made the loader go back (the caller reads on from there).
func (sp *splitter) handOff() (bool, error) {
	if len(sp.idle) == 0 {
		if len(sp.all) < sp.lanes {
			sp.idle = append(sp.idle, sp.newLane())
		} else if err := sp.mergeOldest(); err != nil || sp.off {
			return true, err
		}
	}
	s := sp.l.s
	if s.offset() < sp.retryAt {
		return false, nil
	}
	cut := sp.findCut()
	if cut < 0 {
		// There is no cut before the window's end: looking again before it would only read
		// the same bytes again (a trace written on one line has no cut at all).
		sp.retryAt = s.base + int64(s.end)
		return false, nil
	}
	ln := sp.idle[len(sp.idle)-1]
	sp.idle = sp.idle[:len(sp.idle)-1]
	ln.load(s.buf[s.pos:cut], s.offset())
	s.pos = cut
	s.capLazy = false // the last event the loader read itself is filed: its args need no keeping
	sp.busy = append(sp.busy, ln)
	ln.run <- struct{}{}
	return true, nil
}

// findCut returns the index in the window of the last line start '{' that ends a segment, reading
// more when the window holds none; -1 when there is none.
func (sp *splitter) findCut() int {
	s := sp.l.s
	for range 16 {
		w := s.buf[s.pos:s.end]
		if len(w) > segmentMax {
			w = w[:segmentMax]
		}
		if len(w) > segmentMin {
			if i := bytes.LastIndex(w[segmentMin-1:], []byte("\n{")); i >= 0 {
				return s.pos + segmentMin + i
			}
		}
		if len(w) >= segmentMax {
			return -1
		}
		_, ok := s.fill(s.pos)
		s.hideEnd()
		if !ok {
			return -1
		}
	}
	return -1
}

// drain merges every segment handed over. rewound is true when a lane's stop made the loader go
// back.
func (sp *splitter) drain() (rewound bool, err error) {
	for len(sp.busy) > 0 {
		if err := sp.mergeOldest(); err != nil {
			return false, err
		}
		if sp.off {
			return true, nil
		}
	}
	return false, nil
}

// mergeOldest waits for the first segment handed over and merges it.
func (sp *splitter) mergeOldest() error {
	ln := sp.busy[0]
	<-ln.done
	sp.busy = sp.busy[1:]
	sp.idle = append(sp.idle, ln)
	if ln.err != nil {
		return ln.err
	}
	stop, err := sp.merge(ln)
	if err != nil || stop < 0 {
		return err
	}
	sp.goBack(ln, stop)
	return nil
}

// goBack makes the loader read on in one pass from stream offset at, in ln's segment: the lanes
// after it are waited for and their segments read again.
func (sp *splitter) goBack(ln *lane, at int64) {
	prefix := append([]byte(nil), ln.seg[at-ln.base:]...)
	for _, next := range sp.busy {
		<-next.done
		prefix = append(prefix, next.seg...)
		sp.idle = append(sp.idle, next)
	}
	sp.busy = nil
	sp.off = true
	sp.l.s.rewind(prefix, at)
}

func (sp *splitter) newLane() *lane {
	main := sp.l
	l := newTables(main.ctx, main.mem)
	l.s = &scanner{ctx: main.ctx, mem: main.mem}
	l.lane = &laneState{}
	ln := &lane{l: l, run: make(chan struct{}), done: make(chan struct{})}
	sp.all = append(sp.all, ln)
	go func() {
		background.Lower()
		for range ln.run {
			ln.err = ln.parse()
			ln.done <- struct{}{}
		}
	}()
	return ln
}

// load gives the lane segment b at stream offset base, and starts its loader's segment afresh.
func (ln *lane) load(b []byte, base int64) {
	ln.seg = append(ln.seg[:0], b...)
	ln.base = base
	l := ln.l
	if l.strs.Len() > laneMaxStrings || len(l.tr.Threads) > laneMaxThreads || len(l.tr.Frames) > laneMaxFrames {
		fresh := newTables(l.ctx, l.mem)
		fresh.s, fresh.lane = l.s, l.lane
		l.cols.reset(l.mem)
		l.frameMemo.drop(l.mem)
		*l = *fresh
		ln.strMap, ln.thrMap, ln.frameMap = ln.strMap[:0], ln.thrMap[:0], ln.frameMap[:0]
	}
	l.cols.reset(l.mem)
	resetChunks(l.ch)
	l.beginPending()
	l.tr.Events.AsyncIDs = l.tr.Events.AsyncIDs[:0]
	l.w = counts{}
	l.nEvents = 0
	l.minTs, l.maxTs = math.Inf(1), math.Inf(-1)
	ls := l.lane
	ls.records, ls.meta, ls.stopped = ls.records[:0], ls.meta[:0], false
	l.s.over(ln.seg, base)
	l.s.badUTF8 = 0
}

// parse reads the lane's segment to its end, or to the first event it cannot take.
func (ln *lane) parse() (err error) {
	defer catchBudget(&err)
	l := ln.l
	s := l.s
	for {
		c, ok := s.peek()
		if !ok {
			return nil
		}
		switch c {
		case ',':
			s.pos++
		case '{':
			if err := l.event(); err != nil {
				l.rollback()
				l.lane.stopped, l.lane.stop = true, l.lane.mark(l)
				return nil
			}
		default:
			l.lane.begin(l)
			l.lane.stopped, l.lane.stop = true, l.lane.mark(l)
			return nil
		}
	}
}

// merge adds ln's segment to the load, in file order. stop is the stream offset where the load
// must read on in one pass (an event the lane could not take), else -1.
func (sp *splitter) merge(ln *lane) (stop int64, err error) {
	defer catchBudget(&err)
	l, w := sp.l, ln.l
	ls := w.lane
	upTo, stop := ls.end(w), int64(-1)
	if ls.stopped {
		upTo, stop = ls.stop, ls.stop.from
	}
	records := ls.records[:upTo.records]
	for i := range records {
		if !sp.recordFits(ln, i) {
			records, upTo, stop = records[:i], records[i].at, records[i].at.from
			break
		}
	}
	for i := len(ln.strMap); i < upTo.strs; i++ {
		ln.strMap = append(ln.strMap, l.internString(w.strs.Get(core.StrID(i))))
	}
	for i := len(ln.thrMap); i < upTo.threads; i++ {
		t := &w.tr.Threads[i]
		ln.thrMap = append(ln.thrMap, l.thread(t.Pid, t.Tid))
	}
	for i := len(ln.frameMap); i < upTo.frames; i++ {
		cf := w.tr.Frames[i]
		cf.FunctionName, cf.URL = ln.strMap[cf.FunctionName], ln.strMap[cf.URL]
		cf.ScriptID, cf.CodeType = ln.strMap[cf.ScriptID], ln.strMap[cf.CodeType]
		ln.frameMap = append(ln.frameMap, l.internFrame(cf))
	}
	shift := int32(l.cols.ts.Len())
	sp.mergeEvents(ln, upTo.events)
	for _, a := range w.tr.Events.AsyncIDs[:upTo.asyncIDs] {
		a.Event += shift
		a.ID = ln.strMap[a.ID]
		l.tr.Events.AsyncIDs = push(l.mem, l.tr.Events.AsyncIDs, a)
	}
	for _, e := range ls.meta[:upTo.metas] {
		e.apply(l, ln.thrMap[e.thread], ln.strMap[e.name])
	}
	for i := range records {
		end := chunkEnd(w.ch)
		if i+1 < len(ls.records) {
			end = ls.records[i+1].data
		}
		sp.mergeRecord(ln, i, records[i].data, end)
	}
	// The next profile data the loader reads itself go after these.
	l.beginPending()
	l.w.add(upTo.counts, l.nEvents)
	l.s.badUTF8 += upTo.badUTF8
	l.minTs = min(l.minTs, upTo.minTs)
	l.maxTs = max(l.maxTs, upTo.maxTs)
	l.nEvents += int(upTo.ordinal)
	return stop, nil
}

// mergeEvents appends the lane's events up to n to the load's columns.
func (sp *splitter) mergeEvents(ln *lane, n int) {
	if n == 0 {
		return
	}
	l, w := sp.l, ln.l
	e, we := &l.cols, &w.cols
	e.ph.appendFirst(l.mem, &we.ph, n)
	e.ts.appendFirst(l.mem, &we.ts, n)
	e.dur.appendFirst(l.mem, &we.dur, n)
	e.sampleTraceID.appendFirst(l.mem, &we.sampleTraceID, n)
	appendMapped(l.mem, &e.name, &we.name, n, ln.strMap)
	appendMapped(l.mem, &e.cat, &we.cat, n, ln.strMap)
	appendMapped(l.mem, &e.thread, &we.thread, n, ln.thrMap)
	snaps, snap := we.snapshots, 0
	at := e.args.Len() // where the lane's event 0 goes
	k := 0
	for blk := range we.args.prefix(n) {
		for _, span := range blk {
			if span.Len > 0 {
				args := we.arena.bytes(span)
				var ok bool
				if snap < len(snaps) && int(snaps[snap].Event) == k {
					span, ok = l.keepSplit(we.arena.bytes(snaps[snap].Span), args, at+k)
					snap++
				} else {
					span, ok = e.arena.add(l.mem, args)
				}
				if !ok {
					l.w.argsArenaFull++
				}
			}
			e.args.push(l.mem, span)
			k++
		}
	}
}

// add adds c, counted by a lane on events from the load's event first on, to w.
func (w *counts) add(c counts, first int) {
	if c.badTs > 0 && (w.badTs == 0 || first+c.firstBadTs < w.firstBadTs) {
		w.firstBadTs = first + c.firstBadTs
	}
	w.noTs += c.noTs
	w.badTs += c.badTs
	w.badDur += c.badDur
	w.badPid += c.badPid
	w.argsTooBig += c.argsTooBig
	w.argsArenaFull += c.argsArenaFull
	w.badSampleIDs += c.badSampleIDs
	w.badNodeIDs += c.badNodeIDs
	w.badDeltas += c.badDeltas
	w.badTraceIDs += c.badTraceIDs
	w.noName += c.noName
	w.malformed += c.malformed
	w.farTs += c.farTs
	w.farEnd += c.farEnd
}

// internString interns str on the load's loader, as internBytes does (the table copies it).
func (l *loader) internString(str string) core.StrID {
	return l.internBytes(unsafe.Slice(unsafe.StringData(str), len(str)))
}
