// Package align puts two profiles on one time axis so that they can be compared: it finds, in
// each, the moment that should line up (the start of the recording, the page's navigation start,
// a User Timing mark or measure of a given name, or an entry the user picked) and returns the
// offset that maps the first profile's clock onto the second's.
//
// The navigation start and the marks are read straight from the trace's event columns by the
// two small finders in this file (NavigationStart, UserTiming). core/timelines, written alongside,
// will own navigations and User Timing for the rest of the app; once it lands, Anchor should take
// the first of timelines.Build(tr).Navigations with IsMainFrame and the profile's Pid (the loader
// keeps no args of navigationStart today, so the finder here cannot tell the main frame's), and
// the first of Timings.Marks or Timings.Measures by Name, and the finders can go.
package align

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"flamedesk/core"
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

// Entries lines up two entries the user selected, one in each trace, by their starts (µs), plus
// a manual offset.
func Entries(startA, startB, offset float64) Alignment {
	return Alignment{Spec: Spec{Method: Start, Offset: offset}, AnchorA: startA, AnchorB: startB + offset, Offset: startB + offset - startA}
}

// ErrNoAnchor is wrapped by Anchor when a trace has nothing to line up by.
var ErrNoAnchor = errors.New("nothing to align by")

// Anchor is the moment (µs, on the trace's clock) that spec lines up in one profile, without
// the spec's offset.
func Anchor(s Side, spec Spec) (float64, error) {
	tr := s.Trace
	switch spec.Method {
	case Navigation:
		if ts, ok := NavigationStart(tr, processOf(s)); ok {
			return ts, nil
		}
		return 0, fmt.Errorf("%w: no navigationStart event (a .cpuprofile has none; record the trace with the blink.user_timing category)", ErrNoAnchor)
	case Mark:
		if ts, ok := UserTiming(tr, spec.Name); ok {
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

const userTimingCategory = "blink.user_timing"

// hasCategory reports whether a comma-separated category list holds want.
func hasCategory(list, want string) bool {
	for c := range strings.SplitSeq(list, ",") {
		if strings.TrimSpace(c) == want {
			return true
		}
	}
	return false
}

// NavigationStart is the earliest navigationStart event of the User Timing category in process
// pid (any process when pid is -1, or when pid has none). Chrome emits one per document the
// renderer loads; the earliest in the profiled renderer is the page's own navigation.
func NavigationStart(tr *core.Trace, pid int64) (float64, bool) {
	id, ok := tr.Strings.Lookup("navigationStart")
	if !ok {
		return 0, false
	}
	best, bestAny := math.Inf(1), math.Inf(1)
	e := &tr.Events
	for i := range e.Len() {
		if e.Name[i] != id || !hasCategory(tr.Strings.Get(e.Cat[i]), userTimingCategory) {
			continue
		}
		bestAny = min(bestAny, e.Ts[i])
		if int(e.Thread[i]) < len(tr.Threads) && tr.Threads[e.Thread[i]].Pid == pid {
			best = min(best, e.Ts[i])
		}
	}
	switch {
	case !math.IsInf(best, 1):
		return best, true
	case !math.IsInf(bestAny, 1):
		return bestAny, true
	}
	return 0, false
}

// UserTiming is the time of the earliest User Timing mark named name (performance.mark, an
// instant or mark event) or the start of the earliest measure of that name (performance.measure,
// an async begin or a complete event).
func UserTiming(tr *core.Trace, name string) (float64, bool) {
	id, ok := tr.Strings.Lookup(name)
	if !ok {
		return 0, false
	}
	best := math.Inf(1)
	e := &tr.Events
	for i := range e.Len() {
		if e.Name[i] != id || !hasCategory(tr.Strings.Get(e.Cat[i]), userTimingCategory) {
			continue
		}
		switch e.Ph[i] {
		case 'R', 'I', 'i', 'n', 'b', 'S', 'X', 'B':
			best = min(best, e.Ts[i])
		}
	}
	return best, !math.IsInf(best, 1)
}
