package timelines

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"flamedesk/core"
	"flamedesk/internal/background"
)

// ThreadKind is what the panel takes a thread for, which decides its track's name and place.
type ThreadKind uint8

const (
	ThreadOther  ThreadKind = iota
	ThreadMain              // CrRendererMain
	ThreadWorker            // DedicatedWorker thread
	ThreadRaster            // CompositorTileWorker…
	ThreadPool              // ThreadPool…
)

// ThreadTrack is how the panel shows one thread of a trace: its track's name, the shared header
// it sits under (Raster, Thread pool), its rank in the panel's order, and whether it is shown.
type ThreadTrack struct {
	Thread core.ThreadID
	Kind   ThreadKind
	// OnMainFrame marks a thread of a renderer that showed the page's main frame.
	OnMainFrame bool
	// Name is the track's title: "Main — URL" (the main frame's renderer), "Frame — URL" (another
	// renderer's main thread), "Worker — URL" or "Dedicated Worker", "Rasterizer thread N",
	// "Thread pool worker N", else the thread's name or "Thread TID".
	Name string
	// Header is the title of the group a raster or thread-pool thread is drawn under; "" for others.
	Header string
	// Rank orders the tracks (lower first); ties go to the busier thread.
	Rank int
	// Shown is false for the threads the panel leaves out: a non-generic trace's threads outside the
	// renderers that showed a page, the I/O and compositor threads, and threads with no entry the
	// flame chart draws (e.g. a process holding one page-load marker).
	Shown bool
	// Drawn is false for a thread none of whose entries the flame chart draws: the panel gives it
	// no track at all, whatever the trace.
	Drawn bool
}

// hiddenThreadNames are threads the panel never draws: they carry nothing a page author can act on.
var hiddenThreadNames = map[string]bool{"Chrome_ChildIOThread": true, "Compositor": true, "GpuMemoryThread": true, "PerfettoTrace": true}

// ThreadTracks describes every thread that has a track (tr.Tracks, built by core/integrate) the way
// the panel shows it, in the panel's order: the main frame's main thread, other frames' main
// threads, pages on about: or chrome: URLs, workers, raster threads, the thread pool, the rest;
// busier threads first within each rank. A generic trace keeps every thread, named after itself.
func ThreadTracks(tr *core.Trace, m *Meta) []ThreadTrack { return ThreadTracksWithLate(tr, m, nil) }

// ThreadTracksWithLate is ThreadTracks for a trace whose tracks of the late threads are not built
// yet (core.LateTracks): their empty tracks count as drawn, and as the least busy of their rank.
// Once built, a late thread keeps its place when no other thread has its rank (ThreadRank) and
// some of its entries are drawn.
func ThreadTracksWithLate(tr *core.Trace, m *Meta, late []core.ThreadID) []ThreadTrack {
	vis := NewVisibility(tr, m.TraceIsGeneric)
	workerURL := workerURLs(tr)
	type item struct {
		ThreadTrack
		entries int
	}
	var items []item
	for ti := range tr.Tracks {
		t := &tr.Tracks[ti]
		isLate := t.Len() == 0 && slices.Contains(late, t.Thread)
		if (t.Len() == 0 && !isLate) || int(t.Thread) >= len(tr.Threads) {
			continue
		}
		drawn := isLate
		for e := 0; e < t.Len() && !drawn; e++ {
			drawn = vis.Entry(tr, t, e)
		}
		it := item{ThreadTrack: m.threadTrack(tr, t.Thread, workerURL), entries: t.Len()}
		it.Shown, it.Drawn = it.Shown && drawn, drawn
		items = append(items, it)
	}
	sort.SliceStable(items, func(a, b int) bool {
		if items[a].Rank != items[b].Rank {
			return items[a].Rank < items[b].Rank
		}
		return items[a].entries > items[b].entries
	})
	out := make([]ThreadTrack, len(items))
	raster, pool := 0, 0
	for k, it := range items {
		switch {
		case it.Kind == ThreadRaster && it.Shown:
			raster++
			it.Name = fmt.Sprintf("Rasterizer thread %d", raster)
		case it.Kind == ThreadPool && it.Shown:
			pool++
			it.Name = fmt.Sprintf("Thread pool worker %d", pool)
		case it.Kind == ThreadRaster || it.Kind == ThreadPool:
			it.Name = tr.ThreadLabel(it.Thread)
		}
		out[k] = it.ThreadTrack
	}
	return out
}

// ThreadRank is the rank the panel gives thread th (ThreadTrack.Rank), and whether it shows th when
// some of its entries are drawn: its name and process decide both, without its track.
func ThreadRank(tr *core.Trace, m *Meta, th core.ThreadID) (rank int, shown bool) {
	t := m.threadTrack(tr, th, nil)
	return t.Rank, t.Shown
}

// threadTrack is th's ThreadTrack but for what its entries decide (Drawn, and Shown for a thread
// with none drawn), and the names of raster and thread-pool threads, which their order gives.
// workerURL is workerURLs(tr), nil when only the rank is wanted.
func (m *Meta) threadTrack(tr *core.Trace, thread core.ThreadID, workerURL map[int64]string) ThreadTrack {
	th := &tr.Threads[thread]
	name := tr.Strings.Get(th.Name)
	it := ThreadTrack{Thread: thread, Shown: true, Drawn: true}
	def := name
	if def == "" {
		def = fmt.Sprintf("Thread %d", th.Tid)
	}
	if m.TraceIsGeneric {
		it.Name, it.Rank = fmt.Sprintf("%s (%d)", def, th.Tid), 7
		return it
	}
	url, renderer := m.ProcessURL[th.Pid]
	if !renderer || hiddenThreadNames[name] {
		it.Shown = false
	}
	it.OnMainFrame = m.onMainFrame(th.Pid)
	switch {
	case name == "CrRendererMain":
		it.Kind = ThreadMain
		switch {
		case !it.OnMainFrame:
			it.Name, it.Rank = "Frame — "+url, 1
		case strings.HasPrefix(url, "about:") || strings.HasPrefix(url, "chrome:"):
			it.Name, it.Rank = "Main — "+url, 2
		default:
			it.Name, it.Rank = "Main — "+url, 0
		}
	case name == "DedicatedWorker thread":
		it.Kind, it.Rank = ThreadWorker, 3
		u := url
		if wu, ok := workerURL[th.Tid]; ok {
			u = wu
		}
		it.Name = "Dedicated Worker"
		if u != "" {
			it.Name = "Worker — " + u
		}
	case strings.HasPrefix(name, "CompositorTileWorker"):
		it.Kind, it.Rank, it.Header = ThreadRaster, 4, "Raster"
	case strings.HasPrefix(name, "ThreadPool"):
		it.Kind, it.Rank, it.Header = ThreadPool, 5, "Thread pool"
	default:
		it.Name, it.Rank = def, 7
	}
	return it
}

// onMainFrame tells whether process pid showed the main frame at some point.
func (m *Meta) onMainFrame(pid int64) bool {
	for _, p := range m.FrameProcesses[m.MainFrameID] {
		if p.Pid == pid {
			return true
		}
	}
	return false
}

// workerURLs maps a worker thread's tid to its script URL, from TracingSessionIdForWorker.
func workerURLs(tr *core.Trace) map[int64]string {
	out := map[int64]string{}
	id, ok := tr.Strings.Lookup("TracingSessionIdForWorker")
	if !ok {
		return out
	}
	a := &args{tr: tr}
	for i, name := range tr.Events.Name {
		background.YieldEvery(i)
		if name != id {
			continue
		}
		v := a.parse(i)
		tid, ok := num(v, "data", "workerThreadId")
		if !ok {
			continue
		}
		if u, ok := str(v, "data", "url"); ok && u != "" {
			out[int64(tid)] = u
		}
	}
	return out
}
