package load

import (
	"context"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"flamedesk/core"
	"flamedesk/internal/fixtures"
)

func loadFixture(t *testing.T, elems ...string) *core.Trace {
	t.Helper()
	tr, err := File(context.Background(), fixtures.Path(t, append([]string{"fixtures"}, elems...)...), nil)
	if err != nil {
		t.Fatalf("load %s: %v", filepath.Join(elems...), err)
	}
	if err := checkTrace(tr); err != nil {
		t.Fatalf("%s: %v", filepath.Join(elems...), err)
	}
	return tr
}

// everyFixture lists the shared fixtures, upstream and generated.
func everyFixture(t *testing.T) []string {
	var files []string
	for _, dir := range []string{"upstream", "generated"} {
		files = append(files, fixtures.Glob(t, filepath.Join("fixtures", dir, "*"))...)
	}
	return files
}

// TestEveryFixtureLoads loads every shared fixture, checks the invariants, and that the kind
// follows from the content.
func TestEveryFixtureLoads(t *testing.T) {
	for _, path := range everyFixture(t) {
		name := filepath.Base(path)
		if name == "gen-trace-large.json.gz" && raceEnabled {
			continue // 238 MB under the race detector: the benchmarks cover it
		}
		t.Run(name, func(t *testing.T) {
			tr, err := File(context.Background(), path, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := checkTrace(tr); err != nil {
				t.Fatal(err)
			}
			want := core.InputTrace
			switch {
			case strings.Contains(name, ".cpuprofile"):
				want = core.InputCPUProfile
			case strings.Contains(name, "selfprofile"):
				want = core.InputSelfProfile
			}
			if tr.Kind != want {
				t.Errorf("kind %v, want %v", tr.Kind, want)
			}
			if name != "devtools-missing-tracing-start.json.gz" && len(tr.Profiles) == 0 {
				t.Errorf("no profile (warnings: %v)", tr.Warnings.Lines())
			}
			if tr.Kind == core.InputTrace && tr.Events.Len() == 0 {
				t.Errorf("no events")
			}
			if tr.Kind != core.InputTrace && (tr.Events.Len() != 0 || len(tr.Threads) != 1 || tr.Threads[0].Pid != 1 || tr.Threads[0].Tid != 1) {
				t.Errorf("a bare profile should be one thread (pid 1, tid 1) without events: %d events, threads %+v", tr.Events.Len(), tr.Threads)
			}
			// A DevTools trace's bounds are its events' (core.EngineBounds), and it says so: the
			// panel's lists take them from it instead of scanning the events again.
			lo, hi := core.EngineBounds(tr)
			events := tr.Kind == core.InputTrace && lo <= hi && !math.IsInf(lo, 0) && !math.IsInf(hi, 0)
			if tr.EventBounds != events ||
				tr.EventBounds && (tr.MinTs != lo || tr.MaxTs != hi) {
				t.Errorf("bounds [%v, %v], event bounds %v; the events' [%v, %v]", tr.MinTs, tr.MaxTs, tr.EventBounds, lo, hi)
			}
			if tr.Stats.Events != tr.Events.Len() || tr.Stats.JSONBytes <= 0 || tr.Stats.FileBytes <= 0 {
				t.Errorf("stats %+v", tr.Stats)
			}
			// Real profiles' sample ids are small and their time deltas whole µs: each takes 4
			// bytes (core.Narrow), and a trace's deltas, which bunch around the sampling
			// interval, about 2 once halved.
			c := &tr.Chunks
			for _, a := range []struct {
				what                 string
				n, small, half, wide int
			}{
				{"sample ids", c.SampleIDs.Len(), len(c.SampleIDs.Small), len(c.SampleIDs.Half), len(c.SampleIDs.Wide)},
				{"deltas", c.Deltas.Len(), len(c.Deltas.Small), len(c.Deltas.Half), len(c.Deltas.Wide)},
			} {
				if bytes := 4*a.small + 2*a.half + 12*a.wide; bytes > 4*a.n {
					t.Errorf("%d %s take %d bytes (%d wide)", a.n, a.what, bytes, a.wide)
				}
			}
			if n := c.Deltas.Len(); tr.Kind == core.InputTrace && n > 0 && (c.Deltas.Half == nil || 12*len(c.Deltas.Wide) > n) {
				t.Errorf("%d deltas not halved (%d wide)", n, len(c.Deltas.Wide))
			}
		})
	}
}

type profileShape struct {
	pid, tid       int64
	nodes, samples int // 0: not checked
	idle           bool
}

// The expectations below come from the fixtures' MANIFEST.md and from reading the files with an
// independent JSON parser (Python), not from our output.
func TestFixturesWithoutReference(t *testing.T) {
	cases := []struct {
		file     []string
		kind     core.InputKind
		profiles []profileShape
	}{
		// The old single-event form: the whole profile in a CpuProfile event (ph I here).
		{[]string{"upstream", "speedscope-chrome65-simple-timeline.json"}, core.InputTrace,
			[]profileShape{{pid: 7792, tid: 775, nodes: 6, samples: 4081}}},
		{[]string{"upstream", "speedscope-chrome66-worker.json"}, core.InputTrace,
			[]profileShape{{pid: 30834, tid: 30851, nodes: 26, samples: 4447}, {pid: 30834, tid: 31089, nodes: 6, samples: 3792}}},
		{[]string{"upstream", "speedscope-node10-example.cpuprofile"}, core.InputCPUProfile,
			[]profileShape{{pid: 1, tid: 1, nodes: 7, samples: 29}}},
		{[]string{"upstream", "speedscope-chrome65-sucrase.cpuprofile"}, core.InputCPUProfile,
			[]profileShape{{pid: 1, tid: 1, samples: 17138}}},
		{[]string{"upstream", "devtools-node-fibonacci-website.cpuprofile.gz"}, core.InputCPUProfile,
			[]profileShape{{pid: 1, tid: 1, samples: 15710}}},
		{[]string{"upstream", "devtools-multiple-top-level-renderers.json.gz"}, core.InputTrace,
			[]profileShape{{pid: 78450, tid: 259}, {pid: 78473, tid: 259}, {pid: 79194, tid: 259}}},
		{[]string{"upstream", "devtools-web-dev-outermost-frames.json.gz"}, core.InputTrace,
			[]profileShape{{pid: 74406, tid: 259}, {pid: 74406, tid: 42499}, {pid: 78374, tid: 259},
				{pid: 78374, tid: 50447}, {pid: 77864, tid: 259}, {pid: 77864, tid: 64003}}},
		{[]string{"upstream", "speedscope-chrome116-trace.json"}, core.InputTrace,
			[]profileShape{{pid: 6543, tid: 259}}},
		{[]string{"upstream", "devtools-recursive-blocking-js.json.gz"}, core.InputTrace,
			[]profileShape{{pid: 76472, tid: 259}}},
		// 935 samples, 95 of them idle (no stackId); 5970 stacks, each a node, plus the root and
		// the idle node.
		{[]string{"generated", "gen-selfprofile-small.json"}, core.InputSelfProfile,
			[]profileShape{{pid: 1, tid: 1, nodes: 5970 + 2, samples: 935, idle: true}}},
		{[]string{"generated", "gen-selfprofile-large.json"}, core.InputSelfProfile,
			[]profileShape{{pid: 1, tid: 1, samples: 12794}}},
	}
	for _, c := range cases {
		t.Run(c.file[len(c.file)-1], func(t *testing.T) {
			tr := loadFixture(t, c.file...)
			if tr.Kind != c.kind {
				t.Errorf("kind %v, want %v", tr.Kind, c.kind)
			}
			var got []profileShape
			for _, m := range tr.Profiles {
				got = append(got, profileShape{pid: m.Pid, tid: m.Tid})
			}
			var want []profileShape
			for _, p := range c.profiles {
				want = append(want, profileShape{pid: p.pid, tid: p.tid})
			}
			sortShapes := func(s []profileShape) {
				slices.SortFunc(s, func(a, b profileShape) int {
					if a.pid != b.pid {
						return int(a.pid - b.pid)
					}
					return int(a.tid - b.tid)
				})
			}
			sortShapes(got)
			sortShapes(want)
			if !slices.Equal(got, want) {
				t.Fatalf("profiles %v, want %v", got, want)
			}
			for _, p := range c.profiles {
				for i := range tr.Profiles {
					m := &tr.Profiles[i]
					if m.Pid != p.pid || m.Tid != p.tid {
						continue
					}
					if p.nodes > 0 && len(m.NodeID) != p.nodes {
						t.Errorf("tid %d: %d nodes, want %d", p.tid, len(m.NodeID), p.nodes)
					}
					if p.samples > 0 && len(m.Samples) != p.samples {
						t.Errorf("tid %d: %d samples, want %d", p.tid, len(m.Samples), p.samples)
					}
					if p.idle && m.IdleNode < 0 {
						t.Errorf("tid %d: no idle node", p.tid)
					}
					holes := 0
					for _, s := range m.Samples {
						if s < 0 {
							holes++
						}
					}
					if holes > 0 {
						t.Errorf("tid %d: %d samples are holes", p.tid, holes)
					}
					if !(m.StartTime < m.EndTime) {
						t.Errorf("tid %d: start %v, end %v", p.tid, m.StartTime, m.EndTime)
					}
				}
			}
		})
	}
}

// TestNode10LegacyProfile checks the head form in detail: times are absolute µs in
// "timestamps", which has one more entry than samples (the end of the last one).
func TestNode10LegacyProfile(t *testing.T) {
	tr := loadFixture(t, "upstream", "speedscope-node10-example.cpuprofile")
	m := &tr.Profiles[0]
	if m.Timestamps[0] != 163140599286 || m.Timestamps[len(m.Timestamps)-1] != 163140645206 {
		t.Errorf("timestamps from %v to %v, want 163140599286 to 163140645206", m.Timestamps[0], m.Timestamps[len(m.Timestamps)-1])
	}
	ids := make([]int64, len(m.Samples))
	for i, s := range m.Samples {
		ids[i] = m.NodeID[s]
	}
	// samples: 2, then fourteen 5s, then fourteen 7s
	want := []int64{2}
	for range 14 {
		want = append(want, 5)
	}
	for range 14 {
		want = append(want, 7)
	}
	if !slices.Equal(ids, want) {
		t.Errorf("samples %v, want %v", ids, want)
	}
	// The head form counts lines from 1: "b" is on line 5, so 4 from 0; no column means -1.
	for i, id := range m.NodeID {
		f := tr.Frames[m.NodeFrame[i]]
		if id == 4 && (tr.Strings.Get(f.FunctionName) != "b" || f.Line != 4 || f.Column != -1) {
			t.Errorf("node 4: %q line %d col %d, want \"b\" 4 -1", tr.Strings.Get(f.FunctionName), f.Line, f.Column)
		}
		if id == 7 && m.NodeDepth[i] != 3 {
			t.Errorf("node 7 at depth %d, want 3", m.NodeDepth[i])
		}
	}
}

// TestSelfProfileFrames checks that self-profile positions, which count from 1, become 0-based
// call frames with the resource's URL, and that idle samples land on the idle node.
func TestSelfProfileFrames(t *testing.T) {
	tr := loadFixture(t, "generated", "gen-selfprofile-small.json")
	m := &tr.Profiles[0]
	found := false
	for i := range m.NodeID {
		f := tr.Frames[m.NodeFrame[i]]
		if tr.Strings.Get(f.FunctionName) == "quicksort" {
			found = true
			// {"column":19,"line":21,"name":"quicksort","resourceId":1}, resource 1 = .../workloads/recursion.js
			if f.Line != 20 || f.Column != 18 || !strings.HasSuffix(tr.Strings.Get(f.URL), "/workloads/recursion.js") {
				t.Errorf("quicksort frame: %d:%d %s", f.Line, f.Column, tr.Strings.Get(f.URL))
			}
		}
	}
	if !found {
		t.Error("no quicksort node")
	}
	idle := 0
	for _, s := range m.Samples {
		if s == m.IdleNode {
			idle++
		}
	}
	if idle != 95 {
		t.Errorf("%d idle samples, want 95", idle)
	}
	// timestamps are ms in the file: the first sample is at 187.60000000009313 ms.
	if got := m.Timestamps[0]; got < 187600 || got > 187600.001 {
		t.Errorf("first timestamp %v µs, want 187600", got)
	}
	maxDepth := int32(0)
	for _, d := range m.NodeDepth {
		maxDepth = max(maxDepth, d)
	}
	tl := loadFixture(t, "generated", "gen-selfprofile-large.json")
	maxLarge := int32(0)
	for _, d := range tl.Profiles[0].NodeDepth {
		maxLarge = max(maxLarge, d)
	}
	// MANIFEST: stack depth 2213, i.e. the deepest node sits 2212 below the top frames.
	if maxLarge != 2212 {
		t.Errorf("large self-profile: deepest node at %d, want 2212", maxLarge)
	}
}

// TestTraceThreadsAndEvents checks the columns of a generated trace against facts read from it
// independently: thread names, the kept args of FunctionCall, that B/E keep NaN durations.
func TestTraceThreadsAndEvents(t *testing.T) {
	tr := loadFixture(t, "generated", "gen-trace-small.json.gz")
	var mainThread = -1
	for i, th := range tr.Threads {
		if tr.Strings.Get(th.Name) == "CrRendererMain" {
			mainThread = i
			if tr.Strings.Get(th.ProcessName) != "Renderer" {
				t.Errorf("renderer main thread's process is %q", tr.Strings.Get(th.ProcessName))
			}
		}
	}
	if mainThread < 0 {
		t.Fatal("no CrRendererMain thread")
	}
	fc, _ := tr.Strings.Lookup("FunctionCall")
	kept, calls := 0, 0
	for i := range tr.Events.Len() {
		if tr.Events.Name[i] == fc {
			calls++
			if a := tr.Events.ArgsJSON(i); len(a) > 0 && strings.HasPrefix(string(a), "{") && strings.Contains(string(a), `"data"`) {
				kept++
			}
		}
	}
	if calls == 0 || kept != calls {
		t.Errorf("%d FunctionCall events, %d with their args kept", calls, kept)
	}
	rt, _ := tr.Strings.Lookup("RunTask")
	for i := range tr.Events.Len() {
		if tr.Events.Name[i] == rt && tr.Events.ArgsJSON(i) != nil {
			t.Fatalf("RunTask event %d kept its args", i)
		}
	}
}

// A bare profile's raw samples and deltas are copied into its model and then let go: for a
// profile that is mostly samples, keeping both was 40 % of the load. A trace keeps its own, which
// Lighthouse's collection reads again.
func TestBareProfileLetsGoOfItsRawSamples(t *testing.T) {
	for _, file := range [][]string{
		{"generated", "gen-cpuprofile-prettier-format.cpuprofile"},
		{"generated", "gen-selfprofile-small.json"},
	} {
		tr := loadFixture(t, file...)
		c := &tr.Chunks
		if c.SampleIDs.Len() != 0 || c.Deltas.Len() != 0 || len(c.Stamps) != 0 || c.Len() != 1 || !c.HasSamples[0] {
			t.Errorf("%s: raw samples %d, deltas %d, stamps %d kept (%d records, has samples %v); want none kept, the flag kept",
				file[1], c.SampleIDs.Len(), c.Deltas.Len(), len(c.Stamps), c.Len(), c.HasSamples)
		}
		if len(tr.Profiles) != 1 || len(tr.Profiles[0].Samples) == 0 || len(tr.Profiles[0].Timestamps) < len(tr.Profiles[0].Samples) {
			t.Errorf("%s: %d profiles; want one with its samples and their times", file[1], len(tr.Profiles))
		}
	}
	tr := loadFixture(t, "generated", "gen-trace-small.json.gz")
	if tr.Chunks.SampleIDs.Len() == 0 || tr.Chunks.Deltas.Len() == 0 {
		t.Errorf("trace: raw samples %d, deltas %d; want them kept", tr.Chunks.SampleIDs.Len(), tr.Chunks.Deltas.Len())
	}
}
