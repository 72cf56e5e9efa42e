// Package integrate owns the sync tracks: for every thread of a loaded trace it pairs B/E events,
// builds the JS calls (ProfileCalls) that the thread's CPU samples imply, nests trace events and
// ProfileCalls into one tree exactly as Chrome DevTools' Performance panel does, and stores the
// result as the pointer-free columns of core.Track.
//
// The rules are DevTools' (shared/conformance/RULES.md §3-§5, trace engine 0.0.65); the algorithms
// are our own and run in O(n log n) in events plus samples, where DevTools' are superlinear in the
// stack depth. Where DevTools does something odd, this package does it too and says so.
//
// Behaviours of the engine that RULES.md does not spell out, found in its source and matched here
// (the conformance test covers each one that the fixtures exercise):
//   - The "extend equal frames" step of a stack merge never shows: the truncation that follows
//     it re-stamps every open frame. A frame's duration is the time of the last truncation it saw.
//   - A trace event without a usable sampleTraceId merges the open stack with itself: nothing is
//     cut, and all open frames are stamped up to the event's start.
//   - A sampleTraceId naming the GC node (or a node whose id is 0) gives an empty stack, which
//     cuts the frames down to the lock.
//   - Instant events with a sampleTraceId go on the trace-event stack with zero duration, so the
//     frames they push are cut at their own timestamp by the next item.
//   - A GC sample before any other sample has an empty stack and becomes the "previous sample"
//     of the GC samples after it.
//   - An E whose name or category differs from the B on top of the (file-wide) stack is dropped,
//     and that B keeps a zero duration.
//   - The constructed calls are merged into the sorted events in creation order, not re-sorted.
//   - Sample times take a detour through milliseconds (µs / 1000 × 1000), which decides ties
//     with event times.
//   - In CPU-profile mode, a sample with an unknown node closes every open frame and DevTools
//     skips all later samples; the walk starts at the first timestamp at or after 0; and frames
//     keep the .cpuprofile's own callFrame, so a missing lineNumber stays missing.
//
// Where flamedesk shows more than DevTools: every process is kept (DevTools drops those without
// a frame URL), and a profiled thread without trace events still gets its ProfileCalls.
package integrate

import (
	"context"
	"fmt"
	"math"
	"runtime/metrics"
	"slices"
	"sync"
	"time"

	"flamedesk/core"

	"flamedesk/internal/background"
)

// Build fills tr.Tracks: one track per thread that has trace events or ProfileCalls.
func Build(tr *core.Trace) {
	_ = BuildContext(context.Background(), tr, nil)
}

// BuildContext is Build with cancellation and progress: the window runs it on a goroutine with a
// Cancel button. On cancellation tr.Tracks is left empty and ctx's error is returned. Progress
// counts trace entries plus samples; p.TrackBuilt, when set, gets each thread's track as soon as
// it is built.
func BuildContext(ctx context.Context, tr *core.Trace, p *core.Progress) error {
	p.SetStage("building tracks")
	tr.Tracks = nil
	laysOut := p != nil && p.TrackBuilt != nil
	defer holdHeap(tr, laysOut)()
	t0 := time.Now()
	var jobs []job
	switch tr.Kind {
	case core.InputCPUProfile, core.InputSelfProfile:
		jobs = profileJobs(tr)
	default:
		jobs = traceJobs(tr)
	}
	t1 := time.Now()
	var total int64
	for _, j := range jobs {
		total += int64(j.work())
	}
	if p != nil {
		p.Total.Store(total)
		p.Done.Store(0)
	}

	results := make([]result, len(jobs))
	limit := newEntryBudget(tr)
	keys := frameKeys(tr)
	late := chooseLate(tr, jobs, p)
	var now []int // the jobs built here, by index
	for i := range jobs {
		if late[i] {
			total -= int64(jobs[i].work())
		} else {
			now = append(now, i)
		}
	}
	if len(now) < len(jobs) {
		p.Total.Store(total) // only a p that asked leaves jobs late
	}
	// A window that lays the tracks out as they come waits for the largest thread alone once the
	// others are built, with a core idle: its walk is cut in two however big it is (splitWalk).
	// The window's peak RSS comes later anyway, from the late tracks and the cache's write (no
	// change in it, 3 runs each). Not beside a document already shown, whose frames need that
	// core, nor on one core, where the cut would only add the copy of the profile's index: as the
	// load's lanes (background.MayTakeEveryCore).
	splitBig := laysOut && background.MayTakeEveryCore()
	runJobs(ctx, tr, jobs, now, results, keys, limit, p, splitBig)
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := overBudget(results, limit); err != nil {
		return err
	}
	setStage(tr, stagePair, t1.Sub(t0))
	setStage(tr, stageTracks, time.Since(t1))
	if len(now) == len(jobs) {
		tr.Tracks, _ = collectTracks(jobs, results, late)
		addWarnings(&tr.Warnings, results)
		return nil
	}
	l := &lateBuild{tr: tr, jobs: jobs, late: late, results: results, keys: keys, limit: limit}
	tr.Tracks, l.slots = collectTracks(jobs, results, late)
	for _, k := range l.slots {
		l.threads = append(l.threads, tr.Tracks[k].Thread)
	}
	p.Late = l
	return nil
}

// runJobs builds the tracks of jobs[k] for each k of which (results[k]), the largest first, on
// background.Workers goroutines; p.TrackBuilt gets each as it is built.
func runJobs(ctx context.Context, tr *core.Trace, jobs []job, which []int, results []result, keys []int32, limit *entryBudget, p *core.Progress, splitBig bool) {
	// The largest threads go first: a large one taken last would leave the other cores idle
	// while it runs alone. Results keep the jobs' own order.
	order := slices.Clone(which)
	slices.SortStableFunc(order, func(a, b int) int { return jobs[b].work() - jobs[a].work() })
	var next sync.Mutex
	n := 0
	workers := min(background.Workers(), len(order))
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			background.Lower()
			for {
				next.Lock()
				k := n
				n++
				next.Unlock()
				if k >= len(order) || ctx.Err() != nil {
					return
				}
				i := order[k]
				reported := 0
				report := func(n int) {
					if p != nil {
						p.Done.Add(int64(n))
					}
					reported += n
				}
				results[i] = jobs[i].run(ctx, tr, keys, report, limit, splitBig)
				report(jobs[i].work() - reported)
				if r := &results[i]; !r.over && r.track.Len() > 0 && ctx.Err() == nil {
					p.NoteTrackBuilt(tr, &r.track)
				}
			}
		}()
	}
	wg.Wait()
}

// overBudget is the error of a build in which a track ran out of the entry budget, nil for none.
func overBudget(results []result, limit *entryBudget) error {
	for _, r := range results {
		if r.over {
			return fmt.Errorf("%w: its tracks would take more than %d MB (as much as the load may hold)",
				core.ErrMemoryBudget, limit.max>>20)
		}
	}
	return nil
}

// collectTracks lists the tracks of results that have entries, and for each job that late marks,
// an empty track of its thread in its place; slots are those places.
func collectTracks(jobs []job, results []result, late []bool) (tracks []core.Track, slots []int) {
	for i, r := range results {
		switch {
		case late[i]:
			slots = append(slots, len(tracks))
			tracks = append(tracks, core.Track{Thread: jobs[i].thread, Profile: -1})
		case r.track.Len() > 0:
			tracks = append(tracks, r.track)
		}
	}
	return tracks, slots
}

// addWarnings adds the warnings of a build's tracks to w, in the jobs' order, and the count of
// entries left out of the tree after them.
func addWarnings(w *core.Warnings, results []result) {
	notInTree := 0
	for _, r := range results {
		for _, m := range r.warnings {
			w.Add(m, 1)
		}
		notInTree += r.track.NotInTree
	}
	w.Add("entries that end after their parent left out of the tree, as DevTools does", notInTree)
}

// sampleBytes is a runtime/metrics byte count, ok false when the runtime does not have it.
func sampleBytes(s metrics.Sample) (int64, bool) {
	if s.Value.Kind() != metrics.KindUint64 {
		return 0, false
	}
	return int64(s.Value.Uint64()), true
}

// Names of the stages Build adds to tr.Stats.Stages.
const (
	stagePair   = "tracks: pair B/E, group by thread"
	stageTracks = "tracks: ProfileCalls and trees"
)

// setStage records a stage's time, replacing the one of an earlier Build of the same trace.
func setStage(tr *core.Trace, name string, d time.Duration) {
	for i := range tr.Stats.Stages {
		if tr.Stats.Stages[i].Name == name {
			tr.Stats.Stages[i].Dur = d
			return
		}
	}
	tr.Stats.Stages = append(tr.Stats.Stages, core.StageTime{Name: name, Dur: d})
}

// job is one thread's work: its trace events and its profile (-1 for none).
type job struct {
	thread core.ThreadID
	// events are the thread's X, B and I events (after B/E pairing), in file order until run
	// sorts them. Only 4 bytes each: the sortable entries (16 bytes) are made per job.
	events []int32
	// nameFlags holds flagTask and flagInvocation per name (StrID), shared by all jobs.
	nameFlags []uint8
	profile   int32
	samples   int
}

func (j *job) work() int { return len(j.events) + j.samples }

type result struct {
	track    core.Track
	warnings []string
	over     bool // the build's entry budget ran out
}

func (j *job) run(ctx context.Context, tr *core.Trace, keys []int32, report func(int), limit *entryBudget, splitBig bool) result {
	var r result
	if tr.Kind == core.InputCPUProfile || tr.Kind == core.InputSelfProfile {
		px := &tr.Profiles[j.profile]
		r.track, r.over = profileTrack(ctx, tr, px, j.profile, limit)
		return r
	}
	es := j.entries(tr)
	sortEntries(&tr.Events, es)
	var parts []calls
	var p *core.ProfileModel
	if j.profile >= 0 {
		p = &tr.Profiles[j.profile]
		px := newProfileIndex(tr, p, keys)
		// A thread with much of the work (splitWalk says which) is walked in parts on other
		// goroutines too, so that it does not keep one core busy long after the other threads
		// are done. Only the first part reports progress (report is not safe for concurrent
		// use); the job's end reports the rest.
		walk := splitWalk(&tr.Events, es, p, splitBig)
		parts = make([]calls, len(walk))
		var wg sync.WaitGroup
		for i := 1; i < len(walk); i++ {
			own := px.clone()
			wg.Add(1)
			go func() {
				defer wg.Done()
				background.Lower()
				parts[i] = integratePart(ctx, tr, walk[i], own, nil, limit)
			}()
		}
		parts[0] = integratePart(ctx, tr, walk[0], px, report, limit)
		wg.Wait()
		for i := range parts {
			if parts[i].limit.over {
				r.over = true
				return r
			}
		}
	}
	// The track is built from the sorted order alone, so the entries and the profile's index
	// (its trie, the largest part) are let go before the track's columns fill.
	traceIDs := 0
	for k := range es {
		background.YieldEvery(k)
		j.events[k] = es[k].ev
		if es[k].flags&flagTraceID != 0 {
			traceIDs++
		}
	}
	es = nil
	r.track = treify(tr, j.thread, j.events, traceIDs, parts, p, j.profile, &r.warnings)
	return r
}

// entries returns the thread's entries in file order.
func (j *job) entries(tr *core.Trace) []entry {
	ev := &tr.Events
	es := make([]entry, len(j.events))
	// The events with a sampleTraceId are listed in file order, like the thread's own: one
	// cursor walks them.
	ids := ev.SampleTraceIDs
	next := 0
	if len(j.events) > 0 {
		next, _ = slices.BinarySearchFunc(ids, j.events[0], func(t core.EventTraceID, e int32) int { return int(t.Event) - int(e) })
	}
	for k, i := range j.events {
		background.YieldEvery(k)
		e := entry{ts: ev.Ts[i], ev: i}
		if n := int(ev.Name[i]); n < len(j.nameFlags) {
			e.flags = j.nameFlags[n]
		}
		if ev.Ph[i] == 'I' {
			e.flags |= flagInstant
		}
		for next < len(ids) && ids[next].Event < i {
			next++
		}
		if next < len(ids) && ids[next].Event == i && ids[next].ID != 0 {
			e.flags |= flagTraceID
		}
		es[k] = e
	}
	return es
}

// entryDur is the duration of event i as its entry has it: Events.Dur holds a B's paired length
// (traceJobs writes it) and NaN where the event has none, which counts as 0.
func entryDur(ev *core.Events, i int32) float64 {
	if d := ev.Dur[i]; !math.IsNaN(d) {
		return d
	}
	return 0
}

// sortEntries orders a thread's entries as DevTools does: by start, longer first (by end time),
// and in file order on a full tie (its sort is stable; the event index makes ours total).
func sortEntries(ev *core.Events, es []entry) {
	slices.SortFunc(es, func(a, b entry) int {
		if a.ts != b.ts {
			if a.ts < b.ts {
				return -1
			}
			return 1
		}
		if ae, be := a.end(ev), b.end(ev); ae != be {
			if ae > be {
				return -1
			}
			return 1
		}
		return int(a.ev) - int(b.ev)
	})
}

// Names of the trace events that steer the integration.
const (
	nameRunTask       = "RunTask"
	nameRunMicrotasks = "RunMicrotasks"
)

// invocationNames are DevTools' JS entry points; any name starting with v8 or V8 is one too.
var invocationNames = map[string]bool{
	"RunMicrotasks":      true,
	"FunctionCall":       true,
	"EvaluateScript":     true,
	"v8.evaluateModule":  true,
	"EventDispatch":      true,
	"V8.Execute":         true,
	"V8Console::runTask": true,
}

func isInvocation(name string) bool {
	if invocationNames[name] {
		return true
	}
	return len(name) >= 2 && (name[:2] == "v8" || name[:2] == "V8")
}

// traceJobs collects every thread's entries in file order, pairing B with E on the way, and
// attaches each thread's profile.
func traceJobs(tr *core.Trace) []job {
	ev := &tr.Events
	nThreads := len(tr.Threads)
	// Count first, so that all threads' events share one exactly sized array.
	counts := make([]int, nThreads)
	for i := 0; i < ev.Len(); i++ {
		if ph := ev.Ph[i]; (ph == 'X' || ph == 'B' || ph == 'I') && int(ev.Thread[i]) < nThreads {
			counts[ev.Thread[i]]++
		}
	}
	total := 0
	for _, c := range counts {
		total += c
	}
	all := make([]int32, total)
	perThread := make([][]int32, nThreads)
	off := 0
	for th, c := range counts {
		perThread[th] = all[off : off : off+c]
		off += c
	}

	// Name flags are computed once per distinct name, here, so that the jobs only read them.
	const known = 0x80
	nameFlags := make([]uint8, tr.Strings.Len())
	flagsOf := func(name core.StrID) {
		if int(name) >= len(nameFlags) || nameFlags[name] != 0 {
			return
		}
		s := tr.Strings.Get(name)
		f := uint8(known)
		if s == nameRunTask || s == nameRunMicrotasks {
			f |= flagTask
		}
		if isInvocation(s) {
			f |= flagInvocation
		}
		nameFlags[name] = f
	}

	// DevTools pairs B with E through one stack over the whole file, whatever the thread: an E
	// closes the latest open B anywhere. When their names or categories differ the B keeps a
	// zero duration and the E is dropped. We do the same, so interleaved B/E on two threads come
	// out as DevTools shows them. A B's length goes to Events.Dur (NaN until its E is found).
	var bStack []int32
	badThread, lonelyE, mismatchedE := 0, 0, 0
	for i := 0; i < ev.Len(); i++ {
		ph := ev.Ph[i]
		if ph != 'X' && ph != 'B' && ph != 'E' && ph != 'I' {
			continue
		}
		th := ev.Thread[i]
		if int(th) >= nThreads {
			badThread++
			continue
		}
		if ph == 'E' {
			if len(bStack) == 0 {
				lonelyE++ // an E without a B: tracing started inside it
				continue
			}
			b := bStack[len(bStack)-1]
			bStack = bStack[:len(bStack)-1]
			if ev.Name[b] != ev.Name[i] || ev.Cat[b] != ev.Cat[i] {
				mismatchedE++
				continue
			}
			ev.Dur[b] = ev.Ts[i] - ev.Ts[b]
			continue
		}
		if ph == 'B' {
			ev.Dur[i] = math.NaN() // until its E is found
			bStack = append(bStack, int32(i))
		}
		flagsOf(ev.Name[i])
		perThread[th] = append(perThread[th], int32(i))
	}
	for i := range nameFlags {
		nameFlags[i] &^= known
	}
	tr.Warnings.Add("E events without an open B skipped (tracing started inside them)", lonelyE)
	tr.Warnings.Add("E events whose name or category differ from the B they close skipped, that B kept with dur 0, as DevTools does", mismatchedE)
	if n := len(bStack); n > 0 {
		tr.Warnings.Add("B events without an E (dur 0)", n)
	}
	if badThread > 0 {
		tr.Warnings.Add("events with an unknown thread skipped", badThread)
	}

	profileOf := make([]int32, nThreads)
	for i := range profileOf {
		profileOf[i] = -1
	}
	for i := range tr.Profiles {
		th := tr.Profiles[i].Thread
		if !usable(tr, &tr.Profiles[i]) {
			continue
		}
		if int(th) >= nThreads {
			tr.Warnings.Addf("profile %s refers to an unknown thread: skipped", tr.Strings.Get(tr.Profiles[i].ProfileID))
			continue
		}
		if profileOf[th] >= 0 {
			tr.Warnings.Addf("thread %d has more than one profile: %s ignored", tr.Threads[th].Tid, tr.Strings.Get(tr.Profiles[i].ProfileID))
			continue
		}
		profileOf[th] = int32(i)
	}

	var jobs []job
	for th := 0; th < nThreads; th++ {
		pr := profileOf[th]
		samples := 0
		if pr >= 0 {
			samples = len(tr.Profiles[pr].Samples)
		}
		// DevTools builds ProfileCalls only on threads that also have trace events; a profiled
		// thread without any still gets its track here, built under the same rules.
		if len(perThread[th]) == 0 && samples == 0 {
			continue
		}
		jobs = append(jobs, job{thread: core.ThreadID(th), events: perThread[th], nameFlags: nameFlags, profile: pr, samples: samples})
	}
	return jobs
}

func profileJobs(tr *core.Trace) []job {
	var jobs []job
	for i := range tr.Profiles {
		p := &tr.Profiles[i]
		if !usable(tr, p) {
			continue
		}
		if int(p.Thread) >= len(tr.Threads) {
			tr.Warnings.Addf("profile %s refers to an unknown thread: skipped", tr.Strings.Get(p.ProfileID))
			continue
		}
		jobs = append(jobs, job{thread: p.Thread, profile: int32(i), samples: len(p.Samples)})
	}
	return jobs
}

// usable checks that a profile's columns agree in length and its special nodes are in range,
// which everything below relies on; a profile that fails is skipped with a warning.
func usable(tr *core.Trace, p *core.ProfileModel) bool {
	n := len(p.NodeID)
	ok := len(p.NodeParent) == n && len(p.NodeDepth) == n && len(p.NodeFrame) == n &&
		len(p.Timestamps) >= len(p.Samples) && p.RootNode >= 0 && int(p.RootNode) < n
	for _, m := range []int32{p.ProgramNode, p.IdleNode, p.GCNode} {
		ok = ok && m < int32(n)
	}
	if !ok {
		tr.Warnings.Addf("profile %s (pid %d, tid %d) is inconsistent: no ProfileCalls built from it", tr.Strings.Get(p.ProfileID), p.Pid, p.Tid)
	}
	return ok
}

// sampleStarts is where the ProfileCalls of each sample of p start: its time as DevTools has it.
func sampleStarts(p *core.ProfileModel) core.Times {
	n := min(len(p.Samples), len(p.Timestamps))
	first := math.Inf(1)
	for i, ts := range p.Timestamps[:n] {
		first = min(first, devtoolsMicros(ts))
		background.YieldEvery(i)
	}
	starts := core.NewTimes(first, n)
	for i, ts := range p.Timestamps[:n] {
		starts.Set(i, devtoolsMicros(ts))
		background.YieldEvery(i)
	}
	return starts
}

func frameName(tr *core.Trace, f core.FrameID) core.StrID {
	if int(f) < len(tr.Frames) {
		return tr.Frames[f].FunctionName
	}
	return 0
}
