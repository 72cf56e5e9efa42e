package render

import (
	"image"
	"image/color"
	"math"

	"gioui.org/f32"
	giofont "gioui.org/font"
	"gioui.org/font/gofont"
	"gioui.org/op"
	"gioui.org/op/clip"
	"gioui.org/op/paint"
	"gioui.org/text"
	"golang.org/x/image/math/fixed"
)

// This file is the only one in render that imports Gio.
//
// On software GL (Mesa's llvmpipe) what costs is the number of clip and paint operations, not the
// number of edges in a path: so each colour batch becomes one clip.Path with a rectangle subpath
// per bar and is painted once, all hatch stripes become one path, and each label is one outline
// whose glyph path was shaped once and is replayed from a cache. The other way, rasterising the
// bars into an image with ImagePainter and uploading it as one texture, was measured against this
// one (BenchmarkGioPainter in gio_test.go, and the numbers in the package's closing notes); the
// mode is selectable so the window can switch on its own measurements.

// GioMode selects how the Gio painter draws bars.
type GioMode uint8

const (
	// GioPaths draws every colour batch as one path: the default.
	GioPaths GioMode = iota
	// GioImage rasterises the bar layers with ImagePainter into one image and draws it as a
	// texture; text and chrome are still Gio ops.
	GioImage
	// GioRects draws every rectangle as its own pixel-aligned clip.Rect, which Gio clips with a
	// scissor instead of rasterising a path.
	GioRects
)

// GioPainter paints draw lists with Gio. The zero value is ready to use; it shapes each distinct
// label once (with the Go fonts, the same faces and sizes the builder measured) and keeps the
// glyph outlines across frames. Not safe for concurrent use.
type GioPainter struct {
	Mode GioMode

	shaper *text.Shaper
	texts  map[Font]map[string]*shapedText
	frame  uint32
	glyphs []text.Glyph

	// Two images in turn: Gio may still read the last frame's while this one is drawn.
	imgs    [2]*image.RGBA
	imgList DrawList
	imgPnt  *ImagePainter
}

type shapedText struct {
	path   clip.PathSpec
	dx, dy float32 // where the path's origin is relative to the baseline's left end
	used   uint32
}

// textCacheFrames is how long an unused label's outline stays cached.
const textCacheFrames = 300

func (p *GioPainter) init() {
	if p.shaper != nil {
		return
	}
	p.shaper = text.NewShaper(text.NoSystemFonts(), text.WithCollection(gofont.Collection()))
	p.texts = map[Font]map[string]*shapedText{}
}

// Paint adds the ops that draw l to ops, in l's pixel coordinates (offset and clip them to place
// the chart).
func (p *GioPainter) Paint(ops *op.Ops, l *DrawList) {
	p.init()
	p.frame++
	paint.FillShape(ops, l.Background, clip.Rect{Max: image.Pt(l.Width, l.Height)}.Op())
	start := 0
	if p.Mode == GioImage {
		p.paintBarsAsImage(ops, l)
		start = LayerHighlight
	}
	for li := start; li < NumLayers; li++ {
		ly := &l.Layers[li]
		for _, b := range ly.Batches {
			if p.Mode == GioRects {
				fillPixelRects(ops, b.Color, b.Rects)
			} else {
				fillRects(ops, b.Color, b.Rects)
			}
		}
		if len(ly.Hatches) > 0 {
			p.hatch(ops, l.Hatch, ly.Hatches)
		}
		for _, t := range ly.Triangles {
			var path clip.Path
			path.Begin(ops)
			path.MoveTo(f32.Pt(t.Pts[0][0], t.Pts[0][1]))
			path.LineTo(f32.Pt(t.Pts[1][0], t.Pts[1][1]))
			path.LineTo(f32.Pt(t.Pts[2][0], t.Pts[2][1]))
			path.Close()
			paint.FillShape(ops, t.Color, clip.Outline{Path: path.End()}.Op())
		}
		for _, t := range ly.Texts {
			p.text(ops, t, l.TextBytes(t))
		}
	}
	if p.frame%64 == 0 {
		p.evict()
	}
}

// fillRects paints rects in one colour as a single path.
func fillRects(ops *op.Ops, c color.NRGBA, rects []Rect) {
	if len(rects) == 0 {
		return
	}
	var path clip.Path
	path.Begin(ops)
	for _, r := range rects {
		if r.Empty() {
			continue
		}
		path.MoveTo(f32.Pt(r.X0, r.Y0))
		path.LineTo(f32.Pt(r.X1, r.Y0))
		path.LineTo(f32.Pt(r.X1, r.Y1))
		path.LineTo(f32.Pt(r.X0, r.Y1))
		path.Close()
	}
	paint.FillShape(ops, c, clip.Outline{Path: path.End()}.Op())
}

// fillPixelRects paints rects in one colour, each as a pixel-aligned rectangle clip.
func fillPixelRects(ops *op.Ops, c color.NRGBA, rects []Rect) {
	paint.ColorOp{Color: c}.Add(ops)
	for _, r := range rects {
		area := clip.Rect(pixelRect(r)).Push(ops)
		paint.PaintOp{}.Add(ops)
		area.Pop()
	}
}

func (p *GioPainter) hatch(ops *op.Ops, h Hatch, rects []Rect) {
	var path clip.Path
	path.Begin(ops)
	for _, r := range rects {
		HatchStripes(r, h, func(pts [][2]float32) {
			path.MoveTo(f32.Pt(pts[0][0], pts[0][1]))
			for _, q := range pts[1:] {
				path.LineTo(f32.Pt(q[0], q[1]))
			}
			path.Close()
		})
	}
	paint.FillShape(ops, h.Color, clip.Outline{Path: path.End()}.Op())
}

func (p *GioPainter) text(ops *op.Ops, t Text, b []byte) {
	byString := p.texts[t.Font]
	if byString == nil {
		byString = map[string]*shapedText{}
		p.texts[t.Font] = byString
	}
	st, ok := byString[string(b)]
	if !ok {
		st = p.shape(t.Font, string(b))
		byString[string(b)] = st
	}
	st.used = p.frame
	tr := op.Affine(f32.AffineId().Offset(f32.Pt(t.X+st.dx, t.Y+st.dy))).Push(ops)
	outline := clip.Outline{Path: st.path}.Op().Push(ops)
	paint.ColorOp{Color: t.Color}.Add(ops)
	paint.PaintOp{}.Add(ops)
	outline.Pop()
	tr.Pop()
}

// shape lays out one line of s in f and keeps its glyph outlines. The outline is relative to the
// first glyph's pen position, which on a single line is the baseline's left end plus the glyph's
// own offset.
func (p *GioPainter) shape(f Font, s string) *shapedText {
	gf := giofont.Font{Typeface: "Go"}
	if f.Bold {
		gf.Weight = giofont.Bold
	}
	p.shaper.LayoutString(text.Parameters{
		Font:     gf,
		PxPerEm:  fixed.Int26_6(math.Round(float64(f.Size) * 64)),
		MaxLines: 1,
		MaxWidth: 1 << 24,
	}, s)
	p.glyphs = p.glyphs[:0]
	for g, ok := p.shaper.NextGlyph(); ok; g, ok = p.shaper.NextGlyph() {
		p.glyphs = append(p.glyphs, g)
	}
	st := &shapedText{}
	if len(p.glyphs) == 0 {
		return st
	}
	g0 := p.glyphs[0]
	// Baselines of the layout are at g.Y; the draw list's Y is already the baseline.
	st.dx = float32(g0.X) / 64
	st.path = p.shaper.Shape(p.glyphs)
	return st
}

func (p *GioPainter) evict() {
	for _, byString := range p.texts {
		for s, st := range byString {
			if p.frame-st.used > textCacheFrames {
				delete(byString, s)
			}
		}
	}
}

// paintBarsAsImage rasterises the layers below the highlights into one image and draws it.
func (p *GioPainter) paintBarsAsImage(ops *op.Ops, l *DrawList) {
	img := p.imgs[p.frame%2]
	if img == nil || img.Bounds().Dx() != l.Width || img.Bounds().Dy() != l.Height {
		img = image.NewRGBA(image.Rect(0, 0, l.Width, l.Height))
		p.imgs[p.frame%2] = img
	}
	if p.imgPnt == nil {
		p.imgPnt = NewImagePainter()
	}
	// A shallow copy that keeps only the layers below the highlights.
	p.imgList.Width, p.imgList.Height = l.Width, l.Height
	p.imgList.Background, p.imgList.Hatch, p.imgList.text = l.Background, l.Hatch, l.text
	for i := range p.imgList.Layers {
		if i < LayerHighlight {
			p.imgList.Layers[i] = l.Layers[i]
		} else {
			p.imgList.Layers[i] = Layer{}
		}
	}
	p.imgPnt.Paint(img, &p.imgList)
	// A new ImageOp each frame: Gio takes an image as immutable and uploads it again only for a
	// new op.
	paint.NewImageOp(img).Add(ops)
	paint.PaintOp{}.Add(ops)
}
