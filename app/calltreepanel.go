package app

import (
	"fmt"
	"image"
	"sync"

	"gioui.org/io/event"
	"gioui.org/io/key"
	"gioui.org/io/pointer"
	"gioui.org/layout"
	"gioui.org/op"
	"gioui.org/op/clip"
	"gioui.org/op/paint"
	"gioui.org/unit"
	"gioui.org/widget"

	"flamedesk/core/calltree"
)

// treePanel is the call tree and bottom-up tree table of the selected thread and time range,
// with the transform stack shown as breadcrumbs. Building a tree or applying a transform runs on
// its own goroutine; the table keeps showing the previous tree until the new one is ready.
type treePanel struct {
	tabTree, tabBottomUp            widget.Clickable
	inverted                        bool
	order                           calltree.Order
	sortRunning, sortSelf, sortName widget.Clickable

	profile int             // index into Trace.Profiles, -1 for none
	rng     calltree.Range  // the time range the tree covers; zero for the whole thread
	stack   *calltree.Stack // transforms over the source of profile and rng
	tree    *calltree.Tree
	rows    []treeRow
	// expanded and selected are kept as paths, which survive rebuilds and transforms.
	expanded map[string]bool
	selected calltree.Path
	list     widget.List
	crumbs   []widget.Clickable
	rowClick []widget.Clickable

	menu     treeMenu
	building sync.Mutex
	pending  *treeBuild
	message  string
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

// treeBuild is a tree being made on another goroutine.
type treeBuild struct {
	done  bool
	stack *calltree.Stack
	tree  *calltree.Tree
	err   error
}

// treeMenu is the right-click menu of a row.
type treeMenu struct {
	shown bool
	node  calltree.NodeID
	at    image.Point
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

func (p *treePanel) reset(u *ui) {
	p.profile = -1
	p.stack, p.tree, p.rows = nil, nil, nil
	p.expanded = map[string]bool{}
	p.selected = nil
	p.rng = calltree.AllTime
	p.menu.shown = false
	if u.doc != nil {
		p.profile = calltree.DefaultProfile(u.doc.trace)
		p.rebuild(u, nil)
	}
}

// retarget follows the selection to another thread or time range, keeping the transforms.
func (p *treePanel) retarget(u *ui, profile int, rng calltree.Range) {
	if profile == p.profile && rng == p.rng && p.stack != nil {
		return
	}
	var keep []calltree.Transform
	if p.stack != nil && profile == p.profile {
		keep = p.stack.Transforms()
	}
	p.profile, p.rng = profile, rng
	p.rebuild(u, keep)
}

// rebuild makes a new source (thread and range) with transforms on another goroutine.
func (p *treePanel) rebuild(u *ui, transforms []calltree.Transform) {
	d := u.doc
	if d == nil || p.profile < 0 {
		p.tree, p.rows, p.message = nil, nil, "This trace has no CPU profile."
		return
	}
	tr, prof, rng := d.trace, &d.trace.Profiles[p.profile], p.rng
	b := &treeBuild{}
	p.building.Lock()
	p.pending = b
	p.building.Unlock()
	view := calltree.View{Inverted: p.inverted, Order: p.order}
	invalidate := u.win.Invalidate
	go func() {
		src, err := calltree.NewSource(tr, prof, rng)
		var st *calltree.Stack
		var tree *calltree.Tree
		if err == nil {
			st = calltree.NewStack(src)
			for _, t := range transforms {
				if st, err = st.Push(t); err != nil {
					break
				}
			}
			tree = st.Tree(view)
		}
		p.building.Lock()
		b.done, b.stack, b.tree, b.err = true, st, tree, err
		p.building.Unlock()
		invalidate()
	}()
}

// push applies a transform on another goroutine.
func (p *treePanel) push(u *ui, t calltree.Transform) {
	if p.stack == nil {
		return
	}
	st := p.stack
	view := calltree.View{Inverted: p.inverted, Order: p.order}
	b := &treeBuild{}
	p.building.Lock()
	p.pending = b
	p.building.Unlock()
	invalidate := u.win.Invalidate
	go func() {
		next, err := st.Push(t)
		var tree *calltree.Tree
		if err == nil {
			tree = next.Tree(view)
		}
		p.building.Lock()
		b.done, b.stack, b.tree, b.err = true, next, tree, err
		p.building.Unlock()
		invalidate()
	}()
	// The selection follows the node through the transform; expanded rows open afresh.
	if p.selected != nil && !p.inverted {
		p.selected = t.MapPath(p.selected, st.Functions())
	} else {
		p.selected = nil
	}
	clear(p.expanded)
}

// poll installs a finished build.
func (p *treePanel) poll() {
	p.building.Lock()
	b := p.pending
	if b == nil || !b.done {
		p.building.Unlock()
		return
	}
	p.pending = nil
	p.building.Unlock()
	if b.err != nil {
		p.message = b.err.Error()
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
	}
	p.inverted, p.order = inverted, order
	p.tree = p.stack.Tree(calltree.View{Inverted: inverted, Order: order})
	p.refreshRows()
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
			p.expanded[f.PathString(t.Path(n))] = true
			kids = t.Children(n)
		}
	}
	var walk func(nodes []calltree.NodeID, depth int)
	total := t.Total()
	walk = func(nodes []calltree.NodeID, depth int) {
		for _, n := range nodes {
			open := p.expanded[f.PathString(t.Path(n))]
			running, self := t.Running(n), t.Self(n)
			pct := 0.0
			if total > 0 {
				pct = 100 * float64(running) / float64(total)
			}
			fn := t.Func(n)
			name := f.Name(fn)
			if name == "" {
				name = "(anonymous)"
			}
			if url := f.URL(fn); url != "" {
				name += "  " + shortURL(url)
			}
			p.rows = append(p.rows, treeRow{
				node: n, depth: depth, name: name, expandable: t.HasChildren(n), opened: open,
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
	key := p.tree.Functions().PathString(p.tree.Path(n))
	if open {
		p.expanded[key] = true
	} else {
		delete(p.expanded, key)
	}
	p.refreshRows()
}

// onKey handles the tree's keys: arrows move and open, and Firefox Profiler's transform letters.
func (p *treePanel) onKey(u *ui, e key.Event) {
	if e.State != key.Press || p.tree == nil {
		return
	}
	sel := p.selectedRow()
	switch e.Name {
	case key.NameDownArrow:
		if sel+1 < len(p.rows) {
			p.selectRow(u, sel+1)
		}
		return
	case key.NameUpArrow:
		if sel > 0 {
			p.selectRow(u, sel-1)
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
			if p.expanded[p.tree.Functions().PathString(p.tree.Path(n))] {
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
	shift := e.Modifiers.Contain(key.ModShift)
	for _, tk := range transformKeys {
		if string(e.Name) == tk.key && shift == tk.shift {
			p.applyKind(u, tk.kind, p.rows[sel].node)
			return
		}
	}
}

func (p *treePanel) applyKind(u *ui, k calltree.Kind, n calltree.NodeID) {
	t, ok := calltree.TransformFor(k, p.tree, n)
	if !ok {
		p.message = "That transform does not apply to this node in this view."
		return
	}
	p.push(u, t)
}

func (p *treePanel) selectRow(u *ui, i int) {
	p.selected = p.tree.Path(p.rows[i].node)
	u.panel.highlightFunction(u, p.tree.Functions(), p.tree.Func(p.rows[i].node))
	if i < p.list.Position.First || i >= p.list.Position.First+p.list.Position.Count-1 {
		p.list.Position.First = max(0, i-3)
		p.list.Position.Offset = 0
	}
}

var treeKeyNames = []key.Name{key.NameUpArrow, key.NameDownArrow, key.NameLeftArrow, key.NameRightArrow, "F", "M", "P", "D", "R", "C"}

func (p *treePanel) layout(gtx layout.Context, u *ui) layout.Dimensions {
	p.poll()
	for p.tabTree.Clicked(gtx) {
		p.setView(false, p.order)
	}
	for p.tabBottomUp.Clicked(gtx) {
		p.setView(true, p.order)
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
		switch e := ev.(type) {
		case key.Event:
			p.onKey(u, e)
		case pointer.Event:
			gtx.Execute(key.FocusCmd{Tag: p})
		}
	}
	area := clip.Rect{Max: gtx.Constraints.Max}.Push(gtx.Ops)
	event.Op(gtx.Ops, p)
	area.Pop()

	return layout.Flex{Axis: layout.Vertical}.Layout(gtx,
		layout.Rigid(func(gtx layout.Context) layout.Dimensions { return p.layoutHeader(gtx, u) }),
		layout.Rigid(func(gtx layout.Context) layout.Dimensions { return p.layoutCrumbs(gtx, u) }),
		layout.Flexed(1, func(gtx layout.Context) layout.Dimensions { return p.layoutTable(gtx, u) }),
	)
}

func (p *treePanel) layoutHeader(gtx layout.Context, u *ui) layout.Dimensions {
	tab := func(c *widget.Clickable, s string, on bool) layout.FlexChild {
		return layout.Rigid(func(gtx layout.Context) layout.Dimensions {
			if on {
				s = "● " + s
			}
			return u.smallButton(gtx, c, s)
		})
	}
	what := ""
	if d := u.doc; d != nil && p.profile >= 0 {
		what = calltree.ProfileLabel(d.trace, p.profile)
		if p.rng != calltree.AllTime {
			what += fmt.Sprintf(" · range %s", formatDuration(p.rng.End-p.rng.Start))
		}
		if p.tree != nil {
			what += fmt.Sprintf(" · %s in %d samples", formatDuration(float64(p.tree.Total().Microseconds())), p.tree.Samples())
		}
	}
	gap := layout.Rigid(layout.Spacer{Width: unit.Dp(4)}.Layout)
	return layout.Inset{Top: unit.Dp(4), Bottom: unit.Dp(2), Left: unit.Dp(4)}.Layout(gtx, func(gtx layout.Context) layout.Dimensions {
		return layout.Flex{Alignment: layout.Middle}.Layout(gtx,
			tab(&p.tabTree, "Call tree", !p.inverted), gap, tab(&p.tabBottomUp, "Bottom-up", p.inverted),
			layout.Rigid(layout.Spacer{Width: unit.Dp(12)}.Layout),
			tab(&p.sortRunning, "Running", p.order == calltree.ByRunning), gap,
			tab(&p.sortSelf, "Self", p.order == calltree.BySelf), gap,
			tab(&p.sortName, "Name", p.order == calltree.ByName),
			layout.Rigid(layout.Spacer{Width: unit.Dp(12)}.Layout),
			layout.Flexed(1, func(gtx layout.Context) layout.Dimensions { return u.mutedLabel(gtx, what) }),
		)
	})
}

func (p *treePanel) layoutCrumbs(gtx layout.Context, u *ui) layout.Dimensions {
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
				st := p.stack
				p.tree = st.Tree(calltree.View{Inverted: p.inverted, Order: p.order})
				p.refreshRows()
				return layout.Dimensions{}
			}
		}
	}
	f := p.stack.Functions()
	children := []layout.FlexChild{layout.Rigid(func(gtx layout.Context) layout.Dimensions {
		return u.smallButton(gtx, &p.crumbs[0], "Complete")
	})}
	for i, t := range ts {
		children = append(children, layout.Rigid(func(gtx layout.Context) layout.Dimensions {
			return layout.Inset{Left: unit.Dp(4)}.Layout(gtx, func(gtx layout.Context) layout.Dimensions {
				return u.smallButton(gtx, &p.crumbs[i+1], "› "+t.Label(f))
			})
		}))
	}
	if p.message != "" {
		children = append(children, layout.Rigid(func(gtx layout.Context) layout.Dimensions {
			return layout.Inset{Left: unit.Dp(8)}.Layout(gtx, func(gtx layout.Context) layout.Dimensions {
				return u.drawText(gtx, p.message, u.colors.warn)
			})
		}))
	}
	return layout.Inset{Left: unit.Dp(4), Bottom: unit.Dp(2)}.Layout(gtx, func(gtx layout.Context) layout.Dimensions {
		return layout.Flex{Alignment: layout.Middle}.Layout(gtx, children...)
	})
}

func (p *treePanel) layoutTable(gtx layout.Context, u *ui) layout.Dimensions {
	t := p.tree
	if t == nil {
		return layout.UniformInset(unit.Dp(8)).Layout(gtx, func(gtx layout.Context) layout.Dimensions {
			if p.message != "" {
				return u.mutedLabel(gtx, p.message)
			}
			return u.mutedLabel(gtx, "Building the call tree…")
		})
	}
	f := t.Functions()
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
				p.toggle(p.rows[i].node, !p.expanded[f.PathString(t.Path(p.rows[i].node))])
			} else {
				p.selectRow(u, i)
			}
			gtx.Execute(key.FocusCmd{Tag: p})
		}
	}
	p.list.Axis = layout.Vertical
	rowH := gtx.Dp(18)
	colW := gtx.Dp(78)
	dims := layoutList(gtx, u, &p.list, len(p.rows), func(gtx layout.Context, i int) layout.Dimensions {
		r := p.rows[i]
		n := r.node
		return p.rowClick[i].Layout(gtx, func(gtx layout.Context) layout.Dimensions {
			// Right-click opens the transform menu on this row.
			for {
				ev, ok := gtx.Event(pointer.Filter{Target: &p.rowClick[i], Kinds: pointer.Press})
				if !ok {
					break
				}
				if e, ok := ev.(pointer.Event); ok && e.Buttons.Contain(pointer.ButtonSecondary) {
					p.selected = t.Path(n)
					p.menu = treeMenu{shown: true, node: n, at: image.Pt(int(e.Position.X), 0)}
				}
			}
			size := image.Pt(gtx.Constraints.Max.X, rowH)
			if i == sel {
				paint.FillShape(gtx.Ops, u.colors.button, clip.Rect{Max: size}.Op())
			}
			area := clip.Rect{Max: size}.Push(gtx.Ops)
			event.Op(gtx.Ops, &p.rowClick[i])
			area.Pop()
			cell := func(x int, s string) {
				stack := op.Offset(image.Pt(x, 0)).Push(gtx.Ops)
				g := gtx
				g.Constraints = layout.Exact(image.Pt(colW-gtx.Dp(6), rowH))
				layout.E.Layout(g, func(gtx layout.Context) layout.Dimensions { return u.label(gtx, s) })
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
			name := r.name
			stack := op.Offset(image.Pt(indent, 0)).Push(gtx.Ops)
			g := gtx
			g.Constraints = layout.Exact(image.Pt(max(0, gtx.Constraints.Max.X-indent), rowH))
			u.label(g, arrow+name)
			stack.Pop()
			return layout.Dimensions{Size: size}
		})
	})
	p.layoutMenu(gtx, u)
	return dims
}

// layoutMenu draws the transform menu of the right-clicked row.
func (p *treePanel) layoutMenu(gtx layout.Context, u *ui) {
	if !p.menu.shown || p.tree == nil {
		return
	}
	for i := range transformKeys {
		for p.menu.items[i].Clicked(gtx) {
			p.menu.shown = false
			p.applyKind(u, transformKeys[i].kind, p.menu.node)
		}
	}
	if !p.menu.shown {
		return
	}
	m := op.Record(gtx.Ops)
	g := gtx
	g.Constraints.Min = image.Point{}
	dims := layout.UniformInset(unit.Dp(4)).Layout(g, func(gtx layout.Context) layout.Dimensions {
		children := make([]layout.FlexChild, len(transformKeys))
		for i, tk := range transformKeys {
			children[i] = layout.Rigid(func(gtx layout.Context) layout.Dimensions {
				return p.menu.items[i].Layout(gtx, func(gtx layout.Context) layout.Dimensions {
					return layout.UniformInset(unit.Dp(3)).Layout(gtx, func(gtx layout.Context) layout.Dimensions {
						return u.label(gtx, tk.label)
					})
				})
			})
		}
		return layout.Flex{Axis: layout.Vertical}.Layout(gtx, children...)
	})
	call := m.Stop()
	defer op.Offset(image.Pt(gtx.Dp(240), gtx.Dp(4))).Push(gtx.Ops).Pop()
	paint.FillShape(gtx.Ops, u.colors.panel, clip.Rect{Max: dims.Size}.Op())
	paint.FillShape(gtx.Ops, u.colors.border, clip.Stroke{Path: clip.Rect{Max: dims.Size}.Path(), Width: 1}.Op())
	call.Add(gtx.Ops)
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
