// Late tracks: large threads the first view cannot show, built once it is on screen.

package timeline

import (
	"context"
	"slices"

	"flamedesk/core"
	"flamedesk/core/timelines"
)

// A page with a busy worker has it as its second largest thread (a third of gen-trace-large's
// entries); built beside the main thread, it took a core from it for most of the build, while the
// first view shows only the main thread's top rows, above the worker's thousands of rows down.
// The window's Prelayout asks core/integrate to leave such threads (chooseLate); the model lays
// them out as tracks of one hatched row, and BuildLate and InstallLate put them in once the first
// view is shown. Until then searches wait for them, as for rows not placed yet (WaitPlaced).

// lateMinWork is the least work (trace events plus samples) of a thread left late: a smaller one is
// built in a few ms beside the others.
var lateMinWork = 1 << 14

// lateTrack marks a model track whose core track is late (core.LateTracks).
type lateTrack struct {
	filtered bool // its rows follow the panel's visible-entries rule
}

// chooseLate is core.Progress.ChooseLate for a window. On a DevTools trace shown by thread, it
// leaves for later each thread but the first the panel shows (by rank, then work) that has at
// least lateMinWork of work and no more than the first: the first, as large, most likely fills
// the first view. Only a thread whose track will take the place a whole build gives it is left
// (timelines.ThreadTracksWithLate): one whose rank no other thread has, and with a trace event
// the chart draws among those its track is built from (X, B and I), so that the track has
// entries and the panel shows it.
func (pl *Prelayout) chooseLate(tr *core.Trace, threads []core.ThreadID, work []int) []core.ThreadID {
	meta := timelines.BuildMeta(tr)
	if meta.TraceIsGeneric {
		return nil
	}
	ranks := make([]int, len(threads))
	first := -1
	for i, th := range threads {
		if int(th) >= len(tr.Threads) {
			return nil
		}
		rank, shown := timelines.ThreadRank(tr, meta, th)
		ranks[i] = rank
		if shown && (first < 0 || rank < ranks[first] || rank == ranks[first] && work[i] > work[first]) {
			first = i
		}
	}
	if first < 0 {
		return nil
	}
	ofRank := map[int]int{}
	for _, r := range ranks {
		ofRank[r]++
	}
	var late []core.ThreadID
	for i, th := range threads {
		if i != first && ofRank[ranks[i]] == 1 && work[i] >= lateMinWork && work[i] <= work[first] {
			late = append(late, th)
		}
	}
	late = drawnThreads(tr, late)
	pl.mu.Lock()
	pl.late = late
	pl.mu.Unlock()
	return late
}

// drawnThreads are those of threads with an X, B or I event that the chart draws, in order.
func drawnThreads(tr *core.Trace, threads []core.ThreadID) []core.ThreadID {
	if len(threads) == 0 {
		return nil
	}
	vis := timelines.NewVisibility(tr, false)
	ev := &tr.Events
	drawn := make(map[core.ThreadID]bool, len(threads))
	for _, th := range threads {
		drawn[th] = false
	}
	left := len(threads)
	for i := 0; i < ev.Len() && left > 0; i++ {
		if ph := ev.Ph[i]; ph != 'X' && ph != 'B' && ph != 'I' {
			continue
		}
		if d, ok := drawn[ev.Thread[i]]; ok && !d && vis.Event(tr, i) {
			drawn[ev.Thread[i]] = true
			left--
		}
	}
	return slices.DeleteFunc(threads, func(th core.ThreadID) bool { return !drawn[th] })
}

// lateThreads are the threads chooseLate left, nil for none (or no Prelayout).
func (pl *Prelayout) lateThreads() []core.ThreadID {
	if pl == nil {
		return nil
	}
	pl.mu.Lock()
	defer pl.mu.Unlock()
	return pl.late
}

// markLate makes the model's tracks of late threads tracks to come: one row, not placed, drawn
// hatched; it is called once the tracks are in their final order.
func (m *Model) markLate() {
	for i := range m.Tracks {
		t := &m.Tracks[i]
		if t.late == nil {
			continue
		}
		t.Rows, t.Levels, t.pending = nil, make([]Level, 1), &rowsPending{}
		if m.lateIn == nil {
			m.lateIn = make(chan struct{})
		}
	}
}

// LateToCome reports whether some of the model's tracks are still to be built (BuildLate).
func (m *Model) LateToCome() bool {
	for i := range m.Tracks {
		if m.Tracks[i].late != nil {
			return true
		}
	}
	return false
}

// LateLaidOut is late tracks built and laid out, for InstallLate.
type LateLaidOut struct {
	late   core.LateTracks
	tracks []lateLaid
}

// lateLaid is one late track laid out: the model track it goes to, and what it gets.
type lateLaid struct {
	track  TrackID
	laid   Track // Rows, rowsUp and Levels
	titles map[int32]string
}

// BuildLate builds the model's late tracks (late, the trace's core.LateTracks) and lays them out.
// It may run on any goroutine beside readers of the model, once; it changes neither the model nor
// the trace. It gives up with ctx.Err() soon after ctx is cancelled.
func (m *Model) BuildLate(ctx context.Context, late core.LateTracks) (*LateLaidOut, error) {
	tracks, err := late.Build(ctx)
	if err != nil {
		return nil, err
	}
	tr := m.Trace
	vis := timelines.NewVisibility(tr, false)
	dispatch, hasDispatch := tr.Strings.Lookup("EventDispatch")
	out := &LateLaidOut{late: late}
	for j, th := range late.Threads() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ct := &tracks[j]
		ti := m.lateTrackOf(th)
		if ti < 0 || ct.Len() == 0 {
			continue
		}
		laid := layOut(tr, ct, m.Tracks[ti].late.filtered, vis, true, 0)
		l := lateLaid{track: TrackID(ti), laid: Track{Core: ct, Rows: laid.rows, Levels: laid.levels}}
		l.laid.packRows()
		if hasDispatch {
			l.titles = trackDispatchTitles(tr, ct, dispatch)
		}
		out.tracks = append(out.tracks, l)
	}
	return out, nil
}

// lateTrackOf is the index of thread th's late track, -1 for none. It reads only the fields a
// frame's Relayout never writes: BuildLate calls it beside frames.
func (m *Model) lateTrackOf(th core.ThreadID) int {
	for i := range m.Tracks {
		if t := &m.Tracks[i]; t.late != nil && t.Thread == th {
			return i
		}
	}
	return -1
}

// InstallLate puts the late tracks BuildLate laid out into the trace (core.LateTracks.Install)
// and the model, and lays the model out again; searches waiting for them go on. Call it where
// Relayout may be called, while nothing else reads the trace.
func (m *Model) InstallLate(l *LateLaidOut) {
	l.late.Install()
	for _, ll := range l.tracks {
		t := &m.Tracks[ll.track]
		t.Rows, t.rowsUp, t.Levels = ll.laid.Rows, ll.laid.rowsUp, ll.laid.Levels
		t.late, t.pending = nil, nil
		for e, title := range ll.titles {
			if m.dispatchTitles == nil {
				m.dispatchTitles = map[EntryRef]string{}
			}
			m.dispatchTitles[EntryRef{Track: ll.track, Entry: e}] = title
		}
	}
	// Let go of the built tracks' copies: the trace's columns may move onto a cache file
	// (cache.Adopt), and these would keep the heap copy alive.
	l.late, l.tracks = nil, nil
	m.endLate()
	if !engineBounds(m.Trace) {
		m.computeBounds()
	}
	m.Relayout()
}

// AbandonLate gives the late tracks up (their build failed or was cancelled): they stay empty, and
// searches waiting for them go on.
func (m *Model) AbandonLate() {
	m.endLate()
	m.Relayout()
}

// endLate makes every late track InstallLate gave nothing an ordinary empty one, and lets
// WaitPlaced return.
func (m *Model) endLate() {
	for i := range m.Tracks {
		if t := &m.Tracks[i]; t.late != nil {
			t.late, t.pending, t.Levels = nil, nil, nil
		}
	}
	if m.lateIn != nil {
		select {
		case <-m.lateIn:
		default:
			close(m.lateIn)
		}
	}
}
