package align

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"testing"

	"flamedesk/core"
	"flamedesk/core/load"
	"flamedesk/core/timelines"
	"flamedesk/internal/fixtures"
)

// ev is one event of a built trace.
type ev struct {
	ph        byte
	name, cat string
	ts        float64
	thread    core.ThreadID
}

// traceWith builds a trace of two processes (pid 1 and 2, one thread each) holding the given
// events and one profile on pid 2 whose first sample is at 500 µs.
func traceWith(events ...ev) *core.Trace {
	tr := &core.Trace{Strings: core.NewStrings(), Threads: []core.Thread{{Pid: 1, Tid: 1}, {Pid: 2, Tid: 2}}}
	e := &tr.Events
	for _, ev := range events {
		e.Ph = append(e.Ph, ev.ph)
		e.Name = append(e.Name, tr.Strings.Intern(ev.name))
		e.Cat = append(e.Cat, tr.Strings.Intern(ev.cat))
		e.Ts = append(e.Ts, ev.ts)
		e.Dur = append(e.Dur, math.NaN())
		e.Thread = append(e.Thread, ev.thread)
	}
	tr.MinTs, tr.MaxTs = 100, 9000
	tr.Profiles = []core.ProfileModel{{Pid: 2, Tid: 2, Thread: 1, Samples: []int32{0}, Timestamps: []float64{500, 600}}}
	return tr
}

// Without navigations or User Timing, a built trace lines up by its profile's first sample, or
// by its first event when the comparison is not about samples.
func TestStartOfABuiltTrace(t *testing.T) {
	tr := traceWith()
	side := Side{Trace: tr, Profile: 0}
	for _, c := range []struct {
		spec string
		want float64
	}{{"start", 500}, {"offset:-25", 500}} { // Anchor leaves the offset to Align
		spec, err := ParseSpec(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := Anchor(side, spec); err != nil || got != c.want {
			t.Errorf("%s: %v, %v; want %v", c.spec, got, err, c.want)
		}
	}
	if got, _ := Anchor(Side{Trace: tr, Profile: -1}, Spec{}); got != 100 {
		t.Errorf("start without a profile: %v, want the trace's first event at 100", got)
	}
	if _, err := Anchor(side, Spec{Method: Navigation}); !errors.Is(err, ErrNoAnchor) {
		t.Errorf("navigation in a trace without one: %v", err)
	}
	if _, err := Anchor(side, Spec{Method: Mark, Name: "missing"}); !errors.Is(err, ErrNoAnchor) {
		t.Errorf("a missing mark: %v", err)
	}
}

// recordedPair loads trace-a and trace-a2 of testdata/diff (the same page, waiting 50 and 300 ms
// before its work) with the side of each one's renderer main thread.
func recordedPair(t *testing.T) (a, b Side) {
	t.Helper()
	var sides [2]Side
	for i, name := range []string{"trace-a.json.gz", "trace-a2.json.gz"} {
		tr, err := load.File(context.Background(), fixtures.Path(t, "diff", name), nil)
		if err != nil {
			t.Fatal(err)
		}
		sides[i] = Side{Trace: tr, Profile: 0}
		for p := range tr.Profiles {
			if tr.Strings.Get(tr.Threads[tr.Profiles[p].Thread].Name) == "CrRendererMain" {
				sides[i].Profile = p
			}
		}
	}
	return sides[0], sides[1]
}

// Aligning by a mark puts both marks on one moment; a manual offset and Shifted move B by as
// much; two selected entries line up, and their spec aligns again to the same offset.
func TestAlignRecordedPair(t *testing.T) {
	a, b := recordedPair(t)
	markA, _ := UserTiming(timelines.Build(a.Trace).Timings, "work-start")
	markB, _ := UserTiming(timelines.Build(b.Trace).Timings, "work-start")
	al, err := Align(a, b, Spec{Method: Mark, Name: "work-start", Offset: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if al.Offset != markB-markA+1000 || al.ToB(markA) != markB+1000 || al.ToA(markB+1000) != markA {
		t.Errorf("alignment %+v; marks at %v and %v", al, markA, markB)
	}
	if s, e, bs, be := al.Range(0, 500); s != al.AnchorA || e != al.AnchorA+500 || bs != al.AnchorB || be != al.AnchorB+500 {
		t.Errorf("range 0–500 µs: A [%v, %v), B [%v, %v)", s, e, bs, be)
	}
	if sh := al.Shifted(-250); sh.Offset != al.Offset-250 || sh.Spec.Offset != 750 || sh.AnchorA != al.AnchorA {
		t.Errorf("shifted by -250 µs: %+v", sh)
	}
	spec, err := Entries(a, b, markA, markB)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Align(a, b, spec)
	if err != nil || again.ToB(markA) != markB {
		t.Errorf("entries' spec %+v aligns %v to %v, want %v (%v)", spec, markA, again.ToB(markA), markB, err)
	}
	names := TimingNames(a.Trace)
	for _, want := range []string{"work", "work-start", "work-end"} {
		if !slices.Contains(names, want) {
			t.Errorf("timing names %q lack %q", names, want)
		}
	}
}

func TestParseSpec(t *testing.T) {
	for _, s := range []string{"start", "navigation", "mark:work-start", "offset:-1500.5"} {
		spec, err := ParseSpec(s)
		if err != nil || spec.String() != s {
			t.Errorf("%q: %+v %v, prints %q", s, spec, err, spec.String())
		}
	}
	for _, s := range []string{"", "mark:", "mark", "offset:x", "offset:NaN", "navigation:1", "frame"} {
		if _, err := ParseSpec(s); err == nil {
			t.Errorf("%q accepted", s)
		}
	}
}

// The recorded page waits 50 ms (trace-a) or 300 ms (trace-a2) after its load event before it
// marks work-start and starts the measure "work"; the load comes after the navigation.
func TestAnchorsOfRecordedTraces(t *testing.T) {
	for name, delay := range map[string]float64{"trace-a.json.gz": 50e3, "trace-a2.json.gz": 300e3} {
		tr, err := load.File(context.Background(), fixtures.Path(t, "diff", name), nil)
		if err != nil {
			t.Fatal(err)
		}
		side := Side{Trace: tr, Profile: 0}
		for i := range tr.Profiles {
			if tr.Strings.Get(tr.Threads[tr.Profiles[i].Thread].Name) == "CrRendererMain" {
				side.Profile = i
			}
		}
		nav, err1 := Anchor(side, Spec{Method: Navigation})
		mark, err2 := Anchor(side, Spec{Method: Mark, Name: "work-start"})
		measure, err3 := Anchor(side, Spec{Method: Mark, Name: "work"})
		end, err4 := Anchor(side, Spec{Method: Mark, Name: "work-end"})
		if err := errors.Join(err1, err2, err3, err4); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if mark-nav < delay || measure != mark || end <= mark {
			t.Errorf("%s: navigation %v, work-start %v (want ≥ %v µs later), measure %v, work-end %v", name, nav, mark, delay, measure, end)
		}
	}
	cp, err := load.File(context.Background(), fixtures.Path(t, "diff", "node-a.cpuprofile.gz"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Anchor(Side{Trace: cp, Profile: 0}, Spec{Method: Navigation}); !errors.Is(err, ErrNoAnchor) {
		t.Errorf("navigation in a .cpuprofile: %v", err)
	}
	if got, err := Anchor(Side{Trace: cp, Profile: 0}, Spec{}); err != nil || got != cp.Profiles[0].Timestamps[0] {
		t.Errorf("start of a .cpuprofile: %v %v", got, err)
	}
}

// A Spec saved as JSON (as a recent entry keeps it) reads back the same.
func TestSpecJSON(t *testing.T) {
	for _, s := range []Spec{{}, {Method: Navigation, Offset: 250}, {Method: Mark, Name: "app-ready", Offset: -1500.5}} {
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var back Spec
		if err := json.Unmarshal(b, &back); err != nil || back != s {
			t.Errorf("%+v → %s → %+v, %v", s, b, back, err)
		}
	}
	if b, _ := json.Marshal(Spec{Method: Mark, Name: "x"}); string(b) != `{"method":"mark","name":"x"}` {
		t.Errorf("marshalled as %s", b)
	}
	var s Spec
	if err := json.Unmarshal([]byte(`{"method":"sideways"}`), &s); err == nil {
		t.Error("an unknown method was accepted")
	}
}

// ParseSpec never panics, and what it accepts prints back to a spec that parses the same.
func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{"start", "navigation", "mark:a:b", "offset:-1e3", "offset:", "mark:", "offset:1e400"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		spec, err := ParseSpec(s)
		if err != nil {
			return
		}
		again, err := ParseSpec(spec.String())
		if err != nil || again != spec {
			t.Errorf("%q → %+v prints %q → %+v, %v", s, spec, spec.String(), again, err)
		}
	})
}
