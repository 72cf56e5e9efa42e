package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"image/png"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"flamedesk/core"
	"flamedesk/core/align"
	"flamedesk/core/calltree"
	"flamedesk/core/integrate"
	"flamedesk/core/load"
	"flamedesk/render"
	"flamedesk/timeline"
)

// exitRegression is diff's answer to --fail-above: B is slower than A by more than allowed.
const exitRegression = 3

const diffUsage = `Usage: flamedesk diff A B [--thread T] [--align start|navigation|mark:NAME|offset:US]
                      [--range S,E] [--transform KIND:ARG]... [--idle] [--sort COLUMN]
                      [--tree [--invert]] [--top N] [--format text|json]
                      [--fail-above PCT [--function NAME]] [--png OUT.png [--theme light|dark]]

Compares the CPU samples of two profiles (traces, .cpuprofile or JS Self-Profiling files, in any
mix): for every function, matched by name, script URL, line and column, its self and running time
in A and in B. Each sample weighs the time to the next one, so profiles sampled at different
intervals compare as time. V8's "(idle)" samples are left out unless --idle is given.

  --thread T         the thread to compare: PID:TID or a thread name such as CrRendererMain;
                     B's thread is the one with the same PID:TID, else the same name as A's.
                     Default: the main thread (CrRendererMain) with the most samples
  --align A          how B's clock is lined up with A's: start (the first samples, the default),
                     navigation (each trace's navigation start), mark:NAME (the first User Timing
                     mark or measure NAME in each), offset:US (the starts, then B shifted by US µs)
  --range S,E        compare only samples in [S, E), ms from the alignment point, on both sides;
                     either side may be empty
  --transform T      a call-tree transform, as in "flamedesk calltree", named in A's tree and
                     applied to both sides; repeat to apply several
  --idle             keep the "(idle)" samples in the totals
  --sort COLUMN      self-delta (default), self-delta-pct, self-a, self-b, running-delta,
                     running-delta-pct, running-a, running-b or name; largest first
  --tree             the differential call tree instead of the table: both call trees merged by
                     call path, children sorted by --sort (default here: running-delta)
  --invert           with --tree: the bottom-up tree
  --top N            print only the first N functions (with --tree: of each node's children; 0: all)
  --format F         text (a table) or json:
                       {"units":"ms","align":{"method","offset"},"a":{"file","total","samples"},
                        "b":{...},"functions":[{"name","url","line","column","selfA","selfB",
                        "runningA","runningB"}]}   (line and column 1-based, 0 unknown);
                     with --tree, "tree" holds the roots instead of "functions", each node with the
                     same fields and "children"
  --png OUT.png      also draw B's compared thread over the compared range as a flame chart in
                     diff colours: each function red when it takes more self time in B than in
                     A, green when less, grey when unchanged (1600×1000; --theme light or dark)
  --fail-above PCT   exit 3 when B's total is more than PCT % above A's
  --function NAME    with --fail-above: compare this function's self time instead of the totals
                     (NAME, NAME@URL or NAME@URL:LINE:COL; several matches are summed)

Exit status: 0 ok (or no regression), 1 bad input, 2 usage, 3 regression above --fail-above.
`

type diffOptions struct {
	files      [2]string
	thread     string
	align      align.Spec
	rangeMs    [2]float64
	hasRange   bool
	transforms transformFlags
	keepIdle   bool
	tree       bool
	invert     bool
	sort       calltree.DiffColumn
	top        int
	format     string
	failAbove  float64 // NaN when not asked for
	function   string
	png        string
	theme      string
}

func runDiff(args []string, stdout, stderr io.Writer) int {
	opts, code, ok := parseDiffArgs(args, stdout, stderr)
	if !ok {
		return code
	}
	var traces [2]*core.Trace
	for i, file := range opts.files {
		tr, err := load.File(context.Background(), file, nil)
		if err != nil {
			return inputError(stderr, file, err)
		}
		traces[i] = tr
	}
	return compareTraces(traces, opts, stdout, stderr)
}

func parseDiffArgs(args []string, stdout, stderr io.Writer) (opts diffOptions, code int, ok bool) {
	fs := flag.NewFlagSet("diff", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var alignStr, rangeStr, sortStr string
	fs.StringVar(&opts.thread, "thread", "", "")
	fs.StringVar(&alignStr, "align", "start", "")
	fs.StringVar(&rangeStr, "range", "", "")
	fs.Var(&opts.transforms, "transform", "")
	fs.BoolVar(&opts.keepIdle, "idle", false, "")
	fs.StringVar(&sortStr, "sort", "", "")
	fs.BoolVar(&opts.tree, "tree", false, "")
	fs.BoolVar(&opts.invert, "invert", false, "")
	fs.IntVar(&opts.top, "top", 0, "")
	fs.StringVar(&opts.format, "format", "text", "")
	failAbove := fs.String("fail-above", "", "")
	fs.StringVar(&opts.function, "function", "", "")
	fs.StringVar(&opts.png, "png", "", "")
	fs.StringVar(&opts.theme, "theme", "light", "")
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Fprint(stdout, diffUsage)
				return opts, exitOK, false
			}
			return opts, usageError(stderr, "diff: %v", err), false
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}
	bad := func(format string, a ...any) (diffOptions, int, bool) {
		return opts, usageError(stderr, "diff: "+format, a...), false
	}
	if len(files) != 2 {
		return bad("want two files, A and B, got %d", len(files))
	}
	opts.files = [2]string{files[0], files[1]}
	var err error
	if opts.align, err = align.ParseSpec(alignStr); err != nil {
		return bad("--align: %v", err)
	}
	if rangeStr != "" {
		if opts.rangeMs, err = parseMsRange(rangeStr); err != nil {
			return bad("--range %q: %v", rangeStr, err)
		}
		opts.hasRange = true
	}
	if sortStr == "" {
		sortStr = calltree.BySelfDelta.String()
		if opts.tree {
			sortStr = calltree.ByRunningDelta.String()
		}
	}
	if opts.invert && !opts.tree {
		return bad("--invert needs --tree")
	}
	var okSort bool
	if opts.sort, okSort = calltree.ParseDiffColumn(sortStr); !okSort {
		return bad("--sort %q: want one of %s", sortStr, strings.Join(calltree.DiffColumnNames(), ", "))
	}
	if opts.top < 0 {
		return bad("--top must not be negative")
	}
	if opts.format != "text" && opts.format != "json" {
		return bad("--format must be text or json, not %q", opts.format)
	}
	opts.failAbove = math.NaN()
	if *failAbove != "" {
		v, err := strconv.ParseFloat(*failAbove, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return bad("--fail-above %q: want a percentage", *failAbove)
		}
		opts.failAbove = v
	}
	if opts.function != "" && math.IsNaN(opts.failAbove) {
		return bad("--function needs --fail-above")
	}
	if render.ThemeByName(opts.theme) == nil {
		return bad("--theme must be light or dark, not %q", opts.theme)
	}
	return opts, exitOK, true
}

// parseMsRange reads "S,E" in ms; either side may be empty.
func parseMsRange(s string) ([2]float64, error) {
	a, b, ok := strings.Cut(s, ",")
	if !ok {
		return [2]float64{}, errors.New("want S,E in ms")
	}
	r := [2]float64{math.Inf(-1), math.Inf(1)}
	for i, v := range []string{a, b} {
		if v == "" {
			continue
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return r, fmt.Errorf("bad number %q", v)
		}
		r[i] = f
	}
	if r[1] <= r[0] {
		return r, errors.New("the end must be after the start")
	}
	return r, nil
}

// pickProfile chooses the compared profile of one side: by --thread, else the default. like is
// the thread A ended up with (in likeTrace), which B falls back to by name.
func pickProfile(tr *core.Trace, thread string, like *core.Thread, likeTrace *core.Trace) (int, error) {
	if len(tr.Profiles) == 0 {
		return -1, errors.New("no CPU profile in the file")
	}
	byName := func(name string) int {
		best := -1
		for i := range tr.Profiles {
			p := &tr.Profiles[i]
			if int(p.Thread) < len(tr.Threads) && tr.Strings.Get(tr.Threads[p.Thread].Name) == name &&
				(best < 0 || len(p.Samples) > len(tr.Profiles[best].Samples)) {
				best = i
			}
		}
		return best
	}
	if thread == "" {
		return calltree.DefaultProfile(tr), nil
	}
	if pid, tid, err := parsePidTid(thread); err == nil {
		if i := calltree.FindProfile(tr, pid, tid); i >= 0 {
			return i, nil
		}
		if like != nil {
			if i := byName(likeTrace.Strings.Get(like.Name)); i >= 0 && like.Name != 0 {
				return i, nil
			}
		}
	} else if i := byName(thread); i >= 0 {
		return i, nil
	}
	var have []string
	for i, p := range tr.Profiles {
		have = append(have, fmt.Sprintf("%d:%d %s", p.Pid, p.Tid, calltree.ProfileLabel(tr, i)))
	}
	return -1, fmt.Errorf("no profile for thread %s; profiled threads: %s", thread, strings.Join(have, "; "))
}

// compareTraces runs the comparison of two loaded files and prints it.
func compareTraces(traces [2]*core.Trace, opts diffOptions, stdout, stderr io.Writer) int {
	var profiles [2]int
	var like *core.Thread
	for i, tr := range traces {
		p, err := pickProfile(tr, opts.thread, like, traces[0])
		if err != nil {
			if len(tr.Profiles) > 0 {
				return usageError(stderr, "diff: %s: --thread: %v", opts.files[i], err)
			}
			return inputError(stderr, opts.files[i], err)
		}
		profiles[i] = p
		if pr := &tr.Profiles[p]; i == 0 && int(pr.Thread) < len(tr.Threads) {
			like = &tr.Threads[pr.Thread]
		}
	}
	al, err := align.Align(align.Side{Trace: traces[0], Profile: profiles[0]}, align.Side{Trace: traces[1], Profile: profiles[1]}, opts.align)
	if err != nil {
		return inputError(stderr, opts.files[0]+" / "+opts.files[1], fmt.Errorf("--align %s: %w", opts.align, err))
	}
	rA, rB := calltree.AllTime, calltree.AllTime
	if opts.hasRange {
		// Unbounded ends stay unbounded: ±Inf survives the shift.
		s, e, bs, be := al.Range(opts.rangeMs[0]*1000, opts.rangeMs[1]*1000)
		rA, rB = calltree.Range{Start: s, End: e}, calltree.Range{Start: bs, End: be}
	}
	funcsA := calltree.NewFunctions(traces[0], &traces[0].Profiles[profiles[0]])
	funcsB := calltree.NewFunctions(traces[1], &traces[1].Profiles[profiles[1]])
	srcA, err := funcsA.Source(rA)
	if err != nil {
		return inputError(stderr, opts.files[0], err)
	}
	stackA := calltree.NewStack(srcA)
	for _, spec := range opts.transforms {
		ts, err := calltree.ParseSpec(spec, stackA)
		if err != nil {
			return usageError(stderr, "diff: %v (transforms are named in A's tree)", err)
		}
		for _, t := range ts {
			if stackA, err = stackA.Push(t); err != nil { // the stack's one push in this file
				return usageError(stderr, "diff: %v", err)
			}
		}
	}
	c, err := calltree.NewComparison(stackA, funcsB, rA, rB, calltree.CompareOptions{KeepIdle: opts.keepIdle})
	if err != nil {
		return inputError(stderr, opts.files[1], err)
	}
	d := c.Functions()
	d.Sort(opts.sort, true)
	var tree *calltree.DiffTree
	if opts.tree {
		tree = c.Tree(calltree.View{Inverted: opts.invert})
		tree.Sort(opts.sort, true)
	}

	labels := [2]string{calltree.ProfileLabel(traces[0], profiles[0]), calltree.ProfileLabel(traces[1], profiles[1])}
	w := bufio.NewWriterSize(stdout, 1<<16)
	if opts.format == "json" {
		writeDiffJSON(w, d, tree, al, opts)
	} else {
		writeDiffText(w, d, tree, al, opts, labels)
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintf(stderr, "flamedesk: diff: %v\n", err)
		return exitInput
	}
	if opts.png != "" {
		p := &traces[1].Profiles[profiles[1]]
		if code := drawDiffPNG(traces[1], p.Pid, p.Tid, d, rB, opts, stdout, stderr); code != exitOK {
			return code
		}
	}
	if math.IsNaN(opts.failAbove) {
		return exitOK
	}
	return checkRegression(d, opts, stderr)
}

// checkRegression applies --fail-above (and --function) to a comparison.
func checkRegression(d *calltree.Diff, opts diffOptions, stderr io.Writer) int {
	what, a, b := "total", d.TotalA, d.TotalB
	if opts.function != "" {
		found := false
		a, b = 0, 0
		for i := range d.Rows {
			if r := &d.Rows[i]; r.Key.Matches(opts.function) {
				found = true
				a += r.SelfA
				b += r.SelfB
			}
		}
		if !found {
			return usageError(stderr, "diff: --function %q: no function of that name has samples in A or B", opts.function)
		}
		what = opts.function + " self time"
	}
	// B is over the limit when b > a·(1 + PCT/100); compared in float64 ns, which is exact for
	// any profile shorter than 104 days.
	limit := float64(a) * (1 + opts.failAbove/100)
	if float64(b) > limit {
		fmt.Fprintf(stderr, "flamedesk: diff: %s is %s ms in B against %s ms in A (%s), more than %g%% above\n",
			what, exactMs(b), exactMs(a), calltree.ChangeText(a, b), opts.failAbove)
		return exitRegression
	}
	return exitOK
}

// exactMs prints a whole number of ns as ms with six decimals: an exact decimal, so that sums of
// the printed values equal the printed totals.
func exactMs(d time.Duration) string {
	sign := ""
	if d < 0 {
		sign, d = "-", -d
	}
	return fmt.Sprintf("%s%d.%06d", sign, d/time.Millisecond, d%time.Millisecond)
}

func signedMs(d time.Duration) string { return fmt.Sprintf("%+.3f", msOf(d)) }

func writeDiffText(w *bufio.Writer, d *calltree.Diff, tree *calltree.DiffTree, al align.Alignment, opts diffOptions, labels [2]string) {
	idle := ", (idle) left out"
	if opts.keepIdle {
		idle = ""
	}
	fmt.Fprintf(w, "A: %s — %s: %d samples, %.3f ms%s\n", opts.files[0], labels[0], d.SamplesA, msOf(d.TotalA), idle)
	fmt.Fprintf(w, "B: %s — %s: %d samples, %.3f ms%s\n", opts.files[1], labels[1], d.SamplesB, msOf(d.TotalB), idle)
	fmt.Fprintf(w, "aligned by %s: B's clock = A's %+.3f ms\n", al.Spec, al.Offset/1000)
	if opts.hasRange {
		fmt.Fprintf(w, "range: %g to %g ms from the alignment point\n", opts.rangeMs[0], opts.rangeMs[1])
	}
	for i, t := range opts.transforms {
		fmt.Fprintf(w, "transform %d: %s\n", i+1, t)
	}
	fmt.Fprintf(w, "total: %.3f → %.3f ms (%s ms, %s)\n", msOf(d.TotalA), msOf(d.TotalB), signedMs(d.TotalB-d.TotalA), calltree.ChangeText(d.TotalA, d.TotalB))
	if tree != nil {
		writeDiffTreeText(w, tree, opts.top)
		return
	}
	fmt.Fprintf(w, "%10s %10s %10s %7s %10s %10s %10s  %s\n", "self A", "self B", "Δ self", "Δ%", "running A", "running B", "Δ running", "function")
	rows := d.Rows
	if opts.top > 0 && len(rows) > opts.top {
		rows = rows[:opts.top]
	}
	for i := range rows {
		r := &rows[i]
		fmt.Fprintf(w, "%10.3f %10.3f %10s %7s %10.3f %10.3f %10s  %s\n", msOf(r.SelfA), msOf(r.SelfB), signedMs(r.SelfDelta()),
			calltree.ChangeText(r.SelfA, r.SelfB), msOf(r.RunningA), msOf(r.RunningB), signedMs(r.RunningDelta()), d.Describe(r))
	}
	if more := len(d.Rows) - len(rows); more > 0 {
		fmt.Fprintf(w, "… %d more functions\n", more)
	}
}

// writeDiffTreeText prints the differential tree indented, one node per line, at most top
// children per node.
func writeDiffTreeText(w *bufio.Writer, tree *calltree.DiffTree, top int) {
	view := "call tree"
	if tree.Inverted() {
		view = "bottom-up tree"
	}
	fmt.Fprintf(w, "differential %s:\n", view)
	fmt.Fprintf(w, "%10s %10s %10s %7s %10s %10s  %s\n", "running A", "running B", "Δ running", "Δ%", "self A", "self B", "function")
	var walk func(ids []calltree.DiffNodeID, depth int)
	walk = func(ids []calltree.DiffNodeID, depth int) {
		list := ids
		if top > 0 && len(list) > top {
			list = list[:top]
		}
		indent := strings.Repeat("  ", depth)
		for _, n := range list {
			r := tree.Row(n)
			fmt.Fprintf(w, "%10.3f %10.3f %10s %7s %10.3f %10.3f  %s%s\n", msOf(r.RunningA), msOf(r.RunningB), signedMs(r.RunningDelta()),
				calltree.ChangeText(r.RunningA, r.RunningB), msOf(r.SelfA), msOf(r.SelfB), indent, tree.Describe(n))
			walk(tree.Children(n), depth+1)
		}
		if more := len(ids) - len(list); more > 0 {
			fmt.Fprintf(w, "%10s %10s %10s %7s %10s %10s  %s… %d more\n", "", "", "", "", "", "", indent, more)
		}
	}
	walk(tree.Roots(), 0)
}

func writeDiffJSON(w *bufio.Writer, d *calltree.Diff, tree *calltree.DiffTree, al align.Alignment, opts diffOptions) {
	str := func(s string) {
		b, _ := json.Marshal(s)
		w.Write(b)
	}
	side := func(file string, total time.Duration, samples int) {
		w.WriteString(`{"file":`)
		str(file)
		w.WriteString(`,"total":` + exactMs(total) + `,"samples":` + strconv.Itoa(samples) + `}`)
	}
	w.WriteString(`{"units":"ms","align":{"method":`)
	str(al.Spec.String())
	w.WriteString(`,"offset":` + strconv.FormatFloat(al.Offset/1000, 'f', -1, 64) + `},"a":`)
	side(opts.files[0], d.TotalA, d.SamplesA)
	w.WriteString(`,"b":`)
	side(opts.files[1], d.TotalB, d.SamplesB)
	fields := func(r *calltree.DiffRow) {
		name := r.Key.Name
		if r.Key.Resource {
			name = r.Key.URL
		}
		w.WriteString(`{"name":`)
		str(name)
		w.WriteString(`,"url":`)
		str(r.Key.URL)
		w.WriteString(`,"line":` + strconv.Itoa(int(r.Key.Line)+1) + `,"column":` + strconv.Itoa(int(r.Key.Column)+1))
		w.WriteString(`,"selfA":` + exactMs(r.SelfA) + `,"selfB":` + exactMs(r.SelfB))
		w.WriteString(`,"runningA":` + exactMs(r.RunningA) + `,"runningB":` + exactMs(r.RunningB))
	}
	if tree != nil {
		w.WriteString(`,"tree":`)
		var nodes func(ids []calltree.DiffNodeID)
		nodes = func(ids []calltree.DiffNodeID) {
			if opts.top > 0 && len(ids) > opts.top {
				ids = ids[:opts.top]
			}
			w.WriteByte('[')
			for i, n := range ids {
				if i > 0 {
					w.WriteByte(',')
				}
				r := tree.Row(n)
				fields(&r)
				w.WriteString(`,"children":`)
				nodes(tree.Children(n))
				w.WriteByte('}')
			}
			w.WriteByte(']')
		}
		nodes(tree.Roots())
		w.WriteString("}\n")
		return
	}
	w.WriteString(`,"functions":[`)
	rows := d.Rows
	if opts.top > 0 && len(rows) > opts.top {
		rows = rows[:opts.top]
	}
	for i := range rows {
		if i > 0 {
			w.WriteByte(',')
		}
		fields(&rows[i])
		w.WriteByte('}')
	}
	w.WriteString("]}\n")
}

// drawDiffPNG draws thread pid:tid of tr over range r (as far as it is finite) in the diff
// colours of d.
func drawDiffPNG(tr *core.Trace, pid, tid int64, d *calltree.Diff, r calltree.Range, opts diffOptions, stdout, stderr io.Writer) int {
	const width, height = 1600, 1000
	integrate.Build(tr)
	m := timeline.New(tr)
	if err := showOnlyThread(m, fmt.Sprintf("%d:%d", pid, tid)); err != nil {
		return inputError(stderr, opts.files[1], err)
	}
	lo, hi := m.Bounds()
	vp := timeline.NewViewport(lo, hi)
	t0, t1 := max(lo, r.Start), min(hi, r.End)
	if t1 > t0 {
		vp.SetView(timeline.View{Start: t0 - vp.Origin(), Span: t1 - t0})
	}
	theme := render.ThemeByName(opts.theme)
	b := render.NewBuilder(m)
	b.SetDiffLevels(render.NewDiffShades(d, theme).FrameLevels(tr))
	var list render.DrawList
	b.Build(&list, vp, &render.Frame{
		Width: width, Height: height, Theme: theme,
		Selection: timeline.NoEntry, Hover: timeline.Hit{Kind: timeline.HitNone, Track: -1, Group: -1, Entry: timeline.NoEntry},
	})
	f, err := os.Create(opts.png)
	if err != nil {
		return writeError(stderr, opts.png, err)
	}
	w := bufio.NewWriter(f)
	err = png.Encode(w, render.PaintImage(&list))
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return writeError(stderr, opts.png, err)
	}
	if opts.format == "text" {
		fmt.Fprintf(stdout, "%s: B's flame chart in diff colours, %d bars\n", opts.png, list.Stats.Spans)
	}
	return exitOK
}
