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
	m := buildMeta(tr)
	tl := &Timelines{
		Meta:           m,
		Bounds:         m.Bounds,
		MainFrameID:    m.MainFrameID,
		TraceIsGeneric: m.TraceIsGeneric,
		Navigations:    m.Navigations,
	}
	tl.Network, tl.WebSockets = buildNetwork(tr, m)
	tl.Timings, tl.Extension = buildTimings(tr)
	tl.Timings.PageLoad = buildPageLoad(tr, m)
	tl.Interactions = buildInteractions(tr)
	tl.LayoutShifts = buildLayoutShifts(tr, m)
	tl.Frames = buildFrames(tr, m)
	tl.Screenshots = buildScreenshots(tr, m.Bounds)
	tl.Animations = buildAnimations(tr)
	tl.Memory = buildMemory(tr)
	return tl
}
