package calltree

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"flamedesk/core"
	"flamedesk/core/load"
	"flamedesk/internal/fixtures"
)

// The three samples of the seed's worked example, 1 ms each.
const seedSamples = `
A  A  A
B  B  B
C  C  H
D  F  F
E  G
`

func TestSeedExample(t *testing.T) {
	s := mustStack(t, profileFromText(t, seedSamples))
	checkTree(t, s, View{}, `
		A:3,0
		  B:3,0
		    C:2,0
		      D:1,0
		        E:1,1
		      F:1,0
		        G:1,1
		    H:1,0
		      F:1,1
	`)
	tree := s.Tree(View{})
	if tree.Total() != 3*time.Millisecond || tree.Samples() != 3 {
		t.Errorf("total %v over %d samples, want 3ms over 3", tree.Total(), tree.Samples())
	}
}

func TestSeedExampleInverted(t *testing.T) {
	s := mustStack(t, profileFromText(t, seedSamples))
	// Roots are the functions on top of each stack, each with self time equal to its running
	// time; below them, their callers.
	checkTree(t, s, View{Inverted: true}, `
		E:1,1
		  D:1,0
		    C:1,0
		      B:1,0
		        A:1,0
		F:1,1
		  H:1,0
		    B:1,0
		      A:1,0
		G:1,1
		  F:1,0
		    C:1,0
		      B:1,0
		        A:1,0
	`)
}

// Each transform against the seed's pictures of "Modifying the tree".
func TestSeedTransforms(t *testing.T) {
	cases := []struct {
		spec, want string
	}{
		{"merge-call-node:A/B/C", `
			A:3,0
			  B:3,0
			    D:1,0
			      E:1,1
			    F:1,0
			      G:1,1
			    H:1,0
			      F:1,1
		`},
		{"merge-call-node:A/B/C/D/E", `
			A:3,0
			  B:3,0
			    C:2,0
			      D:1,1
			      F:1,0
			        G:1,1
			    H:1,0
			      F:1,1
		`},
		{"prune:A/B/C", `
			A:3,0
			  B:3,2
			    H:1,0
			      F:1,1
		`},
		{"drop-function:C", `
			A:1,0
			  B:1,0
			    H:1,0
			      F:1,1
		`},
		{"focus-subtree:A/B/C", `
			C:2,0
			  D:1,0
			    E:1,1
			  F:1,0
			    G:1,1
		`},
		// Not pictured in the seed: every call of F becomes one root.
		{"focus-function:F", `
			F:2,1
			  G:1,1
		`},
		// Merging a function everywhere: F's self time goes to H, G moves up to C.
		{"merge-function:F", `
			A:3,0
			  B:3,0
			    C:2,0
			      D:1,0
			        E:1,1
			      G:1,1
			    H:1,1
		`},
	}
	for _, c := range cases {
		t.Run(c.spec, func(t *testing.T) {
			s := mustStack(t, profileFromText(t, seedSamples))
			s = push(t, s, c.spec)
			checkTree(t, s, View{}, c.want)
		})
	}
}

func TestUndoRestoresTheTree(t *testing.T) {
	s := mustStack(t, profileFromText(t, seedSamples))
	before := drawTree(s.Tree(View{}))
	s = push(t, s, "merge-call-node:A/B/C")
	s = push(t, s, "focus-subtree:A/B")
	s = push(t, s, "drop-function:E")
	if s.Len() != 3 {
		t.Fatalf("stack has %d transforms, want 3", s.Len())
	}
	// After merging C, the paths refer to the merged tree: B's children are D, F and H.
	checkTree(t, s, View{}, `
		B:2,0
		  F:1,0
		    G:1,1
		  H:1,0
		    F:1,1
	`)
	s = s.Truncate(1)
	checkTree(t, s, View{}, `
		A:3,0
		  B:3,0
		    D:1,0
		      E:1,1
		    F:1,0
		      G:1,1
		    H:1,0
		      F:1,1
	`)
	s, popped := s.Pop()
	if _, again := s.Pop(); !popped || again {
		t.Fatal("popping one transform, then none, failed")
	}
	if got := drawTree(s.Tree(View{})); got != before {
		t.Errorf("after undoing everything:\n%swant:\n%s", got, before)
	}
}

// Frames of one function merge: a JIT-compiled copy of a and b (a different frame and so a
// different profile node) is the same call node as the interpreted one. The seed's JS example
// after hiding the C++ frames.
func TestFramesOfOneFunctionMerge(t *testing.T) {
	s := mustStack(t, profileFromText(t, `
		onLoad  onLoad  onLoad
		a       a#jit   a#jit
		b       b#jit   b#jit
	`))
	checkTree(t, s, View{}, `
		onLoad:3,0
		  a:3,0
		    b:3,3
	`)
}

// The seed's mixed C++/JS example: merging the C++ function IonCannon gives the tree one would
// expect.
func TestMergeFunctionJoinsSplitCallers(t *testing.T) {
	s := mustStack(t, profileFromText(t, `
		RunScript  RunScript  RunScript
		onLoad     onLoad     onLoad
		a          IonCannon  IonCannon
		b          a#jit      a#jit
		           b#jit      b#jit
	`))
	checkTree(t, s, View{}, `
		RunScript:3,0
		  onLoad:3,0
		    IonCannon:2,0
		      a:2,0
		        b:2,2
		    a:1,0
		      b:1,1
	`)
	s = push(t, s, "merge-function:IonCannon")
	s = push(t, s, "merge-function:RunScript")
	checkTree(t, s, View{}, `
		onLoad:3,0
		  a:3,0
		    b:3,3
	`)
}

func TestCollapseRecursion(t *testing.T) {
	s := mustStack(t, profileFromText(t, `
		A  A  A  A  A
		F  F  F  F  G
		F  B  B  C  F
		C  F  C     F
		   D        E
	`))
	// Calls of F inside F, direct or through B, join the outermost F; B keeps only what it
	// does itself. G's F is outermost on its own stack, so only the F below it folds.
	s = push(t, s, "collapse-recursion:F")
	checkTree(t, s, View{}, `
		A:5,0
		  F:4,0
		    C:2,2
		    B:1,0
		      C:1,1
		    D:1,1
		  G:1,0
		    F:1,0
		      E:1,1
	`)
}

func TestCollapseResource(t *testing.T) {
	s := mustStack(t, profileFromText(t, `
		main@app.js  main@app.js     main@app.js  main@app.js
		run@lib.js   run@lib.js      run@lib.js   draw@app.js
		loop@lib.js  loop@lib.js     cb@app.js
		             step@lib.js     run@lib.js
		                             loop@lib.js
	`))
	// Consecutive functions of lib.js become one node; a run of lib.js called back from app.js
	// is a separate node.
	s = push(t, s, "collapse-resource:lib.js")
	checkTree(t, s, View{}, `
		main:4,0
		  lib.js:3,2
		    cb:1,0
		      lib.js:1,1
		  draw:1,1
	`)
}

// Focusing a node of the bottom-up tree keeps the samples whose stacks end with its path and cuts
// them there, so the focused function becomes the single root of the bottom-up tree.
func TestFocusInvertedSubtree(t *testing.T) {
	s := mustStack(t, profileFromText(t, seedSamples))
	inv := s.Tree(View{Inverted: true})
	f := s.Functions()
	fn := func(name string) FuncID {
		for i := range f.Len() {
			if f.Name(FuncID(i)) == name {
				return FuncID(i)
			}
		}
		t.Fatalf("no function %s", name)
		return NoFunc
	}
	n := inv.Find(Path{fn("G"), fn("F")})
	if n == NoNode {
		t.Fatal("bottom-up path G/F not found")
	}
	s, err := s.Push(Transform{Kind: FocusSubtree, Path: inv.Path(n), Inverted: true})
	if err != nil {
		t.Fatal(err)
	}
	checkTree(t, s, View{Inverted: true}, `
		F:1,1
		  C:1,0
		    B:1,0
		      A:1,0
	`)
	checkTree(t, s, View{}, `
		A:1,0
		  B:1,0
		    C:1,0
		      F:1,1
	`)
}

func TestMergeRootDropsItsSelfTime(t *testing.T) {
	s := mustStack(t, profileFromText(t, `
		A  A  B
		   C
	`))
	s = push(t, s, "merge-call-node:A")
	// A had 1 ms of its own and no caller to charge it to.
	checkTree(t, s, View{}, `
		B:1,1
		C:1,1
	`)
}

func TestPruneRootDropsTheSubtree(t *testing.T) {
	s := mustStack(t, profileFromText(t, `
		A  A  B
		   C
	`))
	s = push(t, s, "prune:A")
	checkTree(t, s, View{}, `
		B:1,1
	`)
}

func TestOrders(t *testing.T) {
	s := mustStack(t, profileFromText(t, `
		R  R  R  R  R  R
		a  a  b  b  b  c
		x  x  x
	`))
	checkTree(t, s, View{Order: BySelf}, `
		R:6,0
		  b:3,2
		    x:1,1
		  c:1,1
		  a:2,0
		    x:2,2
	`)
	checkTree(t, s, View{Order: ByName}, `
		R:6,0
		  a:2,0
		    x:2,2
		  b:3,2
		    x:1,1
		  c:1,1
	`)
}

func TestPathsAndLookups(t *testing.T) {
	s := mustStack(t, profileFromText(t, seedSamples))
	tree := s.Tree(View{})
	ts, err := ParseSpec("focus-subtree:A/B/H/F", s)
	if err != nil {
		t.Fatal(err)
	}
	p := ts[0].Path
	n := tree.Find(p)
	if n == NoNode || tree.Self(n) != time.Millisecond || !tree.Path(n).Equal(p) {
		t.Fatalf("Find(A/B/H/F) = %d with self %v", n, tree.Self(n))
	}
	if got := s.Functions().PathString(tree.Path(tree.Parent(n))); got != "A/B/H" {
		t.Errorf("parent path %q, want A/B/H", got)
	}
	if tree.HasChildren(n) || !tree.HasChildren(tree.Parent(n)) {
		t.Error("HasChildren is wrong")
	}
	// The path of E survives the merge of C as A/B/D/E (the seed's "How call tree
	// modifications affect function paths").
	e, _ := ParseSpec("focus-subtree:A/B/C/D/E", s)
	s = push(t, s, "merge-call-node:A/B/C")
	moved := s.MapPath(e[0].Path)
	if got := s.Functions().PathString(moved); got != "A/B/D/E" {
		t.Errorf("E's path after merging C is %q, want A/B/D/E", got)
	}
	if s.Tree(View{}).Find(moved) == NoNode {
		t.Error("the mapped path names no node")
	}
}

func TestParseSpecErrors(t *testing.T) {
	s := mustStack(t, profileFromText(t, `
		A@x.js  A@y.js  B
	`))
	for _, spec := range []string{
		"merge-call-node",           // no argument
		"explode:A",                 // unknown kind
		"merge-call-node:A/Z",       // no such child
		"focus-subtree-inverted:Z",  // no such bottom-up root
		"focus-function:A",          // ambiguous
		"drop-function:Q",           // no such function
		"collapse-resource:nope.js", // no such script
	} {
		if _, err := ParseSpec(spec, s); err == nil {
			t.Errorf("ParseSpec(%q) succeeded", spec)
		}
	}
	ts, err := ParseSpec("focus-function:A@y.js", s)
	if err != nil || len(ts) != 1 {
		t.Fatalf("a qualified name should pick one function: %v %v", ts, err)
	}
	ts, err = ParseSpec("drop-function:A", s)
	if err != nil || len(ts) != 2 {
		t.Fatalf("drop-function of an ambiguous name should drop each match: %v %v", ts, err)
	}
	// Push validates what it is given directly.
	if _, err := s.Push(Transform{Kind: MergeCallNode}); err == nil {
		t.Error("a merge without a path was accepted")
	}
	if _, err := s.Push(Transform{Kind: DropFunction, Func: 999}); err == nil {
		t.Error("a function out of range was accepted")
	}
}

// A range keeps the samples taken inside it, each with its full weight.
func TestRange(t *testing.T) {
	tr := profileFromText(t, seedSamples)
	src, err := NewSource(tr, &tr.Profiles[0], Range{Start: 1000, End: 3000})
	if err != nil {
		t.Fatal(err)
	}
	s := NewStack(src)
	checkTree(t, s, View{}, `
		A:2,0
		  B:2,0
		    C:1,0
		      F:1,0
		        G:1,1
		    H:1,0
		      F:1,1
	`)
	// The transforms of a stack carry over to another range.
	s = push(t, s, "drop-function:H")
	wider, err := src.WithRange(AllTime)
	if err != nil {
		t.Fatal(err)
	}
	s2, err := s.WithSource(wider)
	if err != nil {
		t.Fatal(err)
	}
	if got := s2.Tree(View{}).Total(); got != 2*time.Millisecond {
		t.Errorf("whole range without H: %v, want 2ms", got)
	}
}

// A sample whose node is unknown is left out of the tree and counted; one that hit the root node
// is kept.
func TestHoles(t *testing.T) {
	tr := profileFromStacks(t, [][]string{{"A"}, nil, {"A", "B"}, {}}, []float64{1000, 500, 250, 125})
	s := mustStack(t, tr)
	n, d := s.Source().Holes()
	if n != 1 || d != 500*time.Microsecond {
		t.Errorf("holes: %d, %v; want 1, 500µs", n, d)
	}
	// A sample of the profile's root node itself is kept, under a root of its own.
	checkTree(t, s, View{}, `
		A:1.25,1
		  B:0.25,0.25
		(root):0.125,0.125
	`)
}

func TestSampleNode(t *testing.T) {
	s := mustStack(t, profileFromText(t, seedSamples))
	s = push(t, s, "merge-call-node:A/B/C")
	tree := s.Tree(View{})
	for i, want := range []string{"A/B/D/E", "A/B/F/G", "A/B/H/F"} {
		n := s.SampleNode(tree, i)
		if got := s.Functions().PathString(tree.Path(n)); got != want {
			t.Errorf("sample %d is at %q, want %q", i, got, want)
		}
	}
}

// Every sample of a real profile inside a range falls in the node of its own function whose
// self sample count it makes up, before and after a transform; every sample outside it, or
// without a node, falls in none.
func TestSampleNodeOverRanges(t *testing.T) {
	tr, err := load.File(context.Background(), fixtures.Path(t, "fixtures", "upstream", "devtools-node-fibonacci-website.cpuprofile.gz"), nil)
	if err != nil {
		t.Fatal(err)
	}
	p := &tr.Profiles[0]
	first, last := p.Timestamps[0], p.Timestamps[len(p.Samples)-1]
	for _, r := range []Range{AllTime, {first + (last-first)/4, first + (last-first)/2}} {
		src, err := NewSource(tr, p, r)
		if err != nil {
			t.Fatal(err)
		}
		s := NewStack(src)
		for round := range 2 {
			tree := s.Tree(View{})
			counts := map[NodeID]int{}
			outside := 0
			for i, node := range p.Samples {
				n := s.SampleNode(tree, i)
				if n == NoNode {
					outside++
					continue
				}
				if !r.Contains(p.Timestamps[i]) {
					t.Fatalf("sample %d at %v is outside %v but fell in node %d", i, p.Timestamps[i], r, n)
				}
				if round == 0 && tree.Func(n) != src.funcs.nodeFunc[node] {
					t.Fatalf("sample %d fell in a node of another function", i)
				}
				counts[n]++
			}
			if outside+tree.Samples() != len(p.Samples) {
				t.Fatalf("%d samples in no node and %d in the tree, of %d", outside, tree.Samples(), len(p.Samples))
			}
			tree.Walk(func(n NodeID) bool {
				if counts[n] != tree.SelfSamples(n) {
					t.Fatalf("node %d: %d samples fall in it, its self count is %d", n, counts[n], tree.SelfSamples(n))
				}
				return true
			})
			// The heaviest root's function merged into its callers moves its samples with it.
			s = push(t, s, "merge-function:"+src.funcs.Name(tree.Func(tree.Roots()[0])))
		}
	}
}

func TestTransformFor(t *testing.T) {
	s := mustStack(t, profileFromText(t, `
		main@app.js  main@app.js  main@app.js
		run@lib.js   run@lib.js   idle
	`))
	tree := s.Tree(View{})
	f := s.Functions()
	kids := tree.Children(tree.Roots()[0])
	run, idle := kids[0], kids[1]
	if f.Name(tree.Func(run)) != "run" || f.Name(tree.Func(idle)) != "idle" {
		t.Fatalf("children %s, %s", f.Name(tree.Func(run)), f.Name(tree.Func(idle)))
	}
	for k := range numKinds {
		tf, ok := TransformFor(k, tree, run)
		if !ok {
			t.Errorf("%s does not apply to run", k)
			continue
		}
		if _, err := s.Push(tf); err != nil {
			t.Errorf("%s: %v", k, err)
		}
	}
	if _, ok := TransformFor(CollapseResource, tree, idle); ok {
		t.Error("collapse-resource offered for a function without a script")
	}
	inv := s.Tree(View{Inverted: true})
	if _, ok := TransformFor(MergeCallNode, inv, inv.Roots()[0]); ok {
		t.Error("merge-call-node offered in the bottom-up tree")
	}
	if tf, ok := TransformFor(FocusSubtree, inv, inv.Roots()[0]); !ok || !tf.Inverted {
		t.Error("focus-subtree in the bottom-up tree should be inverted")
	}
	// Highlighting elsewhere: run's frame is a call of run and belongs to lib.js, not to idle.
	runFn := tree.Func(run)
	runFrame := core.NoFrame
	for node, frame := range f.profile.NodeFrame {
		if f.OfNode(int32(node)) == runFn {
			runFrame = frame
		}
	}
	if !f.FrameIs(runFrame, runFn) || !f.FrameIs(runFrame, f.ResourceOf(runFn)) || f.FrameIs(runFrame, tree.Func(idle)) {
		t.Error("FrameIs is wrong for run's frame")
	}
}

// A panel expands rows on the UI goroutine while a background goroutine may walk the same tree
// (for example to search it): lazy sorting and expansion must be safe.
func TestTreeConcurrentWalks(t *testing.T) {
	stacks, weights := randomStacks(rand.New(rand.NewPCG(3, 4)), 400)
	s := mustStack(t, profileFromStacks(t, stacks, weights))
	for _, v := range []View{{}, {Inverted: true}} {
		tree := s.Tree(v)
		done := make(chan string)
		for range 4 {
			go func() {
				var b strings.Builder
				tree.Walk(func(n NodeID) bool {
					fmt.Fprintf(&b, "%d:%v;", tree.Func(n), tree.Running(n))
					return true
				})
				done <- b.String()
			}()
		}
		first := <-done
		for range 3 {
			if got := <-done; got != first {
				t.Errorf("inverted=%v: concurrent walks saw different trees", v.Inverted)
			}
		}
	}
}

// Spec and ParseSpec round-trip, the inverted focus included.
func TestSpecRoundTrip(t *testing.T) {
	s := mustStack(t, profileFromText(t, seedSamples))
	for _, spec := range []string{
		"focus-subtree:A/B/C", "focus-subtree-inverted:G/F/C", "focus-function:F", "merge-call-node:A/B",
		"merge-function:B", "prune:A/B/H", "drop-function:E", "collapse-recursion:C",
	} {
		ts, err := ParseSpec(spec, s)
		if err != nil || len(ts) != 1 {
			t.Fatalf("%s: %v %v", spec, ts, err)
		}
		if got := ts[0].Spec(s.Functions()); got != spec {
			t.Errorf("ParseSpec(%q).Spec() = %q", spec, got)
		}
	}
	s = push(t, s, "focus-subtree-inverted:G/F")
	checkTree(t, s, View{}, `
		A:1,0
		  B:1,0
		    C:1,0
		      F:1,1
	`)
}

// A stack never changes: pushing returns a new one, and two pushes on the same stack do not see
// each other, so a transform can run on one goroutine while another draws the stack it started
// from.
func TestStackIsImmutable(t *testing.T) {
	s := mustStack(t, profileFromText(t, seedSamples))
	before := drawTree(s.Tree(View{}))
	dropped := push(t, s, "drop-function:E")
	focused := push(t, s, "focus-subtree:A/B")
	if got := drawTree(s.Tree(View{})); got != before || s.Len() != 0 {
		t.Fatalf("pushing changed the stack it pushed on:\n%swant:\n%s", got, before)
	}
	if dropped.Len() != 1 || focused.Len() != 1 {
		t.Fatalf("lengths %d and %d, want 1 and 1", dropped.Len(), focused.Len())
	}
	f := s.Functions()
	if a, b := dropped.Transforms()[0].Spec(f), focused.Transforms()[0].Spec(f); a == b {
		t.Fatalf("two pushes on one stack share their top: %s", a)
	}
	// A push on top of one branch leaves the other alone.
	both := push(t, dropped, "merge-function:C")
	if dropped.Len() != 1 || both.Len() != 2 || focused.Transforms()[0].Kind != FocusSubtree {
		t.Fatal("a push on one branch changed another")
	}
	if popped, ok := both.Pop(); !ok || drawTree(popped.Tree(View{})) != drawTree(dropped.Tree(View{})) {
		t.Fatal("popping the last push did not give back the stack below it")
	}
}
