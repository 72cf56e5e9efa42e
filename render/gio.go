package render

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"sync"

	"gioui.org/f32"
	giofont "gioui.org/font"
	"gioui.org/font/opentype"
	"gioui.org/op"
	"gioui.org/op/clip"
	"gioui.org/op/paint"
	"gioui.org/text"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// This file is the only one in render that imports Gio.
//
// On software GL (Mesa's llvmpipe under Xvfb) what costs is rasterising paths: every clip.Path
// and every glyph outline is covered on the CPU, at a price that grows with the area it spans. A
// pixel-aligned clip.Rect, by contrast, becomes a scissor and costs almost nothing. So the
// default draws:
//
//   - each rectangle as its own clip.Rect (GioRects);
//   - hatching as a small stripe image, rasterised once and drawn tile by tile inside each
//     merged span's clip.Rect;
//   - each label as an image rasterised once with the same opentype faces as ImagePainter (so a
//     label looks the same in the window and in a PNG), cached across frames and packed with
//     other labels into shared textures (labelatlas.go).
//
// BenchmarkGioPainter (gio_test.go) measures the alternatives frame by frame on the same views.
// On llvmpipe through EGL (Xvfb, 1600×1000, 20 random views, each frame rendered and read back,
// on a 2-core machine shared with other work) it gave, in ms per frame:
//
//	                   small trace (436 rects)   large trace (1,649 rects)
//	GioRects                 27                        61
//	GioRects+VectorText      25                        79
//	GioImage                 52                       113
//	GioPaths                 50                       205
//
// One path per colour batch is the slowest, and the more so the more bars there are: it is what
// software GL does worst. Bitmap labels are the default because they cost no more than glyph
// outlines and are rasterised by the same code as the PNGs (Gio then blends them in linear
// light, so they come out a shade lighter).

// GioMode selects how the Gio painter draws rectangles.
type GioMode uint8

const (
	// GioRects draws every rectangle as its own pixel-aligned clip.Rect, which Gio clips with a
	// scissor instead of rasterising a path: the default, and the fastest on software GL.
	GioRects GioMode = iota
	// GioPaths draws every colour batch as one clip.Path with a subpath per rectangle.
	GioPaths
	// GioImage rasterises the layers below the highlights with ImagePainter into one image and
	// draws it as a texture; text and chrome are still Gio ops.
	GioImage
	// GioFrame composites the whole draw list on the CPU with ImagePainter (labels from cached
	// masks) and hands Gio one image: a single texture upload and a single draw per frame, which
	// is what software GL does best when bars number in the thousands.
	GioFrame
)

// GioPainter paints draw lists with Gio. The zero value is ready to use. It rasterises each
// distinct label once (with the Go fonts, the faces and sizes the builder measured) and keeps it
// across frames, as it keeps the hatch tiles. Not safe for concurrent use.
type GioPainter struct {
	Mode GioMode
	// VectorText shapes labels with Gio's text shaper and fills their glyph outlines, instead of
	// drawing them as cached images: sharper under a scaling transform, slower on software GL.
	VectorText bool
	// Backdrop is the colour already under the chart (the window's clear colour), if known. In
	// GioFrame, where a frame shows only its background and that equals Backdrop, nothing is
	// drawn at all; otherwise the background is filled as a colour, which costs software GL less
	// than the same pixels of a texture.
	Backdrop color.NRGBA

	frame uint32

	// Bitmap text, per font and colour.
	bitmaps map[textStyle]map[string]*bitmapText
	faces   map[Font]font.Face

	// Vector text.
	shaper *text.Shaper
	texts  map[Font]map[string]*shapedText
	glyphs []text.Glyph

	atlas      labelAtlas
	hatchTiles map[hatchKey]paint.ImageOp
	rast       vector.Rasterizer

	// Two images in turn: Gio may still read the last frame's while this one is drawn.
	imgs     [2]*image.RGBA
	imgList  DrawList
	imgPnt   *ImagePainter
	content  contentPlan
	backdrop backdrop
}

type textStyle struct {
	font  Font
	color color.NRGBA
}

type bitmapText struct {
	img    paint.ImageOp // when the label is not in the atlas
	slot   atlasSlot     // when it is (slot.page != nil)
	dx, dy int           // where the image's top-left is relative to the baseline's left end
	used   uint32
}

type shapedText struct {
	path clip.PathSpec
	dx   float32 // where the path's origin is relative to the baseline's left end
	used uint32
}

type hatchKey struct {
	h      Hatch
	height int
}

// textCacheFrames is how long an unused label's outline stays cached.
const textCacheFrames = 300

func (p *GioPainter) init() {
	if p.bitmaps != nil {
		return
	}
	p.bitmaps = map[textStyle]map[string]*bitmapText{}
	p.faces = map[Font]font.Face{}
	p.texts = map[Font]map[string]*shapedText{}
	p.hatchTiles = map[hatchKey]paint.ImageOp{}
}

// Paint adds the ops that draw l to ops, in l's pixel coordinates (offset and clip them to place
// the chart).
func (p *GioPainter) Paint(ops *op.Ops, l *DrawList) {
	p.init()
	p.frame++
	if p.Mode == GioFrame {
		p.paintFrameAsImage(ops, l)
		return
	}
	paint.FillShape(ops, l.Background, clip.Rect{Max: image.Pt(l.Width, l.Height)}.Op())
	start := 0
	if p.Mode == GioImage {
		p.paintBarsAsImage(ops, l)
		start = LayerHighlight
	}
	for li := start; li < NumLayers; li++ {
		ly := &l.Layers[li]
		for _, b := range ly.Batches {
			if p.Mode == GioPaths {
				fillRects(ops, b.Color, b.Rects)
			} else {
				fillPixelRects(ops, b.Color, b.Rects)
			}
		}
		if len(ly.Hatches) > 0 {
			if p.Mode == GioPaths {
				p.hatchPaths(ops, l.Hatch, ly.Hatches)
			} else {
				p.hatchTiled(ops, l.Hatch, ly.Hatches)
			}
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
			if p.VectorText {
				p.vectorText(ops, t, l.TextBytes(t))
			} else {
				p.bitmapText(ops, t, l.TextBytes(t))
			}
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

// hatchPaths stripes rects with one path of all their stripes.
func (p *GioPainter) hatchPaths(ops *op.Ops, h Hatch, rects []Rect) {
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

// hatchTileStripes is how many stripe periods one hatch tile holds.
const hatchTileStripes = 16

// hatchTiled stripes each rect by drawing a cached tile of stripes side by side inside the rect's
// clip, placed so that the stripes stay on the frame's x+y grid as HatchStripes draws them.
func (p *GioPainter) hatchTiled(ops *op.Ops, h Hatch, rects []Rect) {
	if h.Period <= 0 || h.Width <= 0 {
		return
	}
	period := int(math.Round(float64(h.Period)))
	tileW := period * hatchTileStripes
	for _, r := range rects {
		pr := pixelRect(r)
		if pr.Empty() {
			continue
		}
		tile := p.hatchTile(h, pr.Dy(), tileW)
		area := clip.Rect(pr).Push(ops)
		// The first tile starts where x+y is a multiple of the period on the rect's top row.
		x := pr.Min.X - mod(pr.Min.X+pr.Min.Y, period)
		for ; x < pr.Max.X; x += tileW {
			off := op.Offset(image.Pt(x, pr.Min.Y)).Push(ops)
			tile.Add(ops)
			paint.PaintOp{}.Add(ops)
			off.Pop()
		}
		area.Pop()
	}
}

// hatchTile rasterises, once per hatch and height, a tile of stripes whose top-left corner is on
// a stripe's start.
func (p *GioPainter) hatchTile(h Hatch, height, width int) paint.ImageOp {
	key := hatchKey{h: h, height: height}
	if t, ok := p.hatchTiles[key]; ok {
		return t
	}
	img := image.NewRGBA(image.Rect(0, 0, width, height))
	p.rast.Reset(width, height)
	p.rast.DrawOp = draw.Over
	HatchStripes(Rect{0, 0, float32(width), float32(height)}, h, func(pts [][2]float32) {
		p.rast.MoveTo(pts[0][0], pts[0][1])
		for _, q := range pts[1:] {
			p.rast.LineTo(q[0], q[1])
		}
		p.rast.ClosePath()
	})
	p.rast.Draw(img, img.Bounds(), image.NewUniform(h.Color), image.Point{})
	t := paint.NewImageOp(img)
	t.Filter = paint.FilterNearest
	p.hatchTiles[key] = t
	return t
}

func mod(a, m int) int { return ((a % m) + m) % m }

// bitmapText draws a label from its cached image, rasterising it on first use.
func (p *GioPainter) bitmapText(ops *op.Ops, t Text, b []byte) {
	drawBitmapText(p, ops, t, b)
}

// DrawText draws s in f and c with the left end of its baseline at (x, y), from the same kind of
// cache of rasterised labels the chart uses: on software GL a cached label costs one image draw,
// where shaped text costs a path rasterised every frame. Call EndFrame once per frame so that
// labels no longer drawn are forgotten.
func (p *GioPainter) DrawText(ops *op.Ops, f Font, c color.NRGBA, x, y float32, s string) {
	p.init()
	drawBitmapText(p, ops, Text{X: x, Y: y, Font: f, Color: c}, s)
}

// EndFrame ends a frame of DrawText calls (Paint does this by itself).
func (p *GioPainter) EndFrame() {
	p.frame++
	if p.frame%64 == 0 {
		p.evict()
	}
}

// drawBitmapText is bitmapText for bytes and strings alike, without converting either on a hit.
func drawBitmapText[S ~string | ~[]byte](p *GioPainter, ops *op.Ops, t Text, b S) {
	style := textStyle{font: t.Font, color: t.Color}
	byString := p.bitmaps[style]
	if byString == nil {
		byString = map[string]*bitmapText{}
		p.bitmaps[style] = byString
	}
	bt, ok := byString[string(b)]
	if !ok {
		bt = p.rasterise(t.Font, t.Color, []byte(b))
		byString[string(b)] = bt
	}
	bt.used = p.frame
	x := int(math.Round(float64(t.X))) + bt.dx
	y := int(math.Round(float64(t.Y))) + bt.dy
	if bt.slot.page != nil {
		bt.slot.draw(ops, image.Pt(x, y), p.frame)
		return
	}
	off := op.Offset(image.Pt(x, y)).Push(ops)
	bt.img.Add(ops)
	paint.PaintOp{}.Add(ops)
	off.Pop()
}

// rasterise draws b in f and c into a tight image, with the faces ImagePainter uses.
func (p *GioPainter) rasterise(f Font, c color.NRGBA, b []byte) *bitmapText {
	face := p.faces[f]
	if face == nil {
		face = newFace(f)
		p.faces[f] = face
	}
	bounds, _ := font.BoundBytes(face, b)
	x0, y0 := bounds.Min.X.Floor(), bounds.Min.Y.Floor()
	x1, y1 := bounds.Max.X.Ceil(), bounds.Max.Y.Ceil()
	bt := &bitmapText{dx: x0, dy: y0}
	if x1 <= x0 || y1 <= y0 {
		return bt
	}
	img := image.NewRGBA(image.Rect(0, 0, x1-x0, y1-y0))
	d := font.Drawer{Dst: img, Src: image.NewUniform(c), Face: face, Dot: fixed.P(-x0, -y0)}
	d.DrawBytes(b)
	// Labels share textures (labelatlas.go); one too large for a page has its own.
	if slot, ok := p.atlas.add(img); ok {
		bt.slot = slot
		return bt
	}
	bt.img = paint.NewImageOp(img)
	// Labels are drawn on whole pixels at their own size, where nearest filtering gives the same
	// pixels as linear; Gio builds mipmaps for a linear image when it uploads it
	// (glGenerateMipmap), which showed in CPU profiles of the window under llvmpipe.
	bt.img.Filter = paint.FilterNearest
	return bt
}

// vectorText draws a label from its cached glyph outlines, shaping it on first use.
func (p *GioPainter) vectorText(ops *op.Ops, t Text, b []byte) {
	if p.shaper == nil {
		p.shaper = text.NewShaper(text.NoSystemFonts(), text.WithCollection(GoFaces()))
	}
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
	tr := op.Affine(f32.AffineId().Offset(f32.Pt(t.X+st.dx, t.Y))).Push(ops)
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
	st.dx = float32(p.glyphs[0].X) / 64
	st.path = p.shaper.Shape(p.glyphs)
	return st
}

func (p *GioPainter) evict() {
	for _, byString := range p.bitmaps {
		for s, bt := range byString {
			if p.frame-bt.used > textCacheFrames {
				delete(byString, s)
			}
		}
	}
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
	// new op. The image is drawn one to one, so nearest filtering shows the same pixels, and it
	// spares Gio building mipmaps of a window-sized texture at every upload, which the default
	// linear filter does.
	bars := paint.NewImageOp(img)
	bars.Filter = paint.FilterNearest
	bars.Add(ops)
	paint.PaintOp{}.Add(ops)
}

// paintFrameAsImage draws the whole list into one image (GioFrame).
func (p *GioPainter) paintFrameAsImage(ops *op.Ops, l *DrawList) {
	img := p.imgs[p.frame%2]
	if img == nil || img.Bounds().Dx() != l.Width || img.Bounds().Dy() != l.Height {
		img = image.NewRGBA(image.Rect(0, 0, l.Width, l.Height))
		p.imgs[p.frame%2] = img
	}
	if p.imgPnt == nil {
		p.imgPnt = NewImagePainter()
		p.imgPnt.CacheText = true
	}
	// In two parts at once: the frame waits for the composite, and the GL driver's threads are
	// idle until it is handed over.
	p.imgPnt.PaintSplit(img, l)
	// Only the parts that show more than the backdrop (the background and the grid lines) are
	// drawn from the image, each as a texture of its own made of that part alone (a sub-image,
	// which Gio uploads row by row from the frame's pixels): on llvmpipe a textured pixel costs
	// its sampling and blending, an uploaded one its copy and the texture's allocation, and a
	// chart's empty stretches are often a third of it or more. Nearest filtering: the parts map
	// 1:1 to pixels, and no mipmaps need building per frame. Under the parts go the backdrop
	// colour (when the window's clear is not already it) and the grid lines, as colour fills.
	bd := &p.backdrop
	findBackdrop(l, bd)
	bounds := image.Rect(0, 0, l.Width, l.Height)
	if l.Background != p.Backdrop {
		paint.FillShape(ops, l.Background, clip.Rect(bounds).Op())
	}
	if len(bd.Lines) > 0 {
		paint.ColorOp{Color: bd.LineColor}.Add(ops)
		for _, x := range bd.Lines {
			area := clip.Rect(image.Rect(x, bd.Top, x+1, l.Height).Intersect(bounds)).Push(ops)
			paint.PaintOp{}.Add(ops)
			area.Pop()
		}
	}
	for _, r := range p.content.plan(img, bd) {
		part := paint.NewImageOp(img.SubImage(r))
		part.Filter = paint.FilterNearest
		off := op.Offset(r.Min).Push(ops)
		part.Add(ops)
		paint.PaintOp{}.Add(ops)
		off.Pop()
	}
}

// GoFaces is the Go font's regular and bold faces for Gio's text shaper: the only ones the window
// draws text in (Typeface "Go", bold or not). Gio's gofont.Collection parses all twelve of the Go
// fonts, every glyph of each, at the first call: 14 ms of CPU and as many of page faults and
// garbage at every start, taken from the first file's load on a small machine.
func GoFaces() []giofont.FontFace {
	goFaces.once.Do(func() {
		for _, ttf := range [][]byte{goregular.TTF, gobold.TTF} {
			faces, err := opentype.ParseCollection(ttf)
			if err != nil {
				panic("render: the embedded Go font does not parse: " + err.Error())
			}
			goFaces.faces = append(goFaces.faces, faces...)
		}
	})
	return goFaces.faces
}

var goFaces struct {
	once  sync.Once
	faces []giofont.FontFace
}

// WarmTextures draws one small texture of each kind the chart draws, transparent so that nothing
// shows: nearest-filtered, with sides of every pairing of power-of-two and other lengths. Mesa's
// llvmpipe compiles a shader variant for each such kind the first time it is drawn (its sampler
// key tells power-of-two sides apart), with LLVM on the rendering thread. Drawn in the frames
// before a document shows, the compiles happen beside the first load instead of in the frame that
// first shows its chart: that frame took 33-86 ms instead of about 20 in the first three or four
// launches of gen-trace-large after the one that filled Mesa's shader cache, and a zoom that gave
// a part of the chart's image a side of a power of two took a frame of 42 ms instead of 17.
// Linear filtering is left out: its mipmapped variants took 300 ms to compile, cache or not, and
// only the overview of a comparison and the filmstrip's screenshots use it.
func WarmTextures(ops *op.Ops) {
	warm.once.Do(func() {
		for _, side := range []image.Point{{4, 4}, {3, 4}, {4, 3}, {3, 3}} {
			// Zero pixels: transparent black, which leaves what is under it as it was.
			im := paint.NewImageOp(image.NewRGBA(image.Rectangle{Max: side}))
			im.Filter = paint.FilterNearest
			warm.ops = append(warm.ops, im)
		}
	})
	for _, im := range warm.ops {
		im.Add(ops)
		paint.PaintOp{}.Add(ops)
	}
}

var warm struct {
	once sync.Once
	ops  []paint.ImageOp
}
