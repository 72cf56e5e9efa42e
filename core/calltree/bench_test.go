package calltree

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"flamedesk/core"
)

// syntheticLarge makes a profile shaped like the main thread of gen-trace-large: about 203k
// nodes, 400k samples, stacks over 3000 deep, a few thousand functions in a few hundred scripts,
// JIT copies of functions, recursion.
func syntheticLarge(tb testing.TB) *core.Trace {
	tb.Helper()
	const nodes, samples, funcs, scripts = 203_000, 400_000, 6000, 300
	rng := rand.New(rand.NewPCG(1, 2))
	tr := &core.Trace{Strings: core.NewStrings()}
	tr.Threads = []core.Thread{{Pid: 1, Tid: 1, Name: tr.Strings.Intern("CrRendererMain")}}
	for i := range funcs {
		url := tr.Strings.Intern(fmt.Sprintf("https://example.com/script%d.js", i%scripts))
		name := tr.Strings.Intern(fmt.Sprintf("fn%d", i))
		for variant := range 2 { // an interpreted and an optimised frame
			tr.Frames = append(tr.Frames, core.CallFrame{FunctionName: name, URL: url,
				CodeType: tr.Strings.Intern([]string{"JS", "JIT"}[variant]), Line: int32(i), Column: 4})
		}
	}
	p := core.ProfileModel{Pid: 1, Tid: 1, ProgramNode: -1, IdleNode: -1, GCNode: -1}
	p.NodeParent = make([]int32, nodes)
	p.NodeDepth = make([]int32, nodes)
	p.NodeFrame = make([]core.FrameID, nodes)
	p.NodeID = make([]int64, nodes)
	p.NodeParent[0], p.NodeDepth[0] = -1, -1
	for i := 1; i < nodes; i++ {
		var parent int32
		switch r := rng.IntN(100); {
		case r < 97 && i > 1: // go deeper from a recent node: long chains
			parent = int32(i - 1 - rng.IntN(min(i-1, 2)))
		case r < 98:
			parent = 0
		default:
			parent = int32(rng.IntN(i))
		}
		p.NodeParent[i] = parent
		p.NodeDepth[i] = p.NodeDepth[parent] + 1
		frame := core.FrameID(2*rng.IntN(funcs) + rng.IntN(2))
		if rng.IntN(10) == 0 && parent > 0 { // recursion
			frame = p.NodeFrame[parent]
		}
		p.NodeFrame[i] = frame
		p.NodeID[i] = int64(i + 1)
	}
	p.Samples = make([]int32, samples)
	p.Timestamps = make([]float64, samples+1)
	ts := 1e11
	for i := range samples {
		p.Samples[i] = int32(1 + rng.IntN(nodes-1))
		p.Timestamps[i] = ts
		ts += float64(50 + rng.IntN(200))
	}
	p.Timestamps[samples] = ts
	tr.Profiles = []core.ProfileModel{p}
	return tr
}

func maxDepth(p *core.ProfileModel) int32 {
	d := int32(0)
	for _, x := range p.NodeDepth {
		d = max(d, x)
	}
	return d
}

func BenchmarkBuildSynthetic(b *testing.B) {
	tr := syntheticLarge(b)
	b.Logf("%d nodes, %d samples, depth %d", len(tr.Profiles[0].NodeParent), len(tr.Profiles[0].Samples), maxDepth(&tr.Profiles[0]))
	benchBuild(b, tr, 0)
}

func BenchmarkTransformSynthetic(b *testing.B) {
	benchTransforms(b, syntheticLarge(b), 0)
}

// benchBuild times what opening the call tree costs: the function table, the source and the
// sorted roots of the top-down tree.
func benchBuild(b *testing.B, tr *core.Trace, profile int) {
	b.ReportAllocs()
	var nodes int
	for b.Loop() {
		src, err := NewSource(tr, &tr.Profiles[profile], AllTime)
		if err != nil {
			b.Fatal(err)
		}
		tree := NewStack(src).Tree(View{})
		nodes = src.base.len()
		_ = tree.Roots()
	}
	b.ReportMetric(float64(nodes), "callnodes")
}

// benchTransforms times each kind of transform on the heaviest path of the tree, including the
// tree view a panel would open after it.
func benchTransforms(b *testing.B, tr *core.Trace, profile int) {
	src, err := NewSource(tr, &tr.Profiles[profile], AllTime)
	if err != nil {
		b.Fatal(err)
	}
	s := NewStack(src)
	tree := s.Tree(View{})
	// A node in the middle of the heaviest path, and its function.
	var path []NodeID
	for n := tree.Roots(); len(n) > 0; n = tree.Children(n[0]) {
		path = append(path, n[0])
	}
	mid := path[len(path)/2]
	fn := tree.Func(mid)
	inv := s.Tree(View{Inverted: true})
	invNode := inv.Roots()[0]
	if kids := inv.Children(invNode); len(kids) > 0 {
		invNode = kids[0]
	}
	b.Logf("heaviest path %d deep; transforms at depth %d", len(path), len(path)/2)
	cases := []Transform{
		{Kind: FocusSubtree, Path: tree.Path(mid)},
		{Kind: FocusSubtree, Path: inv.Path(invNode), Inverted: true},
		{Kind: FocusFunction, Func: fn},
		{Kind: MergeCallNode, Path: tree.Path(mid)},
		{Kind: MergeFunction, Func: fn},
		{Kind: Prune, Path: tree.Path(mid)},
		{Kind: DropFunction, Func: fn},
		{Kind: CollapseRecursion, Func: fn},
		{Kind: CollapseResource, Func: s.Functions().ResourceOf(fn)},
	}
	for _, t := range cases {
		name := t.Kind.String()
		if t.Inverted {
			name += "-inverted"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				pushed, err := s.Push(t)
				if err != nil {
					b.Fatal(err)
				}
				_ = pushed.Tree(View{}).Roots()
			}
		})
	}
	b.Run("inverted-roots", func(b *testing.B) {
		for b.Loop() {
			_ = newTree(s.Functions(), src.base, View{Inverted: true}).Roots()
		}
	})
}

// BenchmarkCompareLarge compares the large synthetic profile with a copy of itself: both sides
// prepared, the rows by function and the top-down differential tree.
func BenchmarkCompareLarge(b *testing.B) {
	ta, tb := syntheticLarge(b), syntheticLarge(b)
	srcA, err := NewFunctions(ta, &ta.Profiles[0]).Source(AllTime)
	if err != nil {
		b.Fatal(err)
	}
	fb := NewFunctions(tb, &tb.Profiles[0])
	b.ResetTimer()
	for b.Loop() {
		c, err := NewComparison(NewStack(srcA), fb, AllTime, AllTime, CompareOptions{})
		if err != nil {
			b.Fatal(err)
		}
		c.Functions()
		c.Tree(View{})
	}
}
