package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"flamedesk/core"
	"flamedesk/core/calltree"
	"flamedesk/core/load"
)

const calltreeUsage = `Usage: flamedesk calltree FILE [--thread PID:TID] [--invert] [--range START_US:END_US]
                          [--transform KIND:ARG]... [--top N] [--format text|json]
                          [--sourcemaps DIR] [--generated]

Prints the call tree of one thread: samples aggregated by function, with running time, self time
and share of the total. Each sample weighs the time to the next one.

  --thread PID:TID   the thread to show; default: the only one of a .cpuprofile or self-profile,
                     else the main thread (CrRendererMain) with the most samples
  --invert           bottom-up: roots are the functions on top of the stacks
  --range S:E        only samples taken in [S, E), µs from the start of the trace (the ruler's 0,
                     DevTools' trace bounds); "@" before a side makes it a time on the trace's
                     clock; either side may be empty
  --transform T      apply T; repeat to apply several, in order. KIND is one of
                       focus-subtree, merge-call-node, prune        ARG: a PATH such as A/B/C
                       focus-subtree-inverted                       ARG: a bottom-up PATH such as E/D
                       focus-function, merge-function,
                       drop-function, collapse-recursion            ARG: NAME, NAME@URL or NAME@URL:LINE:COL
                       collapse-resource                            ARG: a script URL
                     A PATH is function names joined by "/" from a root of the tree as the previous
                     transforms left it (bottom-up: from the function on top of the stack down to
                     its callers); "(anonymous)" names a function without one.
  --top N            print only the N heaviest children of each node (0: all)
  --format F         text (an indented tree) or json:
                       {"units":"ms","total":T,"roots":[{"name","url","line","column","total",
                        "self","samples","children":[...]}]}  (line and column 1-based, 0 unknown)
  --generated        name functions as the engine recorded them, even where a source map gives
                     their original name, file and line (the default where one applies)
` + sourceMapsUsage

// transformFlags collects repeated --transform values.
type transformFlags []string

func (t *transformFlags) String() string     { return strings.Join(*t, ",") }
func (t *transformFlags) Set(s string) error { *t = append(*t, s); return nil }

type calltreeOptions struct {
	file       string
	thread     string
	invert     bool
	rng        timeRange
	transforms transformFlags
	top        int
	format     string
	sourceMaps string
	generated  bool
}

func runCalltree(args []string, stdout, stderr io.Writer) int {
	opts, code, ok := parseCalltreeArgs(args, stdout, stderr)
	if !ok {
		return code
	}
	tr, err := load.File(context.Background(), opts.file, nil)
	if err != nil {
		return inputError(stderr, opts.file, err)
	}
	noteSourceMaps(stderr, applySourceMaps(tr, opts.sourceMaps))
	return printCalltree(tr, opts, stdout, stderr)
}

// parseCalltreeArgs reads the flags, which may come before or after FILE. ok is false when the
// command should end with code.
func parseCalltreeArgs(args []string, stdout, stderr io.Writer) (opts calltreeOptions, code int, ok bool) {
	fs := flag.NewFlagSet("calltree", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var rangeStr string
	fs.StringVar(&opts.thread, "thread", "", "")
	fs.BoolVar(&opts.invert, "invert", false, "")
	fs.StringVar(&rangeStr, "range", "", "")
	fs.Var(&opts.transforms, "transform", "")
	fs.IntVar(&opts.top, "top", 0, "")
	fs.StringVar(&opts.format, "format", "text", "")
	fs.StringVar(&opts.sourceMaps, "sourcemaps", "", "")
	fs.BoolVar(&opts.generated, "generated", false, "")
	files, code, ok := parseFileArgs(fs, "calltree", calltreeUsage, args, stdout, stderr)
	if !ok {
		return opts, code, false
	}
	switch {
	case opts.format != "text" && opts.format != "json":
		return opts, usageError(stderr, "calltree: --format must be text or json, not %q", opts.format), false
	case opts.top < 0:
		return opts, usageError(stderr, "calltree: --top must not be negative"), false
	}
	opts.file = files[0]
	opts.rng = timeRange{r: calltree.AllTime}
	if rangeStr != "" {
		r, err := parseRange(rangeStr)
		if err != nil {
			return opts, usageError(stderr, "calltree: --range %q: %v", rangeStr, err), false
		}
		opts.rng = r
	}
	if opts.thread != "" {
		if _, _, err := parsePidTid(opts.thread); err != nil {
			return opts, usageError(stderr, "calltree: --thread %q: %v", opts.thread, err), false
		}
	}
	return opts, exitOK, true
}

// timeRange is a --range value: start and end as written, each either relative to the start of
// the trace or absolute ("@").
type timeRange struct {
	r                calltree.Range
	startAbs, endAbs bool
	hasStart, hasEnd bool
}

// resolve turns the range into times on the trace's clock, for a trace that starts at origin.
func (t timeRange) resolve(origin float64) calltree.Range {
	r := t.r
	if t.hasStart && !t.startAbs {
		r.Start += origin
	}
	if t.hasEnd && !t.endAbs {
		r.End += origin
	}
	return r
}

func parseRange(s string) (timeRange, error) {
	a, b, ok := strings.Cut(s, ":")
	if !ok {
		return timeRange{}, errors.New("want START_US:END_US")
	}
	t := timeRange{r: calltree.AllTime}
	side := func(v string) (float64, bool, error) {
		abs := strings.HasPrefix(v, "@")
		f, err := strconv.ParseFloat(strings.TrimPrefix(v, "@"), 64)
		if err != nil || math.IsNaN(f) {
			return 0, false, errors.New("not a number")
		}
		return f, abs, nil
	}
	var err error
	if a != "" {
		if t.r.Start, t.startAbs, err = side(a); err != nil {
			return t, fmt.Errorf("bad start %q", a)
		}
		t.hasStart = true
	}
	if b != "" {
		if t.r.End, t.endAbs, err = side(b); err != nil {
			return t, fmt.Errorf("bad end %q", b)
		}
		t.hasEnd = true
	}
	// Two sides of one kind can be checked now; a mixed pair once the origin is known.
	if t.hasStart && t.hasEnd && t.startAbs == t.endAbs && t.r.End <= t.r.Start {
		return t, errors.New("the end must be after the start")
	}
	return t, nil
}

func parsePidTid(s string) (pid, tid int64, err error) {
	a, b, ok := strings.Cut(s, ":")
	if !ok {
		return 0, 0, errors.New("want PID:TID")
	}
	if pid, err = strconv.ParseInt(a, 10, 64); err != nil {
		return 0, 0, fmt.Errorf("bad pid %q", a)
	}
	if tid, err = strconv.ParseInt(b, 10, 64); err != nil {
		return 0, 0, fmt.Errorf("bad tid %q", b)
	}
	return pid, tid, nil
}

// printCalltree builds and prints the call tree of a loaded trace.
func printCalltree(tr *core.Trace, opts calltreeOptions, stdout, stderr io.Writer) int {
	if len(tr.Profiles) == 0 {
		return inputError(stderr, opts.file, errors.New("no CPU profile in the file"))
	}
	profile := calltree.DefaultProfile(tr)
	if opts.thread != "" {
		pid, tid, _ := parsePidTid(opts.thread)
		profile = calltree.FindProfile(tr, pid, tid)
		if profile < 0 {
			var have []string
			for i, p := range tr.Profiles {
				have = append(have, fmt.Sprintf("%d:%d %s", p.Pid, p.Tid, calltree.ProfileLabel(tr, i)))
			}
			return usageError(stderr, "calltree: no profile for thread %s; profiled threads: %s", opts.thread, strings.Join(have, "; "))
		}
	}
	rng := opts.rng.resolve(tr.MinTs)
	if rng.End <= rng.Start {
		return usageError(stderr, "calltree: --range: the end must be after the start")
	}
	src, err := calltree.NewFunctionsNamed(tr, &tr.Profiles[profile], !opts.generated).Source(rng)
	if err != nil {
		return inputError(stderr, opts.file, fmt.Errorf("%s: %w", calltree.ProfileLabel(tr, profile), err))
	}
	stack := calltree.NewStack(src)
	for _, spec := range opts.transforms {
		ts, err := calltree.ParseSpec(spec, stack)
		if err != nil {
			return usageError(stderr, "calltree: %v", err)
		}
		for _, t := range ts {
			if stack, err = stack.Push(t); err != nil {
				return usageError(stderr, "calltree: %v", err)
			}
		}
	}
	tree := stack.Tree(calltree.View{Inverted: opts.invert})
	w := bufio.NewWriterSize(stdout, 1<<16)
	if opts.format == "json" {
		writeCalltreeJSON(w, tree, opts.top)
	} else {
		writeCalltreeText(w, tree, stack, calltree.ProfileLabel(tr, profile), opts.top)
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintf(stderr, "flamedesk: calltree: %v\n", err)
		return exitInput
	}
	return exitOK
}

func msOf(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// shown returns the children to print and the time and number of the ones left out by --top.
func shown(tree *calltree.Tree, kids []calltree.NodeID, top int) ([]calltree.NodeID, int, time.Duration) {
	if top <= 0 || len(kids) <= top {
		return kids, 0, 0
	}
	var rest time.Duration
	for _, k := range kids[top:] {
		rest += tree.Running(k)
	}
	return kids[:top], len(kids) - top, rest
}

// writeCalltreeText prints an indented tree, one node per line: running ms, self ms, running %.
func writeCalltreeText(w *bufio.Writer, tree *calltree.Tree, stack *calltree.Stack, label string, top int) {
	f := tree.Functions()
	total := tree.Total()
	view := "call tree"
	if tree.Inverted() {
		view = "bottom-up tree"
	}
	fmt.Fprintf(w, "%s of %s: %d samples, %.3f ms\n", view, label, tree.Samples(), msOf(total))
	if holes, d := stack.Source().Holes(); holes > 0 {
		fmt.Fprintf(w, "left out: %d samples (%.3f ms) with an unknown node\n", holes, msOf(d))
	}
	for i, t := range stack.Transforms() {
		fmt.Fprintf(w, "transform %d: %s\n", i+1, t.Spec(f))
	}
	fmt.Fprintf(w, "%12s %12s %7s  %s\n", "running ms", "self ms", "%", "function")
	pct := func(d time.Duration) float64 {
		if total <= 0 {
			return 0
		}
		return 100 * float64(d) / float64(total)
	}
	var indent []byte
	var walk func(kids []calltree.NodeID, depth int)
	walk = func(kids []calltree.NodeID, depth int) {
		for len(indent) < 2*depth {
			indent = append(indent, ' ')
		}
		list, more, rest := shown(tree, kids, top)
		for _, n := range list {
			run := tree.Running(n)
			fmt.Fprintf(w, "%12.3f %12.3f %6.1f%%  %s%s\n", msOf(run), msOf(tree.Self(n)), pct(run), indent[:2*depth], f.Describe(tree.Func(n)))
			walk(tree.Children(n), depth+1)
		}
		if more > 0 {
			fmt.Fprintf(w, "%12.3f %12s %6.1f%%  %s… %d more\n", msOf(rest), "", pct(rest), indent[:2*depth], more)
		}
	}
	walk(tree.Roots(), 0)
}

// writeCalltreeJSON prints the tree as nested objects, times in ms.
func writeCalltreeJSON(w *bufio.Writer, tree *calltree.Tree, top int) {
	f := tree.Functions()
	num := func(v float64) { w.WriteString(strconv.FormatFloat(v, 'f', -1, 64)) }
	str := func(s string) {
		b, _ := json.Marshal(s)
		w.Write(b)
	}
	var nodes func(kids []calltree.NodeID)
	nodes = func(kids []calltree.NodeID) {
		list, _, _ := shown(tree, kids, top)
		w.WriteByte('[')
		for i, n := range list {
			if i > 0 {
				w.WriteByte(',')
			}
			fn := tree.Func(n)
			w.WriteString(`{"name":`)
			str(f.Name(fn))
			w.WriteString(`,"url":`)
			str(f.URL(fn))
			w.WriteString(`,"line":`)
			w.WriteString(strconv.Itoa(int(f.Line(fn)) + 1))
			w.WriteString(`,"column":`)
			w.WriteString(strconv.Itoa(int(f.Column(fn)) + 1))
			w.WriteString(`,"total":`)
			num(msOf(tree.Running(n)))
			w.WriteString(`,"self":`)
			num(msOf(tree.Self(n)))
			w.WriteString(`,"samples":`)
			w.WriteString(strconv.Itoa(tree.RunningSamples(n)))
			w.WriteString(`,"children":`)
			nodes(tree.Children(n))
			w.WriteByte('}')
		}
		w.WriteByte(']')
	}
	w.WriteString(`{"units":"ms","total":`)
	num(msOf(tree.Total()))
	w.WriteString(`,"roots":`)
	nodes(tree.Roots())
	w.WriteString("}\n")
}
