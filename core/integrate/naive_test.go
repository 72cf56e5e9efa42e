package integrate

import (
	"context"
	"math/rand/v2"
	"testing"

	"flamedesk/core"
)

// naiveIntegrate is the integration written the plain way, straight from RULES.md §3: whole stacks
// built per sample, compared frame by frame, every open frame re-stamped on every truncation. It
// is O(n × depth) and exists only to check the fast integrator on random inputs.
func naiveIntegrate(tr *core.Trace, es []entry, p *core.ProfileModel) calls {
	out := newCalls(p.Timestamps, tr.Events.Ts, len(p.NodeID))
	type sc struct {
		ts     float64
		sample int32
		gcBase int32
	}
	var scs []sc
	prev := int32(-1)
	for i, n := range p.Samples {
		if n < 0 {
			continue
		}
		base := int32(-1)
		if p.GCNode >= 0 && n == p.GCNode && prev >= 0 {
			base = prev
		} else {
			prev = n
		}
		scs = append(scs, sc{devtoolsMicros(p.Timestamps[i]), int32(i), base})
	}
	// The merged walk: true entries are trace events, false ones samples.
	type item struct {
		sample bool
		i      int
	}
	var items []item
	for ei, si := 0, 0; ei < len(es) || si < len(scs); {
		takeEntry := si >= len(scs) || (ei < len(es) && (es[ei].ts < scs[si].ts || (es[ei].ts == scs[si].ts && es[ei].end(&tr.Events) > scs[si].ts)))
		if takeEntry {
			items = append(items, item{false, ei})
			ei++
		} else {
			items = append(items, item{true, si})
			si++
		}
	}
	isRootish := func(n int32) bool { return n < 0 || n == p.RootNode }
	chain := func(n int32) []int32 {
		var c []int32
		for ; !isRootish(n); n = p.NodeParent[n] {
			c = append(c, n)
		}
		for i, j := 0, len(c)-1; i < j; i, j = i+1, j-1 {
			c[i], c[j] = c[j], c[i]
		}
		return c
	}
	filter := func(s []int32) []int32 {
		var o []int32
		for _, n := range s {
			if tr.Strings.Get(tr.Frames[p.NodeFrame[n]].URL) != nativeRuntimeURL {
				o = append(o, n)
			}
		}
		return o
	}
	same := func(a, b int32) bool {
		fa, fb := tr.Frames[p.NodeFrame[a]], tr.Frames[p.NodeFrame[b]]
		return fa.ScriptID == fb.ScriptID && fa.FunctionName == fb.FunctionName && fa.Line == fb.Line
	}
	var open []int32 // call indexes
	var locks []int32
	fake := false
	topLock := func() int32 {
		if len(locks) == 0 {
			return 0
		}
		return locks[len(locks)-1]
	}
	popLock := func() int32 {
		if len(locks) == 0 {
			return 0
		}
		l := locks[len(locks)-1]
		locks = locks[:len(locks)-1]
		return l
	}
	truncate := func(depth int32, t float64) {
		if l := topLock(); l != 0 && depth < l {
			depth = l
		}
		if depth > int32(len(open)) {
			depth = int32(len(open))
		}
		for _, c := range open {
			out.setDur(c, max(t-out.ts(out.at(c)), 0))
		}
		open = open[:depth]
	}
	isMeta := func(n int32) bool {
		return n == p.RootNode || n == p.ProgramNode || n == p.IdleNode || (p.GCNode >= 0 && n == p.GCNode)
	}
	// merge with stack == nil meaning "the open stack itself".
	merge := func(stack []int32, self bool, ts float64, src int32) {
		var cur []int32
		if self {
			for _, c := range open {
				cur = append(cur, out.at(c).node)
			}
		} else {
			cur = filter(stack)
		}
		m := min(len(cur), len(open))
		i := int(topLock())
		for ; i < m; i++ {
			if !same(cur[i], out.at(open[i]).node) {
				break
			}
		}
		truncate(int32(i), ts)
		if self {
			return
		}
		for ; i < len(cur); i++ {
			if isMeta(cur[i]) {
				continue
			}
			c := out.add(cur[i], src)
			open = append(open, c)
		}
	}
	sampleStack := func(s sc) []int32 {
		n := p.Samples[s.sample]
		if p.GCNode >= 0 && n == p.GCNode {
			if s.gcBase < 0 {
				return []int32{}
			}
			return append(chain(s.gcBase), n)
		}
		return chain(n)
	}
	onStart := func(e *entry) {
		name := tr.Strings.Get(tr.Events.Name[e.ev])
		if name == "RunTask" || name == "RunMicrotasks" {
			locks = locks[:0]
			truncate(0, e.ts)
			fake = false
		}
		if fake {
			truncate(popLock(), e.ts)
			fake = false
		}
		id := tr.Events.SampleTraceID(int(e.ev))
		n, ok := p.TraceIDNode[id]
		if id != 0 && ok && n >= 0 && p.NodeID[n] != 0 {
			if p.GCNode >= 0 && n == p.GCNode {
				merge([]int32{}, false, e.ts, ^e.ev)
			} else {
				merge(chain(n), false, e.ts, ^e.ev)
			}
		} else {
			merge(nil, true, e.ts, ^e.ev)
		}
		locks = append(locks, int32(len(open)))
	}
	onSample := func(s sc, parent *entry) {
		if (parent != nil && isInvocation(tr.Strings.Get(tr.Events.Name[parent.ev]))) || fake {
			merge(sampleStack(s), false, s.ts, s.sample)
		} else if len(open) == 0 {
			fake = true
			merge(sampleStack(s), false, s.ts, s.sample)
			locks = append(locks, 0)
		}
	}
	var stack []*entry
	for k := 0; k < len(items); k++ {
		it := items[k]
		var ts float64
		if it.sample {
			ts = scs[it.i].ts
		} else {
			e := &es[it.i]
			if e.flags&flagInstant != 0 && tr.Events.SampleTraceID(int(e.ev)) == 0 {
				continue
			}
			ts = e.ts
		}
		if len(stack) == 0 {
			if it.sample {
				onSample(scs[it.i], nil)
				continue
			}
			stack = append(stack, &es[it.i])
			onStart(&es[it.i])
			continue
		}
		parent := stack[len(stack)-1]
		if ts >= parent.end(&tr.Events) {
			truncate(popLock(), parent.end(&tr.Events))
			stack = stack[:len(stack)-1]
			k--
			continue
		}
		if it.sample {
			onSample(scs[it.i], parent)
			continue
		}
		onStart(&es[it.i])
		stack = append(stack, &es[it.i])
	}
	for len(stack) > 0 {
		truncate(popLock(), stack[len(stack)-1].end(&tr.Events))
		stack = stack[:len(stack)-1]
	}
	return out
}

// randomTrace makes a one-thread trace with a random profile that has duplicate frames, natives,
// meta nodes, deep recursive chains, holes and trace ids, and random (not always nested) events.
func randomTrace(r *rand.Rand) *core.Trace {
	b := newBuilder()
	pb := b.profile(0)
	prog, idle, gc := pb.meta("(program)"), pb.meta("(idle)"), pb.meta("(garbage collector)")
	// A pool of frames: several share (script, name, line) and differ in url or column.
	var pool []core.FrameID
	for i := 0; i < 6; i++ {
		name := string(rune('a' + i))
		pool = append(pool, b.frame(name, "u1", "s"+name, int32(i), 1))
		pool = append(pool, b.frame(name, "u2", "s"+name, int32(i), 5))
	}
	pool = append(pool, b.frame("rt", "native V8Runtime", "0", -1, -1))
	nodes := []int32{0}
	nNodes := 5 + r.IntN(150)
	for len(nodes) < nNodes {
		parent := nodes[r.IntN(len(nodes))]
		if r.IntN(3) == 0 {
			parent = nodes[len(nodes)-1] // grow chains: deep, often recursive stacks
		}
		if r.IntN(200) == 0 {
			parent = prog // malformed: a meta node with children shifts stack positions
		}
		nodes = append(nodes, pb.node(parent, pool[r.IntN(len(pool))]))
	}
	all := append(nodes[1:], prog, idle, gc, gc)
	ts := float64(r.IntN(5))
	nSamples := r.IntN(300)
	for i := 0; i < nSamples; i++ {
		n := all[r.IntN(len(all))]
		if r.IntN(40) == 0 {
			n = -1
		}
		if r.IntN(3) == 0 { // long runs of one deep node
			if k := len(pb.p.Samples); k > 0 && pb.p.Samples[k-1] >= 0 {
				n = pb.p.Samples[k-1]
			}
		}
		pb.sample(n, ts)
		ts += float64(r.IntN(4))
	}
	pb.done()
	pb.p.TraceIDNode = map[int64]int32{}
	for id := int64(1); id <= 5; id++ {
		pb.p.TraceIDNode[id] = all[r.IntN(len(all))]
	}
	names := []string{"RunTask", "RunMicrotasks", "FunctionCall", "EvaluateScript", "V8.Execute", "v8.compile", "Layout", "Paint", "EventDispatch"}
	nEvents := r.IntN(60)
	end := ts + 10
	for i := 0; i < nEvents; i++ {
		start := float64(r.IntN(int(end) + 1))
		if r.IntN(8) == 0 {
			b.eventCat(0, 'I', "Mark", "cat", start, nan, int64(r.IntN(7)))
			continue
		}
		dur := float64(r.IntN(int(end)/2 + 1))
		var tid int64
		if r.IntN(4) == 0 {
			tid = int64(r.IntN(7))
		}
		b.eventCat(0, 'X', names[r.IntN(len(names))], "cat", start, dur, tid)
	}
	return b.tr
}

func TestIntegratorMatchesNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for iter := 0; iter < 1000; iter++ {
		tr := randomTrace(r)
		jobs := traceJobs(tr)
		if len(jobs) != 1 {
			t.Fatalf("iteration %d: %d jobs", iter, len(jobs))
		}
		es := jobs[0].entries(tr)
		sortEntries(&tr.Events, es)
		px := newProfileIndex(tr, &tr.Profiles[0], frameKeys(tr))
		got := integrateSamples(context.Background(), tr, es, px, nil, nil)
		want := naiveIntegrate(tr, es, &tr.Profiles[0])
		if got.len() != want.len() {
			t.Fatalf("iteration %d: %d calls, want %d", iter, got.len(), want.len())
		}
		for i := 0; i < got.len(); i++ {
			g, w := got.at(int32(i)), want.at(int32(i))
			if g.node != w.node || got.ts(g) != want.ts(w) || g.dur != w.dur || g.src != w.src {
				t.Fatalf("iteration %d: call %d = node %d ts %v dur %v src %d, want node %d ts %v dur %v src %d",
					iter, i, g.node, got.ts(g), g.dur, g.src, w.node, want.ts(w), w.dur, w.src)
			}
		}
	}
}
