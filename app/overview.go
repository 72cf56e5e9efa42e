package app

import (
	"image"
	"image/color"
	"math"

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
	overviewBuckets = 1024 // time resolution of the activity picture, scaled to the strip's width
	overviewMaxRows = 16   // the busiest tracks get a row each
	overviewHeight  = 56   // dp
	// maxOverviewWidth bounds the activity picture's width in pixels, however far a comparison
	// widens the axis; past it the picture is left out.
	maxOverviewWidth = 1 << 14
)

// overview is the minimap across the top: how busy each track is over the whole trace, with the
// current view as a window. A drag anywhere zooms to the range dragged; a click centres the view
// on the time clicked.
type overview struct {
	doc   *document
	theme *theme.Colors
	// activity is each kept track's busy share per bucket (rows × overviewBuckets, in [0, 1]).
	activity []float32
	rows     int
	// img is activity painted at the size it is drawn (imgSize), so that the GPU draws it one to
	// one with nearest filtering: a scaled image with linear filtering has Gio build its
	// mipmaps, which under Mesa's software GL cost the first chart frame 150-200 ms
	// (scripts/readybench.sh on gen-trace-large).
	img     paint.ImageOp
	imgSize image.Point

	dragging     bool
	selX0, selX1 float32
	width        int
	// hoverX is the pointer's x over the strip when hovering (filmstrip.go).
	hovering bool
	hoverX   float32
}

func (o *overview) reset() { o.doc = nil }

// build paints each track's activity (the share of each bucket covered by its top-level entries)
// into a small image, once per document and theme.
func (o *overview) build(d *document, c *theme.Colors) {
	o.doc, o.theme = d, c
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
		if len(t.Levels) == 0 {
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
	o.rows = len(rows)
	o.activity = make([]float32, len(rows)*overviewBuckets)
	for y, r := range rows {
		for x, v := range r.busy {
			o.activity[y*overviewBuckets+x] = float32(math.Min(v, 1))
		}
	}
	o.imgSize = image.Point{}
}

// paintImage paints the activity at size, each track's row scaled as a linear filter would: a
// pixel takes the value interpolated at its centre where the picture is stretched, the mean of
// the buckets it covers where it is shrunk.
func (o *overview) paintImage(size image.Point, c *theme.Colors) {
	o.imgSize = size
	wide := make([]float32, o.rows*size.X) // each row stretched or shrunk to the width
	for y := range o.rows {
		resampleLinear(wide[y*size.X:(y+1)*size.X], o.activity[y*overviewBuckets:(y+1)*overviewBuckets], 1, overviewBuckets)
	}
	img := image.NewNRGBA(image.Rect(0, 0, size.X, size.Y))
	column := make([]float32, size.Y)
	for x := range size.X {
		resampleLinear(column, wide[x:], size.X, o.rows)
		for y, v := range column {
			img.SetNRGBA(x, y, theme.Mix(c.Panel, c.Accent, float64(v)))
		}
	}
	o.img = paint.NewImageOp(img)
	o.img.Filter = paint.FilterNearest
}

// resampleLinear fills dst with the n values src[0], src[stride], ... src[(n-1)*stride] scaled
// to len(dst): where dst is longer, each value is interpolated at the centre of its cell (the
// edges held, as a texture clamped to its edge); where shorter, each is the mean of the source
// cells it covers, weighted by how much of each it covers.
func resampleLinear(dst, src []float32, stride, n int) {
	w := len(dst)
	at := func(i int) float32 { return src[min(max(i, 0), n-1)*stride] }
	scale := float64(n) / float64(w)
	for x := range dst {
		if w >= n {
			u := (float64(x)+0.5)*scale - 0.5
			i := math.Floor(u)
			f := float32(u - i)
			dst[x] = at(int(i))*(1-f) + at(int(i)+1)*f
			continue
		}
		lo, hi := float64(x)*scale, float64(x+1)*scale
		sum := 0.0
		for i := int(lo); i < n && float64(i) < hi; i++ {
			sum += float64(at(i)) * (math.Min(hi, float64(i+1)) - math.Max(lo, float64(i)))
		}
		dst[x] = float32(sum / (hi - lo))
	}
}

func (o *overview) layout(gtx layout.Context, e env) layout.Dimensions {
	d := e.doc
	h := gtx.Dp(overviewHeight)
	size := image.Pt(gtx.Constraints.Max.X, h)
	o.width = size.X
	if d == nil {
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
	paint.Fill(gtx.Ops, e.th.Panel)
	// The activity picture, scaled from buckets × rows to where the trace's bounds fall on the
	// view's axis: the whole strip, unless a comparison widened the axis (comparechart.go).
	lo, hi := d.model.Bounds()
	left := toX(lo - vp.Origin())
	right := toX(math.Max(hi-lo, 1) + lo - vp.Origin())
	pic := image.Pt(int(math.Round(float64(right-left))), h-gtx.Dp(4))
	if o.rows > 0 && pic.X > 0 && pic.Y > 0 && pic.X <= maxOverviewWidth {
		if pic != o.imgSize {
			c := e.th.Colors
			o.paintImage(pic, &c)
		}
		st := op.Offset(image.Pt(int(math.Round(float64(left))), gtx.Dp(2))).Push(gtx.Ops)
		o.img.Add(gtx.Ops)
		paint.PaintOp{}.Add(gtx.Ops)
		st.Pop()
	}
	// Shade what is outside the view, and frame the view.
	v := vp.View()
	x0, x1 := int(toX(v.Start)), int(math.Ceil(float64(toX(v.Start+v.Span))))
	x1 = max(x1, x0+2)
	shade := color.NRGBA{A: 0x50}
	paint.FillShape(gtx.Ops, shade, clip.Rect{Max: image.Pt(x0, h)}.Op())
	paint.FillShape(gtx.Ops, shade, clip.Rect{Min: image.Pt(x1, 0), Max: size}.Op())
	// The frame is four rectangles rather than a stroked path: rectangles are what software GL
	// draws fastest.
	for _, r := range []image.Rectangle{
		{Min: image.Pt(x0, 0), Max: image.Pt(x1, 2)}, {Min: image.Pt(x0, h-2), Max: image.Pt(x1, h)},
		{Min: image.Pt(x0, 0), Max: image.Pt(x0+2, h)}, {Min: image.Pt(x1-2, 0), Max: image.Pt(x1, h)},
	} {
		paint.FillShape(gtx.Ops, e.th.Accent, clip.Rect(r).Op())
	}
	if o.dragging {
		a, b := int(min(o.selX0, o.selX1)), int(max(o.selX0, o.selX1))
		paint.FillShape(gtx.Ops, color.NRGBA{R: e.th.Accent.R, G: e.th.Accent.G, B: e.th.Accent.B, A: 0x40},
			clip.Rect{Min: image.Pt(a, 0), Max: image.Pt(b, h)}.Op())
	}
	paint.FillShape(gtx.Ops, e.th.Border, clip.Rect{Min: image.Pt(0, h-1), Max: size}.Op())
	event.Op(gtx.Ops, o)
	pointer.CursorPointer.Add(gtx.Ops)
	o.layoutOverviewPeek(gtx, e, d, total)
	return layout.Dimensions{Size: size}
}
