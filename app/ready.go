package app

import (
	"fmt"
	"io"
	"slices"
	"time"

	"flamedesk/core"
)

// readyClock measures how long after the process started the window first showed a loaded
// file's chart (scripts/readybench.sh compares it with `flamedesk stats`), and when each stage
// on the way ended. The load's stages are taken on the loading goroutine and travel with its
// result (loadTimes); the window's on the UI goroutine.
type readyClock struct {
	out     io.Writer
	exit    bool
	started time.Time

	firstFrame time.Time // the first frame, empty, was on screen
	loadBegan  time.Time
	installed  time.Time
	load       loadTimes
	stages     []core.StageTime // the load's, as `flamedesk stats` prints them
	reported   bool
	// late is how many threads' tracks were still to come when the chart was first on screen;
	// the clock then also reports when they are in.
	late int
}

// loadTimes are when the stages of one load ended.
type loadTimes struct {
	opened   time.Time // file read, tracks built (pipeline.Open returned)
	mapped   time.Time // source maps applied
	model    time.Time // the tracks' levels and the lanes beside them built (timeline.NewWithPanelLanes)
	laidOut  time.Time // the display model is whole; since the lanes are built with the levels, just after model
	cacheHit bool
}

func newReadyClock(out io.Writer, exit bool, started time.Time) *readyClock {
	if out == nil {
		return nil
	}
	if started.IsZero() {
		started = time.Now()
	}
	return &readyClock{out: out, exit: exit, started: started}
}

// frameDone notes a frame handed to the window at now; it reports true once the first frame that
// drew a loaded document is on screen and the window is to exit.
func (r *readyClock) frameDone(u *ui, now time.Time) (exit bool) {
	if r == nil {
		return false
	}
	if r.reported {
		if r.late == 0 || u.doc == nil || u.doc.late != nil {
			return false
		}
		fmt.Fprintf(r.out, "all tracks in: %.0f ms after start (%d built after the first chart)\n",
			float64(now.Sub(r.started))/float64(time.Millisecond), r.late)
		r.late = 0
		return r.exit
	}
	if r.firstFrame.IsZero() {
		r.firstFrame = now
	}
	if u.doc == nil || r.installed.IsZero() {
		return false
	}
	r.reported = true
	ms := func(t time.Time) float64 { return float64(t.Sub(r.started)) / float64(time.Millisecond) }
	from := "file"
	if r.load.cacheHit {
		from = "cache"
	}
	l := &r.load
	fmt.Fprintf(r.out, "ready: %.0f ms after start (first frame %.0f ms; load from %s %.0f-%.0f ms; source maps %.0f ms, "+
		"levels %.0f ms, lanes %.0f ms; installed %.0f ms; first chart on screen %.0f ms)\n",
		ms(now), ms(r.firstFrame), from, ms(r.loadBegan), ms(l.opened), ms(l.mapped), ms(l.model), ms(l.laidOut),
		ms(r.installed), ms(now))
	// The load's own stages, timed as `flamedesk stats` times them, tell which of them ran slower
	// in the window than in stats (the window's other work shares the cores with them).
	if len(r.stages) > 0 {
		io.WriteString(r.out, "load stages:")
		for i, s := range r.stages {
			sep := ","
			if i == 0 {
				sep = ""
			}
			fmt.Fprintf(r.out, "%s %s %.0f ms", sep, s.Name, float64(s.Dur)/float64(time.Millisecond))
		}
		io.WriteString(r.out, "\n")
	}
	if u.doc.late != nil {
		r.late = len(u.doc.late.Threads())
		return false
	}
	return r.exit
}

// began notes the start of the first load.
func (r *readyClock) began() {
	if r != nil && r.loadBegan.IsZero() {
		r.loadBegan = time.Now()
	}
}

// install notes a loaded document installed.
func (r *readyClock) install(l loaded) {
	if r != nil && r.installed.IsZero() {
		r.installed = time.Now()
		r.load = l.times
		if l.trace != nil {
			r.stages = slices.Clone(l.trace.Stats.Stages)
		}
	}
}
