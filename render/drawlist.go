package render

import (
	"image/color"
	"math"
)

// Rect is an axis-aligned rectangle in pixels, [X0, X1) × [Y0, Y1). Bars are on whole pixels.
type Rect struct{ X0, Y0, X1, Y1 float32 }

// Empty reports whether r covers no area.
func (r Rect) Empty() bool { return !(r.X1 > r.X0 && r.Y1 > r.Y0) }

// Batch is rectangles of one colour. Rects of one layer never overlap across batches in a way
// that depends on their order, so a painter may fill each batch as one path.
type Batch struct {
	Color color.NRGBA
	Rects []Rect
}

// Triangle is a filled triangle, e.g. a header's disclosure arrow.
type Triangle struct {
	Pts   [3][2]float32
	Color color.NRGBA
}

// Text is one run of text, already fitted to where it is drawn: its bytes (DrawList.TextBytes)
// include the ellipsis when it was cut.
type Text struct {
	X, Y  float32 // left end of the baseline, on whole pixels so that glyphs rasterise the same everywhere
	Font  Font
	Color color.NRGBA
	off   int32
	n     int32
}

// Layer is one step of the paint order; a painter draws a layer's batches, then its hatches, then
// its triangles, then its texts, and then the next layer.
type Layer struct {
	Batches   []Batch
	Hatches   []Rect // striped with DrawList.Hatch: merged spans
	Triangles []Triangle
	Texts     []Text
}

// The layers, bottom to top.
const (
	LayerBackground = iota // header rows
	LayerGrid              // grid lines, header separators
	LayerBars              // bars (one batch per colour) and the hatching of merged spans
	LayerHighlight         // hover and time-range washes
	LayerOutline           // search-match and selection outlines
	LayerText              // labels, header titles and arrows
	LayerRuler             // the ruler's background
	LayerRulerText         // the ruler's ticks and labels
	NumLayers
)

// Hatch is how merged spans are striped: diagonal stripes (going up to the right) of Width pixels
// every Period pixels, in Color.
type Hatch struct {
	Color         color.NRGBA
	Period, Width float32
}

// DrawList is everything one frame draws, in pixels, built by Builder.Build and drawn by a
// painter. Keep one per window and pass it to every Build: it reuses its buffers, so steady-state
// frames allocate nothing.
type DrawList struct {
	Width, Height int
	Background    color.NRGBA
	Hatch         Hatch
	Layers        [NumLayers]Layer

	// What the frame holds, for tests, benchmarks and the frame-stats overlay.
	Stats DrawStats

	text   []byte
	rects  []Rect
	staged [NumLayers][]stagedRect
}

// DrawStats counts what a frame drew.
type DrawStats struct {
	Spans  int // bars drawn (single entries and merged spans)
	Merged int // of which merged spans
	Labels int // bar labels drawn
	Rects  int // rectangles in all layers
}

type stagedRect struct {
	r     Rect
	color uint16
}

// TextBytes is the text of t. The slice is owned by the list and valid until the next Build.
func (l *DrawList) TextBytes(t Text) []byte { return l.text[t.off : t.off+t.n] }

// TextString is TextBytes as a string (allocating; for tests and tooltips, not for painting).
func (l *DrawList) TextString(t Text) string { return string(l.TextBytes(t)) }

func (l *DrawList) reset(width, height int) {
	l.Width, l.Height = width, height
	l.Stats = DrawStats{}
	l.text = l.text[:0]
	l.rects = l.rects[:0]
	for i := range l.Layers {
		ly := &l.Layers[i]
		ly.Batches = ly.Batches[:0]
		ly.Hatches = ly.Hatches[:0]
		ly.Triangles = ly.Triangles[:0]
		ly.Texts = ly.Texts[:0]
		l.staged[i] = l.staged[i][:0]
	}
}

func (l *DrawList) rect(layer int, color uint16, r Rect) {
	l.staged[layer] = append(l.staged[layer], stagedRect{r: r, color: color})
}

// outline adds the four sides of r, w pixels wide, inside r.
func (l *DrawList) outline(layer int, color uint16, r Rect, w float32) {
	if r.X1-r.X0 <= 2*w || r.Y1-r.Y0 <= 2*w {
		l.rect(layer, color, r)
		return
	}
	l.rect(layer, color, Rect{r.X0, r.Y0, r.X1, r.Y0 + w})
	l.rect(layer, color, Rect{r.X0, r.Y1 - w, r.X1, r.Y1})
	l.rect(layer, color, Rect{r.X0, r.Y0 + w, r.X0 + w, r.Y1 - w})
	l.rect(layer, color, Rect{r.X1 - w, r.Y0 + w, r.X1, r.Y1 - w})
}

// addText appends s[:n] (plus the ellipsis when cut) as a text run.
func (l *DrawList) addText(layer int, x, y float32, f Font, c color.NRGBA, s string, n int, cut bool) {
	off := len(l.text)
	l.text = append(l.text, s[:n]...)
	if cut {
		l.text = append(l.text, Ellipsis...)
	}
	l.addTextFrom(layer, x, y, f, c, off)
}

// addTextFrom adds the text written to the end of the text arena from off on as a run.
func (l *DrawList) addTextFrom(layer int, x, y float32, f Font, c color.NRGBA, off int) {
	x, y = float32(math.Round(float64(x))), float32(math.Round(float64(y)))
	l.Layers[layer].Texts = append(l.Layers[layer].Texts, Text{X: x, Y: y, Font: f, Color: c, off: int32(off), n: int32(len(l.text) - off)})
}

// batch sorts each layer's staged rectangles into one batch per colour with a counting sort over
// the colour table: O(rects + colours), no comparisons, no allocation once the buffers have grown.
func (l *DrawList) batch(colors []color.NRGBA, counts []int32) []int32 {
	total := 0
	for i := range l.staged {
		total += len(l.staged[i])
	}
	if cap(l.rects) < total {
		l.rects = make([]Rect, 0, total+total/4)
	}
	l.rects = l.rects[:total]
	if cap(counts) < len(colors)+1 {
		counts = make([]int32, len(colors)+1)
	}
	counts = counts[:len(colors)+1]
	base := 0
	for li := range l.staged {
		staged := l.staged[li]
		if len(staged) == 0 {
			continue
		}
		clear(counts)
		for _, s := range staged {
			counts[s.color+1]++
		}
		// counts[c] becomes the first slot of colour c.
		for c := 1; c < len(counts); c++ {
			counts[c] += counts[c-1]
		}
		out := l.rects[base : base+len(staged)]
		ly := &l.Layers[li]
		for c := 0; c+1 < len(counts); c++ {
			if counts[c+1] > counts[c] {
				ly.Batches = append(ly.Batches, Batch{Color: colors[c], Rects: out[counts[c]:counts[c+1]]})
			}
		}
		for _, s := range staged {
			out[counts[s.color]] = s.r
			counts[s.color]++
		}
		base += len(staged)
	}
	l.Stats.Rects = total
	return counts
}
