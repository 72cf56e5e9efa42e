package render

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/image/font/sfnt"
)

// The Go fonts, which the window and `render` draw every label with, have no pictographs: a
// symbol such as React's "⚛" in its extension tracks' names would come out as an empty box. Such
// symbols are drawn as a bullet, which the fonts have, so that the name keeps its shape.

// missingSymbol stands for a symbol the fonts lack.
const missingSymbol = '•'

var glyphs struct {
	mu  sync.Mutex
	buf sfnt.Buffer
	has map[rune]bool
}

// hasGlyph reports whether Go Regular draws r.
func hasGlyph(r rune) bool {
	glyphs.mu.Lock()
	defer glyphs.mu.Unlock()
	if ok, seen := glyphs.has[r]; seen {
		return ok
	}
	if glyphs.has == nil {
		glyphs.has = map[rune]bool{}
	}
	g, err := parsedFont(false).GlyphIndex(&glyphs.buf, r)
	ok := err == nil && g != 0
	glyphs.has[r] = ok
	return ok
}

// Drawable is s with each symbol the Go fonts cannot draw replaced by a bullet. Plain ASCII, the
// common case, is returned as it is without a look-up.
func Drawable(s string) string {
	i := 0
	for i < len(s) && s[i] < utf8.RuneSelf {
		i++
	}
	if i == len(s) {
		return s
	}
	missing := func(r rune) bool { return r >= utf8.RuneSelf && unicode.Is(unicode.So, r) && !hasGlyph(r) }
	if strings.IndexFunc(s[i:], missing) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if missing(r) {
			return missingSymbol
		}
		return r
	}, s)
}
