package render

import (
	"fmt"
	"sync"
	"unicode/utf8"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// Font is a face of the Go fonts at a pixel size: what a Text run is drawn with.
type Font struct {
	Size float32 // pixels per em
	Bold bool
}

var goFonts struct {
	once          sync.Once
	regular, bold *opentype.Font
	err           error
}

// parsedFont returns the parsed Go Regular or Go Bold. They are embedded, so failing to parse them
// is a build defect, reported by panicking once here rather than by every caller.
func parsedFont(bold bool) *opentype.Font {
	goFonts.once.Do(func() {
		goFonts.regular, goFonts.err = opentype.Parse(goregular.TTF)
		if goFonts.err == nil {
			goFonts.bold, goFonts.err = opentype.Parse(gobold.TTF)
		}
	})
	if goFonts.err != nil {
		panic(fmt.Sprintf("render: parsing the embedded Go fonts: %v", goFonts.err))
	}
	if bold {
		return goFonts.bold
	}
	return goFonts.regular
}

// newFace opens a face of f. Faces are not safe for concurrent use; each measurer and painter
// opens its own.
func newFace(f Font) font.Face {
	face, err := opentype.NewFace(parsedFont(f.Bold), &opentype.FaceOptions{
		Size: float64(f.Size), DPI: 72, Hinting: font.HintingNone,
	})
	if err != nil {
		panic(fmt.Sprintf("render: opening a Go font face at %v px: %v", f.Size, err))
	}
	return face
}

// Ellipsis ends a label that was cut to fit its bar.
const Ellipsis = "…"

// TextMeasurer measures and fits text in the Go fonts without Gio, caching each string's
// widths, so that a frame measures only the strings it has not seen before. It is not safe for
// concurrent use.
type TextMeasurer struct {
	faces map[Font]*measuredFace
}

type measuredFace struct {
	face     font.Face
	metrics  font.Metrics
	ellipsis float32
	cache    map[string]widthSpan
	cum      []float32 // arena of cumulative widths, see widths
}

type widthSpan struct{ off, n int32 }

// measureCacheLimit bounds the cumulative widths a face caches (4 bytes each); past it the cache
// starts over, which costs one re-measure per string in view.
const measureCacheLimit = 1 << 22

// NewTextMeasurer returns an empty measurer.
func NewTextMeasurer() *TextMeasurer {
	return &TextMeasurer{faces: map[Font]*measuredFace{}}
}

func (tm *TextMeasurer) face(f Font) *measuredFace {
	if mf, ok := tm.faces[f]; ok {
		return mf
	}
	face := newFace(f)
	mf := &measuredFace{face: face, metrics: face.Metrics(), cache: map[string]widthSpan{}}
	mf.ellipsis = mf.measure(Ellipsis)
	tm.faces[f] = mf
	return mf
}

// Metrics are the ascent and descent of f in pixels.
func (tm *TextMeasurer) Metrics(f Font) (ascent, descent float32) {
	m := tm.face(f).metrics
	return fixedToFloat(m.Ascent), fixedToFloat(m.Descent)
}

// maxFitBytes bounds what Fit and Width measure: at a pixel or more per byte, 4 KB is wider than
// any screen.
const maxFitBytes = 4096

// Width is the advance width of s in f, in pixels, or of its first maxFitBytes when longer.
func (tm *TextMeasurer) Width(f Font, s string) float32 {
	if len(s) > maxFitBytes {
		s = s[:maxFitBytes]
	}
	cum := tm.face(f).widths(s)
	return cum[len(s)]
}

// WidthBytes is Width for bytes, measured without caching (for short, changing text such as
// the ruler's labels).
func (tm *TextMeasurer) WidthBytes(f Font, b []byte) float32 {
	mf := tm.face(f)
	var w fixed.Int26_6
	prev := rune(-1)
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		b = b[size:]
		w += mf.advance(prev, r)
		prev = r
	}
	return fixedToFloat(w)
}

// Fit cuts s to fit in avail pixels: it returns how many bytes of s to draw and whether an
// ellipsis follows them. n is len(s) when s fits whole, and 0 when not even one character and the
// ellipsis fit: then nothing should be drawn.
//
// Only a prefix of maxFitBytes is measured: no bar or panel is wide enough to show more, and a
// name of hundreds of MB (hostile input) would cost as much again in widths.
func (tm *TextMeasurer) Fit(f Font, s string, avail float32) (n int, ellipsis bool) {
	mf := tm.face(f)
	cut := false
	if len(s) > maxFitBytes {
		k := maxFitBytes
		for k > 0 && !utf8.RuneStart(s[k]) {
			k--
		}
		s, cut = s[:k], true
	}
	cum := mf.widths(s)
	if !cut && cum[len(s)] <= avail {
		return len(s), false
	}
	target := avail - mf.ellipsis
	// The longest prefix ending on a rune boundary whose width fits with the ellipsis.
	lo, hi := 0, len(s)
	for lo < hi {
		mid := int(uint(lo+hi+1) >> 1)
		if cum[mid] <= target {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	for lo > 0 && lo < len(s) && !utf8.RuneStart(s[lo]) {
		lo--
	}
	if lo == 0 {
		return 0, false
	}
	return lo, true
}

// EllipsisWidth is the width of Ellipsis in f.
func (tm *TextMeasurer) EllipsisWidth(f Font) float32 { return tm.face(f).ellipsis }

// widths returns the cumulative widths of s: element k is the width of s[:k] when k is a rune
// boundary (a continuation byte holds the width up to the end of its rune, which keeps the slice
// non-decreasing), and element len(s) is the whole width. The slice is valid until the next call.
func (mf *measuredFace) widths(s string) []float32 {
	if sp, ok := mf.cache[s]; ok {
		return mf.cum[sp.off : sp.off+sp.n]
	}
	if len(mf.cum)+len(s)+1 > measureCacheLimit {
		clear(mf.cache)
		mf.cum = mf.cum[:0]
	}
	off := len(mf.cum)
	var w fixed.Int26_6
	prev := rune(-1)
	for i, r := range s {
		for len(mf.cum) < off+i {
			mf.cum = append(mf.cum, fixedToFloat(w)) // continuation bytes
		}
		mf.cum = append(mf.cum, fixedToFloat(w))
		w += mf.advance(prev, r)
		prev = r
	}
	for len(mf.cum) < off+len(s)+1 {
		mf.cum = append(mf.cum, fixedToFloat(w))
	}
	// Kerning can pull a prefix back; widths must not decrease for the search in Fit.
	for k := off + 1; k < len(mf.cum); k++ {
		mf.cum[k] = max(mf.cum[k], mf.cum[k-1])
	}
	sp := widthSpan{off: int32(off), n: int32(len(s) + 1)}
	mf.cache[s] = sp
	return mf.cum[sp.off : sp.off+sp.n]
}

func (mf *measuredFace) measure(s string) float32 {
	var w fixed.Int26_6
	prev := rune(-1)
	for _, r := range s {
		w += mf.advance(prev, r)
		prev = r
	}
	return fixedToFloat(w)
}

func (mf *measuredFace) advance(prev, r rune) fixed.Int26_6 {
	a, _ := mf.face.GlyphAdvance(r)
	if prev >= 0 {
		a += mf.face.Kern(prev, r)
	}
	return a
}

func fixedToFloat(v fixed.Int26_6) float32 { return float32(v) / 64 }
