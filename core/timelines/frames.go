package timelines

import (
	"sort"
	"strconv"
	"strings"

	"github.com/valyala/fastjson"

	"flamedesk/core"
	"flamedesk/internal/background"
)

// Frame is one frame of the Frames track.
type Frame struct {
	Ts      float64 `json:"ts"`
	Dur     Num     `json:"dur"`
	Type    string  `json:"type"` // idle, partial, dropped or complete: the panel's title and colour
	Idle    bool    `json:"idle"`
	Dropped bool    `json:"dropped"`
	Partial bool    `json:"partial"`
}

// The events the frame model reads.
const (
	fkNone uint8 = iota
	fkSetLayerTreeID
	fkBeginFrame
	fkDroppedFrame
	fkRequestMainThreadFrame
	fkBeginMainThreadFrame
	fkNeedsBeginFrameChanged
	fkCommit
	fkCompositeLayers
	fkActivateLayerTree
	fkDrawFrame
	fkRunTask
	fkMainFrameMarker // ScheduleStyleRecalculation, InvalidateLayout, ScrollLayer
)

// frameEvent is a relevant event; the compositor's events (a few thousand, against a RunTask per
// task) point into a side list of their args.
type frameEvent struct {
	i    int32
	args int32 // index into the args list, -1 for RunTask and the main-frame markers
	kind uint8
}

// frameArgs are the few args the model reads. Ids are compared the way JavaScript's === compares
// them, through jsKey.
type frameArgs struct {
	layerTreeID string // args.layerTreeId
	seq         string // args.frameSeqId
	partial     bool   // args.hasPartialUpdate
	needs       bool   // args.data.needsBeginFrame
	dataFrame   string // SetLayerTreeId: args.data.frame
	dataTreeID  string // SetLayerTreeId: args.data.layerTreeId
	hasData     bool
}

// jsKey gives a JSON value a text that is equal for two values exactly when JavaScript's ===
// (or a Map's key equality) holds: numbers by value, strings by content; "u" is undefined.
func jsKey(v *fastjson.Value) string {
	if v == nil {
		return "u"
	}
	switch v.Type() {
	case fastjson.TypeNumber:
		f, _ := v.Float64()
		return "n" + strconv.FormatFloat(f, 'g', -1, 64)
	case fastjson.TypeString:
		return "s" + string(v.GetStringBytes())
	case fastjson.TypeNull:
		return "null"
	case fastjson.TypeTrue:
		return "true"
	case fastjson.TypeFalse:
		return "false"
	}
	return "o" + v.String() // objects are never equal to one another: close enough
}

// frameEvents are the events the frame model reads, in its order, with their args: what of the
// frames needs no tracks, so that the window collects them before the tracks are built.
type frameEvents struct {
	events []frameEvent
	args   []frameArgs
}

// collectFrames picks the events the frame model reads and puts them in time order.
func collectFrames(tr *core.Trace) frameEvents {
	events, fargs := collectFrameEvents(tr)
	ev := &tr.Events
	sort.SliceStable(events, func(a, b int) bool {
		x, y := events[a].i, events[b].i
		return startsBefore(ev.Ts[x], ev.Ts[x]+rawDur(ev, x), ev.Ts[y], ev.Ts[y]+rawDur(ev, y)) < 0
	})
	return frameEvents{events, fargs}
}

// buildFrames runs the engine's frame model (TimelineFrameModel) over the compositor events of
// the main frame's layer tree and the main-frame main threads' events (fe, collectFrames of tr),
// in time order.
func buildFrames(tr *core.Trace, m *Meta, fe frameEvents) []Frame {
	events, fargs := fe.events, fe.args
	if len(events) == 0 {
		return nil
	}
	ev := &tr.Events
	type mainThread struct {
		pid, tid int64
		start    float64
	}
	var threads []mainThread
	for _, th := range m.MainThreads {
		for k := range tr.Tracks {
			if t := &tr.Tracks[k]; t.Thread == th && t.Len() > 0 {
				threads = append(threads, mainThread{tr.Threads[th].Pid, tr.Threads[th].Tid, t.StartAt(0)})
				break
			}
		}
	}
	fm := frameModel{layerTreeID: "null", queue: map[string]queuedFrame{}}
	// The engine's `tid || null`: a thread 0 matches nothing.
	activePid, activeTid, active := int64(0), int64(0), false
	if len(threads) > 0 && threads[0].tid != 0 && threads[0].pid != 0 {
		activePid, activeTid, active = threads[0].pid, threads[0].tid, true
	}
	j := 0
	noData := 0
	var none frameArgs
	for _, fe := range events {
		ts := ev.Ts[fe.i]
		e := &none
		if fe.args >= 0 {
			e = &fargs[fe.args]
		}
		kind := fe.kind
		for j+1 < len(threads) && threads[j+1].start <= ts {
			j++
			activePid, activeTid, active = threads[j].pid, threads[j].tid, true
		}
		if kind == fkSetLayerTreeID {
			if !e.hasData {
				noData++
				continue
			}
			if e.dataFrame == "s"+m.MainFrameID {
				fm.layerTreeID = e.dataTreeID
				continue
			}
		}
		if kind != fkRunTask && kind != fkMainFrameMarker {
			fm.compositor(kind, e, ts)
		}
		th := tr.Threads[ev.Thread[fe.i]]
		if active && th.Pid == activePid && th.Tid == activeTid {
			fm.mainThread(kind, e, ts)
		}
	}
	tr.Warnings.Add("SetLayerTreeId events without args.data (DevTools refuses such a trace)", noData)
	return fm.frames
}

// collectFrameEvents picks the events the frame model reads, with their args.
func collectFrameEvents(tr *core.Trace) ([]frameEvent, []frameArgs) {
	ev := &tr.Events
	kinds := make([]uint8, tr.Strings.Len())
	for name, k := range map[string]uint8{
		"SetLayerTreeId": fkSetLayerTreeID, "BeginFrame": fkBeginFrame, "DroppedFrame": fkDroppedFrame,
		"RequestMainThreadFrame": fkRequestMainThreadFrame, "BeginMainThreadFrame": fkBeginMainThreadFrame,
		"NeedsBeginFrameChanged": fkNeedsBeginFrameChanged, "Commit": fkCommit, "CompositeLayers": fkCompositeLayers,
		"ActivateLayerTree": fkActivateLayerTree, "DrawFrame": fkDrawFrame, "RunTask": fkRunTask,
		"ScheduleStyleRecalculation": fkMainFrameMarker, "InvalidateLayout": fkMainFrameMarker, "ScrollLayer": fkMainFrameMarker,
	} {
		if id, ok := tr.Strings.Lookup(name); ok {
			kinds[id] = k
		}
	}
	timelineCat := map[core.StrID]bool{}
	a := &args{tr: tr}
	var out []frameEvent
	var fargs []frameArgs
	for i, name := range ev.Name {
		background.YieldEvery(i)
		k := kinds[name]
		if k == fkNone {
			continue
		}
		fe := frameEvent{i: int32(i), kind: k, args: -1}
		switch k {
		case fkRunTask:
			c := ev.Cat[i]
			ok, seen := timelineCat[c]
			if !seen {
				ok = strings.Contains(tr.Strings.Get(c), "disabled-by-default-devtools.timeline")
				timelineCat[c] = ok
			}
			if !ok {
				continue
			}
			out = append(out, fe)
			continue
		case fkMainFrameMarker:
			out = append(out, fe)
			continue
		case fkDrawFrame:
			if ev.Ph[i] != 'I' {
				continue
			}
		}
		v := a.parse(i)
		switch k {
		case fkBeginFrame, fkDroppedFrame, fkCommit:
			if !has(v, "frameSeqId") {
				continue
			}
		}
		var e frameArgs
		e.layerTreeID = jsKey(v.Get("layerTreeId"))
		e.seq = jsKey(v.Get("frameSeqId"))
		e.partial = truthy(v, "hasPartialUpdate")
		e.needs = truthy(v, "data", "needsBeginFrame")
		if data := v.Get("data"); data != nil && data.Type() == fastjson.TypeObject {
			e.hasData = true
			e.dataFrame = jsKey(data.Get("frame"))
			e.dataTreeID = jsKey(data.Get("layerTreeId"))
		}
		fe.args = int32(len(fargs))
		fargs = append(fargs, e)
		out = append(out, fe)
	}
	return out, fargs
}

// queuedFrame is a BeginFrame or DroppedFrame waiting for its DrawFrame.
type queuedFrame struct {
	start            float64
	dropped, partial bool
}

// frameModel is the state of the engine's TimelineFrameModel. Times that the engine tests for
// truth (null or 0 is false) are kept with 0 meaning "none".
type frameModel struct {
	frames      []Frame
	open        *Frame // the frame being drawn: emitted only when the next one starts
	queue       map[string]queuedFrame
	queueOrder  []string
	layerTreeID string

	committed, requested bool
	lastBeginFrame       float64
	lastNeedsBeginFrame  float64
	lastTaskStart        float64
	pendingCommit        *pendingFrame
	pendingActivation    *pendingFrame
}

type pendingFrame struct{ trigger float64 }

func (fm *frameModel) compositor(kind uint8, e *frameArgs, ts float64) {
	if e.layerTreeID != fm.layerTreeID {
		return
	}
	switch kind {
	case fkBeginFrame:
		if fm.open == nil {
			fm.startFrame(ts)
		}
		fm.lastBeginFrame = ts
		fm.enqueue(e.seq, ts, false, false)
	case fkDrawFrame:
		fm.drawFrame(ts, e.seq)
	case fkActivateLayerTree:
		if fm.open != nil && fm.pendingActivation != nil && fm.lastNeedsBeginFrame == 0 {
			fm.pendingActivation = nil
		}
	case fkRequestMainThreadFrame:
		if fm.open != nil {
			fm.requested = true
		}
	case fkNeedsBeginFrameChanged:
		if e.needs {
			fm.lastNeedsBeginFrame = ts
		}
	case fkDroppedFrame:
		if fm.open == nil {
			fm.startFrame(ts)
		}
		fm.enqueue(e.seq, ts, true, e.partial)
		q := fm.queue[e.seq]
		q.dropped, q.partial = true, e.partial
		fm.queue[e.seq] = q
	}
}

func (fm *frameModel) enqueue(seq string, ts float64, dropped, partial bool) {
	if _, ok := fm.queue[seq]; !ok {
		fm.queue[seq] = queuedFrame{ts, dropped, partial}
		fm.queueOrder = append(fm.queueOrder, seq)
	}
}

func (fm *frameModel) drawFrame(ts float64, seq string) {
	if fm.open == nil {
		fm.startFrame(ts)
		return
	}
	if fm.committed || !fm.requested {
		if fm.lastNeedsBeginFrame != 0 {
			idleEnd := fm.lastBeginFrame
			if idleEnd == 0 {
				idleEnd = fm.lastNeedsBeginFrame
			}
			if fm.pendingActivation != nil {
				idleEnd = fm.pendingActivation.trigger
			}
			if idleEnd > fm.open.Ts {
				fm.open.Idle = true
				fm.lastBeginFrame = 0
			}
			fm.lastNeedsBeginFrame = 0
		}
		// Pop the queue up to this DrawFrame's BeginFrame: the dropped ones before it, and it, start
		// new frames.
		if _, ok := fm.queue[seq]; ok {
			var show []queuedFrame
			for len(fm.queueOrder) > 0 && fm.queueOrder[0] != seq {
				s := fm.queueOrder[0]
				if q, ok := fm.queue[s]; ok && q.dropped {
					show = append(show, q)
				}
				delete(fm.queue, s)
				fm.queueOrder = fm.queueOrder[1:]
			}
			show = append(show, fm.queue[seq])
			delete(fm.queue, seq)
			if len(fm.queueOrder) > 0 {
				fm.queueOrder = fm.queueOrder[1:]
			}
			for _, q := range show {
				lastIdle := fm.open.Idle
				fm.startFrame(q.start)
				if lastIdle && fm.pendingActivation != nil {
					fm.pendingActivation = nil
				}
				if q.dropped {
					fm.open.Dropped = true
				}
				if q.partial {
					fm.open.Partial = true
				}
			}
		}
	}
	fm.committed = false
}

func (fm *frameModel) startFrame(ts float64) {
	if f := fm.open; f != nil {
		f.Dur = Num(ts - f.Ts)
		switch {
		case f.Idle:
			f.Type = "idle"
		case f.Dropped && f.Partial:
			f.Type = "partial"
		case f.Dropped:
			f.Type = "dropped"
		default:
			f.Type = "complete"
		}
		fm.frames = append(fm.frames, *f)
	}
	fm.open = &Frame{Ts: ts}
}

func (fm *frameModel) mainThread(kind uint8, e *frameArgs, ts float64) {
	if kind == fkRunTask {
		fm.lastTaskStart = ts
	}
	if fm.pendingCommit == nil && (kind == fkMainFrameMarker || kind == fkBeginMainThreadFrame) {
		trigger := fm.lastTaskStart
		if trigger == 0 {
			trigger = ts
		}
		fm.pendingCommit = &pendingFrame{trigger}
	}
	if fm.pendingCommit == nil {
		return
	}
	if (kind == fkCompositeLayers || kind == fkCommit) && e.layerTreeID == fm.layerTreeID {
		fm.pendingActivation = fm.pendingCommit
		fm.pendingCommit = nil
		fm.requested = false
		fm.committed = true
	}
}
