package dump

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"flamedesk/core"
	"flamedesk/core/integrate"
)

type dumpJSON struct {
	Format string `json:"format"`
	Input  struct {
		File string `json:"file"`
		Kind string `json:"kind"`
	} `json:"input"`
	Threads []struct {
		Pid         int64   `json:"pid"`
		Tid         int64   `json:"tid"`
		Name        *string `json:"name"`
		ProcessName *string `json:"processName"`
		Entries     []struct {
			Kind      string  `json:"kind"`
			Name      string  `json:"name"`
			Cat       *string `json:"cat"`
			Ts        float64 `json:"ts"`
			Dur       float64 `json:"dur"`
			Depth     int     `json:"depth"`
			NodeID    *int64  `json:"nodeId"`
			CallFrame *struct {
				FunctionName string `json:"functionName"`
				URL          string `json:"url"`
				ScriptID     string `json:"scriptId"`
				LineNumber   int    `json:"lineNumber"`
				ColumnNumber int    `json:"columnNumber"`
			} `json:"callFrame"`
		} `json:"entries"`
	} `json:"threads"`
	Profiles []struct {
		ProfileID string `json:"profileId"`
		Pid       int64  `json:"pid"`
		Tid       int64  `json:"tid"`
		Nodes     int    `json:"nodes"`
		Samples   int    `json:"samples"`
	} `json:"profiles"`
	Lighthouse json.RawMessage `json:"lighthouse"`
	Timelines  *struct {
		Bounds struct{ Min, Max, Range float64 } `json:"bounds"`
	} `json:"timelines"`
	Warnings []string `json:"warnings"`
}

// smallTrace has one FunctionCall with a two-sample JS call under it (which the FunctionCall's end
// closes, at 1050.5), on a thread whose name needs escaping.
func smallTrace() *core.Trace {
	s := core.NewStrings()
	tr := &core.Trace{Strings: s}
	tr.Threads = []core.Thread{{Pid: 7, Tid: 9, Name: s.Intern("Main \"thread\"\n\x01"), ProcessName: s.Intern("Renderer")}}
	e := &tr.Events
	e.Ph = []byte{'X'}
	e.Name = []core.StrID{s.Intern("FunctionCall")}
	e.Cat = []core.StrID{s.Intern("devtools.timeline")}
	e.Ts = []float64{1000}
	e.Dur = []float64{50.5}
	e.Thread = []core.ThreadID{0}
	tr.Frames = []core.CallFrame{
		{FunctionName: s.Intern("(root)"), ScriptID: s.Intern("0"), Line: -1, Column: -1},
		{FunctionName: s.Intern("foo"), URL: s.Intern("https://x/app.js"), ScriptID: s.Intern("12"), Line: 3, Column: 9},
	}
	tr.Profiles = []core.ProfileModel{{
		Pid: 7, Tid: 9, Thread: 0, ProfileID: s.Intern("0x1"),
		NodeID: []int64{1, 7}, NodeParent: []int32{-1, 0}, NodeDepth: []int32{-1, 0}, NodeFrame: []core.FrameID{0, 1},
		Samples: []int32{1, 1}, Timestamps: []float64{1001.25, 1021.25, 1041.25},
		RootNode: 0, ProgramNode: -1, IdleNode: -1, GCNode: -1,
	}}
	tr.Warnings.Add("ProfileChunk with no Profile head", 3)
	integrate.Build(tr)
	return tr
}

func TestWriteFormat(t *testing.T) {
	tr := smallTrace()
	var buf bytes.Buffer
	if err := Write(&buf, tr, Options{File: "/some/dir/x.json.gz"}); err != nil {
		t.Fatal(err)
	}
	var d dumpJSON
	if err := json.Unmarshal(buf.Bytes(), &d); err != nil {
		t.Fatalf("not valid JSON: %v\n%s", err, buf.String())
	}
	if d.Format != "flamedesk-dump/1" || d.Input.File != "x.json.gz" || d.Input.Kind != "trace" {
		t.Errorf("header: %+v %+v", d.Format, d.Input)
	}
	if len(d.Threads) != 1 {
		t.Fatalf("%d threads, want 1", len(d.Threads))
	}
	th := d.Threads[0]
	if th.Pid != 7 || th.Tid != 9 || th.Name == nil || *th.Name != "Main \"thread\"\n\x01" || *th.ProcessName != "Renderer" {
		t.Errorf("thread header: %+v", th)
	}
	if len(th.Entries) != 2 {
		t.Fatalf("%d entries, want 2", len(th.Entries))
	}
	e0, e1 := th.Entries[0], th.Entries[1]
	if e0.Kind != "event" || e0.Name != "FunctionCall" || e0.Cat == nil || *e0.Cat != "devtools.timeline" || e0.Ts != 1000 || e0.Dur != 50.5 || e0.Depth != 0 {
		t.Errorf("event entry: %+v", e0)
	}
	if e1.Kind != "profileCall" || e1.Name != "foo" || e1.Depth != 1 || e1.Ts != 1001.25 || e1.Dur != 49.25 ||
		e1.CallFrame == nil || e1.CallFrame.URL != "https://x/app.js" || e1.CallFrame.ScriptID != "12" ||
		e1.CallFrame.LineNumber != 3 || e1.CallFrame.ColumnNumber != 9 || e1.NodeID == nil || *e1.NodeID != 7 {
		t.Errorf("call entry: %+v %+v", e1, e1.CallFrame)
	}
	if len(d.Profiles) != 1 || d.Profiles[0].ProfileID != "0x1" || d.Profiles[0].Nodes != 2 || d.Profiles[0].Samples != 2 {
		t.Errorf("profiles: %+v", d.Profiles)
	}
	if len(d.Warnings) != 1 || d.Warnings[0] != "3 × ProfileChunk with no Profile head" {
		t.Errorf("warnings: %q", d.Warnings)
	}
	if d.Lighthouse != nil {
		t.Errorf("lighthouse written without --refine")
	}
	// The one X event spans the trace: the engine's bounds are its start and end.
	if d.Timelines == nil || d.Timelines.Bounds.Min != 1000 || d.Timelines.Bounds.Max != 1050.5 || d.Timelines.Bounds.Range != 50.5 {
		t.Errorf("timelines: %+v", d.Timelines)
	}
	// A profile has no tracks beside its flame chart: no "timelines" key.
	tr.Kind = core.InputCPUProfile
	buf.Reset()
	if err := Write(&buf, tr, Options{File: "x.cpuprofile"}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), `"timelines"`) {
		t.Errorf("a profile's dump has timelines")
	}
}

func TestAppendHelpers(t *testing.T) {
	for _, s := range []string{"", "plain", "quote\" back\\ nl\n tab\t cr\r", "\x00\x1f", "héllo → ✓", "bad \xff utf8"} {
		var got string
		if err := json.Unmarshal(appendString(nil, s), &got); err != nil {
			t.Errorf("appendString(%q) is not JSON: %v", s, err)
			continue
		}
		if want := strings.ToValidUTF8(s, "\uFFFD"); got != want {
			t.Errorf("appendString(%q) round-trips to %q", s, got)
		}
	}
	for _, f := range []float64{0, 1, -2.5, 1247929819, 1247929818.9999998, 1e-7, 3e21, 0.1 + 0.2} {
		var got float64
		if err := json.Unmarshal(appendFloat(nil, f), &got); err != nil || got != f {
			t.Errorf("appendFloat(%v) = %s, reads back %v (%v)", f, appendFloat(nil, f), got, err)
		}
	}
	if s := string(appendFloat(nil, math.NaN())); s != "null" {
		t.Errorf("NaN written as %s", s)
	}
}
