package load

import (
	"fmt"
	"math"
	"strconv"

	"flamedesk/core"
)

// beginPending starts collecting profile data at the current ends of the RawChunks arenas.
func (l *loader) beginPending() {
	l.pendDirty = false
	c := l.ch
	nan := math.NaN()
	l.pend = pending{
		mark: chunkMark{
			nodes:     len(c.NodeID),
			children:  len(c.Children),
			samples:   c.SampleIDs.Len(),
			deltas:    c.Deltas.Len(),
			stamps:    len(c.Stamps),
			positions: len(c.Positions),
			traceIDs:  len(c.TraceIDKey),
		},
		dataStart: nan, dataEnd: nan, profStart: nan, profEnd: nan,
		source: l.pend.source[:0],
	}
}

// rollback drops the profile data collected since beginPending.
func (l *loader) rollback() {
	if !l.pendDirty {
		return // the common case: an event without profile data
	}
	c, m := l.ch, l.pend.mark
	if len(c.NodeID) > m.nodes {
		c.NodeID = c.NodeID[:m.nodes]
		c.NodeParent = c.NodeParent[:m.nodes]
		c.NodeFrame = c.NodeFrame[:m.nodes]
		c.NodeFlags = c.NodeFlags[:m.nodes]
	}
	c.NodeChildren = c.NodeChildren[:min(len(c.NodeChildren), m.nodes)]
	c.NodeTicks = c.NodeTicks[:min(len(c.NodeTicks), m.nodes)]
	c.Children = c.Children[:m.children]
	c.SampleIDs.Truncate(m.samples)
	c.Deltas.Truncate(m.deltas)
	c.Stamps = c.Stamps[:m.stamps]
	c.Positions = c.Positions[:m.positions]
	c.TraceIDKey = c.TraceIDKey[:m.traceIDs]
	c.TraceIDNode = c.TraceIDNode[:m.traceIDs]
	l.beginPending()
}

// commitChunk appends a record for the pending profile data.
func (l *loader) commitChunk(kind core.ChunkKind, ph byte, pid, tid int64, id core.StrID, idIsString bool, ts float64) {
	c, p := l.ch, &l.pend
	c.Kind = push(l.mem, c.Kind, kind)
	c.Event = push(l.mem, c.Event, int32(min(l.nEvents-1, math.MaxInt32)))
	c.Ph = push(l.mem, c.Ph, ph)
	c.Pid = push(l.mem, c.Pid, pid)
	c.Tid = push(l.mem, c.Tid, tid)
	c.ID = push(l.mem, c.ID, id)
	c.IDIsString = push(l.mem, c.IDIsString, idIsString)
	c.Ts = push(l.mem, c.Ts, ts)
	c.DataStartTime = push(l.mem, c.DataStartTime, p.dataStart)
	c.DataEndTime = push(l.mem, c.DataEndTime, p.dataEnd)
	c.ProfileStartTime = push(l.mem, c.ProfileStartTime, p.profStart)
	c.ProfileEndTime = push(l.mem, c.ProfileEndTime, p.profEnd)
	var src core.StrID
	if len(p.source) > 0 {
		src = l.internBytes(p.source)
	}
	c.Source = push(l.mem, c.Source, src)
	p.nodes = core.Span{Off: uint32(p.mark.nodes), Len: uint32(len(c.NodeID) - p.mark.nodes)}
	c.Nodes = push(l.mem, c.Nodes, p.nodes)
	c.Samples = push(l.mem, c.Samples, p.samples)
	c.HasSamples = push(l.mem, c.HasSamples, p.hasSamples)
	c.TimeDeltas = push(l.mem, c.TimeDeltas, p.td)
	c.HasTimeDeltas = push(l.mem, c.HasTimeDeltas, p.hasTD)
	c.ProfileTimeDeltas = push(l.mem, c.ProfileTimeDeltas, p.ptd)
	c.HasProfileTimeDeltas = push(l.mem, c.HasProfileTimeDeltas, p.hasPTD)
	c.Timestamps = push(l.mem, c.Timestamps, p.ts)
	c.HasTimestamps = push(l.mem, c.HasTimestamps, p.hasTS)
	c.Lines = push(l.mem, c.Lines, p.lines)
	c.HasLines = push(l.mem, c.HasLines, p.hasLines)
	c.Columns = push(l.mem, c.Columns, p.cols)
	c.HasColumns = push(l.mem, c.HasColumns, p.hasCols)
	c.TraceIDs = push(l.mem, c.TraceIDs, p.traceIDs)
	l.beginPending()
}

// isProfileKey tells the keys that make a top-level object a .cpuprofile.
func isProfileKey(k []byte) bool {
	switch string(k) {
	case "nodes", "head":
		return true
	}
	return false
}

// cpuProfile reads an args.data.cpuProfile object into the pending chunk.
func (l *loader) cpuProfile() error {
	s := l.s
	empty, err := s.objectStart()
	if err != nil {
		return err
	}
	for more := !empty; more; {
		k, err := s.key()
		if err != nil {
			return err
		}
		if err := l.profileKey(k); err != nil {
			return err
		}
		more, err = s.objectNext()
		if err != nil {
			return err
		}
	}
	return nil
}

// profileKey reads the value of one member of a CPU profile object (a cpuProfile in a trace event,
// or a whole .cpuprofile) into the pending chunk, skipping what is not used.
func (l *loader) profileKey(k []byte) error {
	s, p := l.s, &l.pend
	l.pendDirty = true
	switch string(k) {
	case "nodes":
		kind, err := s.valueKind()
		if err != nil {
			return err
		}
		if kind != kindArray {
			return s.skip()
		}
		empty, err := s.arrayStart()
		if err != nil {
			return err
		}
		for more := !empty; more; {
			if kind, err := s.valueKind(); err != nil {
				return err
			} else if kind == kindObject {
				if _, err := l.node(0); err != nil {
					return err
				}
			} else {
				l.w.badNodeIDs++
				if err := s.skip(); err != nil {
					return err
				}
			}
			more, err = s.arrayNext()
			if err != nil {
				return err
			}
		}
	case "head":
		kind, err := s.valueKind()
		if err != nil {
			return err
		}
		if kind != kindObject {
			return s.skip()
		}
		if _, err := l.node(1); err != nil {
			return err
		}
	case "samples":
		ok, err := l.sampleArray(&p.samples)
		if err != nil {
			return err
		}
		p.hasSamples = p.hasSamples || ok
	case "timeDeltas":
		ok, err := l.deltaArray(&p.ptd)
		if err != nil {
			return err
		}
		p.hasPTD = p.hasPTD || ok
	case "timestamps":
		ok, err := l.floatArray(&l.ch.Stamps, &p.ts)
		if err != nil {
			return err
		}
		p.hasTS = p.hasTS || ok
	case "startTime":
		v, ok, err := s.number()
		if err != nil {
			return err
		}
		if ok {
			p.profStart = v
		}
	case "endTime":
		v, ok, err := s.number()
		if err != nil {
			return err
		}
		if ok {
			p.profEnd = v
		}
	case "trace_ids":
		return l.traceIDs()
	default:
		return s.skip()
	}
	return nil
}

// frameFields collects a call frame's members as they come.
type frameFields struct {
	fn, url, script, codeType core.StrID
	hasScript                 bool
	line, col                 float64
	hasLine, hasCol           bool
}

// node reads one profile node and appends it to the node columns. depth is 0 for the elements of
// a "nodes" array (children are ids); from 1 on it is the nesting level of the legacy "head" tree,
// whose children are node objects, appended in pre-order as DevTools flattens them.
func (l *loader) node(depth int) (int, error) {
	s, c := l.s, l.ch
	if depth > maxDepth {
		return 0, s.errorf("profile head nested deeper than %d levels", maxDepth)
	}
	n := len(c.NodeID)
	if n >= maxArena {
		return n, l.arenaFull()
	}
	pushTo(l.mem, &c.NodeID, core.NoNode)
	pushTo(l.mem, &c.NodeParent, core.NoNode)
	pushTo(l.mem, &c.NodeFrame, 0)
	pushTo(l.mem, &c.NodeFlags, 0)
	m := nodeMembers{memo: noMemo}
	err := l.nodeMembers(depth, n, &m)
	// The node gets its frame even when reading it failed half-way: a profile cut off inside a
	// node still shows what came before. (No defer: node's many returns would make it one that
	// the runtime runs through its slow path, at each of a profile's nodes.)
	c.NodeFlags[n] = m.flags
	switch {
	case m.flags&core.NodeHasCallFrame == 0:
		c.NodeFrame[n] = l.frame(&m.flat, true)
	case m.memo != noMemo:
		c.NodeFrame[n] = l.memoFrameID(m.memo)
	default:
		c.NodeFrame[n] = l.frame(&m.cf, false)
	}
	return n, err
}

// nodeMembers is what node reads besides the columns it writes as it goes.
type nodeMembers struct {
	flags    uint8
	cf, flat frameFields
	memo     int32 // the memo entry cf came from, while nothing else was read into it
}

// nodeMembers reads the members of node n into the node columns and m.
func (l *loader) nodeMembers(depth, n int, m *nodeMembers) error {
	s, c := l.s, l.ch
	empty, err := s.objectStart()
	if err != nil {
		return err
	}
	for more := !empty; more; {
		k, err := s.key()
		if err != nil {
			return err
		}
		switch string(k) {
		case "id":
			v, ok, err := s.integer()
			if err != nil {
				return err
			}
			if ok {
				c.NodeID[n] = v
			} else {
				c.NodeID[n] = core.NoNode
				l.w.badNodeIDs++
			}
		case "parent":
			kind, err := s.valueKind()
			if err != nil {
				return err
			}
			if kind == kindLiteral {
				if err := s.skip(); err != nil { // null: no parent
					return err
				}
				break
			}
			v, ok, err := s.integer()
			if err != nil {
				return err
			}
			if ok {
				c.NodeParent[n] = v
				m.flags |= core.NodeHasParent
			} else {
				l.w.badNodeIDs++
			}
		case "children":
			var span core.Span
			var ok bool
			if depth == 0 {
				ok, err = l.int64Array(&c.Children, &span, &l.w.badNodeIDs)
			} else {
				ok, err = l.headChildren(depth, &span)
			}
			if err != nil {
				return err
			}
			if ok {
				c.NodeChildren = setSpan(l.mem, c.NodeChildren, n, span)
				m.flags |= core.NodeHasChildren
			}
		case "callFrame":
			kind, err := s.valueKind()
			if err != nil {
				return err
			}
			if kind != kindObject {
				if err := s.skip(); err != nil {
					return err
				}
				break
			}
			// Called directly, not through a func value, so that m stays on the stack.
			if m.flags&core.NodeHasCallFrame == 0 {
				// cf is still empty: the memo's fields are what reading would give.
				m.flags |= core.NodeHasCallFrame
				if m.memo, err = l.firstCallFrame(&m.cf); err != nil {
					return err
				}
			} else {
				m.memo = noMemo
				if err := l.callFrame(&m.cf); err != nil {
					return err
				}
			}
		case "functionName", "url", "scriptId", "lineNumber", "columnNumber", "codeType":
			if err := l.frameField(&m.flat, k); err != nil {
				return err
			}
		case "positionTicks":
			if err := l.positionTicks(n); err != nil {
				return err
			}
		default:
			if err := s.skip(); err != nil {
				return err
			}
		}
		more, err = s.objectNext()
		if err != nil {
			return err
		}
	}
	return nil
}

// headChildren reads the children of a legacy head node (node objects), and stores their ids in
// the Children arena once they are all read.
func (l *loader) headChildren(depth int, span *core.Span) (bool, error) {
	s, c := l.s, l.ch
	kind, err := s.valueKind()
	if err != nil {
		return false, err
	}
	if kind != kindArray {
		return false, s.skip()
	}
	var kids []int
	empty, err := s.arrayStart()
	if err != nil {
		return false, err
	}
	for more := !empty; more; {
		if kind, err := s.valueKind(); err != nil {
			return false, err
		} else if kind == kindObject {
			k, err := l.node(depth + 1)
			if err != nil {
				return false, err
			}
			kids = append(kids, k)
		} else if err := s.skip(); err != nil {
			return false, err
		}
		more, err = s.arrayNext()
		if err != nil {
			return false, err
		}
	}
	*span = core.Span{Off: uint32(len(c.Children)), Len: uint32(len(kids))}
	for _, k := range kids {
		c.Children = push(l.mem, c.Children, c.NodeID[k])
	}
	return true, nil
}

func (l *loader) callFrame(cf *frameFields) error {
	s := l.s
	empty, err := s.objectStart()
	if err != nil {
		return err
	}
	for more := !empty; more; {
		k, err := s.key()
		if err != nil {
			return err
		}
		if err := l.frameField(cf, k); err != nil {
			return err
		}
		more, err = s.objectNext()
		if err != nil {
			return err
		}
	}
	return nil
}

// frameField reads one call frame member.
func (l *loader) frameField(f *frameFields, k []byte) error {
	s := l.s
	switch string(k) {
	case "functionName", "url", "codeType":
		// k points into the window, which reading the value may move: pick the field first.
		dst := &f.codeType
		switch k[0] {
		case 'f':
			dst = &f.fn
		case 'u':
			dst = &f.url
		}
		kind, err := s.valueKind()
		if err != nil {
			return err
		}
		if kind != kindString {
			return s.skip()
		}
		v, err := s.str0()
		if err != nil {
			return err
		}
		*dst = l.intern(v)
	case "scriptId":
		kind, err := s.valueKind()
		if err != nil {
			return err
		}
		switch kind {
		case kindString:
			v, err := s.str0()
			if err != nil {
				return err
			}
			f.script, f.hasScript = l.internBytes(v), true
		case kindNumber:
			v, ok, err := s.number()
			if err != nil {
				return err
			}
			if ok {
				// DevTools turns the id into a string: String(5) is "5".
				var b [32]byte
				var txt []byte
				if v == math.Trunc(v) && math.Abs(v) < 1e15 {
					txt = strconv.AppendInt(b[:0], int64(v), 10)
				} else {
					txt = strconv.AppendFloat(b[:0], v, 'f', -1, 64)
				}
				f.script, f.hasScript = l.intern(txt), true
			}
		default:
			return s.skip()
		}
	case "lineNumber", "columnNumber":
		isLine := k[0] == 'l'
		v, ok, err := s.number()
		if err != nil {
			return err
		}
		if isLine {
			f.line, f.hasLine = v, ok
		} else {
			f.col, f.hasCol = v, ok
		}
	default:
		return s.skip()
	}
	return nil
}

// missingScriptID is the scriptId of a frame without one: DevTools' String(undefined).
const missingScriptID = "undefined"

// frame interns a call frame with DevTools' defaults: no url is "", no line or column is -1, the
// scriptId is a string. flat frames (members on the node itself, the legacy format) hold 1-based
// positions, which DevTools shifts down by one.
func (l *loader) frame(f *frameFields, flat bool) core.FrameID {
	cf := core.CallFrame{FunctionName: f.fn, URL: f.url, CodeType: f.codeType, Line: -1, Column: -1}
	if f.hasScript {
		cf.ScriptID = f.script
	} else {
		cf.ScriptID = l.strs.Intern(missingScriptID)
	}
	shift := 0.0
	if flat {
		shift = 1
	}
	if f.hasLine {
		cf.Line = clampInt32(f.line - shift)
	}
	if f.hasCol {
		cf.Column = clampInt32(f.col - shift)
	}
	return l.internFrame(cf)
}

func clampInt32(v float64) int32 {
	switch {
	case v != v:
		return -1
	case v >= math.MaxInt32:
		return math.MaxInt32
	case v <= math.MinInt32:
		return math.MinInt32
	}
	return int32(v)
}

// traceIDs reads cpuProfile.trace_ids, an object from trace id (as a key) to node id.
func (l *loader) traceIDs() error {
	s, c, p := l.s, l.ch, &l.pend
	kind, err := s.valueKind()
	if err != nil {
		return err
	}
	if kind != kindObject {
		return s.skip()
	}
	off := len(c.TraceIDKey)
	empty, err := s.objectStart()
	if err != nil {
		return err
	}
	for more := !empty; more; {
		if len(c.TraceIDKey) >= maxArena {
			return l.arenaFull()
		}
		k, err := s.key()
		if err != nil {
			return err
		}
		key, kerr := strconv.ParseFloat(string(k), 64)
		v, ok, err := s.integer()
		if err != nil {
			return err
		}
		if kerr != nil || !ok || key != math.Trunc(key) || math.Abs(key) > 1<<63 {
			l.w.badTraceIDs++
		} else {
			c.TraceIDKey = push(l.mem, c.TraceIDKey, int64(key))
			c.TraceIDNode = push(l.mem, c.TraceIDNode, v)
		}
		more, err = s.objectNext()
		if err != nil {
			return err
		}
	}
	p.traceIDs = core.Span{Off: uint32(off), Len: uint32(len(c.TraceIDKey) - off)}
	return nil
}

// maxArena caps every RawChunks column, which keeps the uint32 spans exact and a gzip bomb of
// numbers from taking all memory (a legitimate 1 GB trace has a few million samples).
const maxArena = 1 << 28

func (l *loader) arenaFull() error {
	return l.s.errorf("more than %d profile entries of one kind", maxArena)
}

// deltaArray reads an array of time deltas into the Deltas arena; elements that are not numbers
// become 0 and are counted.
func (l *loader) deltaArray(span *core.Span) (present bool, err error) {
	return narrowArray(l, &l.ch.Deltas, core.NarrowFloat, span, 0, &l.w.badDeltas, func(s *scanner) (float64, bool, error) {
		return s.number()
	})
}

// sampleArray reads an array of node ids into the SampleIDs arena; elements that are not
// integers become core.NoNode and are counted.
func (l *loader) sampleArray(span *core.Span) (present bool, err error) {
	return narrowArray(l, &l.ch.SampleIDs, core.NarrowInt, span, core.NoNode, &l.w.badSampleIDs, func(s *scanner) (int64, bool, error) {
		return s.integer()
	})
}

// narrowArray reads an array of numbers straight into dst, value by value, and sets span to
// where they went; an element that slow (the scanner's reading of a number other than a plain
// integer) does not take becomes bad and is counted in nBad. A .cpuprofile holds all of its
// samples and deltas in two such arrays, millions of values: read into a scratch slice first,
// they cost its growth, its copies and its page faults, a third of the read. A value appended
// before an error is taken back with the rest of the pending profile (rollback).
func narrowArray[T int64 | float64](l *loader, dst *core.Narrow[T], fit func(T) (int32, bool), span *core.Span,
	bad T, nBad *int, slow func(*scanner) (T, bool, error)) (present bool, err error) {
	return numberArray(l, numberSink[T]{mem: l.mem, narrow: dst, fit: fit}, span, bad, nBad, slow)
}

// numberSink is where numberArray puts an array's values: a narrow arena or a slice.
type numberSink[T int64 | float64] struct {
	mem    *budget
	narrow *core.Narrow[T] // or
	slice  *[]T
	fit    func(T) (int32, bool) // the narrow arena's
}

func (n numberSink[T]) len() int {
	if n.narrow != nil {
		return n.narrow.Len()
	}
	return len(*n.slice)
}

func (n numberSink[T]) put(v T) {
	if n.narrow != nil {
		pushNarrow(n.mem, n.narrow, v, n.fit)
	} else {
		pushTo(n.mem, n.slice, v)
	}
}

// numberArray reads an array of numbers into sink and sets span to where they went; an element
// that slow (the scanner's reading of a number other than a plain integer) does not take becomes
// bad and is counted in nBad. present is false (the value skipped) when it is not an array.
func numberArray[T int64 | float64](l *loader, sink numberSink[T], span *core.Span,
	bad T, nBad *int, slow func(*scanner) (T, bool, error)) (present bool, err error) {
	s := l.s
	kind, err := s.valueKind()
	if err != nil {
		return false, err
	}
	if kind != kindArray {
		return false, s.skip()
	}
	off := sink.len()
	empty, err := s.arrayStart()
	if err != nil {
		return false, err
	}
	for more := !empty; more; {
		if sink.len() >= maxArena {
			return false, l.arenaFull()
		}
		if x, d, ok := s.fastInt(); ok {
			// A plain integer, the common case: a halved arena takes it without pushNarrow's calls.
			if sink.narrow == nil || !appendHalf(sink.narrow, x) {
				sink.put(T(x))
			}
			more = d == ','
			continue
		}
		v, ok, err := slow(s)
		if err != nil {
			return false, err
		}
		if !ok {
			v = bad
			*nBad++
		}
		sink.put(v)
		more, err = s.arrayNext()
		if err != nil {
			return false, err
		}
	}
	*span = core.Span{Off: uint32(off), Len: uint32(sink.len() - off)}
	return true, nil
}

// appendHalf is pushNarrow's common case, inlined: an integer that fits the halved arena n,
// which has room for it and is not at a widening check. It reports false, appending nothing,
// for anything else. Both kinds of arena take an integer in int32's range as it is (NarrowInt,
// NarrowFloat), so n's values are the same either way.
func appendHalf[T int64 | float64](n *core.Narrow[T], x int64) bool {
	k := len(n.Half)
	if n.Small != nil || k == 0 || k == cap(n.Half) || (k+1)%widenCheck == 0 || x <= core.NarrowEscape || x > math.MaxInt32 {
		return false
	}
	h, ok := n.HalfOf(int32(x))
	if !ok {
		return false
	}
	n.Half = append(n.Half, h)
	return true
}

// narrowInto appends vs to dst and returns where they went.
func narrowInto[T int64 | float64](l *loader, dst *core.Narrow[T], vs []T, fit func(T) (int32, bool)) (core.Span, error) {
	if dst.Len()+len(vs) > maxArena {
		return core.Span{}, l.arenaFull()
	}
	span := core.Span{Off: uint32(dst.Len()), Len: uint32(len(vs))}
	if dst.Small == nil {
		dst.Half = grow(l.mem, dst.Half, len(vs))
	} else {
		dst.Small = grow(l.mem, dst.Small, len(vs))
	}
	for _, v := range vs {
		pushNarrow(l.mem, dst, v, fit)
	}
	return span, nil
}

// widenCheck is how often, in values, a halved arena checks whether it should be widened. The
// check sees only the arena's first values, a multiple of widenCheck, so that an arena filled in
// one pass and one merged from lanes (split_chunks.go) are widened at the same value.
const widenCheck = 1 << 12

// pushNarrow appends v to n: halved while n is (around AppendBias, set by the first value), and
// widened (core.Narrow.Widen) at a check where its escapes, 12 bytes each, cost more than the 2
// bytes a value that halving saves (a profile of more than 65535 nodes, say). Once widened, an
// arena stays so.
func pushNarrow[T int64 | float64](mem *budget, n *core.Narrow[T], v T, fit func(T) (int32, bool)) {
	s, ok := fit(v)
	if n.Small != nil {
		if !ok {
			n.WideAt = push(mem, n.WideAt, uint32(len(n.Small)))
			n.Wide = push(mem, n.Wide, v)
			s = core.NarrowEscape
		}
		n.Small = push(mem, n.Small, s)
		return
	}
	if len(n.Half) == 0 {
		n.HalfBias = core.AppendBias
	}
	h, half := n.HalfOf(s)
	if !ok || !half {
		n.WideAt = push(mem, n.WideAt, uint32(len(n.Half)))
		n.Wide = push(mem, n.Wide, v)
		h = core.HalfEscape
	}
	n.Half = push(mem, n.Half, h)
	checkWiden(mem, n, fit)
}

// checkWiden widens a halved arena whose length is at a check (widenCheck) and whose escapes
// cost more than halving saves.
func checkWiden[T int64 | float64](mem *budget, n *core.Narrow[T], fit func(T) (int32, bool)) {
	if len(n.Half)%widenCheck != 0 || 6*len(n.Wide) <= len(n.Half) {
		return
	}
	half := int64(cap(n.Half)) * 2
	n.Widen(fit, makeSlice[int32](mem, len(n.Half), max(cap(n.Half), len(n.Half))))
	mem.release(half)
}

// floatArray reads an array of numbers into dst; elements that are not numbers become 0 and
// are counted. present is false (the value skipped) when it is not an array.
func (l *loader) floatArray(dst *[]float64, span *core.Span) (present bool, err error) {
	return numberArray(l, numberSink[float64]{mem: l.mem, slice: dst}, span, 0, &l.w.badDeltas, func(s *scanner) (float64, bool, error) {
		return s.number()
	})
}

// int64Array reads an array of integers into dst; elements that are not integers become
// core.NoNode and are counted in bad.
func (l *loader) int64Array(dst *[]int64, span *core.Span, bad *int) (present bool, err error) {
	return numberArray(l, numberSink[int64]{mem: l.mem, slice: dst}, span, core.NoNode, bad, func(s *scanner) (int64, bool, error) {
		return s.integer()
	})
}

// int32Array reads an array of line or column numbers into the Positions arena.
func (l *loader) int32Array(span *core.Span) (present bool, err error) {
	s, c := l.s, l.ch
	kind, err := s.valueKind()
	if err != nil {
		return false, err
	}
	if kind != kindArray {
		return false, s.skip()
	}
	off := len(c.Positions)
	empty, err := s.arrayStart()
	if err != nil {
		return false, err
	}
	for more := !empty; more; {
		if len(c.Positions) >= maxArena {
			return false, l.arenaFull()
		}
		if x, d, ok := s.fastInt(); ok {
			pushTo(l.mem, &c.Positions, clampInt32(float64(x)))
			more = d == ','
			continue
		}
		v, ok, err := s.number()
		if err != nil {
			return false, err
		}
		if !ok {
			v = 0
		}
		pushTo(l.mem, &c.Positions, clampInt32(v))
		more, err = s.arrayNext()
		if err != nil {
			return false, err
		}
	}
	*span = core.Span{Off: uint32(off), Len: uint32(len(c.Positions) - off)}
	return true, nil
}

// positionTicks reads a node's [{"line": L, "ticks": T}, ...] into the Positions arena as
// (L, T) pairs. An entry without a usable line or ticks is left out.
func (l *loader) positionTicks(n int) error {
	s, c := l.s, l.ch
	kind, err := s.valueKind()
	if err != nil {
		return err
	}
	if kind != kindArray {
		return s.skip()
	}
	off := len(c.Positions)
	empty, err := s.arrayStart()
	if err != nil {
		return err
	}
	for more := !empty; more; {
		if len(c.Positions)+2 > maxArena {
			return l.arenaFull()
		}
		line, ticks, err := l.lineTicks()
		if err != nil {
			return err
		}
		if line > 0 && ticks > 0 {
			c.Positions = append(grow(l.mem, c.Positions, 2), line, ticks)
		}
		more, err = s.arrayNext()
		if err != nil {
			return err
		}
	}
	if len(c.Positions) > off {
		c.NodeTicks = setSpan(l.mem, c.NodeTicks, n, core.Span{Off: uint32(off), Len: uint32(len(c.Positions) - off)})
	} else if n < len(c.NodeTicks) {
		// A repeated "positionTicks" that is empty: the node has none after all, and NodeTicks
		// still ends after the last node that has some.
		c.NodeTicks[n] = core.Span{}
		for len(c.NodeTicks) > 0 && c.NodeTicks[len(c.NodeTicks)-1] == (core.Span{}) {
			c.NodeTicks = c.NodeTicks[:len(c.NodeTicks)-1]
		}
	}
	return nil
}

// lineTicks reads one positionTicks entry; anything but an object counts as no entry.
func (l *loader) lineTicks() (line, ticks int32, err error) {
	s := l.s
	kind, err := s.valueKind()
	if err != nil {
		return 0, 0, err
	}
	if kind != kindObject {
		return 0, 0, s.skip()
	}
	empty, err := s.objectStart()
	if err != nil {
		return 0, 0, err
	}
	for more := !empty; more; {
		k, err := s.key()
		if err != nil {
			return 0, 0, err
		}
		switch string(k) {
		case "line", "ticks":
			kind, err := s.valueKind()
			if err != nil {
				return 0, 0, err
			}
			if kind != kindNumber {
				if err := s.skip(); err != nil {
					return 0, 0, err
				}
				break
			}
			v, ok, err := s.number()
			if err != nil {
				return 0, 0, err
			}
			if ok {
				if k[0] == 'l' {
					line = clampInt32(v)
				} else {
					ticks = clampInt32(v)
				}
			}
		default:
			if err := s.skip(); err != nil {
				return 0, 0, err
			}
		}
		more, err = s.objectNext()
		if err != nil {
			return 0, 0, err
		}
	}
	return line, ticks, nil
}

// finishCPUProfile files a .cpuprofile as DevTools' TimelineLoader does: one CpuProfile event on
// pid 1, tid 1 with id "0x1", whose ts is the profile's startTime.
func (l *loader) finishCPUProfile() error {
	p := &l.pend
	if p.mark.nodes == len(l.ch.NodeID) {
		return fmt.Errorf("cpuprofile: the profile has no nodes")
	}
	l.tr.Kind = core.InputCPUProfile
	l.nEvents = 1
	ts := p.profStart
	if headForm := l.ch.NodeFlags[p.mark.nodes]&core.NodeHasCallFrame == 0; !p.hasPTD && (p.hasTS || headForm) {
		// The legacy head form has its start and end in seconds.
		ts *= 1e6
	}
	l.thread(1, 1)
	l.commitChunk(core.ChunkWhole, 'X', 1, 1, l.strs.Intern("0x1"), true, ts)
	return nil
}

// setSpan sets spans[n], extending spans with empty ones to reach n: a column that most nodes
// leave empty ends at the last one that is not.
func setSpan(b *budget, spans []core.Span, n int, s core.Span) []core.Span {
	if n >= len(spans) {
		old := len(spans)
		spans = grow(b, spans, n+1-old)[:n+1]
		clear(spans[old:]) // the capacity may hold what a rollback dropped
	}
	spans[n] = s
	return spans
}
