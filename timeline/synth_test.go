package timeline

import (
	"math/rand/v2"
	"slices"

	"flamedesk/core"
)

// synthTrace builds a trace by hand, for tests that need exact control over entries before (and
// besides) the real fixtures: threads are (pid, tid, thread name, process name).
type synthThread struct {
	pid, tid    int64
	name, pname string
	sortIndex   int32
}

type synthEntry struct {
	start, dur float64
	depth      uint16
	name       string
	profile    bool   // a ProfileCall (name is the function, url its script)
	url        string // ProfileCalls only
}

func synthTrace(threads []synthThread, entries [][]synthEntry) *core.Trace {
	tr := &core.Trace{Strings: core.NewStrings()}
	frames := map[[2]core.StrID]core.FrameID{}
	for i, th := range threads {
		tr.Threads = append(tr.Threads, core.Thread{
			Pid: th.pid, Tid: th.tid,
			Name: tr.Strings.Intern(th.name), ProcessName: tr.Strings.Intern(th.pname),
			SortIndex: th.sortIndex, HasSortIndex: th.sortIndex != 0,
		})
		ct := core.Track{Thread: core.ThreadID(i), Profile: -1}
		var stack []int32
		for _, e := range entries[i] {
			for len(stack) > int(e.depth) {
				stack = stack[:len(stack)-1]
			}
			parent := int32(-1)
			if len(stack) > 0 {
				parent = stack[len(stack)-1]
			}
			idx := int32(ct.Len())
			ct.Start.Append(e.start)
			ct.Dur.Append(e.dur)
			ct.Depth = append(ct.Depth, e.depth)
			ct.Parent = append(ct.Parent, parent)
			name := tr.Strings.Intern(e.name)
			if e.profile {
				key := [2]core.StrID{name, tr.Strings.Intern(e.url)}
				f, ok := frames[key]
				if !ok {
					f = core.FrameID(len(tr.Frames))
					tr.Frames = append(tr.Frames, core.CallFrame{FunctionName: key[0], URL: key[1], Line: -1, Column: -1})
					frames[key] = f
				}
				ct.KindColumn = append(ct.KindColumn, core.EntryProfileCall)
				ct.FrameColumn = append(ct.FrameColumn, f)
				ct.Name = append(ct.Name, name)
				ct.Ref = append(ct.Ref, 0)
				ct.Node = append(ct.Node, 0)
			} else {
				ev := int32(tr.Events.Len())
				tr.Events.Name = append(tr.Events.Name, name)
				tr.Events.Cat = append(tr.Events.Cat, tr.Strings.Intern("devtools.timeline"))
				tr.Events.Ts = append(tr.Events.Ts, e.start)
				tr.Events.Dur = append(tr.Events.Dur, e.dur)
				tr.Events.Ph = append(tr.Events.Ph, 'X')
				tr.Events.Thread = append(tr.Events.Thread, core.ThreadID(i))
				ct.KindColumn = append(ct.KindColumn, core.EntryEvent)
				ct.FrameColumn = append(ct.FrameColumn, core.NoFrame)
				ct.Name = append(ct.Name, name)
				ct.Ref = append(ct.Ref, ev)
				ct.Node = append(ct.Node, -1)
			}
			ct.MaxDepth = max(ct.MaxDepth, int(e.depth))
			stack = append(stack, idx)
		}
		tr.Tracks = append(tr.Tracks, ct)
	}
	return tr
}

// randomTree makes a well-formed pre-order tree in [start, start+length]: siblings in start
// order without overlap, children inside their parents, with durations spread over many orders of
// magnitude (so that every zoom has both wide entries and runs of sub-pixel ones). About *budget
// entries are made, spread over the whole range.
func randomTree(rng *rand.Rand, start, length float64, maxDepth int, budget *int) []synthEntry {
	var out []synthEntry
	names := []string{"RunTask", "FunctionCall", "Layout", "Paint", "foo", "barBaz", "(program)", "EvaluateScript"}
	urls := []string{"", "https://example.com/app.js", "https://cdn.example.com/lib.js"}
	var rec func(t0, t1 float64, depth, n int)
	rec = func(t0, t1 float64, depth, n int) {
		if depth > maxDepth || n <= 0 || t1 <= t0 {
			return
		}
		// Cut [t0, t1] into up to n siblings with random gaps; some are tiny, some are long and
		// get most of the remaining budget for their children.
		siblings := 1 + rng.IntN(max(1, min(n, 40)))
		cuts := make([]float64, 2*siblings)
		for i := range cuts {
			cuts[i] = t0 + (t1-t0)*rng.Float64()
		}
		slices.Sort(cuts)
		ends := make([]float64, siblings)
		covered := 0.0
		for i := range ends {
			s, e := cuts[2*i], cuts[2*i+1]
			if rng.IntN(3) == 0 {
				e = s + (e-s)*1e-4*rng.Float64() // a sub-pixel one at most zooms
			}
			ends[i] = e
			covered += e - s
		}
		left := n - siblings
		for i := 0; i < siblings && *budget > 0; i++ {
			s, e := cuts[2*i], ends[i]
			*budget--
			profile := depth > 1 && rng.IntN(2) == 0
			en := synthEntry{start: s, dur: e - s, depth: uint16(depth), name: names[rng.IntN(len(names))], profile: profile}
			if profile {
				en.url = urls[rng.IntN(len(urls))]
			}
			out = append(out, en)
			if covered > 0 {
				rec(s, e, depth+1, min(int(float64(left)*(e-s)/covered), *budget))
			}
		}
	}
	rec(start, start+length, 0, *budget)
	return out
}
