package calltree

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"flamedesk/core"
)

// profileFromText builds a trace with one profile from samples drawn as text, in the style of
// Firefox Profiler's tests: one column per sample, the root function on the first row, each row
// one frame deeper. Columns are found from where the tokens of the first row start.
//
// A token is NAME, NAME@URL for a function of a script, and either may end in #VARIANT to make a
// different frame (for example a JIT-compiled copy) of the same function. Each sample lasts 1 ms.
func profileFromText(tb testing.TB, text string) *core.Trace {
	tb.Helper()
	lines := strings.Split(strings.TrimSuffix(dedent(text), "\n"), "\n")
	var starts []int
	first := lines[0]
	for i := range len(first) {
		if first[i] != ' ' && (i == 0 || first[i-1] == ' ') {
			starts = append(starts, i)
		}
	}
	stacks := make([][]string, len(starts))
	for _, line := range lines {
		for i := range len(line) {
			if line[i] == ' ' || (i > 0 && line[i-1] != ' ') {
				continue
			}
			col := -1
			for c, s := range starts {
				if s == i {
					col = c
				}
			}
			if col < 0 {
				tb.Fatalf("token at offset %d of %q is not under a column", i, line)
			}
			end := strings.IndexByte(line[i:], ' ')
			if end < 0 {
				end = len(line) - i
			}
			stacks[col] = append(stacks[col], line[i:i+end])
		}
	}
	weights := make([]float64, len(stacks))
	for i := range weights {
		weights[i] = 1000
	}
	return profileFromStacks(tb, stacks, weights)
}

// profileFromStacks builds a trace whose one profile has a sample per stack (tokens as in
// profileFromText; a nil stack is a hole), sample i lasting weights[i] µs.
func profileFromStacks(tb testing.TB, stacks [][]string, weights []float64) *core.Trace {
	tb.Helper()
	tr := &core.Trace{Kind: core.InputCPUProfile, Strings: core.NewStrings()}
	tr.Threads = []core.Thread{{Pid: 1, Tid: 1, Name: tr.Strings.Intern("Main")}}
	frames := map[string]core.FrameID{}
	frameOf := func(token string) core.FrameID {
		if id, ok := frames[token]; ok {
			return id
		}
		fn, variant, _ := strings.Cut(token, "#")
		name, url, _ := strings.Cut(fn, "@")
		cf := core.CallFrame{
			FunctionName: tr.Strings.Intern(name),
			URL:          tr.Strings.Intern(url),
			CodeType:     tr.Strings.Intern(variant),
			Line:         -1,
			Column:       -1,
		}
		if url != "" {
			cf.Line, cf.Column = int32(len(name)), 0
		}
		id := core.FrameID(len(tr.Frames))
		tr.Frames = append(tr.Frames, cf)
		frames[token] = id
		return id
	}
	p := core.ProfileModel{Pid: 1, Tid: 1, ProgramNode: -1, IdleNode: -1, GCNode: -1}
	addNode := func(parent int32, frame core.FrameID) int32 {
		id := int32(len(p.NodeParent))
		p.NodeID = append(p.NodeID, int64(id+1))
		p.NodeParent = append(p.NodeParent, parent)
		depth := int32(-1)
		if parent >= 0 {
			depth = p.NodeDepth[parent] + 1
		}
		p.NodeDepth = append(p.NodeDepth, depth)
		p.NodeFrame = append(p.NodeFrame, frame)
		return id
	}
	addNode(-1, frameOf("(root)"))
	children := map[[2]int64]int32{}
	ts := 0.0
	for i, stack := range stacks {
		node := int32(-1)
		if stack != nil {
			node = 0
			for _, token := range stack {
				f := frameOf(token)
				key := [2]int64{int64(node), int64(f)}
				child, ok := children[key]
				if !ok {
					child = addNode(node, f)
					children[key] = child
				}
				node = child
			}
		}
		p.Samples = append(p.Samples, node)
		p.Timestamps = append(p.Timestamps, ts)
		ts += weights[i]
	}
	p.Timestamps = append(p.Timestamps, ts)
	p.StartTime, p.EndTime = 0, ts
	tr.Profiles = []core.ProfileModel{p}
	return tr
}

func mustStack(tb testing.TB, tr *core.Trace) *Stack {
	tb.Helper()
	src, err := NewSource(tr, &tr.Profiles[0], AllTime)
	if err != nil {
		tb.Fatal(err)
	}
	return NewStack(src)
}

// ms formats a duration as the seed's pictures do: whole milliseconds, else fractions.
func ms(d time.Duration) string {
	if d%time.Millisecond == 0 {
		return fmt.Sprint(int64(d / time.Millisecond))
	}
	return fmt.Sprint(float64(d) / float64(time.Millisecond))
}

// drawTree renders a tree in the seed's notation, one "NAME:RUNNING,SELF" per line, indented two
// spaces per level, children in view order.
func drawTree(tr *Tree) string {
	var b strings.Builder
	tr.Walk(func(n NodeID) bool {
		fmt.Fprintf(&b, "%s%s:%s,%s\n", strings.Repeat("  ", tr.Depth(n)), displayName(tr.Functions(), tr.Func(n)), ms(tr.Running(n)), ms(tr.Self(n)))
		return true
	})
	return b.String()
}

// dedent strips the common leading blank lines and indentation of an expected picture.
func dedent(s string) string {
	lines := strings.Split(strings.TrimLeft(strings.TrimRight(s, " \t\n"), "\n"), "\n")
	indent := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " \t"))
		if indent < 0 || n < indent {
			indent = n
		}
	}
	for i, l := range lines {
		if len(l) >= indent {
			lines[i] = l[indent:]
		}
	}
	return strings.Join(lines, "\n") + "\n"
}

// push resolves a command-line spec against the stack's current tree and returns the stack with
// it pushed.
func push(tb testing.TB, s *Stack, spec string) *Stack {
	tb.Helper()
	ts, err := ParseSpec(spec, s)
	if err != nil {
		tb.Fatal(err)
	}
	for _, t := range ts {
		var err error
		if s, err = s.Push(t); err != nil {
			tb.Fatal(err)
		}
	}
	return s
}

func checkTree(tb testing.TB, s *Stack, v View, want string) {
	tb.Helper()
	got := drawTree(s.Tree(v))
	if got != dedent(want) {
		tb.Errorf("tree after %v:\ngot:\n%swant:\n%s", specs(s), got, dedent(want))
	}
}

func specs(s *Stack) []string {
	var out []string
	for _, t := range s.Transforms() {
		out = append(out, t.Spec(s.Functions()))
	}
	return out
}
