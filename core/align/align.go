// Package align puts two profiles on one time axis so that they can be compared: it finds, in
// each, the moment that should line up (the start of the recording, the page's navigation start,
// a User Timing mark or measure of a given name, or an entry the user picked) and returns the
// offset that maps the first profile's clock onto the second's.
//
// Navigations and User Timing are the engine's, as core/timelines keeps them (the navigations it
// keeps, the marks and measures of its Timings track), so that "navigation" here is the same
// moment the window's page-load markers show.
package align

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"flamedesk/core"
	"flamedesk/core/timelines"
)

// Method is how two profiles are lined up.
type Method uint8

const (
	// Start lines up the starts of the compared profiles (their first sample), then shifts the
	// second by Spec.Offset.
	Start Method = iota
	// Navigation lines up each trace's first navigation start in the profiled process.
	Navigation
	// Mark lines up the first User Timing mark, or the start of the first measure, named
	// Spec.Name in each trace.
	Mark
)

var methodNames = [...]string{Start: "start", Navigation: "navigation", Mark: "mark"}

// MarshalText names the method ("start", "navigation", "mark"), so that a saved Spec (a recent
// entry's alignment) reads well and survives reordering of the constants.
func (m Method) MarshalText() ([]byte, error) {
	if int(m) >= len(methodNames) {
		return nil, fmt.Errorf("unknown alignment method %d", m)
	}
	return []byte(methodNames[m]), nil
}

// UnmarshalText is the inverse of MarshalText.
func (m *Method) UnmarshalText(b []byte) error {
	for i, name := range methodNames {
		if name == string(b) {
			*m = Method(i)
			return nil
		}
	}
	return fmt.Errorf("unknown alignment method %q", b)
}

// Spec is an alignment as a user states it. It marshals to JSON as
// {"method":"mark","name":"app-ready","offset":-1500}, the form a recent entry keeps.
type Spec struct {
	Method Method  `json:"method"`
	Name   string  `json:"name,omitempty"`   // Mark: the mark or measure
	Offset float64 `json:"offset,omitempty"` // µs added to the second profile's anchor after the method lined them up (dragging B's ruler)
}

// ParseSpec reads the command-line form: "start", "navigation", "mark:NAME" or "offset:US" (the
// starts lined up, then the second profile shifted by US µs; negative moves it earlier).
func ParseSpec(s string) (Spec, error) {
	kind, arg, hasArg := strings.Cut(s, ":")
	switch {
	case kind == "start" && !hasArg:
		return Spec{Method: Start}, nil
	case kind == "navigation" && !hasArg:
		return Spec{Method: Navigation}, nil
	case kind == "mark" && arg != "":
		return Spec{Method: Mark, Name: arg}, nil
	case kind == "offset" && hasArg:
		us, err := strconv.ParseFloat(arg, 64)
		if err != nil || math.IsNaN(us) || math.IsInf(us, 0) {
			return Spec{}, fmt.Errorf("offset %q is not a number of µs", arg)
		}
		return Spec{Method: Start, Offset: us}, nil
	}
	return Spec{}, fmt.Errorf("alignment %q: want start, navigation, mark:NAME or offset:US", s)
}

// String is the command-line form of the spec.
func (s Spec) String() string {
	var base string
	switch s.Method {
	case Navigation:
		base = "navigation"
	case Mark:
		base = "mark:" + s.Name
	default:
		if s.Offset != 0 {
			return "offset:" + strconv.FormatFloat(s.Offset, 'f', -1, 64)
		}
		return "start"
	}
	if s.Offset != 0 {
		base += fmt.Sprintf(" %+g µs", s.Offset)
	}
	return base
}

// Side is one of the two profiles: the trace it is in and which of its profiles is compared.
type Side struct {
	Trace   *core.Trace
	Profile int // index into Trace.Profiles, -1 when the comparison is not about samples
}

// Alignment maps a time of the first profile (A) to the second (B): tB = tA + Offset. AnchorA
// and AnchorB are the moments lined up, each on its own trace's clock (µs); the aligned axis
// measures time from them.
type Alignment struct {
	Spec             Spec
	AnchorA, AnchorB float64
	Offset           float64
}

// ToB converts a time of A's clock to B's.
func (a Alignment) ToB(tA float64) float64 { return tA + a.Offset }

// ToA converts a time of B's clock to A's.
func (a Alignment) ToA(tB float64) float64 { return tB - a.Offset }

// Range converts [start, end) in µs from the anchor, on the aligned axis, to each trace's clock.
func (a Alignment) Range(start, end float64) (aStart, aEnd, bStart, bEnd float64) {
	return a.AnchorA + start, a.AnchorA + end, a.AnchorB + start, a.AnchorB + end
}

// Align lines up b with a as spec says.
func Align(a, b Side, spec Spec) (Alignment, error) {
	ta, err := Anchor(a, spec)
	if err != nil {
		return Alignment{}, fmt.Errorf("first profile: %w", err)
	}
	tb, err := Anchor(b, spec)
	if err != nil {
		return Alignment{}, fmt.Errorf("second profile: %w", err)
	}
	tb += spec.Offset
	return Alignment{Spec: spec, AnchorA: ta, AnchorB: tb, Offset: tb - ta}, nil
}

// Entries is the spec that lines up two entries the user selected, one in each trace, by their
// starts (µs, each on its own trace's clock): the starts of the profiles lined up, then B shifted
// so that startB falls on startA. Saved and aligned again, it gives the same offset.
func Entries(a, b Side, startA, startB float64) (Spec, error) {
	ta, err := Anchor(a, Spec{})
	if err != nil {
		return Spec{}, fmt.Errorf("first profile: %w", err)
	}
	tb, err := Anchor(b, Spec{})
	if err != nil {
		return Spec{}, fmt.Errorf("second profile: %w", err)
	}
	return Spec{Method: Start, Offset: (startB - startA) - (tb - ta)}, nil
}

// Shifted is a moved by delta µs (B's events later on A's axis for a negative delta): what
// dragging B's ruler does. The anchors stay; the spec's offset keeps the change, so that it is
// saved with the rest.
func (a Alignment) Shifted(delta float64) Alignment {
	a.Spec.Offset += delta
	a.AnchorB += delta
	a.Offset += delta
	return a
}

// ErrNoAnchor is wrapped by Anchor when a trace has nothing to line up by.
var ErrNoAnchor = errors.New("nothing to align by")

// Anchor is the moment (µs, on the trace's clock) that spec lines up in one profile, without
// the spec's offset.
func Anchor(s Side, spec Spec) (float64, error) {
	tr := s.Trace
	switch spec.Method {
	case Navigation:
		if ts, ok := NavigationStart(timelines.BuildMeta(tr), processOf(s)); ok {
			return ts, nil
		}
		return 0, fmt.Errorf("%w: no navigation start (a .cpuprofile has none; record the trace with the blink.user_timing category)", ErrNoAnchor)
	case Mark:
		if ts, ok := UserTiming(timelines.Build(tr).Timings, spec.Name); ok {
			return ts, nil
		}
		return 0, fmt.Errorf("%w: no User Timing mark or measure named %q", ErrNoAnchor, spec.Name)
	}
	if s.Profile >= 0 && s.Profile < len(tr.Profiles) {
		if p := &tr.Profiles[s.Profile]; len(p.Timestamps) > 0 {
			return p.Timestamps[0], nil
		}
	}
	if tr.MinTs <= tr.MaxTs {
		return tr.MinTs, nil
	}
	return 0, fmt.Errorf("%w: the file has no events and no samples", ErrNoAnchor)
}

// processOf is the pid of the compared profile, -1 when there is none.
func processOf(s Side) int64 {
	if s.Profile >= 0 && s.Profile < len(s.Trace.Profiles) {
		return s.Trace.Profiles[s.Profile].Pid
	}
	return -1
}

// NavigationStart is the first navigation of the main frame the engine kept in process pid (in
// any process when pid is -1 or has none), else the first navigation it kept at all. A renderer
// can load several documents; the main frame's first in the profiled renderer is the page's own.
func NavigationStart(m *timelines.Meta, pid int64) (float64, bool) {
	best, bestMain, bestAny := math.Inf(1), math.Inf(1), math.Inf(1)
	for _, n := range m.Navigations {
		bestAny = min(bestAny, n.Ts)
		if n.IsMainFrame {
			bestMain = min(bestMain, n.Ts)
			if n.Pid == pid {
				best = min(best, n.Ts)
			}
		}
	}
	for _, ts := range []float64{best, bestMain, bestAny} {
		if !math.IsInf(ts, 1) {
			return ts, true
		}
	}
	return 0, false
}

// UserTiming is the time of the earliest performance.mark named name, or the start of the
// earliest performance.measure of that name, on the Timings track.
func UserTiming(t timelines.Timings, name string) (float64, bool) {
	best := math.Inf(1)
	for _, m := range t.Marks {
		if m.Name == name {
			best = min(best, m.Ts)
		}
	}
	for _, m := range t.Measures {
		if m.Name == name {
			best = min(best, m.Ts)
		}
	}
	return best, !math.IsInf(best, 1)
}

// TimingNames lists the names of the trace's User Timing marks and measures, sorted, each once:
// what "mark:NAME" can line up by.
func TimingNames(tr *core.Trace) []string {
	t := timelines.Build(tr).Timings
	var names []string
	for _, m := range t.Marks {
		names = append(names, m.Name)
	}
	for _, m := range t.Measures {
		names = append(names, m.Name)
	}
	slices.Sort(names)
	return slices.Compact(names)
}
