package lighthouse

import (
	"math"
	"runtime"
	"sync"

	"flamedesk/core"
)

// noThread stands for a profile thread that the trace's thread list lacks; it has no events.
const noThread = ^core.ThreadID(0)

// Result is Lighthouse's view of one CPU profile of a trace.
type Result struct {
	Profile Profile
	// Events are the synthesized events, refined where Refined is set; nil when Err is set.
	Events *Synthetic
	// Err is why the profile could not be synthesized (Lighthouse throws on the same profiles).
	Err error
	// Tasks are the known tasks of the profile's thread; TasksErr says why there are none.
	Tasks    []Task
	TasksErr error
}

// Refined reports whether the events carry refined times.
func (r *Result) Refined() bool { return r.Events != nil && r.Events.Refined != nil }

// FromTrace collects the trace's profiles as Lighthouse does and synthesizes their B/E events,
// refined against the known tasks of each profile's thread wherever that thread has some.
//
// Lighthouse itself refines only the main thread of the inspected page; here every thread with
// tasks is refined, as the references' --all-threads mode does. Its collection is keyed by id
// only, so profiles are collected per process, since ids like "0x1" recur across processes.
// Results come per process in the order processes first show a profile event, and within one
// process in Lighthouse's order.
func FromTrace(tr *core.Trace) []Result {
	var results []Result
	for _, events := range profileEventsByPid(tr) {
		for _, p := range Collect(events) {
			results = append(results, Result{Profile: p})
		}
	}
	if len(results) == 0 {
		return nil
	}

	wanted := map[core.ThreadID][]ThreadEvent{}
	for i := range results {
		wanted[results[i].Profile.Thread] = nil
	}
	ev := &tr.Events
	counts := map[core.ThreadID]int{}
	traceEnd := math.Inf(-1)
	for i := 0; i < ev.Len(); i++ {
		traceEnd = max(traceEnd, ev.Ts[i]+orZero(ev.Dur[i]))
		if _, ok := wanted[ev.Thread[i]]; ok {
			counts[ev.Thread[i]]++
		}
	}
	for th, n := range counts {
		wanted[th] = make([]ThreadEvent, 0, n)
	}
	for i := 0; i < ev.Len(); i++ {
		if list, ok := wanted[ev.Thread[i]]; ok {
			wanted[ev.Thread[i]] = append(list, ThreadEvent{Ph: ev.Ph[i], Name: ev.Name[i], Ts: ev.Ts[i], Dur: ev.Dur[i]})
		}
	}
	for i := 0; i < tr.Chunks.Len(); i++ {
		if k := tr.Chunks.Kind[i]; k == core.ChunkProfile || k == core.ChunkData {
			traceEnd = max(traceEnd, tr.Chunks.Ts[i])
		}
	}

	// Profiles are independent apart from sharing their thread's tasks: work on them in parallel,
	// building each thread's tasks once.
	type threadTasks struct {
		once  sync.Once
		tasks []Task
		err   error
	}
	perThread := map[core.ThreadID]*threadTasks{}
	for i := range results {
		if perThread[results[i].Profile.Thread] == nil {
			perThread[results[i].Profile.Thread] = &threadTasks{}
		}
	}
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(results)) {
		wg.Go(func() {
			for i := range jobs {
				r := &results[i]
				tt := perThread[r.Profile.Thread]
				tt.once.Do(func() { tt.tasks, tt.err = KnownTasks(wanted[r.Profile.Thread], traceEnd) })
				r.Tasks, r.TasksErr = tt.tasks, tt.err
				r.Events, r.Err = Synthesize(&r.Profile)
				if r.Err == nil && r.TasksErr == nil {
					Refine(r.Events, r.Tasks)
				}
			}
		})
	}
	for i := range results {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return results
}

// profileEventsByPid turns the trace's Profile and ProfileChunk records into ProfileEvents, one
// list per process in file order.
func profileEventsByPid(tr *core.Trace) [][]ProfileEvent {
	ch := &tr.Chunks
	threadOf := map[[2]int64]core.ThreadID{}
	for i, th := range tr.Threads {
		threadOf[[2]int64{th.Pid, th.Tid}] = core.ThreadID(i)
	}
	slot := map[int64]int{}
	var out [][]ProfileEvent
	for i := 0; i < ch.Len(); i++ {
		kind := ch.Kind[i]
		if kind != core.ChunkProfile && kind != core.ChunkData {
			continue
		}
		pe := ProfileEvent{
			Chunk:     kind == core.ChunkData,
			ID:        tr.Strings.Get(ch.ID[i]),
			IDString:  ch.IDIsString[i],
			Pid:       ch.Pid[i],
			Tid:       ch.Tid[i],
			Ts:        ch.Ts[i],
			StartTime: ch.DataStartTime[i],
		}
		if th, ok := threadOf[[2]int64{pe.Pid, pe.Tid}]; ok {
			pe.Thread = th
		} else {
			pe.Thread = noThread
		}
		from, to := ch.NodeRange(i)
		if to > from {
			pe.Nodes = make([]Node, 0, to-from)
		}
		for n := from; n < to; n++ {
			node := Node{ID: ch.NodeID[n], Parent: ch.NodeParent[n], Frame: ch.NodeFrame[n]}
			node.HasParent = ch.NodeFlags[n]&core.NodeHasParent != 0
			if f := node.Frame; f != core.NoFrame && int(f) < len(tr.Frames) {
				node.FunctionName = tr.Frames[f].FunctionName
				node.URL = tr.Frames[f].URL
				node.HasURL = true
			}
			pe.Nodes = append(pe.Nodes, node)
		}
		pe.Samples = ch.AppendSamples(nil, i)
		switch {
		case ch.HasTimeDeltas[i]:
			pe.TimeDeltas = ch.AppendTimeDeltas(nil, i)
		case ch.HasProfileTimeDeltas[i]:
			pe.TimeDeltas = ch.AppendProfileTimeDeltas(nil, i)
		}
		k, ok := slot[pe.Pid]
		if !ok {
			k = len(out)
			slot[pe.Pid] = k
			out = append(out, nil)
		}
		out[k] = append(out[k], pe)
	}
	return out
}
