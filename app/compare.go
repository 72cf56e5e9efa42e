package app

// The Compare tab: a second profile (B) loaded beside the open one (A), and the function-by-
// function differential table of the thread and range the call tree shows. B loads and every
// table is computed in the background; the panel follows the call tree's thread and range.

import (
	"context"
	"errors"
	"fmt"
	"image"
	"math"
	"time"

	"gioui.org/layout"
	"gioui.org/op"
	"gioui.org/op/clip"
	"gioui.org/op/paint"
	"gioui.org/unit"
	"gioui.org/widget"

	"flamedesk/app/task"
	"flamedesk/app/theme"
	"flamedesk/core"
	"flamedesk/core/align"
	"flamedesk/core/calltree"
	"flamedesk/render"
)

// compareColumns are the table's columns, left to right, with the order a click on each sorts by.
var compareColumns = [...]struct {
	title string
	sort  calltree.DiffColumn
}{
	{"Self A", calltree.BySelfA},
	{"Self B", calltree.BySelfB},
	{"Δ self", calltree.BySelfDelta},
	{"Δ %", calltree.BySelfDeltaPct},
	{"Running A", calltree.ByRunningA},
	{"Running B", calltree.ByRunningB},
	{"Function", calltree.ByFunctionName},
}

// compareBarDp is the width of the column that draws each row's self delta as a bar.
const compareBarDp = 90

// comparePanel holds profile B and the table comparing it with the open document.
type comparePanel struct {
	src  Source // B; its Name is empty when no comparison was asked for
	spec align.Spec

	load   task.Future[*core.Trace]
	traceB *core.Trace
	build  task.Future[compareBuilt]

	// doc, profile and rng are what the current table (or the build running) compares.
	doc     *document
	profile int
	rng     calltree.Range
	diff    *calltree.Diff
	sort    calltree.DiffColumn
	message string
	// levels is the diff level of each of A's frames (render.DiffShades.FrameLevels) by this
	// table, and colours says the chart shows them.
	levels  []int8
	colours bool

	// generated says the table names functions as the engine did (the toolbar's Names switch).
	generated bool

	headers []widget.Clickable
	list    widget.List
	// tabsH is the height of the Tree/Compare tabs and headerY the column titles' top within the panel's right side, as laid out in the last
	// frame (for tests).
	tabsH, headerY int
	// tabX is where the Compare tab starts, after the Tree tab's width.
	tabX int
}

func (c *comparePanel) init(invalidate func(), src Source, spec align.Spec) {
	c.load.Invalidate = invalidate
	c.build.Invalidate = invalidate
	c.src, c.spec, c.profile = src, spec, -1
	c.headers = make([]widget.Clickable, len(compareColumns))
}

// active reports whether a comparison was asked for.
func (c *comparePanel) active() bool { return c.src.Name != "" }

// start loads B with load, off the UI goroutine.
func (c *comparePanel) start(load LoadFunc) {
	if !c.active() {
		return
	}
	src := c.src
	c.message = "Loading " + src.Name + "…"
	c.load.Start(func(ctx context.Context) (*core.Trace, error) {
		return load(ctx, src, new(core.Progress))
	})
}

// compareBuilt is a table and the chart's diff levels by it.
type compareBuilt struct {
	diff   *calltree.Diff
	levels []int8
}

// toggleDiffColours switches A's flame chart between colours by script and by self-time change.
type toggleDiffColours struct{}

func (toggleDiffColours) isAction() {}

// chartLevels is what the chart should colour by: nil for colours by script.
func (c *comparePanel) chartLevels() []int8 {
	if !c.colours {
		return nil
	}
	return c.levels
}

func (u *ui) toggleDiffColours() {
	c := &u.panel.compare
	c.colours = !c.colours
	u.chart.setDiffLevels(c.chartLevels())
}

// setDiffLevels colours the chart by levels (nil: by script).
func (c *chart) setDiffLevels(levels []int8) {
	c.diffLevels = levels
	if c.builder != nil {
		c.builder.SetDiffLevels(levels)
	}
	c.invalidate()
}

// pending reports whether B is loading or a table is being computed.
func (c *comparePanel) pending() bool { return c.load.Pending() || c.build.Pending() }

func (c *comparePanel) cancel() {
	c.load.Cancel()
	c.build.Cancel()
}

// poll installs B and finished tables, and starts a new table when the call tree moved to
// another document, thread or range. It reports whether the chart's diff levels changed.
func (c *comparePanel) poll(d *document, profile int, rng calltree.Range) (levelsChanged bool) {
	if !c.active() {
		return false
	}
	if tr, err, ok := c.load.Poll(); ok {
		if err != nil {
			c.message = "Could not open " + c.src.Name + ": " + err.Error()
			return false
		}
		c.traceB, c.message = tr, ""
		c.doc = nil // compute afresh
	}
	if b, err, ok := c.build.Poll(); ok {
		if err != nil {
			c.diff, c.levels, c.message = nil, nil, err.Error()
		} else {
			b.diff.Sort(c.sort, c.sort != calltree.ByFunctionName)
			c.diff, c.levels, c.message = b.diff, b.levels, ""
		}
		levelsChanged = c.colours
	}
	if c.traceB == nil || d == nil || (d == c.doc && profile == c.profile && rng == c.rng && d.model.GeneratedNames == c.generated) {
		return levelsChanged
	}
	c.doc, c.profile, c.rng, c.generated = d, profile, rng, d.model.GeneratedNames
	if profile < 0 {
		c.build.Cancel()
		c.diff, c.levels, c.message = nil, nil, "This trace has no CPU profile."
		return c.colours
	}
	trA, trB, spec, original := d.trace, c.traceB, c.spec, !c.generated
	c.build.Start(func(ctx context.Context) (compareBuilt, error) {
		diff, err := compareProfiles(trA, profile, trB, spec, rng, original)
		if err != nil {
			return compareBuilt{}, err
		}
		// The levels do not depend on the theme, only on the changes and their scale.
		levels := render.NewDiffShades(diff, render.ThemeByName("light")).FrameLevels(trA)
		return compareBuilt{diff: diff, levels: levels}, nil
	})
	return levelsChanged
}

// compareProfiles compares A's profile with B's profile of the same PID:TID (else B's default
// thread), lined up by spec, over rng (A's clock; calltree.AllTime for everything), naming
// functions by their original names where a source map applies when original is set.
func compareProfiles(trA *core.Trace, profA int, trB *core.Trace, spec align.Spec, rng calltree.Range, original bool) (*calltree.Diff, error) {
	pa := &trA.Profiles[profA]
	profB := calltree.FindProfile(trB, pa.Pid, pa.Tid)
	if profB < 0 {
		profB = calltree.DefaultProfile(trB)
	}
	if profB < 0 {
		return nil, errors.New("the second file (B) has no CPU profile")
	}
	al, err := align.Align(align.Side{Trace: trA, Profile: profA}, align.Side{Trace: trB, Profile: profB}, spec)
	if err != nil {
		return nil, fmt.Errorf("aligning by %s: %w", spec, err)
	}
	rA, rB := rng, calltree.AllTime
	if rng != calltree.AllTime {
		// The range is on A's clock; Alignment.Range measures from A's anchor.
		s, e, bs, be := al.Range(rng.Start-al.AnchorA, rng.End-al.AnchorA)
		rA, rB = calltree.Range{Start: s, End: e}, calltree.Range{Start: bs, End: be}
	}
	funcsA := calltree.NewFunctionsNamed(trA, pa, original)
	srcA, err := funcsA.Source(rA)
	if err != nil {
		return nil, err
	}
	funcsB := calltree.NewFunctionsNamed(trB, &trB.Profiles[profB], original)
	return calltree.Compare(calltree.NewStack(srcA), funcsB, rA, rB, calltree.CompareOptions{})
}

func (c *comparePanel) layout(gtx layout.Context, e env) layout.Dimensions {
	for i := range c.headers {
		for c.headers[i].Clicked(gtx) {
			c.sort = compareColumns[i].sort
			if c.diff != nil {
				c.diff.Sort(c.sort, c.sort != calltree.ByFunctionName)
			}
		}
	}
	summaryH := 0
	return layout.Flex{Axis: layout.Vertical}.Layout(gtx,
		layout.Rigid(func(gtx layout.Context) layout.Dimensions {
			dims := c.layoutSummary(gtx, e)
			summaryH = dims.Size.Y
			return dims
		}),
		layout.Rigid(func(gtx layout.Context) layout.Dimensions {
			c.headerY = c.tabsH + summaryH
			return c.layoutHeaders(gtx, e)
		}),
		layout.Flexed(1, func(gtx layout.Context) layout.Dimensions { return c.layoutRows(gtx, e) }),
	)
}

func (c *comparePanel) layoutSummary(gtx layout.Context, e env) layout.Dimensions {
	s := "A: this file · B: " + c.src.Name
	if d := c.diff; d != nil {
		s += fmt.Sprintf(" · total %s → %s (%s)", msString(d.TotalA), msString(d.TotalB), pctText(d.TotalA, d.TotalB))
	}
	if c.message != "" {
		s += " · " + c.message
	}
	return layout.Inset{Top: unit.Dp(2), Bottom: unit.Dp(2), Left: unit.Dp(4)}.Layout(gtx, func(gtx layout.Context) layout.Dimensions {
		return e.th.MutedLabel(gtx, s)
	})
}

// columnX is where column i starts: the figure columns, then the bar, then the function name.
func compareColumnX(gtx layout.Context, i int) int {
	x := i * columnWidth(gtx)
	if i == len(compareColumns)-1 {
		x += gtx.Dp(compareBarDp) + gtx.Dp(8)
	}
	return x
}

func (c *comparePanel) layoutHeaders(gtx layout.Context, e env) layout.Dimensions {
	rowH := gtx.Dp(22)
	size := image.Pt(gtx.Constraints.Max.X, rowH)
	for i, col := range compareColumns {
		x := compareColumnX(gtx, i)
		w := columnWidth(gtx) - gtx.Dp(2)
		if i == len(compareColumns)-1 {
			w = max(0, size.X-x)
		}
		title := col.title
		if c.sort == col.sort {
			title = "▼ " + title
		}
		off := op.Offset(image.Pt(x, 0)).Push(gtx.Ops)
		g := gtx
		g.Constraints = layout.Exact(image.Pt(w, rowH))
		c.headers[i].Layout(g, func(gtx layout.Context) layout.Dimensions {
			return layout.E.Layout(gtx, func(gtx layout.Context) layout.Dimensions { return e.th.MutedLabel(gtx, title) })
		})
		off.Pop()
	}
	paint.FillShape(gtx.Ops, e.th.Border, clip.Rect{Min: image.Pt(0, rowH-1), Max: size}.Op())
	return layout.Dimensions{Size: size}
}

func (c *comparePanel) layoutRows(gtx layout.Context, e env) layout.Dimensions {
	d := c.diff
	if d == nil {
		return layout.Dimensions{Size: gtx.Constraints.Max}
	}
	// The bars share one scale: the largest self delta of the table.
	var widest time.Duration
	for i := range d.Rows {
		widest = max(widest, absDuration(d.Rows[i].SelfDelta()))
	}
	rowH, colW := gtx.Dp(18), columnWidth(gtx)
	c.list.Axis = layout.Vertical
	return e.th.List(gtx, &c.list, len(d.Rows), func(gtx layout.Context, i int) layout.Dimensions {
		r := &d.Rows[i]
		cells := [...]string{msString(r.SelfA), msString(r.SelfB), signedMsString(r.SelfDelta()), pctText(r.SelfA, r.SelfB),
			msString(r.RunningA), msString(r.RunningB)}
		for j, s := range cells {
			off := op.Offset(image.Pt(j*colW, 0)).Push(gtx.Ops)
			g := gtx
			g.Constraints = layout.Exact(image.Pt(colW-gtx.Dp(6), rowH))
			layout.E.Layout(g, func(gtx layout.Context) layout.Dimensions { return e.th.Label(gtx, s) })
			off.Pop()
		}
		// The bar grows right from the middle of its column when B is slower, left when faster.
		barX := len(cells)*colW + gtx.Dp(4)
		half := gtx.Dp(compareBarDp) / 2
		if delta := r.SelfDelta(); delta != 0 && widest > 0 {
			w := max(1, int(float64(half)*float64(absDuration(delta))/float64(widest)))
			mid := barX + half
			rect := image.Rect(mid, gtx.Dp(4), mid+w, rowH-gtx.Dp(4))
			col := slowerColour
			if delta < 0 {
				rect = image.Rect(mid-w, gtx.Dp(4), mid, rowH-gtx.Dp(4))
				col = fasterColour
			}
			paint.FillShape(gtx.Ops, col, clip.Rect(rect).Op())
		}
		name := d.Describe(r)
		x := compareColumnX(gtx, len(compareColumns)-1)
		off := op.Offset(image.Pt(x, 0)).Push(gtx.Ops)
		g := gtx
		g.Constraints = layout.Exact(image.Pt(max(0, gtx.Constraints.Max.X-x), rowH))
		e.th.Label(g, name)
		off.Pop()
		return layout.Dimensions{Size: image.Pt(gtx.Constraints.Max.X, rowH)}
	})
}

// The bar colours: red where B takes longer, green where it is quicker, as the diff flame
// chart colours them.
var (
	slowerColour = theme.RGB(0xd93025)
	fasterColour = theme.RGB(0x188038)
)

func absDuration(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

func msString(d time.Duration) string {
	return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
}

func signedMsString(d time.Duration) string {
	return fmt.Sprintf("%+.1f ms", float64(d)/float64(time.Millisecond))
}

// pctText is B against A in percent: "=" when both are zero, "new" when only B has time.
func pctText(a, b time.Duration) string {
	r := calltree.DiffRow{SelfA: a, SelfB: b}
	v := r.SelfDeltaPct()
	switch {
	case math.IsNaN(v):
		return "="
	case math.IsInf(v, 1):
		return "new"
	}
	return fmt.Sprintf("%+.1f%%", v)
}

// layoutRight is the panel's right side: the call tree, or with a comparison open, a choice of
// the call tree or the Compare table.
func (p *bottomPanel) layoutRight(gtx layout.Context, e env) layout.Dimensions {
	if !p.compare.active() {
		return p.tree.layout(gtx, e)
	}
	for p.tabTreeSide.Clicked(gtx) {
		p.showCompare = false
	}
	for p.tabCompare.Clicked(gtx) {
		p.showCompare = true
	}
	tab := func(c *widget.Clickable, s string, on bool) layout.FlexChild {
		return layout.Rigid(func(gtx layout.Context) layout.Dimensions {
			if on {
				s = "● " + s
			}
			dims := layout.Inset{Right: unit.Dp(4)}.Layout(gtx, func(gtx layout.Context) layout.Dimensions {
				return e.th.Button(gtx, c, s)
			})
			if c == &p.tabTreeSide {
				p.compare.tabX = dims.Size.X
			}
			return dims
		})
	}
	return layout.Flex{Axis: layout.Vertical}.Layout(gtx,
		layout.Rigid(func(gtx layout.Context) layout.Dimensions {
			dims := layout.Inset{Top: unit.Dp(2), Left: unit.Dp(4)}.Layout(gtx, func(gtx layout.Context) layout.Dimensions {
				return layout.Flex{Alignment: layout.Middle}.Layout(gtx,
					tab(&p.tabTreeSide, "Tree", !p.showCompare), tab(&p.tabCompare, "Compare", p.showCompare))
			})
			p.compare.tabsH = dims.Size.Y
			return dims
		}),
		layout.Flexed(1, func(gtx layout.Context) layout.Dimensions {
			if p.showCompare {
				return p.compare.layout(gtx, e)
			}
			return p.tree.layout(gtx, e)
		}),
	)
}

// compareKey is what the Compare tab and the diff colours show, for the chrome's cache: B and
// each table arrive without an input event.
type compareKey struct {
	diff           *calltree.Diff
	message        string
	sort           calltree.DiffColumn
	shown, colours bool
	top            int
}

func (p *bottomPanel) compareKey() compareKey {
	c := &p.compare
	return compareKey{diff: c.diff, message: c.message, sort: c.sort, shown: p.showCompare, colours: c.colours,
		top: c.list.Position.First}
}
