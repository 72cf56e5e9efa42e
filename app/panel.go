package app

import (
	"image"

	"gioui.org/io/event"
	"gioui.org/io/pointer"
	"gioui.org/layout"
	"gioui.org/op/clip"
	"gioui.org/op/paint"
	"gioui.org/unit"
	"gioui.org/widget"
)

// detailsShare is the part of the bottom panel's width the details take; the call tree has the rest.
const detailsShare = 0.36

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
	// compare is the Compare tab, shown instead of the tree when showCompare is set (compare.go).
	compare                 comparePanel
	showCompare             bool
	tabTreeSide, tabCompare widget.Clickable
	// origin is the panel's top-left in the window and treeArea the call tree's table within it,
	// as laid out in the last frame (for the window tests' state file).
	origin   image.Point
	treeArea image.Rectangle
}

func (p *bottomPanel) init(invalidate func()) {
	p.heightDp = 300
	p.tree.init(invalidate)
}

func (p *bottomPanel) reset(d *document) {
	p.details.reset()
	p.tree.reset(d)
}

func (p *bottomPanel) layout(gtx layout.Context, e env) layout.Dimensions {
	if e.doc == nil {
		return layout.Dimensions{}
	}
	// The 5 px strip on top is the resize handle.
	for {
		ev, ok := gtx.Event(pointer.Filter{Target: p, Kinds: pointer.Press | pointer.Drag | pointer.Release | pointer.Cancel})
		if !ok {
			break
		}
		pe, ok := ev.(pointer.Event)
		if !ok {
			continue
		}
		switch pe.Kind {
		case pointer.Press:
			p.dragging, p.dragStart, p.startH = true, pe.Position.Y, p.heightDp
		case pointer.Drag:
			if p.dragging {
				h := p.startH - (pe.Position.Y-p.dragStart)/gtx.Metric.PxPerDp
				p.heightDp = min(max(h, 60), p.maxHeightDp)
			}
		case pointer.Release, pointer.Cancel:
			p.dragging = false
		}
	}
	size := gtx.Constraints.Max
	// No background: the window is cleared to Panel (ui.frame).
	paint.FillShape(gtx.Ops, e.th.Border, clip.Rect{Max: image.Pt(size.X, gtx.Dp(2))}.Op())
	handle := clip.Rect{Max: image.Pt(size.X, gtx.Dp(5))}.Push(gtx.Ops)
	pointer.CursorRowResize.Add(gtx.Ops)
	event.Op(gtx.Ops, p)
	handle.Pop()
	gtx.Constraints = layout.Exact(size)
	top := gtx.Dp(4)
	return layout.Inset{Top: unit.Dp(4)}.Layout(gtx, func(gtx layout.Context) layout.Dimensions {
		detailsW := 0
		return layout.Flex{}.Layout(gtx,
			layout.Flexed(detailsShare, func(gtx layout.Context) layout.Dimensions {
				detailsW = gtx.Constraints.Max.X
				return p.details.layout(gtx, p.compare.detailsEnv(e))
			}),
			layout.Rigid(func(gtx layout.Context) layout.Dimensions {
				sz := image.Pt(gtx.Dp(1), gtx.Constraints.Max.Y)
				paint.FillShape(gtx.Ops, e.th.Border, clip.Rect{Max: sz}.Op())
				return layout.Dimensions{Size: sz}
			}),
			layout.Flexed(1-detailsShare, func(gtx layout.Context) layout.Dimensions {
				x := detailsW + gtx.Dp(1)
				p.treeArea = image.Rectangle{Min: image.Pt(x, top), Max: image.Pt(x+gtx.Constraints.Max.X, top+gtx.Constraints.Max.Y)}
				return p.layoutRight(gtx, e)
			}),
		)
	})
}
