package render

import (
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
	faces map[Font]font.Face
	rast  vector.Rasterizer
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
	return &ImagePainter{faces: map[Font]font.Face{}}
}

// PaintImage draws l into a new image of its size.
func PaintImage(l *DrawList) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, l.Width, l.Height))
	NewImagePainter().Paint(img, l)
	return img
}

// Paint draws l into img, whose bounds should start at (0, 0); what falls outside is clipped.
func (p *ImagePainter) Paint(img *image.RGBA, l *DrawList) {
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
			frame := p.hatchFrame(img.Bounds(), l.Hatch)
			for _, r := range ly.Hatches {
				bounds := pixelRect(r).Intersect(img.Bounds())
				draw.Draw(img, bounds, frame, bounds.Min, draw.Over)
			}
		} else if len(ly.Hatches) > 0 {
			src := image.NewUniform(l.Hatch.Color)
			for _, r := range ly.Hatches {
				bounds := pixelRect(r).Intersect(img.Bounds())
				if bounds.Empty() {
					continue
				}
				p.beginShape(bounds)
				HatchStripes(r, l.Hatch, func(pts [][2]float32) { p.addPolygon(bounds, pts) })
				p.rast.Draw(img, bounds, src, image.Point{})
			}
		}
		for _, t := range ly.Triangles {
			bounds := triangleBounds(t).Intersect(img.Bounds())
			if bounds.Empty() {
				continue
			}
			p.beginShape(bounds)
			p.addPolygon(bounds, t.Pts[:])
			p.rast.Draw(img, bounds, image.NewUniform(t.Color), image.Point{})
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

// hatchFrame returns the hatching of a frame of the given bounds, rasterising it when new.
func (p *ImagePainter) hatchFrame(bounds image.Rectangle, h Hatch) *image.RGBA {
	if p.hatch != nil && p.hatch.Bounds() == bounds && p.hatchFor == h {
		return p.hatch
	}
	p.hatch, p.hatchFor = image.NewRGBA(bounds), h
	r := Rect{X0: float32(bounds.Min.X), Y0: float32(bounds.Min.Y), X1: float32(bounds.Max.X), Y1: float32(bounds.Max.Y)}
	p.beginShape(bounds)
	HatchStripes(r, h, func(pts [][2]float32) { p.addPolygon(bounds, pts) })
	p.rast.Draw(p.hatch, bounds, image.NewUniform(h.Color), image.Point{})
	return p.hatch
}

// drawCachedText composites a label from its mask, rasterising the mask on first use.
func (p *ImagePainter) drawCachedText(img *image.RGBA, t Text, b []byte) {
	if p.masks == nil || len(p.masks) > maxMasks {
		p.masks = map[maskKey]*textMask{}
	}
	m, ok := p.masks[maskKey{t.Font, string(b)}]
	if !ok {
		m = &textMask{}
		face := p.face(t.Font)
		bounds, _ := font.BoundBytes(face, b)
		x0, y0 := bounds.Min.X.Floor(), bounds.Min.Y.Floor()
		x1, y1 := bounds.Max.X.Ceil(), bounds.Max.Y.Ceil()
		if x1 > x0 && y1 > y0 {
			m.mask = image.NewAlpha(image.Rect(0, 0, x1-x0, y1-y0))
			m.dx, m.dy = x0, y0
			d := font.Drawer{Dst: m.mask, Src: image.Opaque, Face: face, Dot: fixed.P(-x0, -y0)}
			d.DrawBytes(b)
		}
		p.masks[maskKey{t.Font, string(b)}] = m
	}
	if m.mask == nil {
		return
	}
	x := int(math.Round(float64(t.X))) + m.dx
	y := int(math.Round(float64(t.Y))) + m.dy
	r := image.Rect(x, y, x+m.mask.Rect.Dx(), y+m.mask.Rect.Dy())
	draw.DrawMask(img, r, image.NewUniform(t.Color), image.Point{}, m.mask, image.Point{}, draw.Over)
}

func (p *ImagePainter) face(f Font) font.Face {
	if face, ok := p.faces[f]; ok {
		return face
	}
	face := newFace(f)
	p.faces[f] = face
	return face
}

func (p *ImagePainter) beginShape(bounds image.Rectangle) {
	p.rast.Reset(bounds.Dx(), bounds.Dy())
	p.rast.DrawOp = draw.Over
}

// addPolygon adds a closed polygon in frame pixels to the rasteriser, whose origin is bounds.Min.
func (p *ImagePainter) addPolygon(bounds image.Rectangle, pts [][2]float32) {
	ox, oy := float32(bounds.Min.X), float32(bounds.Min.Y)
	p.rast.MoveTo(pts[0][0]-ox, pts[0][1]-oy)
	for _, q := range pts[1:] {
		p.rast.LineTo(q[0]-ox, q[1]-oy)
	}
	p.rast.ClosePath()
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
