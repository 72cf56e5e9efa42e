package app

// The Compare tab: a second profile (B) loaded beside the open one (A), and the function-by-
// function differential table of the thread and range the call tree shows. B loads and every
// table is computed in the background; the panel follows the call tree's thread and range.

import (
	"context"
	"errors"
	"fmt"
	"image"
	"strings"
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
	"flamedesk/timeline"
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
	{"Δ running", calltree.ByRunningDelta},
	{"Function", calltree.ByFunctionName},
}

// compareColDp is the width of a figure column, narrower than the call tree's: the table has
// seven of them beside the function's name. compareBarDp is the width of the column that draws
// each row's change as a bar.
const (
	compareColDp = 72
	compareBarDp = 64
)

// comparePanel holds profile B and the table comparing it with the open document.
type comparePanel struct {
	src  Source // B; its Name is empty when no comparison was asked for
	spec align.Spec

	load   task.Future[loaded]
	traceB *core.Trace
	compareSide
	build task.Future[compareBuilt]

	// doc, profile, rng, stack and offset are what the current table (or the build running)
	// compares: A's call tree's thread, range and transforms, and B's alignment.
	doc     *document
	profile int
	rng     calltree.Range
	stack   *calltree.Stack
	offset  float64
	// inverted follows the call tree's bottom-up view, for the Compare tab's tree.
	inverted bool
	diff     *calltree.Diff
	sort     calltree.DiffColumn
	// tree is the differential call tree of the same comparison, shown instead of the table by
	// function when treeMode is set; treeOpen are its expanded nodes and treeRows the visible
	// ones, top to bottom.
	tree     *calltree.DiffTree
	treeMode bool
	treeOpen map[calltree.DiffNodeID]bool
	treeRows []calltree.DiffNodeID
	treeGen  int // counts the changes of treeRows, for the chrome's cache
	// treeSort is the tree's order, by the change of running time at first: in a tree a
	// caller's self time rarely changes, its callees' do.
	treeSort  calltree.DiffColumn
	rowClicks []widget.Clickable
	btnMode   widget.Clickable
	message   string
	// levels is the diff level of each of A's frames (render.DiffShades.FrameLevels) by this
	// table, and colours says the chart shows them.
	levels, levelsB []int8
	colours         bool

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
	c.aligning.Invalidate = invalidate
	c.search.Invalidate = invalidate
	c.src, c.spec, c.profile = src, spec, -1
	c.treeSort = calltree.ByRunningDelta
	c.headers = make([]widget.Clickable, len(compareColumns))
}

// active reports whether a comparison was asked for.
func (c *comparePanel) active() bool { return c.src.Name != "" }

// compareBuilt is a table and the chart's diff levels by it.
type compareBuilt struct {
	diff            *calltree.Diff
	tree            *calltree.DiffTree
	levels, levelsB []int8
}

// toggleDiffColours switches A's flame chart between colours by script and by self-time change.
type toggleDiffColours struct{}

func (toggleDiffColours) isAction() {}

// chartLevels is what A's chart should colour by: nil for colours by script.
func (c *comparePanel) chartLevels() []int8 {
	if !c.colours {
		return nil
	}
	return c.levels
}

// chartLevelsB is chartLevels for B's chart.
func (c *comparePanel) chartLevelsB() []int8 {
	if !c.colours {
		return nil
	}
	return c.levelsB
}

func (u *ui) toggleDiffColours() {
	c := &u.panel.compare
	c.colours = !c.colours
	u.chart.setDiffLevels(c.chartLevels())
	c.chartB.setDiffLevels(c.chartLevelsB())
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
func (c *comparePanel) pending() bool {
	return c.load.Pending() || c.build.Pending() || c.aligning.Pending() || c.search.Pending()
}

func (c *comparePanel) cancel() {
	c.load.Cancel()
	c.build.Cancel()
	c.aligning.Cancel()
	c.search.Cancel()
}

// poll installs finished tables, and starts a new table when the call tree moved to another
// document, thread, range or transform, or B was lined up anew. It reports whether the charts'
// diff levels changed.
func (c *comparePanel) poll(d *document, profile int, rng calltree.Range, stack *calltree.Stack, inverted bool) (levelsChanged bool) {
	if !c.active() {
		return false
	}
	if b, err, ok := c.build.Poll(); ok {
		if err != nil {
			c.diff, c.tree, c.levels, c.levelsB, c.message = nil, nil, nil, nil, err.Error()
		} else {
			b.diff.Sort(c.sort, c.sort != calltree.ByFunctionName)
			c.diff, c.tree, c.levels, c.levelsB, c.message = b.diff, b.tree, b.levels, b.levelsB, ""
			c.openTree()
		}
		levelsChanged = c.colours
	}
	if c.traceB == nil || d == nil || !c.aligned || c.alignFor != d || c.dragging {
		return levelsChanged
	}
	if profile >= 0 && stack == nil {
		return levelsChanged // the call tree is building: its transforms come with it
	}
	if d == c.doc && profile == c.profile && rng == c.rng && stack == c.stack && c.al.Offset == c.offset && inverted == c.inverted && d.model.GeneratedNames == c.generated {
		return levelsChanged
	}
	c.doc, c.profile, c.rng, c.stack, c.offset, c.inverted = d, profile, rng, stack, c.al.Offset, inverted
	c.generated = d.model.GeneratedNames
	if profile < 0 {
		c.build.Cancel()
		c.diff, c.levels, c.levelsB, c.message = nil, nil, nil, "This trace has no CPU profile."
		return c.colours
	}
	trA, trB, al, original := d.trace, c.traceB, c.al, !d.model.GeneratedNames
	c.build.Start(func(ctx context.Context) (compareBuilt, error) {
		cmp, err := compareProfiles(stack, trA, profile, trB, al, rng, original)
		if err != nil {
			return compareBuilt{}, err
		}
		diff, tree := cmp.Functions(), cmp.Tree(calltree.View{Inverted: inverted})
		// The levels do not depend on the theme, only on the changes and their scale.
		shades := render.NewDiffShades(diff, render.ThemeByName("light"))
		return compareBuilt{diff: diff, tree: tree, levels: shades.FrameLevels(trA), levelsB: shades.FrameLevels(trB)}, nil
	})
	return levelsChanged
}

// compareProfiles compares A's profile, with the call tree's transforms (stack, over rng), with
// B's profile of the same PID:TID (else B's default thread), both with the transforms, over rng
// moved to B's clock by al (calltree.AllTime for everything).
func compareProfiles(stack *calltree.Stack, trA *core.Trace, profA int, trB *core.Trace, al align.Alignment, rng calltree.Range, original bool) (*calltree.Comparison, error) {
	pa := &trA.Profiles[profA]
	profB := calltree.FindProfile(trB, pa.Pid, pa.Tid)
	if profB < 0 {
		profB = calltree.DefaultProfile(trB)
	}
	if profB < 0 {
		return nil, errors.New("the second file (B) has no CPU profile")
	}
	rB := rng
	if rng != calltree.AllTime {
		rB = calltree.Range{Start: al.ToB(rng.Start), End: al.ToB(rng.End)}
	}
	if stack == nil {
		src, err := calltree.NewFunctionsNamed(trA, pa, original).Source(rng)
		if err != nil {
			return nil, err
		}
		stack = calltree.NewStack(src)
	}
	funcsB := calltree.NewFunctionsNamed(trB, &trB.Profiles[profB], original)
	return calltree.NewComparison(stack, funcsB, rng, rB, calltree.CompareOptions{})
}

func (c *comparePanel) layout(gtx layout.Context, e env) layout.Dimensions {
	for i := range c.headers {
		for c.headers[i].Clicked(gtx) {
			col := compareColumns[i].sort
			switch {
			case c.treeMode:
				c.treeSort = col
				if c.tree != nil {
					c.tree.Sort(col, col != calltree.ByFunctionName)
					c.flattenTree()
				}
			default:
				c.sort = col
				if c.diff != nil {
					c.diff.Sort(col, col != calltree.ByFunctionName)
				}
			}
		}
	}
	for c.btnMode.Clicked(gtx) {
		c.treeMode = !c.treeMode
	}
	for i := range c.rowClicks {
		for c.rowClicks[i].Clicked(gtx) {
			if c.treeMode && i < len(c.treeRows) {
				n := c.treeRows[i]
				c.treeOpen[n] = !c.treeOpen[n]
				c.flattenTree()
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
	if c.stack != nil && len(c.stack.Transforms()) > 0 {
		s += fmt.Sprintf(" · the call tree's %d transforms on both", len(c.stack.Transforms()))
	}
	if c.rng != calltree.AllTime {
		s += " · the selected range on both"
	}
	if d := c.diff; d != nil {
		s += fmt.Sprintf(" · total %s → %s (%s)", msString(d.TotalA), msString(d.TotalB), calltree.ChangeText(d.TotalA, d.TotalB))
	}
	if c.message != "" {
		s += " · " + c.message
	}
	mode := "View: by function"
	if c.treeMode {
		mode = "View: call tree"
	}
	return layout.Inset{Top: unit.Dp(2), Bottom: unit.Dp(2), Left: unit.Dp(4), Right: unit.Dp(4)}.Layout(gtx, func(gtx layout.Context) layout.Dimensions {
		return layout.Flex{Alignment: layout.Middle}.Layout(gtx,
			layout.Flexed(1, func(gtx layout.Context) layout.Dimensions {
				gtx.Constraints.Min.Y = 0
				return e.th.MutedLabel(gtx, s)
			}),
			layout.Rigid(func(gtx layout.Context) layout.Dimensions { return e.th.Button(gtx, &c.btnMode, mode) }),
		)
	})
}

// openTree expands the new tree's first two levels and sorts it as the table is sorted.
func (c *comparePanel) openTree() {
	c.treeOpen = map[calltree.DiffNodeID]bool{}
	t := c.tree
	if t == nil {
		c.treeRows = nil
		return
	}
	t.Sort(c.treeSort, c.treeSort != calltree.ByFunctionName)
	for _, r := range t.Roots() {
		c.treeOpen[r] = true
	}
	c.flattenTree()
}

// flattenTree lists the tree's visible nodes, top to bottom.
func (c *comparePanel) flattenTree() {
	c.treeGen++
	c.treeRows = c.treeRows[:0]
	var walk func(ns []calltree.DiffNodeID)
	walk = func(ns []calltree.DiffNodeID) {
		for _, n := range ns {
			c.treeRows = append(c.treeRows, n)
			if c.treeOpen[n] {
				walk(c.tree.Children(n))
			}
		}
	}
	if c.tree != nil {
		walk(c.tree.Roots())
	}
}

// compareRow is one row of the Compare tab: a function, or a node of the tree.
type compareRow struct {
	calltree.DiffRow
	name             string
	depth            int
	expandable, open bool
}

// rowAt is the i-th row shown and the number of rows.
func (c *comparePanel) rowAt(i int) compareRow {
	if c.treeMode {
		n := c.treeRows[i]
		kids := len(c.tree.Children(n))
		return compareRow{DiffRow: c.tree.Row(n), name: c.tree.Describe(n), depth: c.tree.Depth(n), expandable: kids > 0, open: c.treeOpen[n]}
	}
	r := &c.diff.Rows[i]
	return compareRow{DiffRow: *r, name: c.diff.Describe(r)}
}

// rowCount is the number of rows shown.
func (c *comparePanel) rowCount() int {
	switch {
	case c.treeMode && c.tree != nil:
		return len(c.treeRows)
	case !c.treeMode && c.diff != nil:
		return len(c.diff.Rows)
	}
	return 0
}

// columnX is where column i starts: the figure columns, then the bar, then the function name.
func compareColumnX(gtx layout.Context, i int) int {
	x := i * gtx.Dp(compareColDp)
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
		w := gtx.Dp(compareColDp) - gtx.Dp(2)
		if i == len(compareColumns)-1 {
			w = max(0, size.X-x)
		}
		title := col.title
		active := c.sort
		if c.treeMode {
			active = c.treeSort
		}
		if col.sort == active {
			title = "▼ " + title
		}
		off := op.Offset(image.Pt(x, 0)).Push(gtx.Ops)
		g := gtx
		g.Constraints = layout.Exact(image.Pt(w, rowH))
		c.headers[i].Layout(g, func(gtx layout.Context) layout.Dimensions {
			// Figures are right-aligned under their titles; names start at the left.
			dir := layout.E
			if i == len(compareColumns)-1 {
				dir = layout.W
			}
			return dir.Layout(gtx, func(gtx layout.Context) layout.Dimensions { return e.th.MutedLabel(gtx, title) })
		})
		off.Pop()
	}
	paint.FillShape(gtx.Ops, e.th.Border, clip.Rect{Min: image.Pt(0, rowH-1), Max: size}.Op())
	return layout.Dimensions{Size: size}
}

func (c *comparePanel) layoutRows(gtx layout.Context, e env) layout.Dimensions {
	n := c.rowCount()
	if n == 0 {
		return layout.Dimensions{Size: gtx.Constraints.Max}
	}
	// The bars share one scale: the largest change of the rows, in self time by function, in
	// running time in the tree (where a caller's change is its callees' too).
	barDelta := func(r *compareRow) time.Duration {
		if c.treeMode {
			return r.RunningDelta()
		}
		return r.SelfDelta()
	}
	var widest time.Duration
	for i := range n {
		r := c.rowAt(i)
		widest = max(widest, absDuration(barDelta(&r)))
	}
	if len(c.rowClicks) < n {
		c.rowClicks = make([]widget.Clickable, n)
	}
	rowH, colW := gtx.Dp(18), gtx.Dp(compareColDp)
	c.list.Axis = layout.Vertical
	return e.th.List(gtx, &c.list, n, func(gtx layout.Context, i int) layout.Dimensions {
		r := c.rowAt(i)
		cells := [...]string{msString(r.SelfA), msString(r.SelfB), signedMsString(r.SelfDelta()), calltree.ChangeText(r.SelfA, r.SelfB),
			msString(r.RunningA), msString(r.RunningB), signedMsString(r.RunningDelta())}
		size := image.Pt(gtx.Constraints.Max.X, rowH)
		return c.rowClicks[i].Layout(gtx, func(gtx layout.Context) layout.Dimensions {
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
			if delta := barDelta(&r); delta != 0 && widest > 0 {
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
			name := r.name
			if c.treeMode {
				marker := "   "
				if r.expandable && r.open {
					marker = "▼ "
				} else if r.expandable {
					marker = "► "
				}
				name = strings.Repeat("  ", r.depth) + marker + name
			}
			x := compareColumnX(gtx, len(compareColumns)-1)
			off := op.Offset(image.Pt(x, 0)).Push(gtx.Ops)
			g := gtx
			g.Constraints = layout.Exact(image.Pt(max(0, gtx.Constraints.Max.X-x), rowH))
			e.th.Label(g, name)
			off.Pop()
			return layout.Dimensions{Size: size}
		})
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
	sort, treeSort calltree.DiffColumn
	shown, colours bool
	treeMode       bool
	treeGen        int
	top            int
	focusB         bool
	docB           *document
	selectedB      timeline.EntryRef
}

func (p *bottomPanel) compareKey() compareKey {
	c := &p.compare
	k := compareKey{diff: c.diff, message: c.message, sort: c.sort, treeSort: c.treeSort, shown: p.showCompare, colours: c.colours,
		top: c.list.Position.First, focusB: c.focusB, docB: c.docB, treeMode: c.treeMode, treeGen: c.treeGen}
	if c.docB != nil {
		k.selectedB = c.docB.selected
	}
	return k
}
