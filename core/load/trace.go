package load

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"flamedesk/core"
	"flamedesk/internal/background"
)

// Flags of the names the loader treats specially. They are interned first, so their StrIDs are
// small and index nameFlags directly.
const (
	flagProfile uint16 = 1 << iota
	flagChunk
	flagWhole
	flagKeepArgs
	flagThreadName
	flagProcessName
	flagThreadSort
	flagProcessSort
	// flagKeepArgsCat marks a category whose events keep their args (User Timing, console.time).
	flagKeepArgsCat
	// flagKeepID marks a name whose events keep their id whatever their phase (Screenshot).
	flagKeepID
	// flagSnapshot marks Screenshot, whose image is kept decoded (keepSnapshot).
	flagSnapshot
)

var specialNames = []struct {
	name  string
	flags uint16
}{
	{"Profile", flagProfile},
	{"ProfileChunk", flagChunk},
	{"CpuProfile", flagWhole},
	{"thread_name", flagThreadName},
	{"process_name", flagProcessName},
	{"thread_sort_index", flagThreadSort},
	{"process_sort_index", flagProcessSort},
	// Events whose args something shows or uses: the JS entry points (their data names the
	// function or script), timers, animation frames and idle callbacks, XHR, parsing, and
	// console.timeStamp. Everything else keeps only its columns.
	{"FunctionCall", flagKeepArgs},
	{"EvaluateScript", flagKeepArgs},
	{"v8.evaluateModule", flagKeepArgs},
	{"v8.compile", flagKeepArgs},
	{"v8.compileModule", flagKeepArgs},
	{"v8.run", flagKeepArgs},
	{"V8.Execute", flagKeepArgs},
	{"V8Console::runTask", flagKeepArgs},
	{"EventDispatch", flagKeepArgs},
	{"TimerInstall", flagKeepArgs},
	{"TimerRemove", flagKeepArgs},
	{"TimerFire", flagKeepArgs},
	{"RequestAnimationFrame", flagKeepArgs},
	{"CancelAnimationFrame", flagKeepArgs},
	{"FireAnimationFrame", flagKeepArgs},
	{"RequestIdleCallback", flagKeepArgs},
	{"CancelIdleCallback", flagKeepArgs},
	{"FireIdleCallback", flagKeepArgs},
	{"XHRReadyStateChange", flagKeepArgs},
	{"XHRLoad", flagKeepArgs},
	{"ParseHTML", flagKeepArgs},
	{"ParseAuthorStyleSheet", flagKeepArgs},
	{"TimeStamp", flagKeepArgs},
	{"TracingStartedInBrowser", flagKeepArgs},
	{"TracingStartedInPage", flagKeepArgs},
	// What core/timelines reads: frames, navigations, network requests, WebSockets and the
	// page-load markers.
	{"FrameCommittedInBrowser", flagKeepArgs},
	{"CommitLoad", flagKeepArgs},
	{"navigationStart", flagKeepArgs},
	{"ResourceChangePriority", flagKeepArgs},
	{"ResourceWillSendRequest", flagKeepArgs},
	{"ResourceSendRequest", flagKeepArgs},
	{"ResourceReceiveResponse", flagKeepArgs},
	{"ResourceFinish", flagKeepArgs},
	{"ResourceMarkAsCached", flagKeepArgs},
	{"PreloadRenderBlockingStatusChange", flagKeepArgs},
	{"WebSocketCreate", flagKeepArgs},
	{"WebSocketSendHandshakeRequest", flagKeepArgs},
	{"WebSocketReceiveHandshakeResponse", flagKeepArgs},
	{"WebSocketDestroy", flagKeepArgs},
	{"WebSocketSend", flagKeepArgs},
	{"WebSocketReceive", flagKeepArgs},
	{"SoftNavigationStart", flagKeepArgs},
	{"firstPaint", flagKeepArgs},
	{"firstContentfulPaint", flagKeepArgs},
	{"MarkDOMContent", flagKeepArgs},
	{"MarkLoad", flagKeepArgs},
	{"largestContentfulPaint::Candidate", flagKeepArgs},
	{"largestContentfulPaint::CandidateForSoftNavigation", flagKeepArgs},
	{"InteractiveTime", flagKeepArgs},
	{"TracingSessionIdForWorker", flagKeepArgs},
	// The tracks beside the thread flame charts (core/timelines): what their events carry in args.
	{"blink.user_timing", flagKeepArgsCat},
	{"blink.console", flagKeepArgsCat},
	{"UpdateCounters", flagKeepArgs},
	{"Screenshot", flagKeepArgs | flagKeepID | flagSnapshot},
	{"Animation", flagKeepArgs},
	{"EventTiming", flagKeepArgs},
	{"LayoutShift", flagKeepArgs},
	{"SetLayerTreeId", flagKeepArgs},
	{"BeginFrame", flagKeepArgs},
	{"DroppedFrame", flagKeepArgs},
	{"RequestMainThreadFrame", flagKeepArgs},
	{"BeginMainThreadFrame", flagKeepArgs},
	{"NeedsBeginFrameChanged", flagKeepArgs},
	{"Commit", flagKeepArgs},
	{"CompositeLayers", flagKeepArgs},
	{"ActivateLayerTree", flagKeepArgs},
	{"DrawFrame", flagKeepArgs},
	// Script URLs, source map URLs and sources (DevTools' "include script content"), for
	// core/sourcemap.
	{"ScriptCatchup", flagKeepArgs},
	{"LargeScriptCatchup", flagKeepArgs},
}

type threadKey struct{ pid, tid int64 }

// loader holds the state of one load.
type loader struct {
	ctx       context.Context
	mem       *budget
	s         *scanner
	tr        *core.Trace
	strs      *core.Strings
	ch        *core.RawChunks
	frames    map[core.CallFrame]core.FrameID
	frameMemo frameMemo
	threads   map[threadKey]core.ThreadID
	procName  map[int64]core.StrID
	procSort  map[int64]int32
	nameFlags []uint16
	nEvents   int // events seen in the event array, the index used in messages
	cache     [internCacheSize]internEntry
	// the last thread looked up
	lastThread   threadKey
	lastThreadID core.ThreadID
	lastThreadOK bool
	pendDirty    bool // pending holds data to roll back
	arrayClosed  bool // the last event array ended with its ']'
	docClosed    bool // the top-level value ended where JSON says it ends
	ev           event
	cols         eventColumns
	takeLater    bool // finish leaves cols for takeEvents
	pend         pending
	minTs        float64
	maxTs        float64
	w            counts
	// image and argsRest are splitSnapshot's scratch.
	image, argsRest []byte
	// lane is set on a loader that parses a segment of the event array for a lane (split.go).
	lane *laneState
	gzip bool // the input is inflated as it is read
}

// counts are warnings counted during the hot loop and turned into messages at the end.
type counts struct {
	noTs, badTs, badDur, badPid, argsTooBig, argsArenaFull int
	badSampleIDs, badNodeIDs, badDeltas                    int
	badTraceIDs, noName, malformed                         int
	farTs, farEnd                                          int
	firstBadTs                                             int
	firstMalformed                                         string
}

// eventColumns are core.Events' columns while they fill (see column); finish moves them into the
// trace.
type eventColumns struct {
	ph            column[byte]
	name, cat     column[core.StrID]
	ts, dur       column[float64]
	thread        column[core.ThreadID]
	args          column[core.Span]
	arena         argsArena
	sampleTraceID column[int64]
	// snapshots is core.Events' Snapshots: few events have one, each a whole image.
	snapshots []core.EventArgs
}

// take moves the columns into e, one at a time, so that each one's blocks can go before the
// next is copied.
func (c *eventColumns) take(b *budget, e *core.Events) {
	e.Ph = c.ph.take(b)
	e.Name = c.name.take(b)
	e.Cat = c.cat.take(b)
	e.Ts = c.ts.take(b)
	e.Dur = c.dur.take(b)
	e.Thread = c.thread.take(b)
	e.Args = takeSparse(&c.args, b, func(k int32, s core.Span) core.EventArgs { return core.EventArgs{Event: k, Span: s} })
	e.ArgsArena, e.ArgsMore = c.arena.first, c.arena.more
	c.arena = argsArena{}
	e.Snapshots, c.snapshots = c.snapshots, nil
	e.SampleTraceIDs = takeSparse(&c.sampleTraceID, b, func(k int32, id int64) core.EventTraceID { return core.EventTraceID{Event: k, ID: id} })
}

// takeEvents moves the event columns into the trace, for a load whose finish left them.
func (l *loader) takeEvents() (err error) {
	defer catchBudget(&err)
	l.cols.take(l.mem, &l.tr.Events)
	return nil
}

// event is the scratch for the event being decoded.
type event struct {
	eventFields
	// Kept apart so that each event starts afresh by clearing eventFields, which holds no
	// pointers, and cutting these to length 0: assigning a whole event writes their pointers
	// through the collector's write barrier.
	id, id2, argName []byte
}

// eventFields are the fields of event that each event sets anew.
type eventFields struct {
	ph                 byte
	name, cat          core.StrID
	hasName            bool
	ts, dur            float64
	hasTs, hasDur      bool
	badTs, badDur      bool
	pid, tid           int64
	badPid             bool
	hasID, idIsString  bool
	idUnreadable       bool // an "id" that is neither a string nor a number
	id2Source          core.IDSource
	hasArgs            bool
	hasArgName         bool
	sortIndex          int32
	hasSortIndex       bool
	stiArgs, stiData   int64
	hasStiArgs         bool
	hasStiData         bool
	hasBeginData       bool
	stiBegin           int64
	hasStiBegin        bool
	profileDataPresent bool
}

// pending is the profile data decoded from the current event's args. It is written straight into
// the RawChunks arenas and rolled back when the event turns out not to be a profile event (the
// name often comes after args: Chrome writes keys in alphabetical order).
type pending struct {
	mark                                   chunkMark
	nodes, samples, td, ptd, ts            core.Span
	lines, cols, traceIDs                  core.Span
	hasSamples, hasTD, hasPTD, hasTS       bool
	hasLines, hasCols                      bool
	dataStart, dataEnd, profStart, profEnd float64
	source                                 []byte
}

type chunkMark struct {
	nodes, children, samples, deltas, stamps, positions, traceIDs int
}

func newLoader(ctx context.Context, src io.Reader, mem *budget) *loader {
	l := newTables(ctx, mem)
	l.s = newScanner(ctx, src, nil, mem)
	return l
}

// newTables returns a loader without its scanner.
func newTables(ctx context.Context, mem *budget) *loader {
	tr := &core.Trace{Strings: core.NewStrings()}
	l := &loader{
		ctx:      ctx,
		mem:      mem,
		tr:       tr,
		strs:     tr.Strings,
		ch:       &tr.Chunks,
		frames:   map[core.CallFrame]core.FrameID{},
		threads:  map[threadKey]core.ThreadID{},
		procName: map[int64]core.StrID{},
		procSort: map[int64]int32{},
		minTs:    math.Inf(1),
		maxTs:    math.Inf(-1),
	}
	for _, n := range specialNames {
		id := l.strs.Intern(n.name)
		for int(id) >= len(l.nameFlags) {
			l.nameFlags = append(l.nameFlags, 0)
		}
		l.nameFlags[id] |= n.flags
	}
	l.beginPending()
	return l
}

func (l *loader) flags(id core.StrID) uint16 {
	if int(id) < len(l.nameFlags) {
		return l.nameFlags[id]
	}
	return 0
}

// read decodes the whole input, whatever its format.
func (l *loader) read() error {
	s := l.s
	s.skipBOM()
	c, ok := s.peek()
	if !ok {
		if s.err != nil {
			return s.err
		}
		return errors.New("the file is empty")
	}
	var err error
	switch c {
	case '[':
		l.tr.Kind = core.InputTrace
		err = l.eventArray()
		l.docClosed = l.arrayClosed
	case '{':
		err = l.topObject()
	default:
		return fmt.Errorf("%w: it starts with %s", errNotProfile, quoteByte(c))
	}
	if err != nil {
		return err
	}
	if l.docClosed {
		if err := l.afterDocument(); err != nil {
			return err
		}
	}
	l.finish()
	return nil
}

// afterDocument reads what follows the document to the end of the input. Only whitespace may: a
// second document or any other text is not loaded, and says so with its size. Reading to the end
// also checks the gzip trailer, whose checksum comes after the last byte of JSON.
func (l *loader) afterDocument() error {
	s := l.s
	c, ok := s.peek()
	if ok {
		at := s.offset()
		what := "text"
		if c == '[' || c == '{' {
			what = "a second JSON document"
		}
		for ok {
			s.pos = s.end
			_, ok = s.fill(s.pos)
		}
		l.tr.Warnings.Addf("%s after the end of the JSON (bytes %d to %d, starting with %s) not loaded: a file holds one document",
			what, at, s.offset(), quoteByte(c))
	}
	if s.err != nil {
		if err := l.ctx.Err(); err != nil {
			return err
		}
		l.tr.Warnings.Addf("after the end of the JSON (byte %d): %v", s.offset(), s.err)
	}
	return nil
}

// eventArray reads the events of a trace up to the closing ']', the end of the input (Chrome
// leaves the bracket out when tracing stops abruptly), or an error.
func (l *loader) eventArray() error {
	s := l.s
	s.pos++ // '['
	sp := l.newSplitter()
	defer sp.close()
	for {
		c, ok := s.peek()
		if sp != nil {
			if again, err := sp.step(ok && c == '{'); err != nil || again {
				if err != nil {
					return err
				}
				continue
			}
		}
		if !ok {
			return l.inputEnded(false)
		}
		switch c {
		case ']':
			s.pos++
			l.arrayClosed = true
			return nil
		case ',':
			s.pos++ // also accepts a trailing comma, and stray ones
		case '{':
			start := s.offset()
			if err := l.event(); err != nil {
				if stop, err := l.eventFailed(err, start); stop {
					return err
				}
			}
		case 0:
			// JSON never holds a NUL byte outside a string. A file cut by a crash or left sparse
			// ends in them, gigabytes of them at times: searching them for the next event
			// would take minutes.
			if l.cols.ts.Len() == 0 && l.ch.Len() == 0 {
				return s.errorf("NUL bytes where an event was due, as a damaged, sparse or preallocated file has")
			}
			l.tr.Warnings.Addf("reading stopped at byte %d of the JSON: NUL bytes, as a damaged, sparse or preallocated file has; the rest of the file was not read", s.offset())
			return nil
		default:
			err := s.errorf("expected an event object, found %s", quoteByte(c))
			if stop, err := l.eventFailed(err, s.offset()); stop {
				return err
			}
		}
	}
}

// inputEnded handles the end of the input outside any event: a clean end, or the source's error.
func (l *loader) inputEnded(inEvent bool) error {
	err := l.s.err
	switch {
	case err == nil:
		return nil
	case l.ctx.Err() != nil:
		return l.ctx.Err()
	case errors.Is(err, io.ErrUnexpectedEOF):
		l.tr.Warnings.Addf("the gzip stream is cut short at byte %d of the JSON; everything before it was loaded", l.s.offset())
		return nil
	}
	if l.nEvents == 0 && !inEvent {
		return err
	}
	l.tr.Warnings.Addf("reading stopped at byte %d of the JSON: %v; everything before it was loaded", l.s.offset(), err)
	return nil
}

// eventFailed decides what a failed event means: the end of a truncated file (a warning), a
// cancelled load or a broken source (stop), or malformed JSON (skip to the next line that starts
// an event, counting the damage). stop is true when reading must end, with err the result.
func (l *loader) eventFailed(err error, start int64) (stop bool, _ error) {
	l.rollback()
	s := l.s
	if ctxErr := l.ctx.Err(); ctxErr != nil {
		return true, ctxErr
	}
	if errors.Is(err, errTruncated) {
		l.tr.Warnings.Addf("the file ends inside event %d (byte %d); that incomplete event was skipped", l.nEvents-1, start)
		return true, nil
	}
	var se *syntaxError
	if !errors.As(err, &se) {
		// The source failed (corrupt gzip, read error).
		return true, l.inputEnded(true)
	}
	if s.err != nil && s.eof {
		// A syntax error caused by the source ending early.
		return true, l.inputEnded(true)
	}
	if !l.resync() {
		if l.cols.ts.Len() == 0 && l.ch.Len() == 0 {
			return true, fmt.Errorf("event %d: %w", max(l.nEvents-1, 0), err)
		}
		l.tr.Warnings.Addf("event %d: %v; the rest of the file could not be read", l.nEvents-1, err)
		return true, nil
	}
	if l.w.malformed == 0 {
		l.w.firstMalformed = fmt.Sprintf("event %d, %v", l.nEvents-1, err)
	}
	l.w.malformed++
	return false, nil
}

// resync moves to the next line that starts with '{' (Chrome writes one event per line), and
// reports whether there is one.
func (l *loader) resync() bool {
	s := l.s
	for {
		for s.pos < s.end {
			if s.buf[s.pos] == 0 {
				return true // eventArray stops there
			}
			if s.buf[s.pos] == '\n' {
				s.pos++
				c, ok := s.peek()
				if !ok {
					return false
				}
				if c == '{' {
					return true
				}
				continue
			}
			s.pos++
		}
		if _, ok := s.fill(s.pos); !ok {
			return false
		}
	}
}

// maxMetadata caps the trace metadata kept: DevTools saves source maps there, which can be large,
// but a trace is not allowed to make us hold an unbounded blob.
const maxMetadata = 256 << 20

// traceMetadata keeps the raw JSON of a trace's top-level "metadata" object in Trace.Metadata (for
// the source maps an enhanced trace embeds; core/sourcemap reads them).
func (l *loader) traceMetadata() error {
	s := l.s
	kind, err := s.valueKind()
	if err != nil {
		return err
	}
	if kind != kindObject {
		return s.skip()
	}
	s.startCaptureUpTo(maxMetadata)
	err = s.skip()
	s.stopCapture()
	if err != nil {
		return err
	}
	raw, over := s.captured()
	if over {
		l.tr.Warnings.Add(fmt.Sprintf("trace metadata over %d MB not kept (embedded source maps are ignored)", maxMetadata>>20), 1)
		return nil
	}
	l.tr.Metadata = append([]byte(nil), raw...)
	return nil
}

// topObject reads a document that is a JSON object: a trace in object form, a .cpuprofile or a
// JS Self-Profiling profile. Which one is told by the keys present, in whatever order they come.
func (l *loader) topObject() error {
	s := l.s
	var self selfProfile
	sawTrace, sawProfile := false, false
	l.beginPending()
	err := func() error {
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
			case "traceEvents":
				kind, err := s.valueKind()
				if err != nil {
					return err
				}
				if kind != kindArray {
					return s.errorf("traceEvents is not an array")
				}
				sawTrace = true
				l.tr.Kind = core.InputTrace
				// Profile fields seen before belong to no event.
				l.rollback()
				if err := l.eventArray(); err != nil {
					return err
				}
				if s.eof && s.pos >= s.end {
					return nil // the object was cut off after the events: nothing else is lost
				}
			case "samples":
				kind, err := s.valueKind()
				if err != nil {
					return err
				}
				if kind == kindArray && l.firstElementIsObject() {
					if err := self.readSamples(l); err != nil {
						return err
					}
				} else if err := l.profileKey([]byte("samples")); err != nil {
					return err
				}
			case "frames", "resources", "stacks":
				if err := self.readKey(l, string(k)); err != nil {
					return err
				}
			case "metadata":
				if err := l.traceMetadata(); err != nil {
					return err
				}
			default:
				if isProfileKey(k) {
					sawProfile = true
				}
				if err := l.profileKey(k); err != nil {
					return err
				}
			}
			more, err = s.objectNext()
			if err != nil {
				return err
			}
		}
		return nil
	}()
	l.docClosed = err == nil
	switch {
	case sawTrace:
		if err != nil {
			if l.ctx.Err() != nil {
				return l.ctx.Err()
			}
			if !errors.Is(err, errTruncated) {
				l.tr.Warnings.Addf("after the events: %v", err)
			}
		}
		return nil
	case err != nil && l.ctx.Err() != nil:
		return l.ctx.Err()
	case sawProfile || l.pend.nodes.Len > 0:
		if err != nil {
			if !errors.Is(err, errTruncated) && !isSourceErr(err) {
				return fmt.Errorf("cpuprofile: %w", err)
			}
			l.tr.Warnings.Addf("the profile ends early (byte %d): %v; what was complete is shown", s.offset(), err)
		}
		return l.finishCPUProfile()
	case self.seen:
		if err != nil {
			if !errors.Is(err, errTruncated) && !isSourceErr(err) {
				return fmt.Errorf("self-profile: %w", err)
			}
			l.tr.Warnings.Addf("the profile ends early (byte %d): %v; what was complete is shown", s.offset(), err)
		}
		return self.finish(l)
	case err != nil:
		return err
	}
	return fmt.Errorf("%w: the object has none of traceEvents, nodes, head or frames", errNotProfile)
}

func isSourceErr(err error) bool {
	var se *syntaxError
	return !errors.As(err, &se)
}

// firstElementIsObject peeks past '[' to tell an array of objects from one of numbers, without
// consuming anything.
func (l *loader) firstElementIsObject() bool {
	c, ok := l.s.peekInside()
	return ok && c == '{'
}

// event decodes one event object into the columns (or, for profile events, into Chunks).
func (l *loader) event() error {
	s := l.s
	if l.lane != nil {
		l.lane.begin(l)
	}
	l.nEvents++
	if l.nEvents&255 == 0 {
		// A file read uncompressed comes a megabyte at a time: the window's frame may go first
		// between events too (background.Yield), a fraction of a millisecond apart.
		background.Yield()
	}
	f := &l.ev
	f.eventFields = eventFields{}
	f.id = f.id[:0]
	f.id2 = f.id2[:0]
	f.argName = f.argName[:0]
	if l.pendDirty {
		l.rollback() // not reached: every event ends in a commit or a rollback
	}
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
		case "ph":
			if kind, err := s.valueKind(); err != nil {
				return err
			} else if kind == kindString {
				v, err := s.str0()
				if err != nil {
					return err
				}
				f.ph = 0
				if len(v) > 0 {
					f.ph = v[0]
				}
			} else if err := s.skip(); err != nil {
				return err
			}
		case "name":
			if kind, err := s.valueKind(); err != nil {
				return err
			} else if kind == kindString {
				v, err := s.str0()
				if err != nil {
					return err
				}
				f.name, f.hasName = l.intern(v), true
			} else if err := s.skip(); err != nil {
				return err
			}
		case "cat":
			if kind, err := s.valueKind(); err != nil {
				return err
			} else if kind == kindString {
				v, err := s.str0()
				if err != nil {
					return err
				}
				f.cat = l.intern(v)
			} else if err := s.skip(); err != nil {
				return err
			}
		case "ts":
			v, ok, err := s.number()
			if err != nil {
				return err
			}
			f.ts, f.hasTs, f.badTs = v, true, !ok
		case "dur":
			v, ok, err := s.number()
			if err != nil {
				return err
			}
			f.dur, f.hasDur, f.badDur = v, true, !ok
		case "pid":
			v, ok, err := l.intOrString()
			if err != nil {
				return err
			}
			f.pid = v
			f.badPid = f.badPid || !ok
		case "tid":
			v, ok, err := l.intOrString()
			if err != nil {
				return err
			}
			f.tid = v
			f.badPid = f.badPid || !ok
		case "id":
			if err := l.eventID(f); err != nil {
				return err
			}
		case "id2":
			if err := l.eventID2(f); err != nil {
				return err
			}
		case "args":
			if err := l.args(f); err != nil {
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
	l.commitEvent()
	return nil
}

// intOrString reads a pid or tid: a number, or a string holding one (some writers quote them).
func (l *loader) intOrString() (int64, bool, error) {
	s := l.s
	kind, err := s.valueKind()
	if err != nil {
		return 0, false, err
	}
	if kind == kindString {
		v, err := s.str0()
		if err != nil {
			return 0, false, err
		}
		n, perr := strconv.ParseInt(string(v), 0, 64)
		return n, perr == nil, nil
	}
	return s.integer()
}

func (l *loader) eventID(f *event) error {
	s := l.s
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
		f.id = append(f.id[:0], v...)
		f.hasID, f.idIsString = true, true
	case kindNumber:
		v, ok, err := s.number()
		if err != nil {
			return err
		}
		if ok {
			// JavaScript's String(number), which DevTools keys profiles by.
			f.id = strconv.AppendFloat(f.id[:0], v, 'f', -1, 64)
			f.hasID, f.idIsString = true, false
		}
	default:
		f.hasID, f.idUnreadable = false, true
		return s.skip()
	}
	f.idUnreadable = false
	return nil
}

// eventID2 reads "id2": {"global": …} or {"local": …}, the scoped ids of async events; global wins.
func (l *loader) eventID2(f *event) error {
	s := l.s
	kind, err := s.valueKind()
	if err != nil {
		return err
	}
	f.id2, f.id2Source = f.id2[:0], core.NoID
	if kind != kindObject {
		return s.skip()
	}
	empty, err := s.objectStart()
	if err != nil {
		return err
	}
	for more := !empty; more; {
		k, err := s.key()
		if err != nil {
			return err
		}
		src := core.NoID
		switch string(k) {
		case "global":
			src = core.IDGlobal
		case "local":
			src = core.IDLocal
		}
		kind, err := s.valueKind()
		if err != nil {
			return err
		}
		switch {
		case src == core.NoID || (src == core.IDLocal && f.id2Source == core.IDGlobal):
			err = s.skip()
		case kind == kindString:
			var v []byte
			if v, err = s.str0(); err == nil {
				f.id2, f.id2Source = append(f.id2[:0], v...), src
			}
		case kind == kindNumber:
			var v float64
			var ok bool
			if v, ok, err = s.number(); err == nil && ok {
				f.id2, f.id2Source = strconv.AppendFloat(f.id2[:0], v, 'f', -1, 64), src
			}
		default:
			err = s.skip()
		}
		if err != nil {
			return err
		}
		if more, err = s.objectNext(); err != nil {
			return err
		}
	}
	return nil
}

// args walks an event's args once: it captures the raw bytes (kept later if the event turns out
// to need them), decodes profile data into the pending chunk, and picks up the few fields the
// model uses (sampleTraceId, and name / sort_index of metadata events).
func (l *loader) args(f *event) error {
	s := l.s
	kind, err := s.valueKind()
	if err != nil {
		return err
	}
	if kind != kindObject {
		return s.skip()
	}
	if f.hasArgs {
		// A repeated "args": the last one wins, as in JSON.parse.
		l.rollback()
		l.beginPending()
		f.hasStiArgs, f.hasStiData, f.hasBeginData, f.hasStiBegin, f.hasArgName, f.hasSortIndex = false, false, false, false, false, false
	}
	f.hasArgs = true
	s.startCapture()
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
		case "data":
			if kind, err := s.valueKind(); err != nil {
				return err
			} else if kind == kindObject {
				if err := l.argsData(f); err != nil {
					return err
				}
			} else if err := s.skip(); err != nil {
				return err
			}
		case "sampleTraceId":
			v, ok, err := s.integer()
			if err != nil {
				return err
			}
			f.stiArgs, f.hasStiArgs = v, ok
		case "beginData":
			f.hasBeginData = true
			if kind, err := s.valueKind(); err != nil {
				return err
			} else if kind == kindObject {
				if err := l.beginData(f); err != nil {
					return err
				}
			} else if err := s.skip(); err != nil {
				return err
			}
		case "name":
			if kind, err := s.valueKind(); err != nil {
				return err
			} else if kind == kindString {
				v, err := s.str0()
				if err != nil {
					return err
				}
				f.argName = append(f.argName[:0], v...)
				f.hasArgName = true
			} else if err := s.skip(); err != nil {
				return err
			}
		case "sort_index":
			v, ok, err := s.integer()
			if err != nil {
				return err
			}
			if ok {
				f.sortIndex, f.hasSortIndex = int32(max(min(v, math.MaxInt32), math.MinInt32)), true
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
	s.stopCapture()
	return nil
}

func (l *loader) beginData(f *event) error {
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
		if string(k) == "sampleTraceId" {
			v, ok, err := s.integer()
			if err != nil {
				return err
			}
			f.stiBegin, f.hasStiBegin = v, ok
		} else if err := s.skip(); err != nil {
			return err
		}
		more, err = s.objectNext()
		if err != nil {
			return err
		}
	}
	return nil
}

// argsData walks args.data: profile chunk fields, and sampleTraceId.
func (l *loader) argsData(f *event) error {
	s := l.s
	p := &l.pend
	l.pendDirty = true
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
		case "cpuProfile":
			// Profile data is never kept as raw args; stop copying it.
			s.dropCapture()
			if kind, err := s.valueKind(); err != nil {
				return err
			} else if kind == kindObject {
				f.profileDataPresent = true
				if err := l.cpuProfile(); err != nil {
					return err
				}
			} else if err := s.skip(); err != nil {
				return err
			}
		case "timeDeltas":
			s.dropCapture()
			ok, err := l.deltaArray(&p.td)
			if err != nil {
				return err
			}
			p.hasTD = p.hasTD || ok
		case "lines":
			ok, err := l.int32Array(&p.lines)
			if err != nil {
				return err
			}
			p.hasLines = p.hasLines || ok
		case "columns":
			ok, err := l.int32Array(&p.cols)
			if err != nil {
				return err
			}
			p.hasCols = p.hasCols || ok
		case "startTime":
			v, ok, err := s.number()
			if err != nil {
				return err
			}
			if ok {
				p.dataStart = v
			}
		case "endTime":
			v, ok, err := s.number()
			if err != nil {
				return err
			}
			if ok {
				p.dataEnd = v
			}
		case "source":
			if kind, err := s.valueKind(); err != nil {
				return err
			} else if kind == kindString {
				v, err := s.str0()
				if err != nil {
					return err
				}
				p.source = append(p.source[:0], v...)
			} else if err := s.skip(); err != nil {
				return err
			}
		case "sampleTraceId":
			v, ok, err := s.integer()
			if err != nil {
				return err
			}
			f.stiData, f.hasStiData = v, ok
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

// commitEvent files the decoded event: a profile record, or an event in the columns.
func (l *loader) commitEvent() {
	f := &l.ev
	fl := l.flags(f.name)
	if fl&(flagProfile|flagChunk|flagWhole) != 0 {
		if l.lane != nil {
			l.lane.record(l)
		}
		kind := core.ChunkData
		switch {
		case fl&flagProfile != 0:
			kind = core.ChunkProfile
		case fl&flagWhole != 0:
			kind = core.ChunkWhole
		}
		if f.badPid {
			l.w.badPid++
		}
		ts := math.NaN()
		if f.hasTs && !f.badTs {
			ts = f.ts
		}
		var id core.StrID
		if f.hasID {
			id = l.internBytes(f.id)
		}
		l.commitChunk(kind, f.ph, f.pid, f.tid, id, f.idIsString, ts)
		if kind != core.ChunkData {
			l.thread(f.pid, f.tid)
		}
		return
	}
	l.rollback()

	if !f.hasName {
		l.w.noName++
	}
	ts := f.ts
	switch {
	case !f.hasTs && f.ph == 'M':
		ts = 0
	case !f.hasTs:
		l.w.noTs++
		return
	case f.badTs:
		if l.w.badTs == 0 {
			l.w.firstBadTs = l.nEvents - 1
		}
		l.w.badTs++
		return
	}
	if math.Abs(ts) > maxTime && f.ph != 'M' {
		l.w.farTs++
		return
	}
	dur := math.NaN()
	switch f.ph {
	case 'X':
		dur = 0
		if f.hasDur {
			if f.badDur {
				l.w.badDur++
			} else {
				dur = f.dur
			}
		}
	case 'B', 'E':
	default:
		if f.hasDur && !f.badDur {
			dur = f.dur
		}
	}
	if dur > 0 && ts+dur > maxTime {
		// An end past the range (or at +Inf, when ts+dur overflows) would make the view
		// as wide and every other event a speck in it: the duration is taken as unknown.
		dur = 0
		if f.ph != 'X' {
			dur = math.NaN()
		}
		l.w.farEnd++
	}
	if f.badPid {
		l.w.badPid++
	}
	th := l.thread(f.pid, f.tid)

	e := &l.cols
	e.ph.push(l.mem, f.ph)
	e.name.push(l.mem, f.name)
	e.cat.push(l.mem, f.cat)
	e.ts.push(l.mem, ts)
	e.dur.push(l.mem, dur)
	e.thread.push(l.mem, th)

	var span core.Span
	if f.hasArgs && (fl&flagKeepArgs != 0 || f.ph == 'M' || l.flags(f.cat)&flagKeepArgsCat != 0) {
		args, over := l.s.captured()
		switch {
		case over:
			l.w.argsTooBig++
		case len(args) == 0:
		default:
			var ok bool
			if fl&flagSnapshot != 0 {
				span, ok = l.keepSnapshot(args, e.ts.Len()-1)
			} else {
				span, ok = e.arena.add(l.mem, args)
			}
			if !ok {
				l.w.argsArenaFull++
			}
		}
	}
	e.args.push(l.mem, span)

	// DevTools' extractSampleTraceId: beginData wins when present, even without an id.
	var sti int64
	switch {
	case f.hasBeginData:
		if f.hasStiBegin {
			sti = f.stiBegin
		}
	case f.hasStiArgs:
		sti = f.stiArgs
	case f.hasStiData:
		sti = f.stiData
	}
	e.sampleTraceID.push(l.mem, sti)
	if isAsyncPhase(f.ph) || fl&flagKeepID != 0 {
		l.keepAsyncID(f, e.ts.Len()-1)
	}

	if f.ph == 'M' {
		l.metadata(f, th, fl)
		return
	}
	l.minTs = min(l.minTs, ts)
	end := ts
	if !math.IsNaN(dur) && dur > 0 {
		end += dur
	}
	l.maxTs = max(l.maxTs, end)
}

// metadata applies thread_name, process_name and the sort indexes.
func (l *loader) metadata(f *event, th core.ThreadID, fl uint16) {
	if l.lane != nil {
		l.lane.logMetadata(l, f, th, fl)
		return
	}
	t := &l.tr.Threads[th]
	switch {
	case fl&flagThreadName != 0 && f.hasArgName:
		t.Name = l.internBytes(f.argName)
	case fl&flagProcessName != 0 && f.hasArgName:
		l.procName[f.pid] = l.internBytes(f.argName)
	case fl&flagThreadSort != 0 && f.hasSortIndex:
		t.SortIndex, t.HasSortIndex = f.sortIndex, true
	case fl&flagProcessSort != 0 && f.hasSortIndex:
		l.procSort[f.pid] = f.sortIndex
	}
}

// maxTime bounds the times the loader lets through, µs: 2^53, where float64 still counts whole
// µs (285 years: a 1970-based clock in µs is at 1.7·10¹⁵, well inside). Beyond it sums overflow
// to infinity and loops over time steps stop advancing, so nothing later sees such times.
const maxTime = 1 << 53

// threadOverhead is what a thread costs in Threads and the thread map (and in the tracks built
// for it later, which start small).
const threadOverhead = 256

// thread returns the id of (pid, tid), adding it when new. Events come in runs on one thread, so
// the last answer is kept at hand.
func (l *loader) thread(pid, tid int64) core.ThreadID {
	k := threadKey{pid, tid}
	if l.lastThreadOK && l.lastThread == k {
		return l.lastThreadID
	}
	id, ok := l.threads[k]
	if !ok {
		id = core.ThreadID(len(l.tr.Threads))
		l.mem.charge(threadOverhead)
		l.tr.Threads = append(l.tr.Threads, core.Thread{Pid: pid, Tid: tid})
		l.threads[k] = id
	}
	l.lastThread, l.lastThreadID, l.lastThreadOK = k, id, true
	return id
}

// intern interns a name or category through a small direct-mapped cache: a trace has a few
// hundred distinct ones, and the cache answers almost every lookup without hashing.
func (l *loader) intern(b []byte) core.StrID {
	n := len(b)
	if n == 0 {
		return 0
	}
	h := (uint(n)*31 + uint(b[0])*7 + uint(b[n-1])*13 + uint(b[n/2])*3) & (internCacheSize - 1)
	e := &l.cache[h]
	if e.s == string(b) {
		return e.id
	}
	id := l.internBytes(b)
	e.s, e.id = l.strs.Get(id), id
	return id
}

const internCacheSize = 1024

// stringOverhead is what the string table spends on a string beside its bytes: its header in
// the list and its entry in the map.
const stringOverhead = 64

// internBytes interns b, charging a new string to the budget. (It is charged once made: one
// string is no longer than a token, which the scanner's buffer has already held.)
func (l *loader) internBytes(b []byte) core.StrID {
	n := l.strs.Len()
	id := l.strs.InternBytes(b)
	if l.strs.Len() > n {
		l.mem.charge(int64(len(b)) + stringOverhead)
	}
	return id
}

type internEntry struct {
	s  string
	id core.StrID
}

// finish applies process-level metadata to every thread and turns the counters into warnings.
func (l *loader) finish() {
	l.frameMemo.drop(l.mem)
	if !l.takeLater {
		l.cols.take(l.mem, &l.tr.Events)
	}
	for i := range l.tr.Threads {
		t := &l.tr.Threads[i]
		t.ProcessName = l.procName[t.Pid]
		t.ProcessSortIndex = l.procSort[t.Pid]
	}
	if l.minTs <= l.maxTs {
		l.tr.MinTs, l.tr.MaxTs = l.minTs, l.maxTs
	} else {
		l.tr.MinTs, l.tr.MaxTs = math.Inf(1), math.Inf(-1)
	}
	w := &l.tr.Warnings
	w.Add("events without a ts skipped", l.w.noTs)
	if l.w.malformed > 0 {
		w.Add(fmt.Sprintf("events with malformed JSON skipped (the first: %s)", l.w.firstMalformed), l.w.malformed)
	}
	if l.w.badTs > 0 {
		w.Add(fmt.Sprintf("events with a non-numeric ts skipped (the first: event %d)", l.w.firstBadTs), l.w.badTs)
	}
	w.Add("X events with a non-numeric dur given dur 0", l.w.badDur)
	w.Add(fmt.Sprintf("events whose ts is beyond ±%.0f µs (2^53, 285 years) skipped", float64(maxTime)), l.w.farTs)
	w.Add(fmt.Sprintf("events ending beyond %.0f µs (2^53) given dur 0", float64(maxTime)), l.w.farEnd)
	w.Add("events with a pid or tid that is not an integer (0 used)", l.w.badPid)
	w.Add("events without a name (kept with an empty name)", l.w.noName)
	w.Add(fmt.Sprintf("events whose args exceed %d KB (args not kept)", maxCapture>>10), l.w.argsTooBig)
	w.Add("events after the first 4 GB of args (args not kept)", l.w.argsArenaFull)
	w.Add("profile samples whose node id is not an integer (shown as gaps)", l.w.badSampleIDs)
	w.Add("profile nodes whose id or parent is not an integer", l.w.badNodeIDs)
	w.Add("profile time deltas or timestamps that are not numbers (0 used)", l.w.badDeltas)
	w.Add("profile trace_ids entries that are not integers (ignored)", l.w.badTraceIDs)
	w.Add("strings with invalid UTF-8 (repaired with U+FFFD)", l.s.badUTF8)
}

// isAsyncPhase tells the phases that DevTools pairs by id: nestable b/e/n and the legacy S/T/F/p.
func isAsyncPhase(ph byte) bool {
	switch ph {
	case 'b', 'e', 'n', 'S', 'T', 'F', 'p':
		return true
	}
	return false
}

// keepAsyncID files event i's id, DevTools' extractId: id, else id2.global, else id2.local.
func (l *loader) keepAsyncID(f *event, i int) {
	id := core.AsyncID{Event: int32(i)}
	switch {
	case f.hasID:
		id.ID, id.Source = l.strs.InternBytes(f.id), core.IDField
	case f.id2Source != core.NoID:
		id.ID, id.Source = l.strs.InternBytes(f.id2), f.id2Source
	case f.idUnreadable:
		id.Source = core.IDUnreadable
	default:
		return
	}
	l.tr.Events.AsyncIDs = push(l.mem, l.tr.Events.AsyncIDs, id)
}
