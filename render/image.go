package render

import (
	"encoding/binary"
	"image"
	"image/color"
	"image/draw"
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// ImagePainter draws draw lists into images without a window: rectangles as pixel fills,
// triangles and hatching through golang.org/x/image/vector's anti-aliasing rasteriser, and text
// with the Go fonts through golang.org/x/image/font/opentype. It keeps its font faces and
// rasteriser between calls; it is not safe for concurrent use.
type ImagePainter struct {
	faces  map[Font]font.Face
	faces2 map[Font]font.Face // the second goroutine's, in makeMasks
	rast   vector.Rasterizer
	rast2  vector.Rasterizer // the lower part's, in PaintSplit
	// crossed marks the rows triangles cross, for PaintSplit's choice of where to cut.
	crossed []bool
	// CacheText keeps each distinct label as a coverage mask after drawing it once, so that
	// painting frame after frame (GioFrame) composites labels instead of rasterising glyphs.
	CacheText bool
	masks     map[maskKey]*textMask
	// hatch is the hatching of a whole frame, rasterised once per size and style when CacheText
	// is set; merged spans copy their part of it. The stripes are anchored to the frame's grid, so
	// the part equals what rasterising the span alone gives.
	hatch    *image.RGBA
	hatchFor Hatch
}

type maskKey struct {
	font Font
	text string
}

// textMask is a label's coverage, placed relative to the left end of its baseline.
type textMask struct {
	mask   *image.Alpha
	dx, dy int
}

// maxMasks bounds the label cache; past it the cache starts afresh.
const maxMasks = 20000

// NewImagePainter returns a painter.
func NewImagePainter() *ImagePainter {
	return &ImagePainter{faces: map[Font]font.Face{}, faces2: map[Font]font.Face{}}
}

// PaintImage draws l into a new image of its size.
func PaintImage(l *DrawList) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, l.Width, l.Height))
	NewImagePainter().Paint(img, l)
	return img
}

// Paint draws l into img, whose bounds should start at (0, 0); what falls outside is clipped.
func (p *ImagePainter) Paint(img *image.RGBA, l *DrawList) {
	p.prepare(img, l)
	p.paintRows(img, l, &p.rast)
}

// minSplitRows is the least height PaintSplit hands to a second goroutine: below it the
// goroutine's start costs more than it saves.
const minSplitRows = 64

// PaintSplit is Paint with the rows of img cut in two, the lower part drawn on a second
// goroutine at the same time: the window waits for the composite of every frame, and while it is
// made the GL driver's threads have nothing to do yet. The pixels are Paint's: labels and
// hatching are prepared once for both parts, each part is clipped to its rows, and the cut is on
// a row that no triangle (rasterised with anti-aliasing over its whole box) crosses; where there
// is none, it paints in one piece. Without CacheText it is Paint.
func (p *ImagePainter) PaintSplit(img *image.RGBA, l *DrawList) {
	if !p.CacheText {
		// Uncached labels are drawn with the painter's font faces, which are not safe for two
		// goroutines.
		p.Paint(img, l)
		return
	}
	p.prepare(img, l)
	b := img.Bounds()
	cut, ok := p.splitRow(l, b)
	if !ok {
		p.paintRows(img, l, &p.rast)
		return
	}
	upper := img.SubImage(image.Rect(b.Min.X, b.Min.Y, b.Max.X, cut)).(*image.RGBA)
	lower := img.SubImage(image.Rect(b.Min.X, cut, b.Max.X, b.Max.Y)).(*image.RGBA)
	done := make(chan struct{})
	// Not lowered to the background priority (internal/background): the frame waits for it.
	go func() {
		defer close(done)
		p.paintRows(lower, l, &p.rast2)
	}()
	p.paintRows(upper, l, &p.rast)
	<-done
}

// splitRow is a row near the middle of b that no triangle's box crosses, so that each triangle
// is drawn whole by one part.
func (p *ImagePainter) splitRow(l *DrawList, b image.Rectangle) (int, bool) {
	if b.Dy() < 2*minSplitRows {
		return 0, false
	}
	// crossed[y-b.Min.Y] is set when a triangle covers rows both above y and from y down.
	if cap(p.crossed) < b.Dy() {
		p.crossed = make([]bool, b.Dy())
	}
	p.crossed = p.crossed[:b.Dy()]
	clear(p.crossed)
	for li := range l.Layers {
		for _, t := range l.Layers[li].Triangles {
			tb := triangleBounds(t)
			for y := max(tb.Min.Y+1, b.Min.Y); y < min(tb.Max.Y, b.Max.Y); y++ {
				p.crossed[y-b.Min.Y] = true
			}
		}
	}
	mid := (b.Min.Y + b.Max.Y) / 2
	for d := 0; d < b.Dy()/2-minSplitRows; d++ {
		for _, y := range [2]int{mid + d, mid - d} {
			if !p.crossed[y-b.Min.Y] {
				return y, true
			}
		}
	}
	return 0, false
}

// prepare makes what both parts of a split paint read: the masks of labels not seen before and
// the frame's hatching, for the whole of img.
func (p *ImagePainter) prepare(img *image.RGBA, l *DrawList) {
	if !p.CacheText {
		return
	}
	if p.masks == nil || len(p.masks) > maxMasks {
		p.masks = map[maskKey]*textMask{}
	}
	var fresh []maskKey
	for li := range l.Layers {
		ly := &l.Layers[li]
		if len(ly.Hatches) > 0 {
			p.hatchFrame(img.Bounds(), l.Hatch)
		}
		for _, t := range ly.Texts {
			if k := (maskKey{t.Font, string(l.TextBytes(t))}); p.masks[k] == nil {
				p.masks[k] = &textMask{} // a place kept, for each label once
				fresh = append(fresh, k)
			}
		}
	}
	p.makeMasks(fresh)
}

// splitMasks is how many new labels makeMasks rasterises on two goroutines from. A variable so that
// a test can compare the two ways.
var splitMasks = 16

// makeMasks rasterises the labels keys into the cache, on two goroutines when they are many, each
// with font faces of its own: a frame that shows a trace's first chart, or zooms into new names,
// rasterises dozens (48 in gen-trace-large's first, 5 ms on one goroutine).
func (p *ImagePainter) makeMasks(keys []maskKey) {
	if len(keys) < splitMasks {
		for _, k := range keys {
			p.masks[k] = newMask(p.face(k.font), k.text)
		}
		return
	}
	made := make([]*textMask, len(keys))
	half := len(keys) / 2
	for _, k := range keys[half:] {
		faceOf(p.faces2, k.font) // made here: the map is not for two goroutines
	}
	done := make(chan struct{})
	// Not lowered to the background priority (internal/background): the frame waits for it.
	go func() {
		defer close(done)
		for i := half; i < len(keys); i++ {
			made[i] = newMask(p.faces2[keys[i].font], keys[i].text)
		}
	}()
	for i := range keys[:half] {
		made[i] = newMask(p.face(keys[i].font), keys[i].text)
	}
	<-done
	for i, k := range keys {
		p.masks[k] = made[i]
	}
}

// paintRows draws l into img, clipped to its bounds, with rast for the triangles (and hatching
// without CacheText). With CacheText, prepare must have run for the whole image: this only reads
// the masks and hatching, so that two parts can be painted at once.
func (p *ImagePainter) paintRows(img *image.RGBA, l *DrawList, rast *vector.Rasterizer) {
	draw.Draw(img, img.Bounds(), image.NewUniform(l.Background), image.Point{}, draw.Src)
	for li := range l.Layers {
		ly := &l.Layers[li]
		for _, b := range ly.Batches {
			src := image.NewUniform(b.Color)
			op := draw.Over
			if b.Color.A == 0xff {
				op = draw.Src
			}
			for _, r := range b.Rects {
				draw.Draw(img, pixelRect(r).Intersect(img.Bounds()), src, image.Point{}, op)
			}
		}
		if len(ly.Hatches) > 0 && p.CacheText {
			frame := p.hatch
			for _, r := range ly.Hatches {
				overHatch(img, pixelRect(r).Intersect(img.Bounds()).Intersect(frame.Rect), frame)
			}
		} else if len(ly.Hatches) > 0 {
			src := image.NewUniform(l.Hatch.Color)
			for _, r := range ly.Hatches {
				bounds := pixelRect(r).Intersect(img.Bounds())
				if bounds.Empty() {
					continue
				}
				beginShape(rast, bounds)
				HatchStripes(r, l.Hatch, func(pts [][2]float32) { addPolygon(rast, bounds, pts) })
				rast.Draw(img, bounds, src, image.Point{})
			}
		}
		for _, t := range ly.Triangles {
			bounds := triangleBounds(t).Intersect(img.Bounds())
			if bounds.Empty() {
				continue
			}
			beginShape(rast, bounds)
			addPolygon(rast, bounds, t.Pts[:])
			rast.Draw(img, bounds, image.NewUniform(t.Color), image.Point{})
		}
		for _, t := range ly.Texts {
			if p.CacheText {
				p.drawCachedText(img, t, l.TextBytes(t))
				continue
			}
			d := font.Drawer{
				Dst:  img,
				Src:  image.NewUniform(t.Color),
				Face: p.face(t.Font),
				Dot:  fixed.Point26_6{X: fixed.Int26_6(math.Round(float64(t.X) * 64)), Y: fixed.Int26_6(math.Round(float64(t.Y) * 64))},
			}
			d.DrawBytes(l.TextBytes(t))
		}
	}
}

// overHatch composites the pixels r of hatch (a frame's hatching, in the frame's coordinates)
// over img, with draw.Over's arithmetic. Most of the hatching is transparent between its stripes
// and opaque inside them: those pixels are skipped or copied, which gives what the arithmetic
// gives, at a fraction of image/draw's cost per pixel, which showed in the window's profile.
// The stripes' edges (and all of a translucent hatching) need the arithmetic; but a hatched bar
// is one colour under a pattern of a few coverages, so the same source over the same destination
// comes again and again along a row: the last results are kept, by the source pixel, and reused.
func overHatch(img *image.RGBA, r image.Rectangle, hatch *image.RGBA) {
	if r.Empty() {
		return
	}
	const m = 1<<16 - 1
	// memo[k] holds a source pixel, the destination pixel it was composited over and the result;
	// k is from the source's alpha. A zero source never reaches it, so a zero entry never matches.
	var memo [hatchMemo][3]uint32
	n := 4 * r.Dx()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		src := hatch.Pix[hatch.PixOffset(r.Min.X, y):][:n:n]
		dst := img.Pix[img.PixOffset(r.Min.X, y):][:n:n]
		for i := 0; i < n; i += 4 {
			s := binary.LittleEndian.Uint32(src[i : i+4 : i+4])
			if s == 0 {
				// Premultiplied: a transparent pixel adds nothing and takes nothing away.
				continue
			}
			sa := s >> 24
			if sa == 0xff {
				binary.LittleEndian.PutUint32(dst[i:i+4:i+4], s)
				continue
			}
			dv := binary.LittleEndian.Uint32(dst[i : i+4 : i+4])
			e := &memo[(sa^sa>>4)%hatchMemo]
			if e[0] == s && e[1] == dv {
				binary.LittleEndian.PutUint32(dst[i:i+4:i+4], e[2])
				continue
			}
			a := (m - sa*0x101) * 0x101
			out := (dv&0xff*a/m + (s&0xff)*0x101) >> 8 & 0xff
			out |= ((dv>>8&0xff)*a/m + (s>>8&0xff)*0x101) >> 8 & 0xff << 8
			out |= ((dv>>16&0xff)*a/m + (s>>16&0xff)*0x101) >> 8 & 0xff << 16
			out |= ((dv>>24)*a/m + sa*0x101) >> 8 & 0xff << 24
			binary.LittleEndian.PutUint32(dst[i:i+4:i+4], out)
			*e = [3]uint32{s, dv, out}
		}
	}
}

// hatchMemo is how many results overHatch keeps: more than the distinct coverages of a stripe's
// edge (a period of 6 px gives at most 6).
const hatchMemo = 8

// hatchFrame returns the hatching of a frame of the given bounds, rasterising it when new.
func (p *ImagePainter) hatchFrame(bounds image.Rectangle, h Hatch) *image.RGBA {
	if p.hatch != nil && p.hatch.Bounds() == bounds && p.hatchFor == h {
		return p.hatch
	}
	p.hatch, p.hatchFor = image.NewRGBA(bounds), h
	// The stripes run at 45° from a grid anchored at the frame's origin, so a pixel's coverage
	// depends on x+y alone, and with a period of whole pixels a row equals the one a period
	// above it: only the first period's rows are rasterised, the others copied. For a 1600×640
	// chart that is 4.9 ms instead of 22 (on the first frame of a loaded file, and on a resize).
	rows := bounds
	period := int(h.Period)
	tiled := period > 0 && float32(period) == h.Period && period < bounds.Dy()
	if tiled {
		rows.Max.Y = rows.Min.Y + period
	}
	r := Rect{X0: float32(rows.Min.X), Y0: float32(rows.Min.Y), X1: float32(rows.Max.X), Y1: float32(rows.Max.Y)}
	beginShape(&p.rast, rows)
	HatchStripes(r, h, func(pts [][2]float32) { addPolygon(&p.rast, rows, pts) })
	p.rast.Draw(p.hatch, rows, image.NewUniform(h.Color), image.Point{})
	if tiled {
		img := p.hatch
		n := bounds.Dx() * 4
		for y := period; y < bounds.Dy(); y++ {
			copy(img.Pix[y*img.Stride:y*img.Stride+n], img.Pix[(y-period)*img.Stride:(y-period)*img.Stride+n])
		}
	}
	return p.hatch
}

// newMask rasterises text in face, as a label is drawn.
func newMask(face font.Face, text string) *textMask {
	m := &textMask{}
	bounds, _ := font.BoundString(face, text)
	x0, y0 := bounds.Min.X.Floor(), bounds.Min.Y.Floor()
	x1, y1 := bounds.Max.X.Ceil(), bounds.Max.Y.Ceil()
	if x1 > x0 && y1 > y0 {
		m.mask = image.NewAlpha(image.Rect(0, 0, x1-x0, y1-y0))
		m.dx, m.dy = x0, y0
		d := font.Drawer{Dst: m.mask, Src: image.Opaque, Face: face, Dot: fixed.P(-x0, -y0)}
		d.DrawString(text)
	}
	return m
}

// drawCachedText composites a label from its mask, which prepare made.
func (p *ImagePainter) drawCachedText(img *image.RGBA, t Text, b []byte) {
	m := p.masks[maskKey{t.Font, string(b)}]
	if m == nil || m.mask == nil {
		return
	}
	x := int(math.Round(float64(t.X))) + m.dx
	y := int(math.Round(float64(t.Y))) + m.dy
	r := image.Rect(x, y, x+m.mask.Rect.Dx(), y+m.mask.Rect.Dy())
	draw.DrawMask(img, r, image.NewUniform(t.Color), image.Point{}, m.mask, image.Point{}, draw.Over)
}

func (p *ImagePainter) face(f Font) font.Face { return faceOf(p.faces, f) }

// faceOf is f's face in faces, made on first use.
func faceOf(faces map[Font]font.Face, f Font) font.Face {
	if face, ok := faces[f]; ok {
		return face
	}
	face := newFace(f)
	faces[f] = face
	return face
}

func beginShape(rast *vector.Rasterizer, bounds image.Rectangle) {
	rast.Reset(bounds.Dx(), bounds.Dy())
	rast.DrawOp = draw.Over
}

// addPolygon adds a closed polygon in frame pixels to the rasteriser, whose origin is bounds.Min.
func addPolygon(rast *vector.Rasterizer, bounds image.Rectangle, pts [][2]float32) {
	ox, oy := float32(bounds.Min.X), float32(bounds.Min.Y)
	rast.MoveTo(pts[0][0]-ox, pts[0][1]-oy)
	for _, q := range pts[1:] {
		rast.LineTo(q[0]-ox, q[1]-oy)
	}
	rast.ClosePath()
}

// pixelRect is the pixels a Rect covers, its edges rounded to the nearest pixel boundary.
func pixelRect(r Rect) image.Rectangle {
	round := func(v float32) int { return int(math.Floor(float64(v) + 0.5)) }
	return image.Rect(round(r.X0), round(r.Y0), round(r.X1), round(r.Y1))
}

func triangleBounds(t Triangle) image.Rectangle {
	x0, y0, x1, y1 := t.Pts[0][0], t.Pts[0][1], t.Pts[0][0], t.Pts[0][1]
	for _, q := range t.Pts[1:] {
		x0, y0, x1, y1 = min(x0, q[0]), min(y0, q[1]), max(x1, q[0]), max(y1, q[1])
	}
	return image.Rect(int(math.Floor(float64(x0))), int(math.Floor(float64(y0))), int(math.Ceil(float64(x1))), int(math.Ceil(float64(y1))))
}

// Pixel reads img at (x, y) as an opaque colour, for tests that check where bars are.
func Pixel(img *image.RGBA, x, y int) color.NRGBA {
	return color.NRGBA(img.RGBAAt(x, y)) // premultiplied equals straight alpha when opaque
}
