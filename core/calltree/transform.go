package calltree

import (
	"fmt"
	"slices"
)

// Kind is the kind of a transform.
type Kind uint8

const (
	// FocusSubtree keeps only the samples that go through Path and makes its last function the
	// root. With Inverted, Path is a bottom-up path (top of stack first): the samples whose stacks
	// end with it are kept, cut so that the path's last function is on top.
	FocusSubtree Kind = iota
	// FocusFunction keeps only the samples that contain Func, each cut to start at its outermost
	// call of Func, so that all calls of Func become one root.
	FocusFunction
	// MergeCallNode removes the node at Path: its self time goes to its parent and its children
	// move up to the parent.
	MergeCallNode
	// MergeFunction does what MergeCallNode does to every node of Func.
	MergeFunction
	// Prune removes the subtree at Path and charges all of its time to the parent as self time
	// (the seed's "merge subtree").
	Prune
	// DropFunction removes every sample whose stack contains Func.
	DropFunction
	// CollapseRecursion folds every call of Func made (directly or through other functions)
	// inside an outer call of Func into that outer call.
	CollapseRecursion
	// CollapseResource replaces each run of consecutive functions of script URL by one node that
	// stands for the whole script.
	CollapseResource
	numKinds
)

var kindNames = [numKinds]string{
	FocusSubtree:      "focus-subtree",
	FocusFunction:     "focus-function",
	MergeCallNode:     "merge-call-node",
	MergeFunction:     "merge-function",
	Prune:             "prune",
	DropFunction:      "drop-function",
	CollapseRecursion: "collapse-recursion",
	CollapseResource:  "collapse-resource",
}

// String is the kind's command-line name, e.g. "merge-call-node".
func (k Kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// ParseKind is the inverse of Kind.String.
func ParseKind(s string) (Kind, bool) {
	for k, name := range kindNames {
		if name == s {
			return Kind(k), true
		}
	}
	return 0, false
}

// takesPath reports whether the kind's argument is a Path (else a function).
func (k Kind) takesPath() bool { return k == FocusSubtree || k == MergeCallNode || k == Prune }

// Transform is one step of a transform stack. Path is set for FocusSubtree, MergeCallNode and
// Prune; Func for the others (for CollapseResource, the collapsed-resource function of the script,
// see Functions.ResourceOf).
type Transform struct {
	Kind     Kind
	Path     Path
	Func     FuncID
	Inverted bool // FocusSubtree only
}

// validate checks the transform against a function table.
func (t Transform) validate(f *Functions) error {
	if t.Kind >= numKinds {
		return fmt.Errorf("unknown transform kind %d", t.Kind)
	}
	if t.Inverted && t.Kind != FocusSubtree {
		return fmt.Errorf("%s has no inverted form", t.Kind)
	}
	if t.Kind.takesPath() {
		if len(t.Path) == 0 {
			return fmt.Errorf("%s needs a call node path", t.Kind)
		}
		for _, fn := range t.Path {
			if !f.Valid(fn) {
				return fmt.Errorf("%s: function %d does not exist", t.Kind, fn)
			}
		}
		return nil
	}
	if !f.Valid(t.Func) {
		return fmt.Errorf("%s: function %d does not exist", t.Kind, t.Func)
	}
	if t.Kind == CollapseResource && !f.IsResource(t.Func) {
		return fmt.Errorf("%s: function %q is not a collapsed script", t.Kind, f.Name(t.Func))
	}
	return nil
}

// Label is a short description for a breadcrumb, e.g. "Merge node: C" or "Collapse: app.js".
func (t Transform) Label(f *Functions) string {
	subject := func(fn FuncID) string {
		if n := f.Name(fn); n != "" {
			return n
		}
		return "(anonymous)"
	}
	if t.Kind.takesPath() && len(t.Path) == 0 {
		return t.Kind.String()
	}
	switch t.Kind {
	case FocusSubtree:
		if t.Inverted {
			return "Focus (inverted): " + subject(t.Path[len(t.Path)-1])
		}
		return "Focus node: " + subject(t.Path[len(t.Path)-1])
	case FocusFunction:
		return "Focus: " + subject(t.Func)
	case MergeCallNode:
		return "Merge node: " + subject(t.Path[len(t.Path)-1])
	case MergeFunction:
		return "Merge: " + subject(t.Func)
	case Prune:
		return "Prune: " + subject(t.Path[len(t.Path)-1])
	case DropFunction:
		return "Drop: " + subject(t.Func)
	case CollapseRecursion:
		return "Collapse recursion: " + subject(t.Func)
	case CollapseResource:
		return "Collapse: " + f.URL(t.Func)
	}
	return t.Kind.String()
}

// Spec is the command-line form "KIND:ARG" of the transform, with names, e.g.
// "merge-call-node:A/B/C" (an inverted focus is "focus-subtree-inverted:PATH"). Names are not unique, so a spec is for people and scripts, not for
// persistence.
func (t Transform) Spec(f *Functions) string {
	switch {
	case t.Inverted:
		return invertedFocus + ":" + f.PathString(t.Path)
	case t.Kind.takesPath():
		return t.Kind.String() + ":" + f.PathString(t.Path)
	case t.Kind == CollapseResource:
		return t.Kind.String() + ":" + f.URL(t.Func)
	}
	return t.Kind.String() + ":" + f.Name(t.Func)
}

// MapPath returns the path that the (non-inverted) call node p has after the transform, so that
// a selection or the expanded rows survive it; nil when the node no longer exists.
func (t Transform) MapPath(p Path, f *Functions) Path {
	hasPrefix := func(prefix Path) bool {
		return len(prefix) <= len(p) && prefix.Equal(p[:len(prefix)])
	}
	switch t.Kind {
	case FocusSubtree:
		if t.Inverted {
			// The non-inverted nodes that survive are the callers of the focused path; their
			// paths do not change.
			return slices.Clone(p)
		}
		if !hasPrefix(t.Path) {
			return nil
		}
		return slices.Clone(p[len(t.Path)-1:])
	case FocusFunction:
		i := slices.Index(p, t.Func)
		if i < 0 {
			return nil
		}
		return slices.Clone(p[i:])
	case MergeCallNode:
		if !hasPrefix(t.Path) {
			return slices.Clone(p)
		}
		out := slices.Clone(p[:len(t.Path)-1])
		out = append(out, p[len(t.Path):]...)
		return nilIfEmpty(out)
	case MergeFunction:
		out := make(Path, 0, len(p))
		for _, fn := range p {
			if fn != t.Func {
				out = append(out, fn)
			}
		}
		return nilIfEmpty(out)
	case Prune:
		if !hasPrefix(t.Path) {
			return slices.Clone(p)
		}
		return nilIfEmpty(slices.Clone(t.Path[:len(t.Path)-1]))
	case DropFunction:
		if slices.Contains(p, t.Func) {
			return nil
		}
		return slices.Clone(p)
	case CollapseRecursion:
		first, last := slices.Index(p, t.Func), -1
		for i := len(p) - 1; i >= 0; i-- {
			if p[i] == t.Func {
				last = i
				break
			}
		}
		if first < 0 {
			return slices.Clone(p)
		}
		out := slices.Clone(p[:first])
		return append(out, p[last:]...)
	case CollapseResource:
		out := make(Path, 0, len(p))
		for _, fn := range p {
			if f.ResourceOf(fn) == t.Func {
				fn = t.Func
			}
			if fn == t.Func && len(out) > 0 && out[len(out)-1] == t.Func {
				continue
			}
			out = append(out, fn)
		}
		return out
	}
	return nil
}

func nilIfEmpty(p Path) Path {
	if len(p) == 0 {
		return nil
	}
	return p
}

// apply runs the transform over a table, returning the new table and, for each old node, the new
// node that receives its samples (-1 when they are dropped).
func (t Transform) apply(old *table, f *Functions) (*table, []int32) {
	var b *builder
	var target []int32
	switch t.Kind {
	case FocusSubtree:
		if t.Inverted {
			b, target = focusInverted(old, t.Path)
		} else {
			b, target = focusSubtree(old, t.Path)
		}
	case FocusFunction:
		b, target = focusFunction(old, t.Func)
	case MergeCallNode:
		b, target = mergeNodes(old, matchPath(old, t.Path), -1)
	case MergeFunction:
		b, target = mergeNodes(old, -1, t.Func)
	case Prune:
		b, target = prune(old, matchPath(old, t.Path))
	case DropFunction:
		b, target = dropFunction(old, t.Func)
	case CollapseRecursion:
		b, target = collapseRecursion(old, t.Func)
	case CollapseResource:
		b, target = collapseResource(old, t.Func, f)
	default:
		panic("calltree: unvalidated transform")
	}
	next, remap := compact(b.carry(old, target))
	for i, to := range target {
		if to >= 0 {
			target[i] = remap[to]
		}
	}
	return next, target
}

// matchPath returns the node of t at path p, -1 when there is none.
func matchPath(t *table, p Path) int32 {
	// matched[i] is how many leading functions of p node i's path matches when all of them
	// match, -1 otherwise; one forward pass finds the node without building children lists.
	matched := make([]int32, t.len())
	for i := range t.len() {
		d := 0
		if pre := t.prefix[i]; pre >= 0 {
			d = int(matched[pre])
			if d <= 0 || d >= len(p) {
				matched[i] = -1
				continue
			}
		}
		if t.fn[i] != p[d] {
			matched[i] = -1
			continue
		}
		if d+1 == len(p) {
			return int32(i)
		}
		matched[i] = int32(d + 1)
	}
	return -1
}

func newTarget(n int) []int32 { return make([]int32, n) }

// focusSubtree keeps the nodes below path p, re-rooted at p's last function.
func focusSubtree(old *table, p Path) (*builder, []int32) {
	b := newBuilder(old.len())
	target := newTarget(old.len())
	// depth[i] counts the functions of p matched on the way to i (len(p) once inside the
	// subtree), -1 when the path was left.
	depth := make([]int32, old.len())
	k := int32(len(p))
	for i := range old.len() {
		target[i] = -1
		d := int32(0)
		if pre := old.prefix[i]; pre >= 0 {
			d = depth[pre]
		}
		switch {
		case d < 0:
			depth[i] = -1
		case d == k:
			depth[i] = k
			target[i] = b.node(target[old.prefix[i]], old.fn[i])
		case old.fn[i] == p[d]:
			depth[i] = d + 1
			if d+1 == k {
				target[i] = b.node(-1, old.fn[i])
			}
		default:
			depth[i] = -1
		}
	}
	return b, target
}

// focusInverted keeps the samples whose stacks end with the bottom-up path p (p[0] on top) and
// moves each to the node of p's last function, so the inverted tree is rooted there.
func focusInverted(old *table, p Path) (*builder, []int32) {
	b := newBuilder(old.len())
	same := newTarget(old.len())
	for i := range old.len() {
		pre := old.prefix[i]
		if pre >= 0 {
			pre = same[pre]
		}
		same[i] = b.node(pre, old.fn[i])
	}
	target := newTarget(old.len())
	for i := range old.len() {
		target[i] = -1
		if old.count[i] == 0 || old.fn[i] != p[0] {
			continue
		}
		n := int32(i)
		for j := 1; j < len(p) && n >= 0; j++ {
			n = old.prefix[n]
			if n >= 0 && old.fn[n] != p[j] {
				n = -1
			}
		}
		if n >= 0 {
			target[i] = same[n]
		}
	}
	return b, target
}

// focusFunction re-roots every stack at its outermost call of fn and drops the stacks without it.
func focusFunction(old *table, fn FuncID) (*builder, []int32) {
	b := newBuilder(old.len())
	target := newTarget(old.len())
	for i := range old.len() {
		pre := old.prefix[i]
		switch {
		case pre >= 0 && target[pre] >= 0:
			target[i] = b.node(target[pre], old.fn[i])
		case old.fn[i] == fn:
			target[i] = b.node(-1, fn)
		default:
			target[i] = -1
		}
	}
	return b, target
}

// mergeNodes removes the node only (when ≥ 0) and every node of fn (when ≠ -1): each removed
// node's samples go to its parent and its children attach to the parent. A removed root has no
// parent to charge, so its own samples are dropped.
func mergeNodes(old *table, only int32, fn FuncID) (*builder, []int32) {
	b := newBuilder(old.len())
	target := newTarget(old.len())
	// attach[i] is the new node that i's children hang under: -1 makes them roots.
	attach := make([]int32, old.len())
	for i := range old.len() {
		parent := int32(-1)
		if pre := old.prefix[i]; pre >= 0 {
			parent = attach[pre]
		}
		if int32(i) == only || old.fn[i] == fn {
			attach[i] = parent
			target[i] = parent
			continue
		}
		n := b.node(parent, old.fn[i])
		attach[i] = n
		target[i] = n
	}
	return b, target
}

// prune charges the whole subtree of node at to its parent (dropped when at is a root).
func prune(old *table, at int32) (*builder, []int32) {
	b := newBuilder(old.len())
	target := newTarget(old.len())
	// inside[i] tells that i is in the pruned subtree; its samples then go where at's go.
	inside := make([]bool, old.len())
	sink := int32(-1)
	for i := range old.len() {
		pre := old.prefix[i]
		switch {
		case int32(i) == at:
			inside[i] = true
			if pre >= 0 {
				sink = target[pre]
			}
			target[i] = sink
		case pre >= 0 && inside[pre]:
			inside[i] = true
			target[i] = sink
		default:
			parent := int32(-1)
			if pre >= 0 {
				parent = target[pre]
			}
			target[i] = b.node(parent, old.fn[i])
		}
	}
	return b, target
}

// dropFunction removes the samples whose stacks contain fn.
func dropFunction(old *table, fn FuncID) (*builder, []int32) {
	b := newBuilder(old.len())
	target := newTarget(old.len())
	for i := range old.len() {
		pre := old.prefix[i]
		parent := int32(-1)
		if pre >= 0 {
			parent = target[pre]
			if parent < 0 {
				target[i] = -1
				continue
			}
		}
		if old.fn[i] == fn {
			target[i] = -1
			continue
		}
		target[i] = b.node(parent, old.fn[i])
	}
	return b, target
}

// collapseRecursion hangs every inner call of fn, and so what it calls, on the outermost call of
// fn; the functions between the two calls stay only where they have samples of their own.
func collapseRecursion(old *table, fn FuncID) (*builder, []int32) {
	b := newBuilder(old.len())
	target := newTarget(old.len())
	// outer[i] is the new node of the outermost call of fn on i's stack, -1 when there is none.
	outer := make([]int32, old.len())
	for i := range old.len() {
		pre := old.prefix[i]
		parent, out := int32(-1), int32(-1)
		if pre >= 0 {
			parent, out = target[pre], outer[pre]
		}
		if old.fn[i] == fn && out >= 0 {
			target[i] = out
			outer[i] = out
			continue
		}
		n := b.node(parent, old.fn[i])
		target[i] = n
		if out < 0 && old.fn[i] == fn {
			out = n
		}
		outer[i] = out
	}
	return b, target
}

// collapseResource turns each run of functions of the resource res into one node of res.
func collapseResource(old *table, res FuncID, f *Functions) (*builder, []int32) {
	b := newBuilder(old.len())
	target := newTarget(old.len())
	for i := range old.len() {
		pre := old.prefix[i]
		parent := int32(-1)
		if pre >= 0 {
			parent = target[pre]
		}
		fn := old.fn[i]
		if f.ResourceOf(fn) != res {
			target[i] = b.node(parent, fn)
			continue
		}
		if parent >= 0 && b.t.fn[parent] == res {
			target[i] = parent
			continue
		}
		target[i] = b.node(parent, res)
	}
	return b, target
}

// TransformFor makes the transform of kind k for node n of tree, as a right-click menu or a key
// in a tree table would. ok is false when the kind does not apply there: merging or pruning a
// node of the bottom-up tree (its path is not a call node), or collapsing a function without a
// script.
func TransformFor(k Kind, tree *Tree, n NodeID) (t Transform, ok bool) {
	fn := tree.Func(n)
	if fn == NoFunc {
		return Transform{}, false
	}
	switch k {
	case FocusSubtree:
		return Transform{Kind: k, Path: tree.Path(n), Inverted: tree.Inverted()}, true
	case MergeCallNode, Prune:
		if tree.Inverted() {
			return Transform{}, false
		}
		return Transform{Kind: k, Path: tree.Path(n)}, true
	case CollapseResource:
		res := tree.Functions().ResourceOf(fn)
		if res == NoFunc || res == fn {
			return Transform{}, false
		}
		return Transform{Kind: k, Func: res}, true
	case FocusFunction, MergeFunction, DropFunction, CollapseRecursion:
		return Transform{Kind: k, Func: fn}, true
	}
	return Transform{}, false
}
