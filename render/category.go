package render

import "strings"

// Category is the kind of work a trace event stands for, as DevTools' Performance panel groups
// them; it decides an event's colour.
type Category uint8

const (
	CatSystem    Category = iota // tasks and everything not known: grey
	CatScripting                 // running JS: yellow
	CatRendering                 // style, layout, hit testing: purple
	CatPainting                  // paint, raster, compositing: green
	CatLoading                   // parsing HTML and CSS, network: blue
	CatGC                        // garbage collection: a darker grey than system
	CatIdle                      // idle time: background-like
	numCategories
)

// String names the category as DevTools' legend does.
func (c Category) String() string {
	switch c {
	case CatScripting:
		return "Scripting"
	case CatRendering:
		return "Rendering"
	case CatPainting:
		return "Painting"
	case CatLoading:
		return "Loading"
	case CatGC:
		return "GC"
	case CatIdle:
		return "Idle"
	}
	return "System"
}

// eventCategories assigns the trace events Chrome writes to the categories DevTools shows them in.
// The list was drawn up from DevTools' event styles; GC events get their own grey here.
var eventCategories = map[string]Category{
	// Scripting.
	"FunctionCall": CatScripting, "EvaluateScript": CatScripting, "EventDispatch": CatScripting,
	"RunMicrotasks": CatScripting, "TimerInstall": CatScripting, "TimerRemove": CatScripting,
	"TimerFire": CatScripting, "XHRReadyStateChange": CatScripting, "XHRLoad": CatScripting,
	"v8.compile": CatScripting, "v8.compileModule": CatScripting, "v8.evaluateModule": CatScripting,
	"v8.produceCache": CatScripting, "v8.produceModuleCache": CatScripting,
	"V8.CompileCode": CatScripting, "V8.OptimizeCode": CatScripting, "v8.parseOnBackground": CatScripting,
	"v8.deserializeOnBackground": CatScripting, "V8.ParseAndCompile": CatScripting,
	"RequestAnimationFrame": CatScripting, "CancelAnimationFrame": CatScripting,
	"FireAnimationFrame": CatScripting, "RequestIdleCallback": CatScripting,
	"CancelIdleCallback": CatScripting, "FireIdleCallback": CatScripting,
	"WebSocketCreate": CatScripting, "WebSocketSendHandshakeRequest": CatScripting,
	"WebSocketReceiveHandshakeResponse": CatScripting, "WebSocketDestroy": CatScripting,
	"WebSocketSend": CatScripting, "WebSocketReceive": CatScripting,
	"TimeStamp": CatScripting, "ConsoleTime": CatScripting, "UserTiming": CatScripting,
	"EmbedderCallback": CatScripting, "V8Console::runTask": CatScripting,
	"SchedulePostTaskCallback": CatScripting, "RunPostTaskCallback": CatScripting,
	"AbortPostTaskCallback": CatScripting, "HandlePostMessage": CatScripting,
	"SchedulePostMessage": CatScripting, "v8.wasm.streamFromResponseCallback": CatScripting,
	"v8.wasm.compiledModule": CatScripting, "v8.wasm.cachedModule": CatScripting,
	"v8.wasm.moduleCacheHit": CatScripting, "v8.wasm.moduleCacheInvalid": CatScripting,
	"DoEncrypt": CatScripting, "DoDecrypt": CatScripting, "DoDigest": CatScripting,
	"DoSign": CatScripting, "DoVerify": CatScripting, "JSSample": CatScripting,

	// Rendering.
	"Animation": CatRendering, "RequestMainThreadFrame": CatRendering, "BeginFrame": CatRendering,
	"BeginMainThreadFrame": CatRendering, "DrawFrame": CatRendering, "HitTest": CatRendering,
	"ScheduleStyleRecalculation": CatRendering, "UpdateLayoutTree": CatRendering,
	"RecalculateStyles": CatRendering, "InvalidateLayout": CatRendering, "Layerize": CatRendering,
	"Layout": CatRendering, "UpdateLayerTree": CatRendering, "PrePaint": CatRendering,
	"ScrollLayer": CatRendering, "IntersectionObserverController::computeIntersections": CatRendering,
	"LayoutShift": CatRendering,

	// Painting.
	"PaintSetup": CatPainting, "PaintImage": CatPainting, "UpdateLayer": CatPainting,
	"Paint": CatPainting, "RasterTask": CatPainting, "Commit": CatPainting,
	"CompositeLayers": CatPainting, "Decode Image": CatPainting, "ImageDecodeTask": CatPainting,
	"Decode LazyPixelRef": CatPainting, "GPUTask": CatPainting,

	// Loading.
	"ParseHTML": CatLoading, "ParseAuthorStyleSheet": CatLoading,
	"ResourceWillSendRequest": CatLoading, "ResourceSendRequest": CatLoading,
	"ResourceReceiveResponse": CatLoading, "ResourceFinish": CatLoading,
	"ResourceReceivedData": CatLoading, "FrameStartedLoading": CatLoading,

	// Garbage collection.
	"MajorGC": CatGC, "MinorGC": CatGC, "GCEvent": CatGC, "ThreadState::performIdleLazySweep": CatGC,
	"ThreadState::completeSweep": CatGC, "BlinkGCMarking": CatGC, "CppGC.IncrementalSweep": CatGC,

	// System.
	"RunTask": CatSystem, "ThreadControllerImpl::RunTask": CatSystem, "Program": CatSystem,
	"CpuProfiler::StartProfiling": CatSystem, "V8.DeserializeContext": CatSystem,
}

// EventCategory is the category of a trace event from its name, and from its trace category
// (the cat field) when the name is not one DevTools knows.
func EventCategory(name, cat string) Category {
	if c, ok := eventCategories[name]; ok {
		return c
	}
	switch {
	case strings.HasPrefix(name, "V8.GC") || strings.HasPrefix(name, "BlinkGC.") ||
		strings.HasPrefix(name, "CppGC.") || strings.HasSuffix(name, "GC"):
		return CatGC
	case strings.HasPrefix(name, "v8.") || strings.HasPrefix(name, "V8."):
		return CatScripting
	}
	// The trace category is a comma-separated list; the first telling entry wins.
	for c := range strings.SplitSeq(cat, ",") {
		c = strings.TrimPrefix(c, "disabled-by-default-")
		switch {
		case strings.Contains(c, "gc"):
			return CatGC
		case strings.HasPrefix(c, "v8"):
			return CatScripting
		case c == "loading" || c == "netlog" || strings.HasPrefix(c, "net"):
			return CatLoading
		case c == "cc" || c == "viz" || strings.HasPrefix(c, "gpu"):
			return CatPainting
		}
	}
	return CatSystem
}

// callCategory is the category of a ProfileCall whose function is one of V8's pseudo-frames,
// which DevTools colours by category rather than by URL; ok is false for real functions.
func callCategory(function string) (Category, bool) {
	switch function {
	case "(program)":
		return CatSystem, true
	case "(idle)":
		return CatIdle, true
	case "(garbage collector)":
		return CatGC, true
	}
	return 0, false
}
