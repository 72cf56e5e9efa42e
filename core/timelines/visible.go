package timelines

import (
	"flamedesk/core"
)

// drawnEventNames are the trace events the Performance panel draws in a thread's flame chart: the
// names its event styles know and do not mark hidden. Everything else in a thread's tree (the
// scheduler's ThreadControllerImpl::RunTask and BlinkScheduler_PerformMicrotaskCheckpoint wrappers,
// the page-load markers, which the Timings track draws instead, and so on) is left out of the
// chart, and its children move up a row. JS calls (ProfileCall) are always drawn.
var drawnEventNames = []string{
	"RunTask", "ProfileCall", "JSSample", "Program", "CpuProfiler::StartProfiling", "Animation",
	"EventDispatch", "HitTest", "ScheduleStyleRecalculation", "UpdateLayoutTree", "Layerize", "Layout",
	"PaintSetup", "UpdateLayerTree", "Paint", "PrePaint", "RasterTask", "ScrollLayer", "Commit",
	"CompositeLayers", "ComputeIntersections", "ParseHTML", "ParseAuthorStyleSheet", "TimerInstall",
	"TimerRemove", "TimerFire", "XHRReadyStateChange", "XHRLoad", "v8.compile", "v8.produceCache",
	"V8.CompileCode", "V8.OptimizeCode", "EvaluateScript", "V8.CompileModule", "v8.produceModuleCache",
	"v8.evaluateModule", "v8.parseOnBackground", "v8.parseOnBackgroundWaiting",
	"v8.parseOnBackgroundParsing", "v8.deserializeOnBackground", "V8.FinalizeDeserialization",
	"v8.wasm.streamFromResponseCallback", "v8.wasm.compiledModule", "v8.wasm.cachedModule",
	"v8.wasm.moduleCacheHit", "v8.wasm.moduleCacheInvalid", "TimeStamp", "ConsoleTime", "UserTiming",
	"ResourceWillSendRequest", "ResourceSendRequest", "ResourceReceiveResponse", "ResourceFinish",
	"ResourceReceivedData", "RunMicrotasks", "FunctionCall", "GCEvent", "MajorGC", "MinorGC",
	"CppGC.IncrementalSweep", "RequestAnimationFrame", "CancelAnimationFrame", "FireAnimationFrame",
	"RequestIdleCallback", "CancelIdleCallback", "FireIdleCallback", "WebSocketCreate",
	"WebSocketSendHandshakeRequest", "WebSocketReceiveHandshakeResponse", "WebSocketDestroy",
	"WebSocketSend", "WebSocketReceive", "EmbedderCallback", "Decode Image", "GPUTask",
	"BlinkGC.AtomicPhase", "DoEncrypt", "DoEncryptReply", "DoDecrypt", "DoDecryptReply", "DoDigest",
	"DoDigestReply", "DoSign", "DoSignReply", "DoVerify", "DoVerifyReply", "AsyncTask",
	"SyntheticLayoutShift", "SyntheticLayoutShiftCluster", "EventTiming", "HandlePostMessage",
	"SchedulePostMessage", "SchedulePostTaskCallback", "RunPostTaskCallback", "AbortPostTaskCallback",
	"V8Console::runTask",
	// Not styled, but drawn so that the memory graph finds them in a selection.
	"UpdateCounters",
}

// Visibility tells which entries of a thread's tree the panel draws in its flame chart. A generic
// trace (one not recorded by DevTools) has every entry drawn. The dump keeps every entry; only the
// view leaves the hidden ones out.
type Visibility struct {
	generic bool
	drawn   []bool // by StrID of the event name
	// User Timing and console.time events are drawn whatever their name.
	userTiming, console core.StrID
	hasUserTiming       bool
	hasConsole          bool
}

// NewVisibility prepares the rule for tr; generic is Meta.TraceIsGeneric.
func NewVisibility(tr *core.Trace, generic bool) *Visibility {
	v := &Visibility{generic: generic, drawn: make([]bool, tr.Strings.Len())}
	for _, n := range drawnEventNames {
		if id, ok := tr.Strings.Lookup(n); ok {
			v.drawn[id] = true
		}
	}
	v.userTiming, v.hasUserTiming = tr.Strings.Lookup("blink.user_timing")
	v.console, v.hasConsole = tr.Strings.Lookup("blink.console")
	return v
}

// Entry tells whether entry e of track t is drawn.
func (v *Visibility) Entry(tr *core.Trace, t *core.Track, e int) bool {
	if v.generic || t.KindAt(e) == core.EntryProfileCall {
		return true
	}
	return v.Event(tr, int(t.RefAt(e)))
}

// EntriesAt sets drawn[k] to Entry(tr, t, lo+k) for each k, for a run of entries at once: the
// entries' kinds are decoded together (core.Track.KindsAt), and only the trace events among them
// are looked up.
func (v *Visibility) EntriesAt(tr *core.Trace, t *core.Track, lo int, drawn []bool) {
	if v.generic {
		for k := range drawn {
			drawn[k] = true
		}
		return
	}
	var kinds [256]core.EntryKind
	for run := 0; run < len(drawn); run += len(kinds) {
		n := min(len(kinds), len(drawn)-run)
		t.KindsAt(lo+run, kinds[:n])
		for k, kind := range kinds[:n] {
			drawn[run+k] = kind == core.EntryProfileCall || v.Event(tr, int(t.RefAt(lo+run+k)))
		}
	}
}

// Event tells whether trace event i (an index into tr.Events) is drawn when it is in a thread's tree.
func (v *Visibility) Event(tr *core.Trace, i int) bool {
	if v.generic {
		return true
	}
	ev := &tr.Events
	if name := ev.Name[i]; int(name) < len(v.drawn) && v.drawn[name] {
		return true
	}
	cat, ph := ev.Cat[i], ev.Ph[i]
	switch {
	case v.hasUserTiming && cat == v.userTiming:
		return isAsyncPhase(ph) || ph == 'R' || ph == 'I'
	case v.hasConsole && cat == v.console:
		return isAsyncPhase(ph)
	}
	return false
}
