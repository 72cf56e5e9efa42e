package app

import (
	"bytes"
	"image"
	_ "image/jpeg" // screenshots are JPEGs
	_ "image/png"
	"sort"
	"sync"
	"time"

	"gioui.org/f32"
	"gioui.org/layout"
	"gioui.org/op"
	"gioui.org/op/clip"
	"gioui.org/op/paint"
	"gioui.org/unit"

	"flamedesk/core/timelines"
)

// The filmstrip peek: with the pointer on the ruler or the overview, the screenshot taken at that
// time shows under it, as DevTools shows it. Images are decoded on a goroutine of their own into a small cache, so
// that the UI goroutine never waits for a JPEG.

// filmstripCacheSize bounds the decoded screenshots kept per document: enough for a filmstrip row
// across a wide window (a thumbnail is about 80 px wide) and the peek.
const filmstripCacheSize = 40

type filmstrip struct {
	mu      sync.Mutex
	images  map[int]paint.ImageOp
	failed  map[int]bool
	order   []int // decoded, oldest first
	pending map[int]bool
	// lastAspect is the width/height of the last decoded screenshot the filmstrip row placed (UI
	// goroutine only); 0 before the first.
	lastAspect float64
}

// aspect is the width/height a screenshot not decoded yet is assumed to have.
func (f *filmstrip) aspect() float64 {
	if f.lastAspect > 0 {
		return f.lastAspect
	}
	return 16.0 / 10
}

// image is screenshot i's decoded image; ok is false while it is decoding (started here when
// new) or when it cannot be decoded.
func (f *filmstrip) image(d *document, i int) (img paint.ImageOp, ok, busy bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if img, ok := f.images[i]; ok {
		return img, true, false
	}
	if f.failed[i] {
		return paint.ImageOp{}, false, false
	}
	if f.pending[i] {
		return paint.ImageOp{}, false, true
	}
	f.pending[i] = true
	tr, shot := d.trace, d.model.Panel.Screenshots[i]
	go func() {
		decoded, _, err := image.Decode(bytes.NewReader(timelines.SnapshotImage(tr, shot)))
		f.mu.Lock()
		defer f.mu.Unlock()
		delete(f.pending, i)
		if err != nil {
			f.failed[i] = true
			return
		}
		f.images[i] = paint.NewImageOp(decoded)
		f.order = append(f.order, i)
		if len(f.order) > filmstripCacheSize {
			delete(f.images, f.order[0])
			f.order = f.order[1:]
		}
	}()
	return paint.ImageOp{}, false, true
}

// screenshotAt is the index of the screenshot shown at time t (the last taken at or before it),
// -1 when there is none.
func screenshotAt(shots []timelines.Screenshot, t float64) int {
	k := sort.Search(len(shots), func(i int) bool { return shots[i].Ts > t })
	return k - 1
}

// layoutFilmstripPeek draws the screenshot at the time under the pointer when it is on the ruler.
func (c *chart) layoutFilmstripPeek(gtx layout.Context, e env, d *document) {
	if d.hoverX < 0 || d.hoverY >= 0 || !c.pointerInside {
		return
	}
	x := min(float32(d.hoverX)+12, float32(c.size.X)-float32(gtx.Dp(peekWidth))-2)
	layoutScreenshotPeek(gtx, e, d, d.view.PxToTime(d.hoverX), image.Pt(int(max(x, 0)), c.rulerHeight+4))
}

// peekWidth is the width of the screenshot shown on hover.
const peekWidth = unit.Dp(240)

// layoutScreenshotPeek draws the screenshot shown at time t (absolute µs) with its top-left at
// at, peekWidth wide; nothing when the trace has none before t or it is still decoding.
func layoutScreenshotPeek(gtx layout.Context, e env, d *document, t float64, at image.Point) {
	if d.model.Panel == nil || len(d.model.Panel.Screenshots) == 0 {
		return
	}
	i := screenshotAt(d.model.Panel.Screenshots, t)
	if i < 0 {
		return
	}
	if d.film == nil {
		d.film = &filmstrip{images: map[int]paint.ImageOp{}, failed: map[int]bool{}, pending: map[int]bool{}}
	}
	img, ok, busy := d.film.image(d, i)
	if busy {
		// Look again shortly: the decoding goroutine cannot wake the window itself.
		gtx.Execute(op.InvalidateCmd{At: gtx.Now.Add(30 * time.Millisecond)})
	}
	if !ok {
		return
	}
	size := img.Size()
	if size.X <= 0 || size.Y <= 0 {
		return
	}
	w := float32(gtx.Dp(peekWidth))
	scale := w / float32(size.X)
	h := float32(size.Y) * scale
	defer op.Offset(at).Push(gtx.Ops).Pop()
	paint.FillShape(gtx.Ops, e.th.Border, clip.Rect{Min: image.Pt(-1, -1), Max: image.Pt(int(w)+1, int(h)+1)}.Op())
	defer op.Affine(f32.AffineId().Scale(f32.Point{}, f32.Pt(scale, scale))).Push(gtx.Ops).Pop()
	defer clip.Rect{Max: size}.Push(gtx.Ops).Pop()
	img.Add(gtx.Ops)
	paint.PaintOp{}.Add(gtx.Ops)
}

// layoutOverviewPeek shows, with the pointer on the overview, the screenshot at the time under it
// just below the strip, over the chart, as DevTools shows it over its overview.
func (o *overview) layoutOverviewPeek(gtx layout.Context, e env, d *document, total float64) {
	if !o.hovering || o.dragging || o.width <= 0 {
		return
	}
	t := d.view.Origin() + float64(o.hoverX)/float64(o.width)*total
	x := min(o.hoverX+12, float32(o.width-gtx.Dp(peekWidth)-2))
	m := op.Record(gtx.Ops)
	layoutScreenshotPeek(gtx, e, d, t, image.Pt(int(max(x, 0)), gtx.Dp(overviewHeight)+2))
	op.Defer(gtx.Ops, m.Stop())
}

// layoutFilmstripRow draws the screenshots in the Screenshots lane, as DevTools' filmstrip
// (render.Builder.Filmstrip places them). Only the shown ones are decoded; until one is, its grey
// box (drawn by render) stands in for it.
func (c *chart) layoutFilmstripRow(gtx layout.Context, d *document) {
	m := d.model
	if m.Panel == nil || len(m.Panel.Screenshots) == 0 {
		return
	}
	if d.film == nil {
		d.film = &filmstrip{images: map[int]paint.ImageOp{}, failed: map[int]bool{}, pending: map[int]bool{}}
	}
	busy := false
	images := map[int]paint.ImageOp{}
	places := c.builder.Filmstrip(d.view, func(i int) float64 {
		img, ok, pending := d.film.image(d, i)
		busy = busy || pending
		if s := img.Size(); ok && s.X > 0 && s.Y > 0 {
			images[i] = img
			d.film.lastAspect = float64(s.X) / float64(s.Y)
			return d.film.lastAspect
		}
		// Its place is kept as for a screenshot shaped as the last one.
		return d.film.aspect()
	})
	if busy {
		gtx.Execute(op.InvalidateCmd{At: gtx.Now.Add(30 * time.Millisecond)})
	}
	// The clip keeps thumbnails below the ruler when the lane is scrolled partly under it.
	defer clip.Rect{Min: image.Pt(0, c.rulerHeight), Max: c.size}.Push(gtx.Ops).Pop()
	for _, p := range places {
		img, ok := images[p.Shot]
		if !ok {
			continue
		}
		size := img.Size()
		scale := float32(p.H / float64(size.Y))
		st := op.Offset(image.Pt(int(p.X), int(p.Y))).Push(gtx.Ops)
		aff := op.Affine(f32.AffineId().Scale(f32.Point{}, f32.Pt(scale, scale))).Push(gtx.Ops)
		cl := clip.Rect{Max: size}.Push(gtx.Ops)
		img.Add(gtx.Ops)
		paint.PaintOp{}.Add(gtx.Ops)
		cl.Pop()
		aff.Pop()
		st.Pop()
	}
}
