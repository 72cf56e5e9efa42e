package app

import (
	"image"
	"image/color"
	"math"

	"gioui.org/f32"
	"gioui.org/io/event"
	"gioui.org/io/pointer"
	"gioui.org/layout"
	"gioui.org/op"
	"gioui.org/op/clip"
	"gioui.org/op/paint"

	"flamedesk/app/theme"
	"flamedesk/timeline"
)

const (
	overviewBuckets = 1024 // time resolution of the activity picture; the GPU scales it to the width
	overviewMaxRows = 16   // the busiest tracks get a row each
	overviewHeight  = 56   // dp
)

// overview is the minimap across the top: how busy each track is over the whole trace, with the
// current view as a window. A drag anywhere zooms to the range dragged; a click centres the view
// on the time clicked.
type overview struct {
	doc   *document
	theme *theme.Colors
	img   paint.ImageOp
	src   *image.NRGBA // what img shows, for the composite (overviewstrip.go)
	rows  int
	strip overviewStrip
	// ahead is the picture of aheadFor being built beside the frame that first shows it
	// (startAhead), nil when none is.
	ahead    chan overviewPicture
	aheadFor overviewKey
	// stripSize, stripTop and stripBottom are where the last frame drew the strip and its
	// picture, for the picture built ahead to be scaled into.
	stripSize             image.Point
	stripTop, stripBottom int

	dragging     bool
	selX0, selX1 float32
	width        int
	// hoverX is the pointer's x over the strip when hovering (filmstrip.go).
	hovering bool
	hoverX   float32
}

func (o *overview) reset() { o.doc, o.ahead = nil, nil }

// overviewPicture is the activity picture of a document: a row per track shown, a column per
// bucket of time; with it, when built ahead, the picture scaled into the strip (scaleOverview).
type overviewPicture struct {
	src  *image.NRGBA
	rows int

	base    *image.RGBA
	baseKey overviewBaseKey
}

// overviewKey is what a picture is of.
type overviewKey struct {
	doc   *document
	theme theme.Colors
}

// startAhead builds the picture of d in c on a goroutine of its own, for the frame that first
// shows d: beside the chart's layout, which that frame does first, rather than after it on the
// UI goroutine (4 ms on gen-trace-large, in the wait for the first chart).
func (o *overview) startAhead(d *document, c theme.Colors) {
	ahead := make(chan overviewPicture, 1)
	o.ahead, o.aheadFor = ahead, overviewKey{d, c}
	size, top, bottom := o.stripSize, o.stripTop, o.stripBottom
	go func() {
		pic := overviewActivity(d, &c)
		if size.X > 0 && bottom > top {
			// The strip as the last frame laid it out, most likely the next's too.
			pic.baseKey = overviewBaseKey{size: size, src: pic.src, bg: c.Panel, top: top, bottom: bottom}
			pic.base = scaleOverview(nil, size, pic.src, top, bottom, c.Panel)
		}
		ahead <- pic
	}()
}

// build readies the picture of d in c, once per document and theme: the one built ahead when it
// is of them (waiting for it), else one built now.
func (o *overview) build(d *document, c *theme.Colors) {
	o.doc, o.theme = d, c
	var pic overviewPicture
	if o.ahead != nil && o.aheadFor == (overviewKey{d, *c}) {
		pic = <-o.ahead
	} else {
		pic = overviewActivity(d, c)
	}
	o.ahead = nil
	o.src, o.rows = pic.src, pic.rows
	if pic.base != nil {
		o.strip.base, o.strip.baseKey = pic.base, pic.baseKey
	}
	o.img = paint.NewImageOp(pic.src)
	o.img.Filter = paint.FilterLinear
}

// overviewActivity paints each track's activity (the share of each bucket covered by its
// top-level entries) into a small image. It only reads d's model.
func overviewActivity(d *document, c *theme.Colors) overviewPicture {
	m := d.model
	lo, hi := m.Bounds()
	span := math.Max(hi-lo, 1)
	type rowData struct {
		busy  []float64
		total float64
	}
	// Idle time is drawn as background in the chart, so it is not activity here either.
	idle, hasIdle := m.Trace.Strings.Lookup("(idle)")
	var rows []rowData
	for ti := range m.Tracks {
		t := &m.Tracks[ti]
		if !t.Placed(0) {
			continue
		}
		r := rowData{busy: make([]float64, overviewBuckets)}
		lv := &t.Levels[0]
		for _, e := range lv.Entries {
			s := t.Core.StartAt(int(e))
			dur := t.Core.DurAt(int(e))
			if !(dur > 0) {
				continue
			}
			if hasIdle && m.EntryNameID(timeline.EntryRef{Track: timeline.TrackID(ti), Entry: e}) == idle {
				continue
			}
			r.total += dur
			b0 := (s - lo) / span * overviewBuckets
			b1 := (s + dur - lo) / span * overviewBuckets
			for b := int(math.Max(b0, 0)); b < overviewBuckets && float64(b) < b1; b++ {
				r.busy[b] += math.Min(b1, float64(b+1)) - math.Max(b0, float64(b))
			}
		}
		rows = append(rows, r)
	}
	// Keep the busiest tracks, in display order.
	if len(rows) > overviewMaxRows {
		order := make([]int, len(rows))
		for i := range order {
			order[i] = i
		}
		for i := 1; i < len(order); i++ {
			for j := i; j > 0 && rows[order[j]].total > rows[order[j-1]].total; j-- {
				order[j], order[j-1] = order[j-1], order[j]
			}
		}
		keep := make([]bool, len(rows))
		for _, i := range order[:overviewMaxRows] {
			keep[i] = true
		}
		kept := rows[:0]
		for i, r := range rows {
			if keep[i] {
				kept = append(kept, r)
			}
		}
		rows = kept
	}
	n := max(len(rows), 1)
	img := image.NewNRGBA(image.Rect(0, 0, overviewBuckets, n))
	bg, fg := c.Panel, c.Accent
	for y, r := range rows {
		for x, v := range r.busy {
			img.SetNRGBA(x, y, theme.Mix(bg, fg, math.Min(v, 1)))
		}
	}
	return overviewPicture{src: img, rows: n}
}

func (o *overview) layout(gtx layout.Context, e env) layout.Dimensions {
	d := e.doc
	h := gtx.Dp(overviewHeight)
	size := image.Pt(gtx.Constraints.Max.X, h)
	o.width = size.X
	o.stripSize, o.stripTop, o.stripBottom = size, gtx.Dp(2), gtx.Dp(2)+h-gtx.Dp(4)
	if d == nil {
		// Before the first document the strip is empty and shows the window's Bg, as it did when
		// the window was cleared to Bg; with a document it is drawn on the window's clear, Panel.
		paint.FillShape(gtx.Ops, e.th.Bg, clip.Rect{Max: size}.Op())
		return layout.Dimensions{Size: size}
	}
	if o.doc != d || o.theme == nil || *o.theme != e.th.Colors {
		c := e.th.Colors
		o.build(d, &c)
	}
	vp := d.view
	total := vp.Total()
	toX := func(rel float64) float32 { return float32(rel / total * float64(size.X)) }
	toRel := func(x float32) float64 { return float64(x) / float64(size.X) * total }
	for {
		ev, ok := gtx.Event(pointer.Filter{Target: o, Kinds: pointer.Press | pointer.Drag | pointer.Release | pointer.Cancel |
			pointer.Move | pointer.Enter | pointer.Leave})
		if !ok {
			break
		}
		pe, ok := ev.(pointer.Event)
		if !ok {
			continue
		}
		switch pe.Kind {
		case pointer.Move, pointer.Enter:
			o.hovering, o.hoverX = true, pe.Position.X
		case pointer.Leave:
			o.hovering = false
		case pointer.Press:
			o.dragging = true
			o.selX0, o.selX1 = pe.Position.X, pe.Position.X
		case pointer.Drag:
			if o.dragging {
				o.selX1 = pe.Position.X
			}
		case pointer.Release:
			if !o.dragging {
				continue
			}
			o.dragging = false
			if math.Abs(float64(o.selX1-o.selX0)) > clickSlopPx {
				// A drag selects the range dragged, wherever it starts: at the fitted view the
				// whole strip is the current window, and a drag must still select.
				a, b := toRel(min(o.selX0, o.selX1)), toRel(max(o.selX0, o.selX1))
				vp.ZoomToRange(vp.Origin()+a, vp.Origin()+b)
			} else {
				// A click centres the view on the time clicked, keeping the zoom.
				v := vp.View()
				vp.Navigate(timeline.View{Start: toRel(pe.Position.X) - v.Span/2, Span: v.Span})
			}
		case pointer.Cancel:
			o.dragging, o.hovering = false, false
		}
	}

	defer clip.Rect{Max: size}.Push(gtx.Ops).Pop()
	// No background: the window is cleared to Panel (ui.frame).
	// The activity picture, scaled from buckets × rows to where the trace's bounds fall on the
	// view's axis: the whole strip, unless a comparison widened the axis (comparechart.go).
	lo, hi := d.model.Bounds()
	left := toX(lo - vp.Origin())
	sx := (toX(math.Max(hi-lo, 1)+lo-vp.Origin()) - left) / overviewBuckets
	sy := float32(h-gtx.Dp(4)) / float32(o.rows)
	v := vp.View()
	x0, x1 := int(toX(v.Start)), int(math.Ceil(float64(toX(v.Start+v.Span))))
	x1 = max(x1, x0+2)
	selA, selB := int(min(o.selX0, o.selX1)), int(max(o.selX0, o.selX1))
	if canCompositeOverview(size.X, left, sx, sy) {
		top := gtx.Dp(2)
		o.strip.strip(size, o.src, top, top+h-gtx.Dp(4), e.th.Panel, e.th.Accent, e.th.Border,
			x0, x1, o.dragging, selA, selB).Add(gtx.Ops)
		paint.PaintOp{}.Add(gtx.Ops)
	} else {
		o.paintOps(gtx, e, size, left, sx, sy, x0, x1, selA, selB)
	}
	event.Op(gtx.Ops, o)
	pointer.CursorPointer.Add(gtx.Ops)
	o.layoutOverviewPeek(gtx, e, d, total)
	return layout.Dimensions{Size: size}
}

// paintOps draws the strip as Gio ops, where the composite cannot (overviewstrip.go): a
// comparison widened the axis, or the strip is narrower than the picture.
func (o *overview) paintOps(gtx layout.Context, e env, size image.Point, left, sx, sy float32, x0, x1, selA, selB int) {
	h := size.Y
	st := op.Affine(f32.Affine2D{}.Scale(f32.Point{}, f32.Pt(sx, sy)).Offset(f32.Pt(left, float32(gtx.Dp(2))))).Push(gtx.Ops)
	o.img.Add(gtx.Ops)
	paint.PaintOp{}.Add(gtx.Ops)
	st.Pop()
	// Shade what is outside the view, and frame the view.
	shade := color.NRGBA{A: overviewShade}
	paint.FillShape(gtx.Ops, shade, clip.Rect{Max: image.Pt(x0, h)}.Op())
	paint.FillShape(gtx.Ops, shade, clip.Rect{Min: image.Pt(x1, 0), Max: size}.Op())
	// The frame is four rectangles rather than a stroked path: rectangles are what software GL
	// draws fastest.
	for _, r := range overviewFrame(x0, x1, h) {
		paint.FillShape(gtx.Ops, e.th.Accent, clip.Rect(r).Op())
	}
	if o.dragging {
		paint.FillShape(gtx.Ops, color.NRGBA{R: e.th.Accent.R, G: e.th.Accent.G, B: e.th.Accent.B, A: overviewSelAlpha},
			clip.Rect{Min: image.Pt(selA, 0), Max: image.Pt(selB, h)}.Op())
	}
	paint.FillShape(gtx.Ops, e.th.Border, clip.Rect{Min: image.Pt(0, h-1), Max: size}.Op())
}
