// Late tracks: threads whose tracks are built after the others (core.Progress.ChooseLate).

package integrate

import (
	"context"
	"errors"
	"slices"

	"flamedesk/core"
)

// A window shows a trace's first view as soon as the tracks that view shows are built. On a page
// with a busy worker, that worker's track is the second largest (a third of gen-trace-large's
// entries) and lies below the main thread's thousands of rows; built beside the main thread, it
// took a core from it for most of the build. The window asks for such threads to be left
// (ChooseLate) and builds them once the first view is on screen.

// chooseLate marks the jobs whose threads p.ChooseLate leaves for later, for a DevTools trace
// only; all false when p asks for none.
func chooseLate(tr *core.Trace, jobs []job, p *core.Progress) []bool {
	late := make([]bool, len(jobs))
	if p == nil || p.ChooseLate == nil || tr.Kind != core.InputTrace {
		return late
	}
	threads := make([]core.ThreadID, len(jobs))
	work := make([]int, len(jobs))
	for i := range jobs {
		threads[i], work[i] = jobs[i].thread, jobs[i].work()
	}
	chosen := p.ChooseLate(tr, threads, work)
	left := 0
	for i := range jobs {
		if slices.Contains(chosen, jobs[i].thread) {
			late[i] = true
			left++
		}
	}
	if left == len(jobs) {
		// Nothing would be shown: build it all now.
		clear(late)
	}
	return late
}

// lateBuild is the core.LateTracks of a build that left the jobs late marks.
type lateBuild struct {
	tr      *core.Trace
	jobs    []job
	late    []bool
	results []result // every job's, the late ones' once built
	keys    []int32
	limit   *entryBudget
	slots   []int // the late tracks' places in tr.Tracks
	threads []core.ThreadID
	built   bool
	warn    core.Warnings
}

func (l *lateBuild) Threads() []core.ThreadID { return l.threads }

// Build runs the late jobs as BuildContext runs the others, with the same entry budget.
func (l *lateBuild) Build(ctx context.Context) ([]core.Track, error) {
	if l.built {
		return nil, errors.New("late tracks built twice")
	}
	l.built = true
	defer holdHeap(l.tr, true)()
	var which []int
	for i := range l.jobs {
		if l.late[i] {
			which = append(which, i)
		}
	}
	runJobs(ctx, l.tr, l.jobs, which, l.results, l.keys, l.limit, nil, false)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := overBudget(l.results, l.limit); err != nil {
		return nil, err
	}
	addWarnings(&l.warn, l.results)
	tracks := make([]core.Track, 0, len(which))
	for _, i := range which {
		tracks = append(tracks, l.results[i].track)
	}
	return tracks, nil
}

func (l *lateBuild) Warnings() *core.Warnings { return &l.warn }

// Install writes the late tracks into their places. A late thread whose track came out empty
// keeps its empty place.
func (l *lateBuild) Install() {
	k := 0
	for i := range l.jobs {
		if !l.late[i] {
			continue
		}
		if t := l.results[i].track; t.Len() > 0 {
			l.tr.Tracks[l.slots[k]] = t
		}
		k++
	}
	l.tr.Warnings.AddAll(&l.warn)
	// The jobs' lists and the columns of the tracks now in the trace are let go with l.
	l.jobs, l.results, l.keys = nil, nil, nil
}
