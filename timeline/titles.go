package timeline

import (
	"context"
	"encoding/json"
	"slices"

	"flamedesk/core"
)

// eventTitles are the names the DevTools Performance panel shows for trace events, so that a
// flame chart here reads like the one users know ("Task", not "RunTask"). Events missing here
// keep their trace name. Searches match both.
var eventTitles = map[string]string{
	// Tasks and script
	"RunTask":                     "Task",
	"RunMicrotasks":               "Run microtasks",
	"FunctionCall":                "Function call",
	"EvaluateScript":              "Evaluate script",
	"EventDispatch":               "Event",
	"TimerInstall":                "Install timer",
	"TimerRemove":                 "Remove timer",
	"TimerFire":                   "Timer fired",
	"RequestAnimationFrame":       "Request animation frame",
	"CancelAnimationFrame":        "Cancel animation frame",
	"FireAnimationFrame":          "Animation frame fired",
	"RequestIdleCallback":         "Request idle callback",
	"CancelIdleCallback":          "Cancel idle callback",
	"FireIdleCallback":            "Fire idle callback",
	"XHRReadyStateChange":         "XHR readyState change",
	"XHRLoad":                     "XHR load",
	"TimeStamp":                   "Timestamp",
	"ConsoleTime":                 "Console time",
	"UserTiming":                  "User timing",
	"SchedulePostMessage":         "Schedule postMessage",
	"HandlePostMessage":           "On message",
	"V8Console::runTask":          "Run console task",
	"EmbedderCallback":            "Embedder callback",
	"CpuProfiler::StartProfiling": "Profiling overhead",
	"V8.FinalizeDeserialization":  "Profiling overhead",
	"Program":                     "Other",
	// Compilation
	"v8.compile":                         "Compile script",
	"V8.CompileCode":                     "Compile code",
	"V8.OptimizeCode":                    "Optimize code",
	"v8.produceCache":                    "Cache script code",
	"v8.compileModule":                   "Compile module",
	"v8.produceModuleCache":              "Cache module code",
	"v8.evaluateModule":                  "Evaluate module",
	"v8.parseOnBackground":               "Streaming compile task",
	"v8.parseOnBackgroundWaiting":        "Waiting for network",
	"v8.parseOnBackgroundParsing":        "Parse and compile",
	"v8.deserializeOnBackground":         "Deserialize code cache",
	"v8.wasm.streamFromResponseCallback": "Streaming Wasm response",
	"v8.wasm.compiledModule":             "Compiled Wasm module",
	"v8.wasm.cachedModule":               "Cached Wasm module",
	"v8.wasm.moduleCacheHit":             "Wasm module cache hit",
	"v8.wasm.moduleCacheInvalid":         "Wasm module cache invalid",
	// Garbage collection
	"GCEvent":                "GC event",
	"MajorGC":                "Major GC",
	"MinorGC":                "Minor GC",
	"BlinkGC.AtomicPhase":    "DOM GC",
	"CppGC.IncrementalSweep": "CPP GC",
	// Rendering and painting
	"RequestMainThreadFrame":     "Request main thread frame",
	"BeginFrame":                 "Frame start",
	"BeginMainThreadFrame":       "Frame start (main thread)",
	"DrawFrame":                  "Draw frame",
	"HitTest":                    "Hit test",
	"ScheduleStyleRecalculation": "Schedule style recalculation",
	"UpdateLayoutTree":           "Recalculate style",
	"InvalidateLayout":           "Invalidate layout",
	"PaintSetup":                 "Paint setup",
	"PaintImage":                 "Paint image",
	"PrePaint":                   "Pre-paint",
	"UpdateLayer":                "Update layer",
	"UpdateLayerTree":            "Update layer tree",
	"RasterTask":                 "Rasterize paint",
	"ScrollLayer":                "Scroll",
	"CompositeLayers":            "Composite layers",
	"ComputeIntersections":       "Compute intersections",
	"Decode Image":               "Image decode",
	// Loading
	"ParseHTML":                         "Parse HTML",
	"ParseAuthorStyleSheet":             "Parse stylesheet",
	"ResourceWillSendRequest":           "Will send request",
	"ResourceSendRequest":               "Send request",
	"ResourceReceiveResponse":           "Receive response",
	"ResourceReceivedData":              "Receive data",
	"ResourceFinish":                    "Finish loading",
	"FrameStartedLoading":               "Frame started loading",
	"MarkLoad":                          "Onload event",
	"MarkDOMContent":                    "DOMContentLoaded event",
	"firstPaint":                        "First Paint",
	"firstContentfulPaint":              "First Contentful Paint",
	"largestContentfulPaint::Candidate": "Largest Contentful Paint",
	"WebSocketCreate":                   "Create WebSocket",
	"WebSocketSendHandshakeRequest":     "Send WebSocket handshake",
	"WebSocketReceiveHandshakeResponse": "Receive WebSocket handshake",
	"WebSocketSend":                     "Send WebSocket message",
	"WebSocketReceive":                  "Receive WebSocket message",
	"WebSocketDestroy":                  "Destroy WebSocket",
}

// EventTitle is the name DevTools shows for a trace event called name: its title when DevTools
// has one, else name itself.
func EventTitle(name string) string {
	if t, ok := eventTitles[name]; ok {
		return t
	}
	return name
}

// coreDispatchTitles names each EventDispatch entry after the DOM event type in its args, as
// DevTools does ("Event: click"), by track of tr.Tracks, as entry → title (nil for a track with
// none; traces have few of them, so a map is enough). It reads only the core tracks, so that it
// can run beside the layout: on a large trace it looks at millions of entries (6 ms of CPU on
// gen-trace-large, where it reads only the event rows of compact tracks) that otherwise came after
// the levels. It gives up, returning nil, once ctx is cancelled.
func coreDispatchTitles(ctx context.Context, tr *core.Trace) []map[int32]string {
	dispatch, ok := tr.Strings.Lookup("EventDispatch")
	if !ok {
		return nil
	}
	byTrack := make([]map[int32]string, len(tr.Tracks))
	for ti := range tr.Tracks {
		if ctx.Err() != nil {
			return nil
		}
		byTrack[ti] = trackDispatchTitles(tr, &tr.Tracks[ti], dispatch)
	}
	return byTrack
}

// trackDispatchTitles is coreDispatchTitles for one track, dispatch the name EventDispatch.
func trackDispatchTitles(tr *core.Trace, ct *core.Track, dispatch core.StrID) map[int32]string {
	var titles map[int32]string
	title := func(e int) {
		if ct.NameAt(e) != dispatch || ct.KindAt(e) == core.EntryProfileCall {
			return
		}
		ev := ct.RefAt(e)
		if ev < 0 || int(ev) >= tr.Events.Len() {
			return
		}
		var args struct {
			Data struct {
				Type string `json:"type"`
			} `json:"data"`
		}
		if json.Unmarshal(tr.Events.ArgsJSON(int(ev)), &args) != nil || args.Data.Type == "" {
			return
		}
		if titles == nil {
			titles = map[int32]string{}
		}
		titles[int32(e)] = "Event: " + args.Data.Type
	}
	if !ct.Compact {
		for e := range ct.Len() {
			title(e)
		}
		return titles
	}
	// A compact track keeps its events' names apart from its calls', one per event row in row
	// order: only the rows of the EventDispatch events among them are looked at, found by counting
	// the event rows (no node) up to each, instead of decoding every entry's name (through its
	// node for a call: a read at a random place for each of millions).
	want := slices.Index(ct.EventName, dispatch)
	events := 0
	for e := 0; e < ct.Len() && want >= 0; e++ {
		if ct.NodePlus1.At(e) != 0 {
			continue
		}
		if events == want {
			title(e)
			if more := slices.Index(ct.EventName[want+1:], dispatch); more >= 0 {
				want += 1 + more
			} else {
				want = -1
			}
		}
		events++
	}
	return titles
}

// dispatchTitlesOfTracks keys coreDispatchTitles' titles (byCore, by track of tr.Tracks) by the
// model's tracks, each of which shows one of tr.Tracks.
func dispatchTitlesOfTracks(tr *core.Trace, tracks []Track, byCore []map[int32]string) map[EntryRef]string {
	if byCore == nil {
		return nil
	}
	coreIndex := make(map[*core.Track]int, len(tr.Tracks))
	for ti := range tr.Tracks {
		coreIndex[&tr.Tracks[ti]] = ti
	}
	var titles map[EntryRef]string
	for i := range tracks {
		ti, ok := coreIndex[tracks[i].Core]
		if !ok {
			continue
		}
		for e, title := range byCore[ti] {
			if titles == nil {
				titles = map[EntryRef]string{}
			}
			titles[EntryRef{Track: TrackID(i), Entry: e}] = title
		}
	}
	return titles
}
