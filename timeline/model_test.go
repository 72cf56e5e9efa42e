package timeline

import (
	"math"
	"slices"
	"strings"
	"testing"

	"flamedesk/core"
)

func one(start, dur float64, name string) []synthEntry {
	return []synthEntry{{start: start, dur: dur, name: name}}
}

func TestProcessesAndThreadsAreOrdered(t *testing.T) {
	threads := []synthThread{
		{pid: 50, tid: 51, name: "Chrome_IOThread", pname: "Browser"},
		{pid: 50, tid: 50, name: "CrBrowserMain", pname: "Browser"},
		{pid: 70, tid: 75, name: "ThreadPoolForegroundWorker", pname: "Renderer"},
		{pid: 70, tid: 72, name: "Compositor", pname: "Renderer", sortIndex: -1},
		{pid: 70, tid: 70, name: "CrRendererMain", pname: "Renderer"},
		{pid: 70, tid: 73, name: "DedicatedWorker thread", pname: "Renderer"},
		{pid: 60, tid: 60, name: "CrGpuMain", pname: "GPU Process"},
		{pid: 80, tid: 81, name: "Worker", pname: "Renderer"}, // a renderer without a main thread track
	}
	var entries [][]synthEntry
	for i := range threads {
		entries = append(entries, one(float64(1000+i), 10, "RunTask"))
	}
	m := New(synthTrace(threads, entries))

	var got []string
	for _, g := range m.Groups {
		var names []string
		for _, ti := range g.Tracks {
			names = append(names, m.Trace.Strings.Get(m.Trace.Threads[m.Tracks[ti].Thread].Name))
		}
		got = append(got, g.ProcessName+": "+strings.Join(names, ", "))
	}
	want := []string{
		// The renderer with a main frame first, its main thread first, then by sort index and name.
		"Renderer: CrRendererMain, Compositor, DedicatedWorker thread, ThreadPoolForegroundWorker",
		// Then the rest by name (no process_sort_index here) and pid.
		"Browser: CrBrowserMain, Chrome_IOThread",
		"GPU Process: CrGpuMain",
		"Renderer: Worker",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("order:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Tracks is the display order flattened, and every track points back to its group.
	for gi, g := range m.Groups {
		for _, ti := range g.Tracks {
			if m.Tracks[ti].Group != gi {
				t.Fatalf("track %d says group %d, listed in %d", ti, m.Tracks[ti].Group, gi)
			}
		}
	}
	if m.Groups[0].Title() != "Renderer (pid 70)" || m.Tracks[0].Title != "CrRendererMain (tid 70)" {
		t.Errorf("titles %q, %q", m.Groups[0].Title(), m.Tracks[0].Title)
	}
}

func TestMainFrameFromTracingStartedArgs(t *testing.T) {
	threads := []synthThread{
		{pid: 10, tid: 10, name: "CrRendererMain", pname: "Renderer"},
		{pid: 20, tid: 20, name: "CrRendererMain", pname: "Renderer"},
	}
	tr := synthTrace(threads, [][]synthEntry{one(1000, 5, "RunTask"), one(1000, 5, "RunTask")})
	// Pid 20 is the outermost main frame, pid 10 an iframe's renderer.
	args := `{"data":{"frames":[{"frame":"A","url":"https://a.test/","processId":20,"isOutermostMainFrame":true},` +
		`{"frame":"B","url":"https://ads.test/","processId":10,"parent":"A","isOutermostMainFrame":false}]}}`
	ev := &tr.Events
	ev.Name = append(ev.Name, tr.Strings.Intern("TracingStartedInBrowser"))
	ev.Cat = append(ev.Cat, 0)
	ev.Ts = append(ev.Ts, 900)
	ev.Dur = append(ev.Dur, math.NaN())
	ev.Ph = append(ev.Ph, 'I')
	ev.Thread = append(ev.Thread, 0)
	ev.Args = append(ev.Args, core.EventArgs{Event: int32(ev.Len() - 1), Span: core.Span{Off: uint32(len(ev.ArgsArena)), Len: uint32(len(args))}})
	ev.ArgsArena = append(ev.ArgsArena, args...)
	m := New(tr)
	if m.Groups[0].Pid != 20 || !m.Groups[0].MainFrame || m.Groups[0].MainFrameURL != "https://a.test/" {
		t.Fatalf("first group %+v, want pid 20 with its URL", m.Groups[0])
	}
	if m.Groups[1].MainFrame {
		t.Fatalf("the iframe renderer counts as a main frame")
	}
	if got := m.Groups[0].Title(); got != "Renderer (pid 20) — https://a.test/" {
		t.Errorf("title %q", got)
	}
}

func TestCollapseAndHideRelayout(t *testing.T) {
	threads := []synthThread{
		{pid: 1, tid: 1, name: "CrRendererMain", pname: "Renderer"},
		{pid: 1, tid: 2, name: "Compositor", pname: "Renderer"},
		{pid: 2, tid: 2, name: "CrBrowserMain", pname: "Browser"},
	}
	deep := []synthEntry{{start: 0, dur: 100, name: "a"}, {start: 1, dur: 50, depth: 1, name: "b"}, {start: 2, dur: 5, depth: 2, name: "c"}}
	m := New(synthTrace(threads, [][]synthEntry{deep, one(0, 10, "x"), one(0, 10, "y")}))
	st := m.Style
	full := 2*st.GroupHeaderHeight + 3*st.TrackHeaderHeight + 5*st.RowHeight + 3*st.TrackPadding
	if m.ContentHeight() != full {
		t.Fatalf("content height %g, want %g", m.ContentHeight(), full)
	}
	if got := m.RowTop(0, 2); got != st.GroupHeaderHeight+st.TrackHeaderHeight+2*st.RowHeight {
		t.Errorf("row 2 of track 0 at %g", got)
	}
	m.SetTrackCollapsed(0, true)
	if want := full - 3*st.RowHeight - st.TrackPadding; m.ContentHeight() != want {
		t.Errorf("collapsed track: height %g, want %g", m.ContentHeight(), want)
	}
	if m.Tracks[1].Y != st.GroupHeaderHeight+st.TrackHeaderHeight {
		t.Errorf("the next track did not move up: y %g", m.Tracks[1].Y)
	}
	m.SetTrackHidden(1, true)
	if m.Tracks[1].Shown || len(m.ShownTracks()) != 2 {
		t.Errorf("hidden track still shown")
	}
	m.SetGroupCollapsed(0, true)
	if m.Tracks[0].Shown || m.Groups[1].Y != st.GroupHeaderHeight {
		t.Errorf("collapsed group: track 0 shown %v, next group at %g", m.Tracks[0].Shown, m.Groups[1].Y)
	}
	m.SetGroupHidden(1, true)
	if m.ContentHeight() != st.GroupHeaderHeight {
		t.Errorf("only a collapsed group left: height %g", m.ContentHeight())
	}
	m.SetGroupHidden(1, false)
	m.SetGroupCollapsed(0, false)
	m.SetTrackHidden(1, false)
	m.SetTrackCollapsed(0, false)
	if m.ContentHeight() != full {
		t.Errorf("all restored: height %g, want %g", m.ContentHeight(), full)
	}
}

func TestBoundsFollowTheTrace(t *testing.T) {
	tr := synthTrace([]synthThread{{pid: 1, tid: 1, name: "main"}}, [][]synthEntry{
		{{start: 5000, dur: 100, name: "a"}, {start: 5200, dur: 300, name: "b"}},
	})
	// No event the engine counts (core.EngineBounds gave infinite bounds): the entries decide.
	tr.MinTs, tr.MaxTs = math.Inf(1), math.Inf(-1)
	lo, hi := New(tr).Bounds()
	if lo != 5000 || hi != 5500 {
		t.Fatalf("bounds [%g, %g], want [5000, 5500]", lo, hi)
	}
	// The engine's bounds win over the entries, which may lie outside them (a "::UMA" instant).
	tr.MinTs, tr.MaxTs = 5100, 5400
	if lo, hi := New(tr).Bounds(); lo != 5100 || hi != 5400 {
		t.Fatalf("bounds [%g, %g], want the trace's [5100, 5400]", lo, hi)
	}
	empty := New(&core.Trace{Strings: core.NewStrings(), MinTs: 3, MaxTs: 9})
	if lo, hi := empty.Bounds(); lo != 3 || hi != 9 || len(empty.Groups) != 0 {
		t.Fatalf("empty trace: bounds [%g, %g], %d groups", lo, hi, len(empty.Groups))
	}
}

func TestEntryNamesAndURLs(t *testing.T) {
	tr := synthTrace([]synthThread{{pid: 1, tid: 1, name: "main"}}, [][]synthEntry{{
		{start: 0, dur: 10, name: "FunctionCall"},
		{start: 1, dur: 5, depth: 1, name: "", profile: true, url: "https://x.test/a.js"},
		{start: 6, dur: 2, depth: 1, name: "render", profile: true},
	}})
	m := New(tr)
	r := func(e int32) EntryRef { return EntryRef{Track: 0, Entry: e} }
	// Events are named as DevTools names them; the trace's name stays behind EntryNameID.
	if got := m.EntryName(r(0)); got != "Function call" {
		t.Errorf("event name %q, want DevTools' title", got)
	}
	if got := m.NameString(m.EntryNameID(r(0))); got != "FunctionCall" {
		t.Errorf("event's trace name %q", got)
	}
	if got := m.EntryName(r(1)); got != "(anonymous)" {
		t.Errorf("anonymous function named %q", got)
	}
	if got := m.EntryURL(r(1)); got != "https://x.test/a.js" {
		t.Errorf("url %q", got)
	}
	if got := m.EntryCategory(r(0)); got != "devtools.timeline" {
		t.Errorf("category %q", got)
	}
	if m.EntryCategory(r(2)) != "" || m.EntryURL(r(0)) != "" {
		t.Errorf("category of a call or URL of an event is not empty")
	}
}

func TestScaledLayout(t *testing.T) {
	m := New(synthTrace([]synthThread{{pid: 1, tid: 1, name: "main"}}, [][]synthEntry{
		{{start: 0, dur: 10, name: "a"}, {start: 1, dur: 2, depth: 1, name: "b"}},
	}))
	h := m.ContentHeight()
	m.Style = m.Style.Scaled(2)
	m.Relayout()
	if m.ContentHeight() != 2*h || m.RowTop(0, 1) != 2*(DefaultLayoutStyle().GroupHeaderHeight+DefaultLayoutStyle().TrackHeaderHeight+DefaultLayoutStyle().RowHeight) {
		t.Fatalf("scaled by 2: height %g (was %g), row 1 at %g", m.ContentHeight(), h, m.RowTop(0, 1))
	}
}
