package render

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"slices"
)

// This file finds the parts of a composited frame that show more than its background, so that
// GioFrame hands the GPU only those. Under Mesa's software GL every pixel of a texture drawn
// costs its sampling (with an sRGB decode) and its blending, ~12 ns a pixel on the machine
// measured, while a chart often shows long stretches of empty background: the network track
// between requests, the rows below short flame stacks, the right of a trace's end.

// bandRows is the height of the bands the frame is cut into before they are grouped: finer
// bands follow content more closely, at a cost in planning that grows with their square.
const bandRows = 4

// drawCostPx is what one more draw call costs, in drawn pixels: a small draw measured 40-70 µs
// on llvmpipe, and 4096 textured pixels about 50 µs.
const drawCostPx = 4096

// contentPlan holds the rectangles of a frame to draw, and its working memory across frames.
type contentPlan struct {
	rects   []image.Rectangle
	pattern []byte        // one row of background pixels
	lined   []byte        // one row of background pixels crossed by the grid lines
	extents [][2]int      // per band: the columns [x0, x1) holding content; x0 == x1 when none
	best    []int         // planning: the least cost of drawing bands [0, i)
	from    []int         // planning: where the last group of that best plan starts
	groups  []image.Point // the groups found, as band ranges [X, Y)
}

// backdrop is what a frame shows where it has no content: its background, crossed from row Top
// down by vertical lines one pixel wide at columns Lines, whose pixels are LineColor.
type backdrop struct {
	Background color.NRGBA
	Top        int
	Lines      []int
	LineColor  color.NRGBA
}

// plan finds rectangles of img that together hold every pixel that differs from the backdrop,
// choosing them so that their area plus drawCostPx per rectangle is least among groupings of
// whole bands. The rectangles are disjoint and sorted top to bottom.
func (c *contentPlan) plan(img *image.RGBA, bd *backdrop) []image.Rectangle {
	c.rects = c.rects[:0]
	b := img.Bounds()
	if b.Empty() {
		return c.rects
	}
	w := b.Dx()
	if cap(c.pattern) < 4*w {
		c.pattern = make([]byte, 4*w)
	}
	c.pattern = c.pattern[:4*w]
	c.lined = append(c.lined[:0], make([]byte, 4*w)...)
	px := storedPixel(bd.Background)
	for i := 0; i < len(c.pattern); i += 4 {
		copy(c.pattern[i:i+4], px[:])
	}
	copy(c.lined, c.pattern)
	lpx := storedPixel(bd.LineColor)
	for _, x := range bd.Lines {
		if x >= b.Min.X && x < b.Max.X {
			copy(c.lined[4*(x-b.Min.X):], lpx[:])
		}
	}
	nb := (b.Dy() + bandRows - 1) / bandRows
	c.extents = c.extents[:0]
	for band := range nb {
		x0, x1 := w, 0
		for y := b.Min.Y + band*bandRows; y < min(b.Min.Y+(band+1)*bandRows, b.Max.Y); y++ {
			off := img.PixOffset(b.Min.X, y)
			row := img.Pix[off : off+4*w]
			pattern := c.pattern
			if y >= bd.Top {
				pattern = c.lined
			}
			if bytes.Equal(row, pattern) {
				continue
			}
			x0 = min(x0, firstDiff(row, pattern)/4)
			x1 = max(x1, lastDiff(row, pattern)/4+1)
		}
		if x1 <= x0 {
			x0, x1 = 0, 0
		}
		c.extents = append(c.extents, [2]int{x0, x1})
	}
	c.group(nb, b.Dy())
	for _, gr := range c.groups {
		x0, x1 := w, 0
		for _, e := range c.extents[gr.X:gr.Y] {
			if e[0] < e[1] {
				x0, x1 = min(x0, e[0]), max(x1, e[1])
			}
		}
		y0, y1 := gr.X*bandRows, min(gr.Y*bandRows, b.Dy())
		c.rects = append(c.rects, image.Rect(x0, y0, x1, y1).Add(b.Min))
	}
	return c.rects
}

// group splits the bands into consecutive groups at least cost (dynamic programming over where
// the last group starts): a group costs drawCostPx plus the area of the box around its content,
// and nothing when it has no content.
func (c *contentPlan) group(nb, height int) {
	c.best = append(c.best[:0], make([]int, nb+1)...)
	c.from = append(c.from[:0], make([]int, nb+1)...)
	for i := 1; i <= nb; i++ {
		c.best[i] = -1
		x0, x1 := 1<<30, -1
		y1 := min(i*bandRows, height)
		for j := i - 1; j >= 0; j-- {
			if e := c.extents[j]; e[0] < e[1] {
				x0, x1 = min(x0, e[0]), max(x1, e[1])
			}
			cost := c.best[j]
			if x1 > x0 {
				cost += drawCostPx + (x1-x0)*(y1-j*bandRows)
			}
			if c.best[i] < 0 || cost < c.best[i] {
				c.best[i], c.from[i] = cost, j
			}
		}
	}
	c.groups = c.groups[:0]
	for i := nb; i > 0; i = c.from[i] {
		c.groups = append(c.groups, image.Pt(c.from[i], i))
	}
	// Collected bottom to top; groups without content are dropped.
	slices.Reverse(c.groups)
	n := 0
	for _, gr := range c.groups {
		for _, e := range c.extents[gr.X:gr.Y] {
			if e[0] < e[1] {
				c.groups[n] = gr
				n++
				break
			}
		}
	}
	c.groups = c.groups[:n]
}

// storedPixel is c as an image.RGBA stores it (premultiplied).
func storedPixel(c color.NRGBA) [4]byte {
	r, g, b, a := c.RGBA()
	return [4]byte{byte(r >> 8), byte(g >> 8), byte(b >> 8), byte(a >> 8)}
}

// firstDiff is the index of the first byte where a and b differ; they must differ somewhere.
func firstDiff(a, b []byte) int {
	const chunk = 64
	i := 0
	for i+chunk <= len(a) && bytes.Equal(a[i:i+chunk], b[i:i+chunk]) {
		i += chunk
	}
	for a[i] == b[i] {
		i++
	}
	return i
}

// lastDiff is the index of the last byte where a and b differ; they must differ somewhere.
func lastDiff(a, b []byte) int {
	const chunk = 64
	i := len(a)
	for i-chunk >= 0 && bytes.Equal(a[i-chunk:i], b[i-chunk:i]) {
		i -= chunk
	}
	i--
	for a[i] == b[i] {
		i--
	}
	return i
}

// findBackdrop fills bd with l's background and the vertical grid lines that run from one row
// down to the bottom of the frame (the ruler's ticks): one pixel wide, in one colour, composited
// over the background as ImagePainter composites them. Lines of any other kind stay content.
func findBackdrop(l *DrawList, bd *backdrop) {
	bd.Background = l.Background
	bd.Lines = bd.Lines[:0]
	bd.Top = l.Height
	var lineColor color.NRGBA
	for _, b := range l.Layers[LayerGrid].Batches {
		for _, r := range b.Rects {
			pr := pixelRect(r)
			if pr.Dx() != 1 || pr.Max.Y < l.Height || pr.Min.Y <= 0 {
				continue
			}
			if len(bd.Lines) == 0 {
				bd.Top, lineColor = pr.Min.Y, b.Color
			} else if pr.Min.Y != bd.Top || b.Color != lineColor {
				continue
			}
			bd.Lines = append(bd.Lines, pr.Min.X)
		}
	}
	if len(bd.Lines) > 0 {
		bd.LineColor = composite(l.Background, lineColor)
	}
}

// composite is c drawn over the opaque bg the way ImagePainter draws a rectangle.
func composite(bg, c color.NRGBA) color.NRGBA {
	px := image.NewRGBA(image.Rect(0, 0, 1, 1))
	px.SetRGBA(0, 0, color.RGBA(bg))
	op := draw.Over
	if c.A == 0xff {
		op = draw.Src
	}
	draw.Draw(px, px.Rect, image.NewUniform(c), image.Point{}, op)
	return color.NRGBA(px.RGBAAt(0, 0))
}
