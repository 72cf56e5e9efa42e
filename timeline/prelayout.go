// Prelayout: a track's rows and levels built while core/integrate still builds the others.

package timeline

import (
	"context"
	"sync"

	"flamedesk/core"
	"flamedesk/core/timelines"
	"flamedesk/internal/background"
)

// Prelayout lays out each thread's track as soon as core/integrate has built it (hand TrackBuilt
// to core.Progress.TrackBuilt), so that the levels of the smaller threads are built while the
// largest one is still being integrated, on a core that would otherwise wait; Model then only
// lays out what is left. On a DevTools trace of 7 M entries that leaves the main thread's levels
// after the build instead of every track's.
//
// It assumes what New decides for nearly every file: a trace's tracks are filtered by the panel's
// visible-entries rule, a profile's are not. Model lays a track out afresh where that guess was
// wrong (a generic trace), where the build was done again, or where the track was not handed
// over before Model needed it.
//
// On a DevTools trace it also builds ahead the part of the panel's lists that needs no tracks
// (timelines.BuildEarly): when its worker runs out of tracks while core/integrate still builds the
// largest thread, the core it leaves idle takes them, instead of the levels' cores after the build.
type Prelayout struct {
	ctx  context.Context
	wake chan struct{} // a track was queued or Close was called

	mu     sync.Mutex
	vis    *timelines.Visibility // nil until the first track; the trace's drawn-entries rule
	queue  []*core.Track
	laid   map[core.ThreadID]*prelaid
	closed bool
	worker bool // the goroutine laying tracks out is running
	// firstView, when set, is the height of the chart's first view: the large tracks are laid
	// out in part, for Model to place the rest later (DeferRows).
	firstView func() float64
	// early is the panel's lists built ahead, nil until they are started; earlyDone is closed
	// once they are built. earlyStopped says they are not to be started any more (StopEarly).
	early        *timelines.Early
	earlyDone    chan struct{}
	earlyStopped bool
	// lists is the panel's lists and lanes being built for Model (StartLists), nil when not started.
	lists <-chan panelLanes
	// earlyLanes is how high the lanes of the lists built ahead are, 0 until they are built: the
	// lanes push the threads down by at least as much (the frames, which the build's end adds,
	// only add a lane), so the first view shows fewer of a thread's rows than the chart's height.
	earlyLanes float64

	// progress is the build's (Hook), nil when not known: its counts tell whether core/integrate
	// has finished every thread when a track comes.
	progress *core.Progress
	// late are the threads left for after the first view (chooseLate), which Model lays out as
	// empty tracks to come.
	late []core.ThreadID
}

// prelaid is one thread's track laid out, or being laid out, ahead of Model.
type prelaid struct {
	len      int  // the track's entries, to tell it from another build's track of the thread
	filtered bool // rows follow the visible-entries rule
	claimed  bool // the worker or Model took it; the other leaves it
	built    bool // the worker laid it out (it was not cancelled first)
	// parallel: the track may take a second goroutine, as core/integrate had finished every
	// thread when it came (or that is not known). While integrate still runs, it holds the other
	// core, and a second goroutine would slow the thread it is still building.
	parallel bool
	done     chan struct{}
	laid     laidOut
}

// NewPrelayout returns a Prelayout that gives up once ctx is cancelled.
func NewPrelayout(ctx context.Context) *Prelayout {
	return &Prelayout{ctx: ctx, wake: make(chan struct{}, 1), laid: map[core.ThreadID]*prelaid{}}
}

// Hook has p's build hand its tracks to the Prelayout (p.TrackBuilt), and lets the Prelayout
// read from p's counts whether the build is over when a track comes: a large track that comes
// while other threads are still being built is laid out on one goroutine, as those hold the
// other cores; the last one on two.
//
// When DeferRows was called first, the build is also asked to leave for later the large threads
// the first view cannot show (chooseLate, late.go).
func (pl *Prelayout) Hook(p *core.Progress) {
	pl.mu.Lock()
	pl.progress = p
	deferring := pl.firstView != nil
	pl.mu.Unlock()
	p.TrackBuilt = pl.TrackBuilt
	if deferring {
		p.ChooseLate = pl.chooseLate
	}
}

// TrackBuilt queues t, a track of tr that core/integrate has just built, to be laid out on a
// goroutine of the Prelayout's own. It returns at once; it may be called from any goroutine.
func (pl *Prelayout) TrackBuilt(tr *core.Trace, t *core.Track) {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	if pl.closed {
		return
	}
	if pl.vis == nil {
		pl.vis = timelines.NewVisibility(tr, false)
	}
	// The entry is made now, so that Model finds it claimed or not even before the worker starts it.
	// core/integrate counts a thread's work done before it hands the track over.
	p := pl.progress
	parallel := p == nil || p.Done.Load() >= p.Total.Load()
	pl.laid[t.Thread] = &prelaid{len: t.Len(), filtered: tr.Kind == core.InputTrace, parallel: parallel, done: make(chan struct{})}
	pl.queue = append(pl.queue, t)
	if !pl.worker {
		pl.worker = true
		go pl.work(tr)
	}
	select {
	case pl.wake <- struct{}{}:
	default:
	}
}

// DeferRows says that Model will be given the chart's first view, whose height firstView tells
// (content pixels; it may change until Model is called): a large track's levels are not built
// ahead, nor its drawn rows, only the entries of the rows a first view can show (deferLazily; a
// track on its depths has only its levels made, empty: deferRows). Model places the rows the
// first view shows, and the model's PlaceRest the others (deferred.go). The largest track, which
// comes once core/integrate is over, is on the load's critical path; the others, while it still
// builds, took a core from it. Call DeferRows before the first track comes.
func (pl *Prelayout) DeferRows(firstView func() float64) {
	pl.mu.Lock()
	pl.firstView = firstView
	pl.mu.Unlock()
}

// Close says no more tracks will come; the worker ends once it has laid out the queued ones that
// Model has not taken over.
func (pl *Prelayout) Close() {
	pl.mu.Lock()
	pl.closed = true
	pl.mu.Unlock()
	select {
	case pl.wake <- struct{}{}:
	default:
	}
}

// work lays out the queued tracks in the order they were built.
func (pl *Prelayout) work(tr *core.Trace) {
	background.Lower()
	for {
		pl.mu.Lock()
		if len(pl.queue) == 0 {
			closed := pl.closed
			pl.startEarly(tr)
			pl.mu.Unlock()
			if closed {
				return
			}
			select {
			case <-pl.wake:
				continue
			case <-pl.ctx.Done():
				return
			}
		}
		t := pl.queue[0]
		pl.queue = pl.queue[1:]
		e := pl.laid[t.Thread]
		if e == nil || e.claimed || e.len != t.Len() {
			pl.mu.Unlock()
			continue
		}
		e.claimed = true
		vis, firstView, above := pl.vis, pl.firstView, pl.earlyLanes
		pl.mu.Unlock()
		if pl.ctx.Err() == nil {
			firstRows := 0
			if firstView != nil {
				firstRows = firstViewRows(firstView(), above)
			}
			e.laid = layOut(tr, t, e.filtered, vis, e.parallel, firstRows)
			e.built = true
		}
		close(e.done)
	}
}

// startEarly starts building the panel's lists that need no tracks, on a goroutine of their own,
// when tr is a DevTools trace and core/integrate is still building its tracks: the worker has run
// out of tracks, so the core it used is idle until the build hands over the next one. Once the
// build is over, the levels of its last track take both cores, and the lists are built beside them
// as before (newWithPanelLanes). pl.mu is held.
//
// They are started only while an eighth of the build's work is left to count: the build counts
// none of the tree it makes of a thread once its samples are merged, which on two goroutines
// takes both cores (core/integrate splitTree); lists started then delayed the load's end, and the
// loader waited for them (StopEarly), by up to 140 ms on gen-trace-large.
func (pl *Prelayout) startEarly(tr *core.Trace) {
	p := pl.progress
	if pl.closed || pl.earlyStopped || pl.earlyDone != nil || tr.Kind != core.InputTrace || p == nil {
		return
	}
	if total := p.Total.Load(); total-p.Done.Load() < max(total/earlyWorkLeft, 1) {
		return
	}
	done := make(chan struct{})
	pl.earlyDone = done
	go func() {
		background.Lower()
		early := timelines.BuildEarly(tr)
		lanes := lanesHeight(BuildLanes(early.Partial()))
		pl.mu.Lock()
		pl.early, pl.earlyLanes = early, lanes
		pl.mu.Unlock()
		close(done)
	}()
}

// earlyWorkLeft: the panel's lists are built ahead only while 1/earlyWorkLeft of the build's work
// is left.
const earlyWorkLeft = 8

// StopEarly starts no more of the panel's lists ahead and waits for those started, or for ctx
// to be cancelled. Call it once the build is over and before anything changes the trace's strings
// or events (source maps intern names), which the lists read.
func (pl *Prelayout) StopEarly(ctx context.Context) {
	pl.mu.Lock()
	pl.earlyStopped = true
	done := pl.earlyDone
	pl.mu.Unlock()
	if done == nil {
		return
	}
	select {
	case <-done:
	case <-ctx.Done():
	}
}

// StartLists starts building the panel's lists, and the lanes drawn from them, for Model to
// take: call it once the trace's strings and events are final (after source maps), so that they
// are built beside the rows the worker still lays out (the main thread's, after the build) and
// whatever the caller does before Model, not after them. The lists built ahead are waited for and
// used. It does nothing for a trace whose model has no lanes, or when called again.
func (pl *Prelayout) StartLists(tr *core.Trace) {
	if tr.Kind != core.InputTrace {
		return
	}
	pl.StopEarly(pl.ctx)
	early := pl.takeEarly()
	pl.mu.Lock()
	defer pl.mu.Unlock()
	if pl.lists == nil {
		pl.lists = buildPanelLanes(tr, early)
	}
}

// takeLists returns the lists StartLists started, nil when it was not called (or they were taken).
func (pl *Prelayout) takeLists() <-chan panelLanes {
	if pl == nil {
		return nil
	}
	pl.mu.Lock()
	defer pl.mu.Unlock()
	l := pl.lists
	pl.lists = nil
	return l
}

// takeEarly returns the panel's lists built ahead, nil when there are none (not started, not
// finished or already taken); the caller then builds them whole.
func (pl *Prelayout) takeEarly() *timelines.Early {
	if pl == nil {
		return nil
	}
	pl.mu.Lock()
	defer pl.mu.Unlock()
	e := pl.early
	pl.early = nil
	return e
}

// take returns the rows and levels laid out ahead for ct (a track of tr.Tracks, a copy of the one
// handed to TrackBuilt), waiting for them when the worker is on them; ok is false when the caller
// is to lay ct out itself (the Prelayout then leaves it).
func (pl *Prelayout) take(ct *core.Track, filtered bool) (laid laidOut, ok bool) {
	if pl == nil {
		return laidOut{}, false
	}
	pl.mu.Lock()
	e := pl.laid[ct.Thread]
	if e == nil || e.len != ct.Len() || !e.claimed {
		if e != nil {
			e.claimed = true
		}
		pl.mu.Unlock()
		return laidOut{}, false
	}
	pl.mu.Unlock()
	select {
	case <-e.done:
	case <-pl.ctx.Done():
		return laidOut{}, false
	}
	if !e.built || e.filtered != filtered {
		return laidOut{}, false
	}
	return e.laid, true
}

// Model is NewWithPanelLanesContext that uses the tracks laid out ahead; it closes pl, and lets
// go of what the model did not take (a track it leaves out, or laid out afresh), so that a pl
// still referenced (by a Progress) holds nothing twice. A viewHeight above 0 is the height of the
// chart's first view, in content pixels: the rows of a large track below it are left for the
// model's PlaceRest (deferred.go).
func (pl *Prelayout) Model(ctx context.Context, tr *core.Trace, p *core.Progress, viewHeight float64) (*Model, error) {
	pl.Close()
	pl.StopEarly(ctx)
	m, err := newWithPanelLanes(ctx, tr, p, pl, viewHeight)
	pl.mu.Lock()
	pl.laid, pl.queue, pl.early, pl.lists = nil, nil, nil, nil
	pl.mu.Unlock()
	return m, err
}

// firstViewRows is how many rows of a thread's track a first view viewHeight high can show when
// lanes at least above high are above it, under its process's header and its own; 0 for no view.
// A view that shows none of its rows still reaches its first, which the overview reads.
func firstViewRows(viewHeight, above float64) int {
	if viewHeight <= 0 {
		return 0
	}
	st := DefaultLayoutStyle()
	return max(viewRows(viewHeight-above-st.GroupHeaderHeight-st.TrackHeaderHeight), 1)
}

// lanesHeight is how high lanes are laid out above the threads, as Relayout lays them out.
func lanesHeight(lanes []Lane) float64 {
	m := Model{Style: DefaultLayoutStyle(), Lanes: lanes}
	return m.layoutLanes()
}
