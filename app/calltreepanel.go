package app

import (
	"context"
	"encoding/binary"
	"fmt"
	"image"

	"gioui.org/io/event"
	"gioui.org/io/key"
	"gioui.org/io/pointer"
	"gioui.org/layout"
	"gioui.org/op"
	"gioui.org/op/clip"
	"gioui.org/op/paint"
	"gioui.org/unit"
	"gioui.org/widget"

	"flamedesk/app/task"
	"flamedesk/core/calltree"
)

// treePanel is the call tree and bottom-up tree table of the selected thread and time range,
// with the transform stack shown as breadcrumbs. Building a tree or applying a transform is a
// background task; the table keeps showing the previous tree until the new one is ready, and a
// newer build cancels an older one.
type treePanel struct {
	tabTree, tabBottomUp widget.Clickable
	inverted             bool
	// buildDeferred is a new document's tree, built once its first frame is on screen
	// (startDeferred): building it at once would take a core from drawing that frame.
	buildDeferred bool
	// showSummary puts the Summary tab (summary.go) in place of the tree table.
	tabSummary  widget.Clickable
	showSummary bool
	summary     summaryView
	// summaryTab is the middle of the Summary tab's button in the panel, as laid out in the last
	// frame (for tests).
	summaryTab                      image.Point
	order                           calltree.Order
	sortRunning, sortSelf, sortName widget.Clickable

	doc     *document
	profile int             // index into Trace.Profiles, -1 for none
	rng     calltree.Range  // the time range the tree covers; calltree.AllTime for the whole thread
	stack   *calltree.Stack // transforms over the source of profile and rng
	tree    *calltree.Tree
	rows    []treeRow
	build   task.Future[treeBuilt]
	// expanded and selected are paths of functions, which survive rebuilds and transforms. A path
	// of names would not do: two functions of one name ("(anonymous)" above all) would open and
	// close together.
	expanded map[string]calltree.Path
	selected calltree.Path
	list     widget.List
	crumbs   []widget.Clickable
	rowClick []widget.Clickable

	// showSource puts the Source tab (sourceview.go) in place of the tree table; sourceTab is
	// the middle of its button, as summaryTab.
	tabSource  widget.Clickable
	showSource bool
	source     sourceView
	sourceTab  image.Point

	menu    treeMenu
	message string
	// tableY is where the table's first row starts below the panel's top, and columnsShown says
	// the column titles were drawn, as laid out in the last frame (for tests).
	tableY       int
	columnsShown bool
}

// treeRow is one visible row of the table, with its text formatted once when the rows are made
// rather than in every frame.
type treeRow struct {
	node               calltree.NodeID
	depth              int
	running, self, pct string
	name               string
	expandable, opened bool
}

// treeBuilt is what a build hands back.
type treeBuilt struct {
	stack *calltree.Stack
	tree  *calltree.Tree
}

// treeMenu is the right-click menu of a row.
type treeMenu struct {
	shown bool
	node  calltree.NodeID
	items [len(transformKeys)]widget.Clickable
}

// transformKeys are Firefox Profiler's single-key transforms, in menu order.
var transformKeys = [...]struct {
	kind  calltree.Kind
	key   string
	shift bool
	label string
}{
	{calltree.FocusSubtree, "F", false, "Focus on subtree (f)"},
	{calltree.FocusFunction, "F", true, "Focus on function (F)"},
	{calltree.MergeCallNode, "M", false, "Merge node (m)"},
	{calltree.MergeFunction, "M", true, "Merge function (M)"},
	{calltree.Prune, "P", false, "Prune subtree (p)"},
	{calltree.DropFunction, "D", false, "Drop samples with this function (d)"},
	{calltree.CollapseRecursion, "R", false, "Collapse recursion (r)"},
	{calltree.CollapseResource, "C", false, "Collapse script (c)"},
}

func (p *treePanel) init(invalidate func()) {
	p.build.Invalidate = invalidate
	p.source.init(invalidate)
	p.profile = -1
	p.expanded = map[string]calltree.Path{}
}

// pathKey is the map key of a path: its function ids, not their names.
func pathKey(path calltree.Path) string {
	b := make([]byte, 4*len(path))
	for i, fn := range path {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(fn))
	}
	return string(b)
}

func (p *treePanel) isOpen(n calltree.NodeID) bool {
	_, ok := p.expanded[pathKey(p.tree.Path(n))]
	return ok
}

func (p *treePanel) reset(d *document) {
	p.build.Cancel()
	p.doc = d
	p.profile = -1
	p.stack, p.tree, p.rows = nil, nil, nil
	clear(p.expanded)
	p.selected = nil
	p.rng = calltree.AllTime
	p.menu.shown = false
	p.message = ""
	p.buildDeferred = false
	p.source.reset(d)
	if d != nil {
		p.profile = calltree.DefaultProfile(d.trace)
		p.buildDeferred = true
	}
}

// startDeferred starts the build that reset put off, unless another has started since.
func (p *treePanel) startDeferred() {
	if p.buildDeferred {
		p.rebuild(nil)
	}
}

// retarget follows the selection to another thread or time range, keeping the transforms.
func (p *treePanel) retarget(d *document, profile int, rng calltree.Range) {
	if d != p.doc {
		p.reset(d)
	}
	if profile == p.profile && rng == p.rng && (p.stack != nil || p.build.Busy()) {
		return
	}
	var keep []calltree.Transform
	if p.stack != nil && profile == p.profile {
		keep = p.stack.Transforms()
	}
	p.profile, p.rng = profile, rng
	p.rebuild(keep)
}

// rebuild makes a new source (thread and range) with transforms in the background.
func (p *treePanel) rebuild(transforms []calltree.Transform) {
	p.buildDeferred = false
	d := p.doc
	if d == nil || p.profile < 0 {
		p.build.Cancel()
		p.stack, p.tree, p.rows, p.message = nil, nil, nil, "This trace has no CPU profile."
		return
	}
	tr, prof, rng := d.trace, &d.trace.Profiles[p.profile], p.rng
	view := calltree.View{Inverted: p.inverted, Order: p.order}
	original := !d.model.GeneratedNames
	p.build.Start(func(ctx context.Context) (treeBuilt, error) {
		src, err := calltree.NewFunctionsNamed(tr, prof, original).Source(rng)
		if err != nil {
			return treeBuilt{}, err
		}
		st := calltree.NewStack(src)
		for _, t := range transforms {
			if ctx.Err() != nil {
				return treeBuilt{}, ctx.Err()
			}
			if st, err = st.Push(t); err != nil {
				return treeBuilt{}, err
			}
		}
		return treeBuilt{stack: st, tree: st.Tree(view)}, nil
	})
}

// push applies a transform in the background; the selected and expanded rows follow their nodes
// through it.
func (p *treePanel) push(t calltree.Transform) {
	if p.stack == nil {
		return
	}
	st := p.stack
	view := calltree.View{Inverted: p.inverted, Order: p.order}
	p.build.Start(func(ctx context.Context) (treeBuilt, error) {
		next, err := st.Push(t)
		if err != nil {
			return treeBuilt{}, err
		}
		return treeBuilt{stack: next, tree: next.Tree(view)}, nil
	})
	if p.inverted {
		// Bottom-up paths run from the leaves: MapPath follows call paths only.
		p.selected = nil
		clear(p.expanded)
		return
	}
	f := st.Functions()
	if p.selected != nil {
		p.selected = t.MapPath(p.selected, f)
	}
	mapped := make(map[string]calltree.Path, len(p.expanded))
	for _, path := range p.expanded {
		if q := t.MapPath(path, f); len(q) > 0 {
			mapped[pathKey(q)] = q
		}
	}
	p.expanded = mapped
}

// poll installs a finished build.
func (p *treePanel) poll(d *document) {
	p.source.poll()
	if d != p.doc {
		return
	}
	b, err, ok := p.build.Poll()
	if !ok {
		return
	}
	if err != nil {
		p.message = err.Error()
		return
	}
	p.message = ""
	p.stack, p.tree = b.stack, b.tree
	p.refreshRows()
}

// setView switches between call tree and bottom-up, or the sort order.
func (p *treePanel) setView(inverted bool, order calltree.Order) {
	if p.stack == nil || (inverted == p.inverted && order == p.order) {
		p.inverted, p.order = inverted, order
		return
	}
	if inverted != p.inverted {
		p.selected = nil
		clear(p.expanded)
	}
	p.inverted, p.order = inverted, order
	p.tree = p.stack.Tree(calltree.View{Inverted: inverted, Order: order})
	p.refreshRows()
}

// rowName is a row's function as people tell functions apart: its name, then the script and
// line:column where it starts ("(anonymous)  consumer.js:16:33"); a collapsed script is named
// once, by its file.
func rowName(f *calltree.Functions, fn calltree.FuncID) string {
	name := f.Name(fn)
	if f.IsResource(fn) {
		return shortURL(name)
	}
	if name == "" {
		name = "(anonymous)"
	}
	if url := f.URL(fn); url != "" {
		name += "  " + sourcePosition(url, f.Line(fn), f.Column(fn))
	}
	return name
}

// sourcePosition is "file.js:16:33": the script's file name and a 0-based line and column shown
// 1-based, as DevTools shows them; unknown positions are left out.
func sourcePosition(url string, line, col int32) string {
	s := shortURL(url)
	if line >= 0 {
		s += fmt.Sprintf(":%d", line+1)
		if col >= 0 {
			s += fmt.Sprintf(":%d", col+1)
		}
	}
	return s
}

// refreshRows flattens the expanded part of the tree into rows. A fresh tree opens its heaviest
// path a few levels deep, so that the table is useful at once.
func (p *treePanel) refreshRows() {
	p.rows = p.rows[:0]
	t := p.tree
	if t == nil {
		return
	}
	f := t.Functions()
	if len(p.expanded) == 0 {
		n, depth := calltree.NoNode, 0
		for kids := t.Roots(); len(kids) > 0 && depth < 8; depth++ {
			n = kids[0]
			path := t.Path(n)
			p.expanded[pathKey(path)] = path
			kids = t.Children(n)
		}
	}
	var walk func(nodes []calltree.NodeID, depth int)
	total := t.Total()
	walk = func(nodes []calltree.NodeID, depth int) {
		for _, n := range nodes {
			open := p.isOpen(n)
			running, self := t.Running(n), t.Self(n)
			pct := 0.0
			if total > 0 {
				pct = 100 * float64(running) / float64(total)
			}
			p.rows = append(p.rows, treeRow{
				node: n, depth: depth, name: rowName(f, t.Func(n)), expandable: t.HasChildren(n), opened: open,
				running: fmt.Sprintf("%.1f ms", float64(running.Microseconds())/1000),
				self:    fmt.Sprintf("%.1f ms", float64(self.Microseconds())/1000),
				pct:     fmt.Sprintf("%.1f%%", pct),
			})
			if open {
				walk(t.Children(n), depth+1)
			}
		}
	}
	walk(t.Roots(), 0)
	if len(p.rowClick) < len(p.rows) {
		p.rowClick = make([]widget.Clickable, len(p.rows)+64)
	}
}

func (p *treePanel) selectedRow() int {
	if p.tree == nil || p.selected == nil {
		return -1
	}
	for i, r := range p.rows {
		if p.tree.Path(r.node).Equal(p.selected) {
			return i
		}
	}
	return -1
}

func (p *treePanel) toggle(n calltree.NodeID, open bool) {
	path := p.tree.Path(n)
	if open {
		p.expanded[pathKey(path)] = path
	} else {
		delete(p.expanded, pathKey(path))
	}
	p.refreshRows()
}

// onKey handles the tree's keys: arrows move and open, and Firefox Profiler's transform letters.
func (p *treePanel) onKey(e env, ev key.Event) {
	if ev.State != key.Press {
		return
	}
	if ev.Name == key.NameEscape {
		e.emit(focus{})
		e.emit(clearSelection{})
		return
	}
	if p.tree == nil {
		return
	}
	sel := p.selectedRow()
	switch ev.Name {
	case key.NameDownArrow:
		if sel+1 < len(p.rows) {
			p.selectRow(e, sel+1)
		}
		return
	case key.NameUpArrow:
		if sel > 0 {
			p.selectRow(e, sel-1)
		}
		return
	case key.NameRightArrow:
		if sel >= 0 {
			p.toggle(p.rows[sel].node, true)
		}
		return
	case key.NameLeftArrow:
		if sel >= 0 {
			n := p.rows[sel].node
			if p.isOpen(n) {
				p.toggle(n, false)
			} else if par := p.tree.Parent(n); par != calltree.NoNode {
				p.selected = p.tree.Path(par)
			}
		}
		return
	}
	if sel < 0 {
		return
	}
	shift := ev.Modifiers.Contain(key.ModShift)
	for _, tk := range transformKeys {
		if string(ev.Name) == tk.key && shift == tk.shift {
			p.applyKind(tk.kind, p.rows[sel].node)
			return
		}
	}
}

func (p *treePanel) applyKind(k calltree.Kind, n calltree.NodeID) {
	t, ok := calltree.TransformFor(k, p.tree, n)
	if !ok {
		p.message = "That transform does not apply to this node in this view."
		return
	}
	p.push(t)
}

func (p *treePanel) selectRow(e env, i int) {
	p.selected = p.tree.Path(p.rows[i].node)
	e.emit(highlightFunc{funcs: p.tree.Functions(), fn: p.tree.Func(p.rows[i].node)})
	if i < p.list.Position.First || i >= p.list.Position.First+p.list.Position.Count-1 {
		p.list.Position.First = max(0, i-3)
		p.list.Position.Offset = 0
	}
}

var treeKeyNames = []key.Name{key.NameUpArrow, key.NameDownArrow, key.NameLeftArrow, key.NameRightArrow,
	key.NameEscape, "F", "M", "P", "D", "R", "C"}

func (p *treePanel) layout(gtx layout.Context, e env) layout.Dimensions {
	for p.tabTree.Clicked(gtx) {
		p.showSummary, p.showSource = false, false
		p.setView(false, p.order)
	}
	for p.tabBottomUp.Clicked(gtx) {
		p.showSummary, p.showSource = false, false
		p.setView(true, p.order)
	}
	for p.tabSummary.Clicked(gtx) {
		p.showSummary, p.showSource = true, false
	}
	for p.tabSource.Clicked(gtx) {
		p.showSummary, p.showSource = false, true
	}
	for p.sortRunning.Clicked(gtx) {
		p.setView(p.inverted, calltree.ByRunning)
	}
	for p.sortSelf.Clicked(gtx) {
		p.setView(p.inverted, calltree.BySelf)
	}
	for p.sortName.Clicked(gtx) {
		p.setView(p.inverted, calltree.ByName)
	}
	for {
		filters := make([]event.Filter, 0, len(treeKeyNames)+2)
		for _, n := range treeKeyNames {
			filters = append(filters, key.Filter{Focus: p, Name: n, Optional: key.ModShift})
		}
		filters = append(filters, key.FocusFilter{Target: p}, pointer.Filter{Target: p, Kinds: pointer.Press})
		ev, ok := gtx.Event(filters...)
		if !ok {
			break
		}
		switch ev := ev.(type) {
		case key.Event:
			p.onKey(e, ev)
		case pointer.Event:
			e.emit(focus{tag: p})
		}
	}
	area := clip.Rect{Max: gtx.Constraints.Max}.Push(gtx.Ops)
	event.Op(gtx.Ops, p)
	area.Pop()

	above := 0
	measured := func(w layout.Widget) layout.Widget {
		return func(gtx layout.Context) layout.Dimensions {
			dims := w(gtx)
			above += dims.Size.Y
			return dims
		}
	}
	if p.showSummary {
		return layout.Flex{Axis: layout.Vertical}.Layout(gtx,
			layout.Rigid(func(gtx layout.Context) layout.Dimensions { return p.layoutHeader(gtx, e) }),
			layout.Flexed(1, func(gtx layout.Context) layout.Dimensions { return p.summary.layout(gtx, e) }),
		)
	}
	if p.showSource {
		return layout.Flex{Axis: layout.Vertical}.Layout(gtx,
			layout.Rigid(measured(func(gtx layout.Context) layout.Dimensions { return p.layoutHeader(gtx, e) })),
			layout.Flexed(1, func(gtx layout.Context) layout.Dimensions {
				p.source.top = above
				return p.source.layout(gtx, e)
			}),
		)
	}
	return layout.Flex{Axis: layout.Vertical}.Layout(gtx,
		layout.Rigid(measured(func(gtx layout.Context) layout.Dimensions { return p.layoutHeader(gtx, e) })),
		layout.Rigid(measured(func(gtx layout.Context) layout.Dimensions { return p.layoutCrumbs(gtx, e) })),
		layout.Rigid(measured(func(gtx layout.Context) layout.Dimensions { return p.layoutColumns(gtx, e) })),
		layout.Flexed(1, func(gtx layout.Context) layout.Dimensions {
			p.tableY = above
			return p.layoutTable(gtx, e)
		}),
	)
}

func (p *treePanel) layoutHeader(gtx layout.Context, e env) layout.Dimensions {
	tab := func(c *widget.Clickable, s string, on bool) layout.FlexChild {
		return layout.Rigid(func(gtx layout.Context) layout.Dimensions {
			if on {
				s = "● " + s
			}
			return e.th.Button(gtx, c, s)
		})
	}
	what := ""
	if d := e.doc; d != nil && p.profile >= 0 {
		what = calltree.ProfileLabel(d.trace, p.profile)
		if p.rng != calltree.AllTime {
			what += fmt.Sprintf(" · range %s", formatDuration(p.rng.End-p.rng.Start))
		}
		if p.tree != nil {
			what += fmt.Sprintf(" · %s in %s", formatDuration(float64(p.tree.Total().Microseconds())), plural(p.tree.Samples(), "sample", "samples"))
		}
	}
	gap := layout.Rigid(layout.Spacer{Width: unit.Dp(4)}.Layout)
	// x sums the widths of the buttons (and the 4 dp gaps) before the Summary tab, to find where it is.
	x := gtx.Dp(4)
	table := !p.showSummary && !p.showSource
	tree, bottomUp := !p.inverted && table, p.inverted && table
	widthOf := func(c *widget.Clickable, s string, on bool) layout.FlexChild {
		return layout.Rigid(func(gtx layout.Context) layout.Dimensions {
			if on {
				s = "● " + s
			}
			dims := e.th.Button(gtx, c, s)
			switch c {
			case &p.tabSummary:
				p.summaryTab = image.Pt(x+dims.Size.X/2, gtx.Dp(4)+dims.Size.Y/2)
			case &p.tabSource:
				p.sourceTab = image.Pt(x+dims.Size.X/2, gtx.Dp(4)+dims.Size.Y/2)
			}
			x += dims.Size.X + gtx.Dp(4)
			return dims
		})
	}
	return layout.Inset{Top: unit.Dp(4), Bottom: unit.Dp(2), Left: unit.Dp(4)}.Layout(gtx, func(gtx layout.Context) layout.Dimensions {
		return layout.Flex{Alignment: layout.Middle}.Layout(gtx,
			widthOf(&p.tabTree, "Call tree", tree), gap, widthOf(&p.tabBottomUp, "Bottom-up", bottomUp), gap,
			widthOf(&p.tabSummary, "Summary", p.showSummary), gap,
			widthOf(&p.tabSource, "Source", p.showSource),
			layout.Rigid(layout.Spacer{Width: unit.Dp(12)}.Layout),
			tab(&p.sortRunning, "Running", p.order == calltree.ByRunning), gap,
			tab(&p.sortSelf, "Self", p.order == calltree.BySelf), gap,
			tab(&p.sortName, "Name", p.order == calltree.ByName),
			layout.Rigid(layout.Spacer{Width: unit.Dp(12)}.Layout),
			layout.Flexed(1, func(gtx layout.Context) layout.Dimensions { return e.th.MutedLabel(gtx, what) }),
		)
	})
}

func (p *treePanel) layoutCrumbs(gtx layout.Context, e env) layout.Dimensions {
	if p.stack == nil {
		return layout.Dimensions{}
	}
	ts := p.stack.Transforms()
	if len(p.crumbs) < len(ts)+1 {
		p.crumbs = make([]widget.Clickable, len(ts)+8)
	}
	for i := 0; i <= len(ts); i++ {
		for p.crumbs[i].Clicked(gtx) {
			if i < len(ts) {
				p.stack = p.stack.Truncate(i)
				p.tree = p.stack.Tree(calltree.View{Inverted: p.inverted, Order: p.order})
				p.refreshRows()
				return layout.Dimensions{}
			}
		}
	}
	f := p.stack.Functions()
	children := []layout.FlexChild{layout.Rigid(func(gtx layout.Context) layout.Dimensions {
		return e.th.Button(gtx, &p.crumbs[0], "Complete")
	})}
	for i, t := range ts {
		children = append(children, layout.Rigid(func(gtx layout.Context) layout.Dimensions {
			return layout.Inset{Left: unit.Dp(4)}.Layout(gtx, func(gtx layout.Context) layout.Dimensions {
				return e.th.Button(gtx, &p.crumbs[i+1], "› "+t.Label(f))
			})
		}))
	}
	if p.message != "" {
		children = append(children, layout.Rigid(func(gtx layout.Context) layout.Dimensions {
			return layout.Inset{Left: unit.Dp(8)}.Layout(gtx, func(gtx layout.Context) layout.Dimensions {
				return e.th.DrawText(gtx, p.message, e.th.Warn)
			})
		}))
	}
	return layout.Inset{Left: unit.Dp(4), Bottom: unit.Dp(2)}.Layout(gtx, func(gtx layout.Context) layout.Dimensions {
		return layout.Flex{Alignment: layout.Middle}.Layout(gtx, children...)
	})
}

// treeColumns are the table's column titles, above the cells layoutTable draws.
var treeColumns = [...]string{"Running time", "Self time", "Total", "Function"}

// columnWidthDp is the width of each figure column.
const columnWidthDp = 84

func columnWidth(gtx layout.Context) int { return gtx.Dp(columnWidthDp) }

// layoutColumns draws the column titles.
func (p *treePanel) layoutColumns(gtx layout.Context, e env) layout.Dimensions {
	p.columnsShown = p.tree != nil
	if p.tree == nil {
		return layout.Dimensions{}
	}
	rowH, colW := gtx.Dp(18), columnWidth(gtx)
	size := image.Pt(gtx.Constraints.Max.X, rowH)
	paint.FillShape(gtx.Ops, e.th.Border, clip.Rect{Min: image.Pt(0, rowH-1), Max: size}.Op())
	for i, title := range treeColumns {
		x := i * colW
		w := colW - gtx.Dp(6)
		if i == len(treeColumns)-1 {
			x += gtx.Dp(8)
			w = max(0, size.X-x)
		}
		off := op.Offset(image.Pt(x, 0)).Push(gtx.Ops)
		g := gtx
		g.Constraints = layout.Exact(image.Pt(w, rowH))
		if i == len(treeColumns)-1 {
			e.th.MutedLabel(g, title)
		} else {
			layout.E.Layout(g, func(gtx layout.Context) layout.Dimensions { return e.th.MutedLabel(gtx, title) })
		}
		off.Pop()
	}
	return layout.Dimensions{Size: size}
}

func (p *treePanel) layoutTable(gtx layout.Context, e env) layout.Dimensions {
	t := p.tree
	if t == nil {
		return layout.UniformInset(unit.Dp(8)).Layout(gtx, func(gtx layout.Context) layout.Dimensions {
			if p.message != "" {
				return e.th.MutedLabel(gtx, p.message)
			}
			return e.th.MutedLabel(gtx, "Building the call tree…")
		})
	}
	sel := p.selectedRow()
	for i := range p.rows {
		if i >= len(p.rowClick) {
			break
		}
		for {
			ev, ok := p.rowClick[i].Update(gtx)
			if !ok {
				break
			}
			if ev.NumClicks >= 2 {
				p.toggle(p.rows[i].node, !p.isOpen(p.rows[i].node))
			} else {
				p.selectRow(e, i)
			}
			e.emit(focus{tag: p})
		}
	}
	p.list.Axis = layout.Vertical
	rowH := gtx.Dp(18)
	colW := columnWidth(gtx)
	dims := e.th.List(gtx, &p.list, len(p.rows), func(gtx layout.Context, i int) layout.Dimensions {
		r := p.rows[i]
		n := r.node
		return p.rowClick[i].Layout(gtx, func(gtx layout.Context) layout.Dimensions {
			// Right-click opens the transform menu on this row.
			for {
				ev, ok := gtx.Event(pointer.Filter{Target: &p.rowClick[i], Kinds: pointer.Press})
				if !ok {
					break
				}
				if pe, ok := ev.(pointer.Event); ok && pe.Buttons.Contain(pointer.ButtonSecondary) {
					p.selected = t.Path(n)
					p.menu = treeMenu{shown: true, node: n}
				}
			}
			size := image.Pt(gtx.Constraints.Max.X, rowH)
			if i == sel {
				paint.FillShape(gtx.Ops, e.th.Control, clip.Rect{Max: size}.Op())
			}
			area := clip.Rect{Max: size}.Push(gtx.Ops)
			event.Op(gtx.Ops, &p.rowClick[i])
			area.Pop()
			cell := func(x int, s string) {
				stack := op.Offset(image.Pt(x, 0)).Push(gtx.Ops)
				g := gtx
				g.Constraints = layout.Exact(image.Pt(colW-gtx.Dp(6), rowH))
				layout.E.Layout(g, func(gtx layout.Context) layout.Dimensions { return e.th.Label(gtx, s) })
				stack.Pop()
			}
			cell(0, r.running)
			cell(colW, r.self)
			cell(2*colW, r.pct)
			indent := 3*colW + gtx.Dp(8) + r.depth*gtx.Dp(12)
			arrow := "  "
			if r.expandable {
				arrow = "► "
				if r.opened {
					arrow = "▼ "
				}
			}
			stack := op.Offset(image.Pt(indent, 0)).Push(gtx.Ops)
			g := gtx
			g.Constraints = layout.Exact(image.Pt(max(0, gtx.Constraints.Max.X-indent), rowH))
			e.th.Label(g, arrow+r.name)
			stack.Pop()
			return layout.Dimensions{Size: size}
		})
	})
	p.layoutMenu(gtx, e)
	return dims
}

// layoutMenu draws the transform menu of the right-clicked row.
func (p *treePanel) layoutMenu(gtx layout.Context, e env) {
	if !p.menu.shown || p.tree == nil {
		return
	}
	for i := range transformKeys {
		for p.menu.items[i].Clicked(gtx) {
			p.menu.shown = false
			p.applyKind(transformKeys[i].kind, p.menu.node)
		}
	}
	if !p.menu.shown {
		return
	}
	defer op.Offset(image.Pt(gtx.Dp(240), gtx.Dp(4))).Push(gtx.Ops).Pop()
	e.th.Card(gtx, func(gtx layout.Context) layout.Dimensions {
		return layout.UniformInset(unit.Dp(4)).Layout(gtx, func(gtx layout.Context) layout.Dimensions {
			children := make([]layout.FlexChild, len(transformKeys))
			for i, tk := range transformKeys {
				children[i] = layout.Rigid(func(gtx layout.Context) layout.Dimensions {
					return p.menu.items[i].Layout(gtx, func(gtx layout.Context) layout.Dimensions {
						return layout.UniformInset(unit.Dp(3)).Layout(gtx, func(gtx layout.Context) layout.Dimensions {
							return e.th.Label(gtx, tk.label)
						})
					})
				})
			}
			return layout.Flex{Axis: layout.Vertical}.Layout(gtx, children...)
		})
	})
}

// shortURL keeps the last path element of a script URL, which is what tells scripts apart.
func shortURL(url string) string {
	for i := len(url) - 1; i >= 0; i-- {
		if url[i] == '/' && i < len(url)-1 {
			return url[i+1:]
		}
	}
	return url
}

// plural writes a count with its noun: "1 sample", "2 samples".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
