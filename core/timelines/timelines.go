// Package timelines owns the tracks the Performance panel shows beside the thread flame charts:
// the trace bounds, navigations, network requests and WebSockets, the Timings track (page-load
// markers, User Timing, console.time and console.timeStamp), extension tracks, interactions,
// layout shifts, frames, screenshots, animations and memory counters.
//
// Everything is built from a loaded core.Trace (its event columns and the raw args the loader
// kept for the names these lists need), so the file is read once. Each list follows the DevTools
// engine's rules (shared/conformance/RULES.md §7) and is compared with the engine's own output by
// the conformance test. The lists are small, so their items are plain structs with strings; the
// JSON tags give the shape `flamedesk dump` writes under "timelines".
package timelines

import (
	"math"
	"strconv"

	"flamedesk/core"
)

// Timelines is every list of the tracks beside the thread flame charts.
type Timelines struct {
	// Meta is what the other lists are built from: bounds, frames, navigations, main threads.
	Meta *Meta `json:"-"`

	Bounds         Bounds       `json:"bounds"`
	MainFrameID    string       `json:"mainFrameId"`
	TraceIsGeneric bool         `json:"traceIsGeneric"`
	Navigations    []Navigation `json:"navigations"`
	Network        []Request    `json:"network"`
	WebSockets     []WebSocket  `json:"webSockets"`

	Timings      Timings          `json:"timings"`
	Extension    []ExtensionGroup `json:"extension"`
	Interactions []Interaction    `json:"interactions"`
	LayoutShifts LayoutShifts     `json:"layoutShifts"`
	Frames       []Frame          `json:"frames"`
	Screenshots  []Screenshot     `json:"screenshots"`
	Animations   []Animation      `json:"animations"`
	Memory       Memory           `json:"memory"`
}

// Bounds is the span of the trace as the panel shows it, µs on the trace's clock. A trace without
// any event that counts has infinite bounds (min +Inf, max -Inf), as the engine's; see Finite.
type Bounds struct {
	Min   Num `json:"min"`
	Max   Num `json:"max"`
	Range Num `json:"range"`
}

// Finite tells whether the bounds come from events.
func (b Bounds) Finite() bool {
	return !math.IsInf(float64(b.Min), 0) && !math.IsInf(float64(b.Max), 0) && !math.IsNaN(float64(b.Range))
}

// Num is a number that the engine may leave without a value: NaN and the infinities are written as
// JSON null.
type Num float64

// MarshalJSON writes the number, or null when it is not finite.
func (n Num) MarshalJSON() ([]byte, error) {
	f := float64(n)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, f, 'f', -1, 64), nil
}

// Navigation is a navigationStart event the engine kept.
type Navigation struct {
	NavigationID string  `json:"navigationId,omitempty"` // absent when the event has none
	Ts           float64 `json:"ts"`
	Pid          int64   `json:"pid"`
	Frame        string  `json:"frame"`
	URL          string  `json:"url"`
	IsMainFrame  bool    `json:"isMainFrame"`
	// Event indexes tr.Events.
	Event int32 `json:"-"`
}

// Build collects every list from tr. Warnings about malformed events go to tr.Warnings.
func Build(tr *core.Trace) *Timelines {
	e := BuildEarly(tr)
	tl := e.Finish(tr)
	e.Warn(tr)
	return tl
}

// Early is Build in steps that write nothing to the trace until the last, so that the window can
// build the lists beside other work on the trace: BuildEarly builds what needs no tracks (every
// list but the frames, which start from the main thread's track, and the frames' events in time
// order) while core/integrate still builds them, on a core the build leaves idle; Finish builds
// the rest once they are built; Warn adds the lists' warnings to the trace's.
type Early struct {
	tl *Timelines
	// The warnings of the lists built before the frames, of the frames and of the lists after
	// them, which Warn adds to the trace's in the order Build adds them.
	before, frames, after core.Warnings
	// frameEvents is what of the frames needs no tracks, until Finish builds them.
	frameEvents frameEvents
}

// BuildEarly builds every list of tr but the frames, whose events it collects. It reads tr's
// events, threads, strings and chunks and writes nothing to tr, so it may run while
// core/integrate builds tr's tracks, once the build's first track is out: the build has paired
// the events' B and E, the last change it makes to them, before it builds any track.
//
// The memory counters and the frames' events, which need no meta, are read on a goroutine of
// their own beside the other lists: when the window builds them after the tracks, they are the
// longest of what it does before the first chart.
func BuildEarly(tr *core.Trace) *Early {
	var memory Memory
	var frames frameEvents
	memoryView := readView(tr)
	done := make(chan struct{})
	go func() {
		defer close(done)
		memory = buildMemory(memoryView)
		frames = collectFrames(memoryView)
	}()
	view := readView(tr)
	m := buildMeta(view)
	tl := &Timelines{
		Meta:           m,
		Bounds:         m.Bounds,
		MainFrameID:    m.MainFrameID,
		TraceIsGeneric: m.TraceIsGeneric,
		Navigations:    m.Navigations,
	}
	tl.Network, tl.WebSockets = buildNetwork(view, m)
	tl.Timings, tl.Extension = buildTimings(view)
	tl.Timings.PageLoad = buildPageLoad(view, m)
	tl.Interactions = buildInteractions(view)
	tl.LayoutShifts = buildLayoutShifts(view, m)
	e := &Early{tl: tl, before: view.Warnings}
	view.Warnings = core.Warnings{}
	tl.Screenshots = buildScreenshots(view, m.Bounds)
	tl.Animations = buildAnimations(view)
	<-done
	tl.Memory, e.frameEvents = memory, frames
	// The memory lane's warnings come after the screenshots' and the animations', as Build
	// always added them.
	view.Warnings.AddAll(&memoryView.Warnings)
	e.after = view.Warnings
	return e
}

// Partial is the lists e holds before Finish: all but the frames, with the main threads not
// known yet. Read them only before Finish, which completes them in place.
func (e *Early) Partial() *Timelines { return e.tl }

// Finish completes the lists of tr, whose tracks are now built, from e (BuildEarly of tr): the
// main threads and the frames. Like BuildEarly it writes nothing to tr. Once only.
func (e *Early) Finish(tr *core.Trace) *Timelines {
	view := readView(tr)
	view.Tracks = tr.Tracks
	tl := e.tl
	tl.Meta.mainThreads(view)
	tl.Frames = buildFrames(view, tl.Meta, e.frameEvents)
	e.frameEvents = frameEvents{}
	e.frames = view.Warnings
	return tl
}

// Warn adds the warnings of every list that e built to tr's, in the order Build adds them.
func (e *Early) Warn(tr *core.Trace) {
	for _, w := range []*core.Warnings{&e.before, &e.frames, &e.after} {
		tr.Warnings.AddAll(w)
	}
}

// readView is a trace that shares every field of tr the lists read but the tracks, with warnings
// of its own.
func readView(tr *core.Trace) *core.Trace {
	return &core.Trace{Kind: tr.Kind, Strings: tr.Strings, Threads: tr.Threads, Events: tr.Events, Chunks: tr.Chunks,
		MinTs: tr.MinTs, MaxTs: tr.MaxTs, EventBounds: tr.EventBounds}
}
