package load

import (
	"slices"
	"testing"

	"flamedesk/core"
)

// The loader keeps what core/sourcemap reads: positionTicks, per-sample lines and columns, the
// trace's metadata and the ScriptCatchup events' args.

func TestPositionTicksKept(t *testing.T) {
	tr := mustLoad(t, `{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"},"children":[2]},`+
		`{"id":2,"callFrame":{"functionName":"f","url":"a.js","lineNumber":3},`+
		`"positionTicks":[{"line":4,"ticks":2},{"line":"x","ticks":1},{"ticks":3},7,{"ticks":5,"line":6,"extra":[1]}]}],`+
		`"startTime":0,"endTime":30,"samples":[2,2],"timeDeltas":[10,10]}`)
	p := &tr.Profiles[0]
	for n, f := range p.NodeFrame {
		if tr.Strings.Get(tr.Frames[f].FunctionName) != "f" {
			if p.TicksOf(n).Len != 0 {
				t.Errorf("node %d has ticks", n)
			}
			continue
		}
		s := p.TicksOf(n)
		got := tr.Chunks.Positions[s.Off : s.Off+s.Len]
		// Entries without a numeric line or ticks are left out.
		if want := []int32{4, 2, 6, 5}; !slices.Equal(got, want) {
			t.Errorf("ticks %v, want %v", got, want)
		}
	}
}

func TestSampleLinesSortedWithSamples(t *testing.T) {
	// Two chunks; the second one's first sample is earlier than the first's last (a negative
	// delta), so the model sorts samples by time and the lines must follow them.
	tr := mustLoad(t, `{"traceEvents":[
{"ph":"P","name":"Profile","pid":1,"tid":1,"ts":100,"id":"0x1","args":{"data":{"startTime":100}}},
{"ph":"P","name":"ProfileChunk","pid":1,"tid":2,"ts":101,"id":"0x1","args":{"data":{"cpuProfile":{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"}},{"id":2,"parent":1,"callFrame":{"functionName":"f","url":"a.js"}}],"samples":[2,2]},"timeDeltas":[10,20],"lines":[11,12],"columns":[1,2]}}},
{"ph":"P","name":"ProfileChunk","pid":1,"tid":2,"ts":102,"id":"0x1","args":{"data":{"cpuProfile":{"samples":[2,2]},"timeDeltas":[-25,30],"lines":[13,14],"columns":[3,4]}}}
],"metadata":{"sourceMaps":[{"url":"a.js","sourceMap":{"version":3}}]}}`)
	p := &tr.Profiles[0]
	// Times: 110, 130, 105, 135 → sorted 105 (13), 110 (11), 130 (12), 135 (14).
	if want := []int32{13, 11, 12, 14}; !slices.Equal(p.SampleLine.Values(), want) {
		t.Errorf("lines %v, want %v (timestamps %v)", p.SampleLine.Values(), want, p.Timestamps)
	}
	if want := []int32{3, 1, 2, 4}; !slices.Equal(p.SampleColumn.Values(), want) {
		t.Errorf("columns %v, want %v", p.SampleColumn.Values(), want)
	}
	if string(tr.Metadata) != `{"sourceMaps":[{"url":"a.js","sourceMap":{"version":3}}]}` {
		t.Errorf("metadata %q", tr.Metadata)
	}
}

func TestMetadataBeforeEventsAndScriptArgs(t *testing.T) {
	tr := mustLoad(t, `{"metadata":{"source":"DevTools"},"traceEvents":[
{"ph":"X","name":"ScriptCatchup","cat":"disabled-by-default-devtools.v8-source-rundown","pid":1,"tid":1,"ts":1,"dur":0,"args":{"data":{"isolate":"1","scriptId":4,"url":"http://x/a.js","sourceMapUrl":"a.js.map"}}},
{"ph":"X","name":"Other","pid":1,"tid":1,"ts":2,"dur":0,"args":{"data":{"url":"dropped"}}}]}`)
	if string(tr.Metadata) != `{"source":"DevTools"}` {
		t.Errorf("metadata %q", tr.Metadata)
	}
	if tr.Events.Len() != 2 {
		t.Fatalf("%d events", tr.Events.Len())
	}
	if got := string(tr.Events.ArgsJSON(0)); got != `{"data":{"isolate":"1","scriptId":4,"url":"http://x/a.js","sourceMapUrl":"a.js.map"}}` {
		t.Errorf("ScriptCatchup args %q", got)
	}
	if tr.Events.ArgsJSON(1) != nil {
		t.Errorf("args of an event nothing reads were kept")
	}
	if tr.Original != nil || tr.Kind != core.InputTrace {
		t.Errorf("kind %v, original %v", tr.Kind, tr.Original)
	}
}

// TestChunksWithoutLinesKeepNoZeros: where no chunk of a profile has lines, the model keeps the
// SampleLinesZero flag instead of a zero per sample, while Assemble still gives DevTools' arrays
// of zeros; where one chunk has them, the others' samples get zeros as DevTools appends them.
func TestChunksWithoutLinesKeepNoZeros(t *testing.T) {
	trace := func(firstLines string) string {
		return `{"traceEvents":[
{"ph":"P","name":"Profile","pid":1,"tid":1,"ts":100,"id":"0x1","args":{"data":{"startTime":100}}},
{"ph":"P","name":"ProfileChunk","pid":1,"tid":2,"ts":101,"id":"0x1","args":{"data":{"cpuProfile":{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"}},{"id":2,"parent":1,"callFrame":{"functionName":"f","url":"a.js"}}],"samples":[2,2]},"timeDeltas":[10,20]` + firstLines + `}}},
{"ph":"P","name":"ProfileChunk","pid":1,"tid":2,"ts":102,"id":"0x1","args":{"data":{"cpuProfile":{"samples":[2]},"timeDeltas":[5]}}}]}`
	}
	tr := mustLoad(t, trace(""))
	p := &tr.Profiles[0]
	if !p.SampleLinesZero || p.SampleLine.Len() != 0 || p.SampleColumn.Len() != 0 {
		t.Errorf("no lines: flag %v, lines %v, columns %v; want the flag alone", p.SampleLinesZero, p.SampleLine.Values(), p.SampleColumn.Values())
	}
	if a := Assemble(tr); len(a) != 1 || !slices.Equal(a[0].Lines, []int32{0, 0, 0}) || !slices.Equal(a[0].Columns, []int32{0, 0, 0}) {
		t.Errorf("Assemble without lines: %+v, want three zero lines and columns", a)
	}

	tr = mustLoad(t, trace(`,"lines":[7,8],"columns":[3,4]`))
	p = &tr.Profiles[0]
	if p.SampleLinesZero || !slices.Equal(p.SampleLine.Values(), []int32{7, 8, 0}) || !slices.Equal(p.SampleColumn.Values(), []int32{3, 4, 0}) {
		t.Errorf("lines in one chunk: flag %v, lines %v, columns %v; want 7 8 0 and 3 4 0", p.SampleLinesZero, p.SampleLine.Values(), p.SampleColumn.Values())
	}
}

// A trace's raw lines and columns are let go once its models hold them, unless a node's
// positionTicks, which the models address in the same arena, need it.
func TestTraceRawPositionsDroppedAfterModels(t *testing.T) {
	chunks := `{"ph":"P","name":"Profile","pid":1,"tid":1,"ts":100,"id":"0x1","args":{"data":{"startTime":100}}},
{"ph":"P","name":"ProfileChunk","pid":1,"tid":1,"ts":101,"id":"0x1","args":{"data":{"cpuProfile":{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"}},{"id":2,"parent":1,"callFrame":{"functionName":"f","url":"a.js"}}],"samples":[2,2]},"timeDeltas":[10,20],"lines":[11,12],"columns":[1,2]}}}`
	tr := mustLoad(t, `{"traceEvents":[`+chunks+`]}`)
	if p := &tr.Profiles[0]; !slices.Equal(p.SampleLine.Values(), []int32{11, 12}) || !slices.Equal(p.SampleColumn.Values(), []int32{1, 2}) {
		t.Errorf("model lines %v, columns %v", p.SampleLine.Values(), p.SampleColumn.Values())
	}
	if c := &tr.Chunks; c.Positions != nil || slices.ContainsFunc(c.Lines, func(s core.Span) bool { return s.Len > 0 }) {
		t.Errorf("raw positions kept: %v, line spans %v", c.Positions, c.Lines)
	}

	withTicks := `{"ph":"X","name":"CpuProfile","pid":5,"tid":6,"id":"0x2","ts":100,"dur":10,"args":{"data":{"cpuProfile":
{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"},"children":[2]},{"id":2,"callFrame":{"functionName":"g","lineNumber":3},"positionTicks":[{"line":4,"ticks":2}]}],
"samples":[2,2],"timeDeltas":[5,5],"startTime":100,"endTime":120}}}}`
	tr = mustLoad(t, `{"traceEvents":[`+chunks+`,`+withTicks+`]}`)
	found := false
	for i := range tr.Profiles {
		p := &tr.Profiles[i]
		for n := range p.NodeID {
			if s := p.TicksOf(n); s.Len > 0 {
				found = true
				if got := tr.Chunks.Positions[s.Off : s.Off+s.Len]; !slices.Equal(got, []int32{4, 2}) {
					t.Errorf("ticks %v, want [4 2]", got)
				}
			}
		}
	}
	if !found {
		t.Errorf("the CpuProfile event's positionTicks were lost")
	}
}

// A model keeps its lines and columns in 2 bytes a sample where they fit, and whole where a value
// does not (a minified bundle's columns).
func TestSamplePositionsNarrowedWhereTheyFit(t *testing.T) {
	tr := mustLoad(t, `{"traceEvents":[
{"ph":"P","name":"Profile","pid":1,"tid":1,"ts":100,"id":"0x1","args":{"data":{"startTime":100}}},
{"ph":"P","name":"ProfileChunk","pid":1,"tid":1,"ts":101,"id":"0x1","args":{"data":{"cpuProfile":{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"}},{"id":2,"parent":1,"callFrame":{"functionName":"f","url":"a.js"}}],"samples":[2,2,2]},"timeDeltas":[10,20,5],"lines":[1,65535,3],"columns":[70000,2,-1]}}}]}`)
	p := &tr.Profiles[0]
	if p.SampleLine.Narrow == nil || !slices.Equal(p.SampleLine.Values(), []int32{1, 65535, 3}) {
		t.Errorf("lines: narrow %v, values %v", p.SampleLine.Narrow, p.SampleLine.Values())
	}
	if p.SampleColumn.Wide == nil || !slices.Equal(p.SampleColumn.Values(), []int32{70000, 2, -1}) {
		t.Errorf("columns: wide %v, values %v", p.SampleColumn.Wide, p.SampleColumn.Values())
	}
}
