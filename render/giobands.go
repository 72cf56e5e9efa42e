package render

import (
	"bytes"
	"image"

	"gioui.org/f32"
	"gioui.org/op"
	"gioui.org/op/clip"
	"gioui.org/op/paint"
)

// On software GL a new image costs in proportion to its size: a texture allocated and uploaded,
// then sampled pixel by pixel. Uploading the composited chart whole every frame was a fifth of
// the window's CPU time while navigating gen-trace-large under llvmpipe. frameBands cuts the
// frame into full-width bands and each band into runs of tiles: in a run whose rows are all
// alike (background crossed by nothing but the vertical grid lines, which is much of a chart)
// one row is uploaded and stretched down the band; a band whose pixels did not change since it
// was last handed over keeps its images, which Gio does not upload again. Every pixel stays the
// same: images are drawn with nearest filtering on whole pixels, 1:1 across.
//
// BenchmarkGioFrameBands: 64x128 px gave 15.6-18.7 CPU ms a frame where one image took
// 22.6-23.7; 32x64 0.81-0.86 of one image, 16x64 1.02 (more draws), 128x64 0.69.

const (
	bandHeight = 64  // px
	tileWidth  = 128 // px: the unit in which a band's runs of alike rows are found
)

// frameBands hands a composited frame to Gio band by band. The zero value is ready to use.
type frameBands struct {
	bands []frameBand
}

type frameBand struct {
	// Each band keeps two copies of its pixels in turn: the one its current images refer to, and
	// the one the next change is copied into (the older images are gone from Gio by then).
	bufs  [2]*image.RGBA
	cur   int
	valid bool
	runs  []bandRun
}

// bandRun is a horizontal stretch of a band and its image: the band's rows, or when flat (all
// rows alike) the first row alone, drawn stretched.
type bandRun struct {
	x0, x1 int
	img    paint.ImageOp
	flat   bool
}

func (f *frameBands) reset() { f.bands = f.bands[:0] }

// paint adds the ops that draw img.
func (f *frameBands) paint(ops *op.Ops, img *image.RGBA) {
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	n := (h + bandHeight - 1) / bandHeight
	for len(f.bands) < n {
		f.bands = append(f.bands, frameBand{})
	}
	for i := range n {
		y0 := i * bandHeight
		y1 := min(y0+bandHeight, h)
		b := &f.bands[i]
		if !b.valid || !b.same(img, y0, y1) {
			b.update(img, y0, y1, w)
		}
		for _, r := range b.runs {
			if r.flat {
				// One row stretched down the band: each pixel samples that row's texel.
				area := clip.Rect{Min: image.Pt(r.x0, y0), Max: image.Pt(r.x1, y1)}.Push(ops)
				tr := op.Affine(f32.AffineId().Scale(f32.Point{}, f32.Pt(1, float32(y1-y0))).Offset(f32.Pt(float32(r.x0), float32(y0)))).Push(ops)
				r.img.Add(ops)
				paint.PaintOp{}.Add(ops)
				tr.Pop()
				area.Pop()
				continue
			}
			off := op.Offset(image.Pt(r.x0, y0)).Push(ops)
			r.img.Add(ops)
			paint.PaintOp{}.Add(ops)
			off.Pop()
		}
	}
}

// same reports whether rows y0 to y1 of img are the band's current pixels.
func (b *frameBand) same(img *image.RGBA, y0, y1 int) bool {
	buf := b.bufs[b.cur]
	if buf == nil || buf.Bounds().Dx() != img.Bounds().Dx() || buf.Bounds().Dy() != y1-y0 {
		return false
	}
	rowBytes := 4 * img.Bounds().Dx()
	for y := y0; y < y1; y++ {
		row := img.Pix[y*img.Stride : y*img.Stride+rowBytes]
		if !bytes.Equal(row, buf.Pix[(y-y0)*buf.Stride:(y-y0)*buf.Stride+rowBytes]) {
			return false
		}
	}
	return true
}

// update copies rows y0 to y1 of img into the band's other buffer and cuts the band into runs:
// each stretch of tiles whose rows are all alike one run, each stretch of the others another.
func (b *frameBand) update(img *image.RGBA, y0, y1, w int) {
	next := 1 - b.cur
	buf := b.bufs[next]
	if buf == nil || buf.Bounds().Dx() != w || buf.Bounds().Dy() != y1-y0 {
		buf = image.NewRGBA(image.Rect(0, 0, w, y1-y0))
		b.bufs[next] = buf
	}
	rowBytes := 4 * w
	for y := y0; y < y1; y++ {
		copy(buf.Pix[(y-y0)*buf.Stride:(y-y0)*buf.Stride+rowBytes], img.Pix[y*img.Stride:y*img.Stride+rowBytes])
	}
	b.cur, b.valid = next, true
	b.runs = b.runs[:0]
	for x0 := 0; x0 < w; x0 += tileWidth {
		x1 := min(x0+tileWidth, w)
		flat := rowsAlike(buf, x0, x1)
		if k := len(b.runs) - 1; k >= 0 && b.runs[k].flat == flat {
			b.runs[k].x1 = x1
			continue
		}
		b.runs = append(b.runs, bandRun{x0: x0, x1: x1, flat: flat})
	}
	for k := range b.runs {
		r := &b.runs[k]
		rows := y1 - y0
		if r.flat {
			rows = 1
		}
		r.img = paint.NewImageOp(buf.SubImage(image.Rect(r.x0, 0, r.x1, rows)))
		r.img.Filter = paint.FilterNearest
	}
}

// rowsAlike reports whether every row of buf is the same as its first between columns x0 and x1.
func rowsAlike(buf *image.RGBA, x0, x1 int) bool {
	first := buf.Pix[4*x0 : 4*x1]
	for y := 1; y < buf.Bounds().Dy(); y++ {
		if !bytes.Equal(buf.Pix[y*buf.Stride+4*x0:y*buf.Stride+4*x1], first) {
			return false
		}
	}
	return true
}
