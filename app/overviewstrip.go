package app

import (
	"image"
	"image/color"
	"math"

	"gioui.org/op/paint"
)

// The overview strip is composited here on the CPU and handed to Gio as one image drawn one to
// one. Drawn as Gio ops it was the activity picture scaled with linear filtering, two shades,
// the view's frame and a border: under Mesa's software GL each is a blended quad shaded pixel by
// pixel, about twice the strip's area in all, and the scaled picture takes llvmpipe's slow
// filtering path. One composite of the strip's 90 K pixels per view change costs less than that
// (Gio headless on llvmpipe at 1600x1000: 2.4-2.6 ms of CPU a frame above the clear against
// 6.0-6.8 ms).
//
// It does what the GPU did, in the same light: Gio blends and filters in linear light and the
// window stores sRGB, so the picture's texels are decoded to linear, filtered bilinearly with the
// GPU's texel centres, and the shades and the selection are blended in linear light before the
// result is encoded again.

// srgbToLinear decodes an sRGB byte to linear light.
var srgbToLinear = func() (t [256]float32) {
	for i := range t {
		c := float64(i) / 255
		if c <= 0.04045 {
			t[i] = float32(c / 12.92)
		} else {
			t[i] = float32(math.Pow((c+0.055)/1.055, 2.4))
		}
	}
	return t
}()

// encodeSRGB encodes linear light in [0, 1] to an sRGB byte, by the formula.
func encodeSRGB(v float32) uint8 {
	c := float64(min(max(v, 0), 1))
	if c <= 0.0031308 {
		c *= 12.92
	} else {
		c = 1.055*math.Pow(c, 1/2.4) - 0.055
	}
	return uint8(c*255 + 0.5)
}

// srgbFrom[k] is the least linear value that encodeSRGB takes to byte k or more (k >= 1), found by
// bisecting the float32s between 0 and 1 (a positive float32's bits order it as its value does):
// about 1 ms at the process's start.
var srgbFrom = func() (t [256]float32) {
	for k := 1; k < 256; k++ {
		lo, hi := uint32(0), math.Float32bits(1) // encodeSRGB(1) is 255: the least is at or below it
		for lo < hi {
			mid := lo + (hi-lo)/2
			if int(encodeSRGB(math.Float32frombits(mid))) >= k {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		t[k] = math.Float32frombits(lo)
	}
	return t
}()

// linearToSRGB is encodeSRGB by a search of srgbFrom: the same byte for every float32 without a
// math.Pow, 7.6 times as fast. The overview strip encodes three channels of each of its ~100 K
// pixels when it is scaled anew (the first frame of a document, a resize).
func linearToSRGB(v float32) uint8 {
	k := 0
	for step := 128; step > 0; step >>= 1 {
		if v >= srgbFrom[k+step] {
			k += step
		}
	}
	return uint8(k)
}

// blendTable maps an sRGB byte under a colour of alpha a and linear value src to the sRGB byte
// that results, blended in linear light.
func blendTable(src, a float32) (t [256]uint8) {
	for i := range t {
		t[i] = linearToSRGB(src*a + srgbToLinear[i]*(1-a))
	}
	return t
}

// overviewStrip is the composited strip and what it was composited from.
type overviewStrip struct {
	// base is the picture scaled into the strip on the Panel colour; it changes with the size,
	// the document and the theme.
	base    *image.RGBA
	baseKey overviewBaseKey
	// imgs are used in turn: Gio may still read the last frame's while this one is composited.
	imgs  [2]*image.RGBA
	turn  int
	op    paint.ImageOp
	opKey overviewStripKey
	// shade darkens what lies outside the view; sel tints the range being dragged.
	shade      [256]uint8
	sel        [3][256]uint8
	tablesFor  color.NRGBA // the accent the tables were made for
	tablesMade bool
}

type overviewBaseKey struct {
	size image.Point
	src  *image.NRGBA
	bg   color.NRGBA
	// top and bottom are the rows the picture spans.
	top, bottom int
}

type overviewStripKey struct {
	base         overviewBaseKey
	x0, x1       int
	sel0, sel1   int
	selecting    bool
	accent, line color.NRGBA
}

// overviewShade and overviewSelAlpha are the alphas of the shade outside the view and of the
// range being dragged.
const (
	overviewShade    = 0x50
	overviewSelAlpha = 0x40
)

// canComposite reports whether the picture lies on the strip as the CPU composite draws it: from
// the left edge to the right one, magnified on both axes, so that the GPU sampled it with its
// linear (not mipmapped) filter and no pixel is partly covered.
func canCompositeOverview(width int, left, sx, sy float32) bool {
	return left == 0 && sx*overviewBuckets == float32(width) && sx >= 1 && sy >= 1
}

// strip returns the image of the strip: size, the activity picture src (buckets × rows) scaled
// into rows top to bottom on bg, the view's frame from x0 to x1 in accent, what lies outside
// it shaded, the range sel0..sel1 tinted while selecting, and the bottom border line.
func (s *overviewStrip) strip(size image.Point, src *image.NRGBA, top, bottom int, bg, accent, line color.NRGBA,
	x0, x1 int, selecting bool, sel0, sel1 int) paint.ImageOp {
	bk := overviewBaseKey{size: size, src: src, bg: bg, top: top, bottom: bottom}
	k := overviewStripKey{base: bk, x0: x0, x1: x1, sel0: sel0, sel1: sel1, selecting: selecting, accent: accent, line: line}
	if s.op.Size() == size && k == s.opKey {
		return s.op
	}
	if s.base == nil || bk != s.baseKey {
		s.base = scaleOverview(s.base, size, src, top, bottom, bg)
		s.baseKey = bk
	}
	if !s.tablesMade || s.tablesFor != accent {
		s.shade = blendTable(0, overviewShade/255.0)
		a := float32(overviewSelAlpha) / 255
		s.sel = [3][256]uint8{
			blendTable(srgbToLinear[accent.R], a), blendTable(srgbToLinear[accent.G], a), blendTable(srgbToLinear[accent.B], a),
		}
		s.tablesFor, s.tablesMade = accent, true
	}
	img := s.imgs[s.turn]
	if img == nil || img.Rect.Size() != size {
		img = image.NewRGBA(image.Rectangle{Max: size})
		s.imgs[s.turn] = img
	}
	s.turn ^= 1
	copy(img.Pix, s.base.Pix)
	w, h := size.X, size.Y
	shade := func(from, to int) {
		from, to = max(from, 0), min(to, w)
		for y := range h {
			row := img.Pix[y*img.Stride:]
			for i := 4 * from; i < 4*to; i += 4 {
				row[i], row[i+1], row[i+2] = s.shade[row[i]], s.shade[row[i+1]], s.shade[row[i+2]]
			}
		}
	}
	shade(0, x0)
	shade(x1, w)
	fill := func(r image.Rectangle, c color.NRGBA) {
		r = r.Intersect(img.Rect)
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				i := img.PixOffset(x, y)
				img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, 0xff
			}
		}
	}
	for _, r := range overviewFrame(x0, x1, h) {
		fill(r, accent)
	}
	if selecting {
		r := image.Rect(sel0, 0, sel1, h).Intersect(img.Rect)
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				i := img.PixOffset(x, y)
				img.Pix[i], img.Pix[i+1], img.Pix[i+2] = s.sel[0][img.Pix[i]], s.sel[1][img.Pix[i+1]], s.sel[2][img.Pix[i+2]]
			}
		}
	}
	fill(image.Rect(0, h-1, w, h), line)
	s.op = paint.NewImageOp(img)
	s.op.Filter = paint.FilterNearest
	s.opKey = k
	return s.op
}

// overviewFrame is the view's frame: four rectangles 2 px wide around x0..x1.
func overviewFrame(x0, x1, h int) [4]image.Rectangle {
	return [4]image.Rectangle{
		{Min: image.Pt(x0, 0), Max: image.Pt(x1, 2)}, {Min: image.Pt(x0, h-2), Max: image.Pt(x1, h)},
		{Min: image.Pt(x0, 0), Max: image.Pt(x0+2, h)}, {Min: image.Pt(x1-2, 0), Max: image.Pt(x1, h)},
	}
}

// scaleOverview draws src magnified over the whole width and from row top to row bottom, on bg,
// into dst (reused when it has the size): bilinear in linear light with clamped edges, sampled
// at each pixel's centre as a GPU samples a texture drawn over those pixels.
func scaleOverview(dst *image.RGBA, size image.Point, src *image.NRGBA, top, bottom int, bg color.NRGBA) *image.RGBA {
	if dst == nil || dst.Rect.Size() != size {
		dst = image.NewRGBA(image.Rectangle{Max: size})
	}
	for i := 0; i < len(dst.Pix); i += 4 {
		dst.Pix[i], dst.Pix[i+1], dst.Pix[i+2], dst.Pix[i+3] = bg.R, bg.G, bg.B, 0xff
	}
	sw, sh := src.Rect.Dx(), src.Rect.Dy()
	top, bottom = max(top, 0), min(bottom, size.Y)
	if sw == 0 || sh == 0 || bottom <= top {
		return dst
	}
	// A texel coordinate for each column: where the pixel's centre falls, less half a texel.
	type tap struct {
		i0, i1 int
		f      float32
	}
	taps := func(n, texels int, at int) tap {
		t := (float32(at)+0.5)*float32(texels)/float32(n) - 0.5
		i := int(math.Floor(float64(t)))
		f := t - float32(i)
		return tap{min(max(i, 0), texels-1), min(max(i+1, 0), texels-1), f}
	}
	cols := make([]tap, size.X)
	for x := range cols {
		cols[x] = taps(size.X, sw, x)
	}
	texel := func(x, y, c int) float32 { return srgbToLinear[src.Pix[src.PixOffset(x, y)+c]] }
	for y := top; y < bottom; y++ {
		ty := taps(bottom-top, sh, y-top)
		row := dst.Pix[y*dst.Stride:]
		for x, tx := range cols {
			for c := range 3 {
				a := texel(tx.i0, ty.i0, c)*(1-tx.f) + texel(tx.i1, ty.i0, c)*tx.f
				b := texel(tx.i0, ty.i1, c)*(1-tx.f) + texel(tx.i1, ty.i1, c)*tx.f
				row[4*x+c] = linearToSRGB(a*(1-ty.f) + b*ty.f)
			}
		}
	}
	return dst
}
