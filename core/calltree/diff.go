package calltree

// Comparing two profiles: the functions of both, matched by identity, with their self and running
// time in each. The times are the call tree's integer nanoseconds, each sample weighing the time
// to the next one, so profiles sampled at different intervals compare as time, never as counts,
// and the self times of each side add up to its total exactly.

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// FuncKey is what makes functions of two different profiles the same function: the function
// table's own identity (name, URL, line, column) in strings rather than interned ids, which
// differ between traces. A collapsed script is keyed by its URL with Resource set.
type FuncKey struct {
	Name, URL    string
	Line, Column int32
	Resource     bool
}

// Key is the cross-profile identity of fn.
func (f *Functions) Key(fn FuncID) FuncKey {
	if f.IsResource(fn) {
		return FuncKey{URL: f.URL(fn), Line: -1, Column: -1, Resource: true}
	}
	return FuncKey{Name: f.Name(fn), URL: f.URL(fn), Line: f.Line(fn), Column: f.Column(fn)}
}

// keyIndex maps the keys of a function table back to its ids.
func keyIndex(f *Functions) map[FuncKey]FuncID {
	m := make(map[FuncKey]FuncID, f.Len())
	for fn := range FuncID(f.Len()) {
		m[f.Key(fn)] = fn
	}
	return m
}

// Mirror is what a transform made for one profile does to another.
type Mirror uint8

const (
	// MirrorApply: push the translated transform.
	MirrorApply Mirror = iota
	// MirrorSkip: the transform names a function the other profile lacks and would change
	// nothing there (merge, prune, drop, collapse).
	MirrorSkip
	// MirrorEmpty: the transform focuses on a function or path the other profile lacks, so it
	// keeps nothing there.
	MirrorEmpty
)

// MirrorTransform translates t, made with the function table from, to the function table to, so
// that both sides of a comparison get the same transform stack.
func MirrorTransform(t Transform, from, to *Functions) (Transform, Mirror) {
	return mirrorWith(t, from, to, keyIndex(to))
}

func mirrorWith(t Transform, from, to *Functions, index map[FuncKey]FuncID) (Transform, Mirror) {
	missing := MirrorSkip
	if t.Kind == FocusSubtree || t.Kind == FocusFunction {
		missing = MirrorEmpty
	}
	out := Transform{Kind: t.Kind, Inverted: t.Inverted, Func: NoFunc}
	if t.Kind.takesPath() {
		out.Path = make(Path, len(t.Path))
		for i, fn := range t.Path {
			g, ok := index[from.Key(fn)]
			if !ok {
				return Transform{}, missing
			}
			out.Path[i] = g
		}
		return out, MirrorApply
	}
	g, ok := index[from.Key(t.Func)]
	if !ok {
		return Transform{}, missing
	}
	out.Func = g
	return out, MirrorApply
}

// MirrorStack builds, over src (the other profile of a comparison), a stack with the transforms
// of s translated by MirrorTransform. empty reports that a focus kept nothing of src; the
// stack then holds the transforms before that focus, and the caller should treat the side as
// having no samples.
func MirrorStack(s *Stack, src *Source) (out *Stack, empty bool, err error) {
	out = NewStack(src)
	index := keyIndex(src.Functions())
	for _, t := range s.Transforms() {
		m, how := mirrorWith(t, s.Functions(), src.Functions(), index)
		switch how {
		case MirrorEmpty:
			return out, true, nil
		case MirrorApply:
			if out, err = withTransform(out, m); err != nil {
				return nil, false, err
			}
		}
	}
	return out, false, nil
}

// DiffRow is one function of a comparison. FuncA or FuncB is NoFunc on the side that lacks it.
type DiffRow struct {
	Key                FuncKey
	FuncA, FuncB       FuncID
	SelfA, SelfB       time.Duration
	RunningA, RunningB time.Duration
}

// SelfDelta is B's self time minus A's.
func (r *DiffRow) SelfDelta() time.Duration { return r.SelfB - r.SelfA }

// RunningDelta is B's running time minus A's.
func (r *DiffRow) RunningDelta() time.Duration { return r.RunningB - r.RunningA }

// SelfDeltaPct is the self delta in percent of A's self time: +Inf for a function that has
// self time only in B, NaN when neither side has any.
func (r *DiffRow) SelfDeltaPct() float64 { return pct(r.SelfA, r.SelfB) }

// RunningDeltaPct is the running delta in percent of A's running time (see SelfDeltaPct).
func (r *DiffRow) RunningDeltaPct() float64 { return pct(r.RunningA, r.RunningB) }

// ChangeText is b against a in percent as the table and `flamedesk diff` print it: "+12.3%",
// "new" when only b has time, "=" when neither has any.
func ChangeText(a, b time.Duration) string {
	v := pct(a, b)
	switch {
	case math.IsNaN(v):
		return "="
	case math.IsInf(v, 1):
		return "new"
	}
	return fmt.Sprintf("%+.1f%%", v)
}

// pct is (b-a)/a in percent, computed from exact integers.
func pct(a, b time.Duration) float64 {
	switch {
	case a != 0:
		return 100 * float64(b-a) / float64(a)
	case b != 0:
		return math.Inf(1)
	}
	return math.NaN()
}

// Diff is the function-by-function comparison of two call trees, A (the baseline) and B.
type Diff struct {
	A, B               *Functions // B is nil when the B side is empty
	TotalA, TotalB     time.Duration
	SamplesA, SamplesB int
	Rows               []DiffRow
}

// TotalDeltaPct is B's total relative to A's, in percent (see DiffRow.SelfDeltaPct).
func (d *Diff) TotalDeltaPct() float64 { return pct(d.TotalA, d.TotalB) }

// NewDiff compares the non-inverted trees a and b; b may be nil for a side with nothing in it
// (see MirrorStack). Rows come sorted by self delta, largest increase first.
func NewDiff(a, b *Tree) *Diff {
	d := &Diff{A: a.Functions()}
	rowOf := map[FuncKey]int{}
	add := func(tree *Tree, isB bool) {
		f := tree.Functions()
		self, running := functionTimes(tree)
		for fn := range FuncID(f.Len()) {
			if self[fn] == 0 && running[fn] == 0 {
				continue
			}
			k := f.Key(fn)
			i, ok := rowOf[k]
			if !ok {
				i = len(d.Rows)
				rowOf[k] = i
				d.Rows = append(d.Rows, DiffRow{Key: k, FuncA: NoFunc, FuncB: NoFunc})
			}
			r := &d.Rows[i]
			if isB {
				r.FuncB, r.SelfB, r.RunningB = fn, self[fn], running[fn]
			} else {
				r.FuncA, r.SelfA, r.RunningA = fn, self[fn], running[fn]
			}
		}
	}
	add(a, false)
	d.TotalA, d.SamplesA = a.Total(), a.Samples()
	if b != nil {
		d.B = b.Functions()
		add(b, true)
		d.TotalB, d.SamplesB = b.Total(), b.Samples()
	}
	d.Sort(BySelfDelta, true)
	return d
}

// functionTimes sums a non-inverted tree per function: self time over all its nodes, and running
// time over its outermost calls only, so that recursion is not counted twice.
func functionTimes(tree *Tree) (self, running []time.Duration) {
	n := tree.Functions().Len()
	self = make([]time.Duration, n)
	running = make([]time.Duration, n)
	open := make([]int32, n) // calls of each function on the path being walked
	var walk func(ids []NodeID)
	walk = func(ids []NodeID) {
		for _, id := range ids {
			fn := tree.Func(id)
			if fn < 0 || int(fn) >= n {
				continue
			}
			self[fn] += tree.Self(id)
			if open[fn] == 0 {
				running[fn] += tree.Running(id)
			}
			open[fn]++
			walk(tree.Children(id))
			open[fn]--
		}
	}
	walk(tree.Roots())
	return self, running
}

// DiffColumn is a column of a comparison table.
type DiffColumn uint8

const (
	BySelfDelta DiffColumn = iota
	BySelfDeltaPct
	BySelfA
	BySelfB
	ByRunningDelta
	ByRunningDeltaPct
	ByRunningA
	ByRunningB
	ByFunctionName
	numDiffColumns
)

var diffColumnNames = [numDiffColumns]string{
	BySelfDelta:       "self-delta",
	BySelfDeltaPct:    "self-delta-pct",
	BySelfA:           "self-a",
	BySelfB:           "self-b",
	ByRunningDelta:    "running-delta",
	ByRunningDeltaPct: "running-delta-pct",
	ByRunningA:        "running-a",
	ByRunningB:        "running-b",
	ByFunctionName:    "name",
}

// String is the column's command-line name, e.g. "self-delta".
func (c DiffColumn) String() string {
	if c < numDiffColumns {
		return diffColumnNames[c]
	}
	return "DiffColumn(?)"
}

// ParseDiffColumn is the inverse of DiffColumn.String.
func ParseDiffColumn(s string) (DiffColumn, bool) {
	for c, name := range diffColumnNames {
		if name == s {
			return DiffColumn(c), true
		}
	}
	return 0, false
}

// DiffColumnNames lists the columns' command-line names.
func DiffColumnNames() []string { return slices.Clone(diffColumnNames[:]) }

// Sort orders the rows by column c, largest first when descending (for the name column, Z to A
// when descending). Ties, and percentages that are NaN, fall back to the self delta and then the
// key, so the order is deterministic.
func (d *Diff) Sort(c DiffColumn, descending bool) {
	slices.SortStableFunc(d.Rows, func(a, b DiffRow) int {
		var c0 int
		if c == ByFunctionName {
			c0 = compareKeys(a.Key, b.Key)
		} else {
			var last bool
			if c0, last = compareNaNLast(columnValue(&a, c), columnValue(&b, c)); last {
				return c0
			}
		}
		if descending {
			c0 = -c0
		}
		return cmp.Or(c0, cmp.Compare(b.SelfDelta(), a.SelfDelta()), compareKeys(a.Key, b.Key))
	})
}

// Describe names a row's function for people, as Functions.Describe does.
func (d *Diff) Describe(r *DiffRow) string {
	if r.FuncA != NoFunc {
		return d.A.Describe(r.FuncA)
	}
	return d.B.Describe(r.FuncB)
}

// CompareOptions are the choices of Compare.
type CompareOptions struct {
	// KeepIdle keeps the samples of V8's "(idle)" pseudo-function. They are dropped by default:
	// idle is waiting, not work, and two recordings of one page differ mostly in how long they
	// waited.
	KeepIdle bool
}

// Comparison is two profiles prepared for comparing: each side's transform stack over its own
// range, B's holding A's transforms translated by MirrorTransform.
type Comparison struct {
	A, B *Stack
	// EmptyB tells that a focus of A's stack names a function or path B lacks, so that nothing
	// of B is kept: B's trees are then left out of the rows.
	EmptyB bool
}

// Compare builds the comparison of the profile of a over range rA (A, the baseline) with
// profile b over range rB, both with the transforms of a: the two ranges are normally one range of
// an aligned axis, converted to each trace's clock. Rows are by function (see NewDiff).
func Compare(a *Stack, b *Functions, rA, rB Range, opt CompareOptions) (*Diff, error) {
	c, err := NewComparison(a, b, rA, rB, opt)
	if err != nil {
		return nil, err
	}
	return c.Functions(), nil
}

// NewComparison prepares the two sides of a comparison as Compare describes.
func NewComparison(a *Stack, b *Functions, rA, rB Range, opt CompareOptions) (*Comparison, error) {
	srcA, err := a.Functions().Source(rA)
	if err != nil {
		return nil, err
	}
	srcB, err := b.Source(rB)
	if err != nil {
		return nil, err
	}
	c := &Comparison{}
	if c.A, err = prepare(srcA, opt); err != nil {
		return nil, err
	}
	if c.B, err = prepare(srcB, opt); err != nil {
		return nil, err
	}
	indexB := keyIndex(b)
	for _, t := range a.Transforms() {
		if c.A, err = withTransform(c.A, t); err != nil {
			return nil, err
		}
		if c.EmptyB {
			continue
		}
		m, how := mirrorWith(t, a.Functions(), b, indexB)
		switch how {
		case MirrorEmpty:
			c.EmptyB = true
		case MirrorApply:
			if c.B, err = withTransform(c.B, m); err != nil {
				return nil, err
			}
		}
	}
	return c, nil
}

// treeB is B's tree in view v, nil when B is empty.
func (c *Comparison) treeB(v View) *Tree {
	if c.EmptyB {
		return nil
	}
	return c.B.Tree(v)
}

// Functions is the comparison by function, sorted by self delta.
func (c *Comparison) Functions() *Diff {
	d := NewDiff(c.A.Tree(View{}), c.treeB(View{}))
	d.B = c.B.Functions()
	return d
}

// Tree is the differential call tree in view v (its Order is ignored: see DiffTree.Sort).
func (c *Comparison) Tree(v View) *DiffTree {
	v.Order = ByRunning
	return NewDiffTree(c.A.Tree(v), c.treeB(v))
}

// prepare starts the stack of one side of a comparison.
func prepare(src *Source, opt CompareOptions) (*Stack, error) {
	s := NewStack(src)
	if opt.KeepIdle {
		return s, nil
	}
	if idle := IdleFunction(src.Functions()); idle != NoFunc {
		return withTransform(s, Transform{Kind: DropFunction, Func: idle})
	}
	return s, nil
}

// withTransform is s with t pushed. Every push of a comparison goes through here, so that it
// follows the stack's API in one place.
func withTransform(s *Stack, t Transform) (*Stack, error) {
	return s.Push(t)
}

// IdleFunction is V8's "(idle)" pseudo-function of the profile, NoFunc when it has none.
func IdleFunction(f *Functions) FuncID {
	for fn := range FuncID(f.Len()) {
		if !f.IsResource(fn) && f.URL(fn) == "" && f.Name(fn) == "(idle)" {
			return fn
		}
	}
	return NoFunc
}

// Matches reports whether the key is named by spec in the form the command line takes for a
// function: NAME, NAME@URL or NAME@URL:LINE:COLUMN (1-based); "(anonymous)" names a function
// without a name, and a collapsed script is named by its URL.
func (k FuncKey) Matches(spec string) bool {
	if k.Resource {
		return spec == k.URL
	}
	name, where, qualified := strings.Cut(spec, "@")
	own := k.Name
	if own == "" {
		own = "(anonymous)"
	}
	if name != own {
		return false
	}
	if !qualified {
		return true
	}
	if where == k.URL {
		return true
	}
	return k.Line >= 0 && k.Column >= 0 && where == k.URL+":"+strconv.Itoa(int(k.Line)+1)+":"+strconv.Itoa(int(k.Column)+1)
}

// compareNaNLast orders two column values. cmp.Compare puts NaN first; a row without a value (no
// percentage) goes last whichever way the column is sorted, so last reports that c is final and
// must not be reversed for a descending sort.
func compareNaNLast(va, vb float64) (c int, last bool) {
	switch {
	case math.IsNaN(va) && math.IsNaN(vb):
		return 0, false
	case math.IsNaN(va):
		return 1, true
	case math.IsNaN(vb):
		return -1, true
	}
	return cmp.Compare(va, vb), false
}
