package calltree

import (
	"fmt"
	"strings"
	"testing"
)

// drawDiffTree renders a differential tree one "NAME runningA→runningB (selfA→selfB)" per line,
// in ms, indented two spaces per level.
func drawDiffTree(t *DiffTree) string {
	var b strings.Builder
	var walk func(ids []DiffNodeID)
	walk = func(ids []DiffNodeID) {
		for _, n := range ids {
			r := t.Row(n)
			fmt.Fprintf(&b, "%s%s %s→%s (%s→%s)\n", strings.Repeat("  ", t.Depth(n)), r.Key.Name, ms(r.RunningA), ms(r.RunningB), ms(r.SelfA), ms(r.SelfB))
			walk(t.Children(n))
		}
	}
	walk(t.Roots())
	return b.String()
}

// The profiles of TestDiffKnownAnswer merged by call path, worked out by hand; children by
// running delta, largest increase first.
func TestDiffTreeKnownAnswer(t *testing.T) {
	a := profileFromText(t, `
		A A A A
		B B C A
		    B
	`)
	b := profileFromText(t, `
		A A A A A
		B C C C A
		  B B   A
	`)
	srcA, _ := defaultFunctions(t, a).Source(AllTime)
	c, err := NewComparison(NewStack(srcA), defaultFunctions(t, b), AllTime, AllTime, CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tree := c.Tree(View{})
	want := dedent(`
		A 4→5 (0→0)
		  C 1→3 (0→1)
		    B 1→2 (1→2)
		  A 1→1 (1→0)
		    A 0→1 (0→1)
		  B 2→1 (2→1)
	`)
	if got := drawDiffTree(tree); got != want {
		t.Errorf("got:\n%swant:\n%s", got, want)
	}
	// The innermost A exists only in B.
	inner := tree.Children(tree.Children(tree.Roots()[0])[1])[0]
	if r := tree.Row(inner); r.FuncA != NoFunc || r.FuncB == NoFunc {
		t.Errorf("inner A: %+v", r)
	}

	tree.Sort(ByFunctionName, false)
	if got := drawDiffTree(tree); !strings.HasPrefix(got, "A 4→5 (0→0)\n  A 1→1") {
		t.Errorf("by name:\n%s", got)
	}

	// Bottom-up: the roots are the functions with self time, and hold all of it.
	inv := c.Tree(View{Inverted: true})
	var selfA, selfB int64
	for _, n := range inv.Roots() {
		r := inv.Row(n)
		selfA += int64(r.SelfA)
		selfB += int64(r.SelfB)
	}
	if selfA != int64(inv.TotalA) || selfB != int64(inv.TotalB) || !inv.Inverted() {
		t.Errorf("bottom-up roots hold %d and %d ns of %v and %v", selfA, selfB, inv.TotalA, inv.TotalB)
	}
}

// On the recorded pair, the merged tree keeps both totals, and the slowed function is the child
// of runWork that grew the most; against itself, no node changes.
func TestDiffTreeRecorded(t *testing.T) {
	load := func(a, b string) *Comparison {
		ta, tb := loadDiffFile(t, a), loadDiffFile(t, b)
		srcA, _ := defaultFunctions(t, ta).Source(AllTime)
		c, err := NewComparison(NewStack(srcA), defaultFunctions(t, tb), AllTime, AllTime, CompareOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	tree := load("trace-a.json.gz", "trace-slow.json.gz").Tree(View{})
	var runA, runB int64
	var runWork DiffNodeID = -1
	for _, n := range tree.Roots() {
		r := tree.Row(n)
		runA += int64(r.RunningA)
		runB += int64(r.RunningB)
	}
	if runA != int64(tree.TotalA) || runB != int64(tree.TotalB) {
		t.Errorf("roots hold %d and %d ns of %v and %v", runA, runB, tree.TotalA, tree.TotalB)
	}
	var find func(ids []DiffNodeID)
	find = func(ids []DiffNodeID) {
		for _, n := range ids {
			if tree.Row(n).Key.Name == "runWork" && runWork < 0 {
				runWork = n
			}
			find(tree.Children(n))
		}
	}
	find(tree.Roots())
	if runWork < 0 {
		t.Fatal("no runWork node")
	}
	if kids := tree.Children(runWork); len(kids) == 0 || tree.Row(kids[0]).Key.Name != "hashStrings" {
		t.Errorf("runWork's children do not start with hashStrings")
	}

	same := load("node-a.cpuprofile.gz", "node-a.cpuprofile.gz")
	for _, v := range []View{{}, {Inverted: true}} {
		st := same.Tree(v)
		for n := range DiffNodeID(st.Len()) {
			if r := st.Row(n); r.SelfDelta() != 0 || r.RunningDelta() != 0 {
				t.Errorf("%v: %s changed against itself: %+v", v, r.Key.Name, r)
			}
		}
	}
}
