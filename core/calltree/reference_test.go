package calltree

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// The transforms are checked against a deliberately naive model: every sample keeps its own
// stack as a list of function keys, each transform rewrites those lists one by one following its
// definition, and the tree is a map from path to times. Random profiles with recursion, JIT copies
// of functions, several scripts and holes, and random sequences of transforms, must give the same
// trees in both.

type refSample struct {
	stack  []string // function keys, root first; nil when dropped
	weight time.Duration
}

// funcKey identifies a function in the naive model: its name and URL, or "res:URL" for a
// collapsed script.
func refKey(f *Functions, fn FuncID) string {
	if f.IsResource(fn) {
		return "res:" + f.URL(fn)
	}
	return f.Name(fn) + "@" + f.URL(fn)
}

func refPath(f *Functions, p Path) []string {
	out := make([]string, len(p))
	for i, fn := range p {
		out[i] = refKey(f, fn)
	}
	return out
}

func tokenKey(token string) string {
	fn, _, _ := strings.Cut(token, "#")
	name, url, _ := strings.Cut(fn, "@")
	return name + "@" + url
}

func hasPrefix(stack, prefix []string) bool {
	return len(prefix) <= len(stack) && slices.Equal(stack[:len(prefix)], prefix)
}

// refApply is the definition of each transform on a single stack.
func refApply(t Transform, f *Functions, stack []string) []string {
	if stack == nil {
		return nil
	}
	var path []string
	if t.Kind.takesPath() {
		path = refPath(f, t.Path)
	}
	key := ""
	if !t.Kind.takesPath() {
		key = refKey(f, t.Func)
	}
	var out []string
	switch t.Kind {
	case FocusSubtree:
		if t.Inverted {
			rev := slices.Clone(stack)
			slices.Reverse(rev)
			if !hasPrefix(rev, path) {
				return nil
			}
			out = slices.Clone(stack[:len(stack)-len(path)+1])
		} else {
			if !hasPrefix(stack, path) {
				return nil
			}
			out = slices.Clone(stack[len(path)-1:])
		}
	case FocusFunction:
		i := slices.Index(stack, key)
		if i < 0 {
			return nil
		}
		out = slices.Clone(stack[i:])
	case MergeCallNode:
		out = slices.Clone(stack)
		if hasPrefix(stack, path) {
			out = slices.Delete(out, len(path)-1, len(path))
		}
	case MergeFunction:
		for _, s := range stack {
			if s != key {
				out = append(out, s)
			}
		}
	case Prune:
		out = slices.Clone(stack)
		if hasPrefix(stack, path) {
			out = out[:len(path)-1]
		}
	case DropFunction:
		if slices.Contains(stack, key) {
			return nil
		}
		out = slices.Clone(stack)
	case CollapseRecursion:
		first, last := slices.Index(stack, key), -1
		for i, s := range stack {
			if s == key {
				last = i
			}
		}
		if first < 0 {
			return slices.Clone(stack)
		}
		out = append(slices.Clone(stack[:first]), stack[last:]...)
	case CollapseResource:
		url := f.URL(t.Func)
		for _, s := range stack {
			if strings.HasSuffix(s, "@"+url) && !strings.HasPrefix(s, "res:") {
				s = "res:" + url
			}
			if s == key && len(out) > 0 && out[len(out)-1] == key {
				continue
			}
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

type refNode struct {
	running, self time.Duration
	samples       int
}

// refTree aggregates the stacks, top-down or bottom-up, into path → times.
func refTree(samples []refSample, inverted bool) map[string]*refNode {
	tree := map[string]*refNode{}
	for _, s := range samples {
		if s.stack == nil {
			continue
		}
		stack := slices.Clone(s.stack)
		if inverted {
			slices.Reverse(stack)
		}
		for d := range stack {
			k := strings.Join(stack[:d+1], " > ")
			n := tree[k]
			if n == nil {
				n = &refNode{}
				tree[k] = n
			}
			n.running += s.weight
			n.samples++
			if (!inverted && d == len(stack)-1) || (inverted && d == 0) {
				n.self += s.weight
			}
		}
	}
	return tree
}

func compareWithRef(t *testing.T, what string, tree *Tree, ref map[string]*refNode) {
	t.Helper()
	f := tree.Functions()
	seen := 0
	var selfSum time.Duration
	tree.Walk(func(n NodeID) bool {
		seen++
		selfSum += tree.Self(n)
		k := strings.Join(refPath(f, tree.Path(n)), " > ")
		r := ref[k]
		switch {
		case r == nil:
			t.Errorf("%s: node %s is not in the reference", what, k)
		case r.running != tree.Running(n) || r.self != tree.Self(n) || r.samples != tree.RunningSamples(n):
			t.Errorf("%s: node %s has %v,%v in %d samples, reference %v,%v in %d", what, k,
				tree.Running(n), tree.Self(n), tree.RunningSamples(n), r.running, r.self, r.samples)
		}
		return true
	})
	if seen != len(ref) {
		t.Errorf("%s: %d nodes, reference %d", what, seen, len(ref))
	}
	if selfSum != tree.Total() {
		t.Errorf("%s: Σ self %v ≠ total %v", what, selfSum, tree.Total())
	}
}

// randomStacks draws stacks over a few functions, so that recursion (direct and indirect),
// repeated functions in several scripts and JIT copies all occur.
func randomStacks(rng *rand.Rand, n int) ([][]string, []float64) {
	names := []string{"a", "b", "c", "d", "e@x.js", "f@x.js", "g@y.js", "h@y.js", "a@x.js"}
	stacks := make([][]string, n)
	weights := make([]float64, n)
	// Draw from a pool of prefixes so that samples share callers like real ones do.
	var pool [][]string
	for i := range stacks {
		weights[i] = float64(1 + rng.IntN(2000))
		if rng.IntN(25) == 0 {
			continue // a hole
		}
		var s []string
		if len(pool) > 0 && rng.IntN(3) > 0 {
			base := pool[rng.IntN(len(pool))]
			s = slices.Clone(base[:1+rng.IntN(len(base))])
		}
		for extra := rng.IntN(4); extra >= 0 && len(s) < 9; extra-- {
			token := names[rng.IntN(len(names))]
			if rng.IntN(5) == 0 {
				token += "#jit"
			}
			s = append(s, token)
		}
		pool = append(pool, s)
		stacks[i] = s
	}
	return stacks, weights
}

// randomTransform picks a transform that applies to something in the current tree.
func randomTransform(rng *rand.Rand, s *Stack) (Transform, bool) {
	tree := s.Tree(View{})
	f := s.Functions()
	var nodes []NodeID
	tree.Walk(func(n NodeID) bool { nodes = append(nodes, n); return true })
	if len(nodes) == 0 {
		return Transform{}, false
	}
	node := nodes[rng.IntN(len(nodes))]
	fn := tree.Func(node)
	kind := Kind(rng.IntN(int(numKinds)))
	t := Transform{Kind: kind, Func: fn}
	switch {
	case kind == FocusSubtree && rng.IntN(2) == 0:
		inv := s.Tree(View{Inverted: true})
		var inodes []NodeID
		inv.Walk(func(n NodeID) bool { inodes = append(inodes, n); return rng.IntN(3) > 0 })
		t.Path, t.Inverted = inv.Path(inodes[rng.IntN(len(inodes))]), true
	case kind.takesPath():
		t.Path = tree.Path(node)
	case kind == CollapseResource:
		t.Func = f.ResourceOf(fn)
		if t.Func == NoFunc {
			return Transform{}, false
		}
	}
	return t, true
}

func TestTransformsAgainstReference(t *testing.T) {
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 7))
		stacks, weights := randomStacks(rng, 5+rng.IntN(60))
		trace := profileFromStacks(t, stacks, weights)
		s := mustStack(t, trace)
		f := s.Functions()
		ref := make([]refSample, len(stacks))
		for i, st := range stacks {
			ref[i].weight = time.Duration(weights[i]) * time.Microsecond
			for _, tok := range st {
				ref[i].stack = append(ref[i].stack, tokenKey(tok))
			}
		}
		what := fmt.Sprintf("seed %d", seed)
		compareWithRef(t, what, s.Tree(View{}), refTree(ref, false))
		compareWithRef(t, what+" inverted", s.Tree(View{Inverted: true}), refTree(ref, true))
		for range 1 + rng.IntN(4) {
			tf, ok := randomTransform(rng, s)
			if !ok {
				continue
			}
			var err error
			if s, err = s.Push(tf); err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			what += " | " + tf.Spec(f)
			if tf.Inverted {
				what += " (inverted)"
			}
			for i := range ref {
				before := ref[i].stack
				ref[i].stack = refApply(tf, f, before)
				if before == nil || tf.Inverted {
					continue
				}
				// A sample's stack is a call node's path, so MapPath must move it the same way.
				mapped := refPath(f, tf.MapPath(pathOfKeys(t, f, before), f))
				if !slices.Equal(nilIfNone(mapped), ref[i].stack) {
					t.Errorf("%s: MapPath(%v) = %v, reference %v", what, before, mapped, ref[i].stack)
				}
			}
			compareWithRef(t, what, s.Tree(View{}), refTree(ref, false))
			compareWithRef(t, what+" inverted", s.Tree(View{Inverted: true}), refTree(ref, true))
			if t.Failed() {
				return
			}
		}
	}
}

func nilIfNone(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

func pathOfKeys(t *testing.T, f *Functions, keys []string) Path {
	byKey := map[string]FuncID{}
	for i := range f.Len() {
		byKey[refKey(f, FuncID(i))] = FuncID(i)
	}
	p := make(Path, len(keys))
	for i, k := range keys {
		fn, ok := byKey[k]
		if !ok {
			t.Fatalf("no function %s", k)
		}
		p[i] = fn
	}
	return p
}
