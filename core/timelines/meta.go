package timelines

import (
	"net/url"
	"sort"
	"strings"

	"github.com/valyala/fastjson"

	"flamedesk/core"
	"flamedesk/internal/background"
)

// Meta is what the engine learns about the trace as a whole (RULES.md §7 "Bounds" and
// "Navigations"): the bounds, the frames and the renderer processes that showed them, the main
// frame, the navigations and the main frame's main threads. The other lists are built from it.
type Meta struct {
	Bounds         Bounds
	TraceIsGeneric bool
	MainFrameID    string
	MainFrameURL   string
	// Navigations are the kept navigationStart events, in file order.
	Navigations []Navigation
	// NavigationByID maps a navigationId to its index in Navigations.
	NavigationByID map[string]int
	// NavigationsByFrame maps a frame id to its navigations (indexes into Navigations), in file order.
	NavigationsByFrame map[string][]int
	// MainFrameNavigations are the navigations of the main frame as they were seen, in file order;
	// unlike Navigations they are not filtered at the end.
	MainFrameNavigations []Navigation
	// FrameProcesses maps each frame named by TracingStartedInBrowser, FrameCommittedInBrowser or
	// CommitLoad to the renderer processes that showed it, with the URLs they showed.
	FrameProcesses map[string][]FrameProcess
	// ProcessURL is the URL the panel names each renderer process after: the first valid URL of its
	// frames, where about:blank gives way to the next one. Absent for a process without one.
	ProcessURL map[int64]string
	// MainThreads are the CrRendererMain threads of the processes that showed the main frame.
	MainThreads []core.ThreadID
	// BrowserPid and GPUPid are the processes named Browser and GPU, -1 when the trace has none.
	BrowserPid, GPUPid int64
}

// FrameProcess is one period during which a renderer process showed a frame at a URL.
type FrameProcess struct {
	Pid int64
	URL string
	Ts  float64 // when it started
}

// noNavigationID keys a navigationStart whose data has no navigationId, as the engine's Map keys
// undefined.
const noNavigationID = "\x00undefined"

// buildMeta is BuildMeta but for the main threads: it reads only events, so it needs no tracks
// (BuildEarly).
func buildMeta(tr *core.Trace) *Meta {
	m := &Meta{
		NavigationByID:     map[string]int{},
		NavigationsByFrame: map[string][]int{},
		FrameProcesses:     map[string][]FrameProcess{},
		ProcessURL:         map[int64]string{},
		BrowserPid:         -1,
		GPUPid:             -1,
		TraceIsGeneric:     true,
	}
	m.Bounds = traceBounds(tr)
	m.scan(tr)
	return m
}

// BuildMeta reads what the other lists and the thread tracks are built from; Build builds it too,
// and the view calls it alone to name and order the thread tracks. Its main threads come from
// tr's tracks. It adds nothing to tr's warnings: those of the events it reads are the lists'
// (Build, Early.Warn), and the window builds both, so a warning counted here was counted twice.
func BuildMeta(tr *core.Trace) *Meta {
	m := buildMeta(readView(tr))
	m.mainThreads(tr)
	return m
}

// traceBounds is the engine's bounds (core.EngineBounds), infinite when no event counts.
func traceBounds(tr *core.Trace) Bounds {
	lo, hi := tr.MinTs, tr.MaxTs
	if !tr.EventBounds {
		lo, hi = core.EngineBounds(tr)
	}
	return Bounds{Min: Num(lo), Max: Num(hi), Range: Num(hi - lo)}
}

// scan reads the events that describe frames, processes and navigations, in file order.
func (m *Meta) scan(tr *core.Trace) {
	const (
		nTSIB = iota
		nFrameCommitted
		nCommitLoad
		nNavigationStart
		nProcessName
		nTracingStartedInPage
		nSessionIDForWorker
	)
	names := lookupNames(tr, "TracingStartedInBrowser", "FrameCommittedInBrowser", "CommitLoad",
		"navigationStart", "process_name", "TracingStartedInPage", "TracingSessionIdForWorker")
	for _, k := range tr.Chunks.Kind {
		if k == core.ChunkWhole {
			m.TraceIsGeneric = false
			break
		}
	}
	a := &args{tr: tr}
	ev := &tr.Events
	noArgs := 0
	for i, name := range ev.Name {
		background.YieldEvery(i)
		which, ok := names.find(name)
		if !ok {
			continue
		}
		switch which {
		case nTSIB, nTracingStartedInPage, nSessionIDForWorker:
			m.TraceIsGeneric = false
		}
		v := a.parse(i)
		pid := tr.Threads[ev.Thread[i]].Pid
		switch which {
		case nTSIB:
			data := v.Get("data")
			if data == nil {
				// The engine refuses such a trace ("No frames found in trace data"); we go on without frames.
				noArgs++
				continue
			}
			for _, f := range data.GetArray("frames") {
				m.noteFrame(f, ev.Ts[i], 0, false)
				m.maybeMainFrame(f)
			}
		case nFrameCommitted:
			if data := v.Get("data"); data != nil && data.Type() == fastjson.TypeObject {
				m.noteFrame(data, ev.Ts[i], 0, false)
			}
		case nCommitLoad:
			if data := v.Get("data"); data != nil && data.Type() == fastjson.TypeObject {
				m.noteFrame(data, ev.Ts[i], pid, true)
			}
		case nNavigationStart:
			m.noteNavigation(tr, i, v, pid)
		case nProcessName:
			switch n, _ := str(v, "name"); n {
			case "Browser", "HeadlessBrowser":
				m.BrowserPid = pid
			case "Gpu", "GPU Process":
				m.GPUPid = pid
			}
		}
	}
	if noArgs > 0 {
		tr.Warnings.Add("TracingStartedInBrowser events without args.data (DevTools refuses such a trace): their frames are unknown", noArgs)
	}
	m.dropUnknownFrames()
	m.processURLs()
}

// noteFrame records that a process showed frame f from ts, unless it already showed it at that URL.
// CommitLoad names no process: the event's own pid is used.
func (m *Meta) noteFrame(f *fastjson.Value, ts float64, pid int64, ownPid bool) {
	frame, _ := key(f, "frame")
	u, _ := str(f, "url")
	if !ownPid {
		p, ok := num(f, "processId")
		if !ok {
			return
		}
		pid = int64(p)
	}
	list := m.FrameProcesses[frame]
	for j := len(list) - 1; j >= 0; j-- {
		if list[j].Pid == pid {
			if list[j].URL == u {
				return
			}
			break
		}
	}
	m.FrameProcesses[frame] = append(list, FrameProcess{Pid: pid, URL: u, Ts: ts})
}

// maybeMainFrame applies the engine's main-frame test to one frame of TracingStartedInBrowser:
// both isInPrimaryMainFrame and isOutermostMainFrame true where the trace has both flags, else
// isOutermostMainFrame, else a frame without a parent that has a URL. The last match wins.
func (m *Meta) maybeMainFrame(f *fastjson.Value) {
	primary, outer := has(f, "isInPrimaryMainFrame"), has(f, "isOutermostMainFrame")
	var is bool
	switch {
	case primary && outer:
		is = truthy(f, "isInPrimaryMainFrame") && truthy(f, "isOutermostMainFrame")
	case outer:
		is = truthy(f, "isOutermostMainFrame")
	default:
		is = !truthy(f, "parent") && truthy(f, "url")
	}
	if is {
		m.MainFrameID, _ = key(f, "frame")
		m.MainFrameURL, _ = str(f, "url")
	}
}

// noteNavigation keeps a navigationStart that has data, a documentLoaderURL other than "" and a
// navigationId not seen before.
func (m *Meta) noteNavigation(tr *core.Trace, i int, v *fastjson.Value, pid int64) {
	data := v.Get("data")
	if data == nil || data.Type() == fastjson.TypeNull {
		return
	}
	loaderURL, hasURL := str(data, "documentLoaderURL")
	if hasURL && loaderURL == "" {
		return
	}
	id, ok := key(data, "navigationId")
	if !ok {
		id = noNavigationID
	}
	if _, seen := m.NavigationByID[id]; seen {
		return
	}
	frame, _ := key(v, "frame")
	nav := Navigation{NavigationID: id, Ts: tr.Events.Ts[i], Pid: pid, Frame: frame, URL: loaderURL, Event: int32(i)}
	if id == noNavigationID {
		nav.NavigationID = ""
	}
	if frame == m.MainFrameID {
		nav.IsMainFrame = true
		m.MainFrameNavigations = append(m.MainFrameNavigations, nav)
	}
	m.NavigationByID[id] = len(m.Navigations)
	m.NavigationsByFrame[frame] = append(m.NavigationsByFrame[frame], len(m.Navigations))
	m.Navigations = append(m.Navigations, nav)
}

// dropUnknownFrames leaves out the navigations of frames that no TracingStartedInBrowser,
// FrameCommittedInBrowser or CommitLoad named, as the engine does at the end.
func (m *Meta) dropUnknownFrames() {
	kept := m.Navigations[:0]
	for _, n := range m.Navigations {
		if _, ok := m.FrameProcesses[n.Frame]; ok {
			kept = append(kept, n)
		}
	}
	m.Navigations = kept
	clear(m.NavigationByID)
	clear(m.NavigationsByFrame)
	for j, n := range m.Navigations {
		id := n.NavigationID
		if id == "" {
			id = noNavigationID
		}
		m.NavigationByID[id] = j
		m.NavigationsByFrame[n.Frame] = append(m.NavigationsByFrame[n.Frame], j)
	}
}

// processURLs names each renderer process after the frames it showed, in time order: the first
// valid URL, an about:blank giving way to the next valid one.
func (m *Meta) processURLs() {
	type shown struct {
		ts  float64
		url string
	}
	byPid := map[int64][]shown{}
	for _, frame := range sortedKeys(m.FrameProcesses) {
		for _, p := range m.FrameProcesses[frame] {
			byPid[p.Pid] = append(byPid[p.Pid], shown{p.Ts, p.URL})
		}
	}
	for pid, list := range byPid {
		sort.SliceStable(list, func(a, b int) bool { return list[a].ts < list[b].ts })
		cur, set := "", false
		for _, s := range list {
			if set && cur != "about:blank" {
				break
			}
			if validURL(s.url) {
				cur, set = s.url, true
			} else {
				cur, set = "", false
			}
		}
		if set {
			m.ProcessURL[pid] = cur
		}
	}
}

// validURL approximates the WHATWG URL parser's acceptance: an absolute URL with a scheme, and a
// host for the schemes that need one.
func validURL(s string) bool {
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" {
		return false
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https", "ws", "wss", "ftp":
		return u.Host != ""
	}
	return true
}

// mainThreads finds the CrRendererMain threads, with entries, of the processes that showed the main
// frame.
func (m *Meta) mainThreads(tr *core.Trace) {
	pids := map[int64]bool{}
	for _, p := range m.FrameProcesses[m.MainFrameID] {
		if _, ok := m.ProcessURL[p.Pid]; ok || m.TraceIsGeneric {
			pids[p.Pid] = true
		}
	}
	if len(pids) == 0 {
		return
	}
	for i := range tr.Tracks {
		t := &tr.Tracks[i]
		th := tr.Threads[t.Thread]
		if t.Len() > 0 && pids[th.Pid] && tr.Strings.Get(th.Name) == "CrRendererMain" {
			m.MainThreads = append(m.MainThreads, t.Thread)
		}
	}
}

func sortedKeys[V any](mp map[string]V) []string {
	keys := make([]string, 0, len(mp))
	for k := range mp {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
