package app

import (
	"image"

	"gioui.org/io/event"
	"gioui.org/io/pointer"
	"gioui.org/layout"
	"gioui.org/op/clip"
	"gioui.org/op/paint"
	"gioui.org/unit"

	"flamedesk/core/calltree"
)

// bottomPanel holds the details of the selection on the left and the call tree on the right. Its
// top edge can be dragged to resize it.
type bottomPanel struct {
	heightDp float32
	// maxHeightDp keeps room for the chart when the panel is dragged taller.
	maxHeightDp float32
	dragging    bool
	dragStart   float32
	startH      float32
	details     detailsPanel
	tree        treePanel
	// highlightFn is the call-tree function whose calls the chart highlights, if any.
	highlightFn calltree.FuncID
}

func (p *bottomPanel) init() {
	p.heightDp = 300
	p.highlightFn = calltree.NoFunc
}

func (p *bottomPanel) reset(u *ui) {
	p.highlightFn = calltree.NoFunc
	p.details.reset()
	p.tree.reset(u)
}

// selectionChanged points the call tree at the selected entry's thread.
func (p *bottomPanel) selectionChanged(u *ui) {
	d := u.doc
	if d == nil || !d.selected.Valid() {
		return
	}
	th := d.trace.Threads[d.model.Tracks[d.selected.Track].Thread]
	if prof := calltree.FindProfile(d.trace, th.Pid, th.Tid); prof >= 0 {
		p.tree.retarget(u, prof, p.tree.rng)
	}
}

// rangeChanged limits the call tree to the shift+drag range.
func (p *bottomPanel) rangeChanged(u *ui) {
	d := u.doc
	if d == nil {
		return
	}
	rng := calltree.AllTime
	if d.hasRange() {
		rng = calltree.Range{Start: d.rangeStart, End: d.rangeEnd}
	}
	p.tree.retarget(u, p.tree.profile, rng)
}

// highlightFunction marks the calls of fn in the flame chart.
func (p *bottomPanel) highlightFunction(u *ui, f *calltree.Functions, fn calltree.FuncID) {
	p.highlightFn = fn
	if d := u.doc; d != nil {
		d.highlight = highlightCalls(d, f, fn)
		u.chart.invalidate()
	}
}

func (p *bottomPanel) layout(gtx layout.Context, u *ui) layout.Dimensions {
	if u.doc == nil {
		return layout.Dimensions{}
	}
	// The 5 px strip on top is the resize handle.
	for {
		ev, ok := gtx.Event(pointer.Filter{Target: p, Kinds: pointer.Press | pointer.Drag | pointer.Release | pointer.Cancel})
		if !ok {
			break
		}
		e, ok := ev.(pointer.Event)
		if !ok {
			continue
		}
		switch e.Kind {
		case pointer.Press:
			p.dragging, p.dragStart, p.startH = true, e.Position.Y, p.heightDp
		case pointer.Drag:
			if p.dragging {
				h := p.startH - (e.Position.Y-p.dragStart)/gtx.Metric.PxPerDp
				p.heightDp = min(max(h, 60), p.maxHeightDp)
			}
		case pointer.Release, pointer.Cancel:
			p.dragging = false
		}
	}
	size := gtx.Constraints.Max
	paint.FillShape(gtx.Ops, u.colors.panel, clip.Rect{Max: size}.Op())
	paint.FillShape(gtx.Ops, u.colors.border, clip.Rect{Max: image.Pt(size.X, gtx.Dp(2))}.Op())
	handle := clip.Rect{Max: image.Pt(size.X, gtx.Dp(5))}.Push(gtx.Ops)
	pointer.CursorRowResize.Add(gtx.Ops)
	event.Op(gtx.Ops, p)
	handle.Pop()
	gtx.Constraints = layout.Exact(size)
	return layout.Inset{Top: unit.Dp(4)}.Layout(gtx, func(gtx layout.Context) layout.Dimensions {
		return layout.Flex{}.Layout(gtx,
			layout.Flexed(0.36, func(gtx layout.Context) layout.Dimensions { return p.details.layout(gtx, u) }),
			layout.Rigid(func(gtx layout.Context) layout.Dimensions {
				sz := image.Pt(gtx.Dp(1), gtx.Constraints.Max.Y)
				paint.FillShape(gtx.Ops, u.colors.border, clip.Rect{Max: sz}.Op())
				return layout.Dimensions{Size: sz}
			}),
			layout.Flexed(0.64, func(gtx layout.Context) layout.Dimensions { return p.tree.layout(gtx, u) }),
		)
	})
}

func unitDp(v float32) unit.Dp { return unit.Dp(v) }
