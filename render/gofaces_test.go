package render

import (
	"testing"

	giofont "gioui.org/font"
	"gioui.org/font/gofont"
	"gioui.org/text"
	"golang.org/x/image/math/fixed"
)

// The window's shaper has only the Go font's regular and bold faces, not Gio's whole Go
// collection: every font the window asks for (the theme's default, and the labels' "Go", bold or
// not) shapes to the same glyphs at the same places with either.
func TestGoFacesShapeAsTheWholeCollection(t *testing.T) {
	ours := text.NewShaper(text.NoSystemFonts(), text.WithCollection(GoFaces()))
	whole := text.NewShaper(text.NoSystemFonts(), text.WithCollection(gofont.Collection()))
	// A glyph's ID holds which face of the collection it is from, which differs; its place, its
	// advance and its outline's bounds do not.
	type glyph struct {
		x, advance fixed.Int26_6
		bounds     fixed.Rectangle26_6
	}
	shape := func(s *text.Shaper, f giofont.Font, str string) []glyph {
		s.LayoutString(text.Parameters{Font: f, PxPerEm: fixed.I(13), MaxLines: 1, MaxWidth: 1 << 24}, str)
		var out []glyph
		for g, ok := s.NextGlyph(); ok; g, ok = s.NextGlyph() {
			out = append(out, glyph{g.X, g.Advance, g.Bounds})
		}
		return out
	}
	const sample = "Task · runTypeScript (anonymous) libs.js:33:29 — 14920.5 ms ±3% «ÄÖÜ» fi"
	for _, f := range []giofont.Font{{}, {Typeface: "Go"}, {Typeface: "Go", Weight: giofont.Bold}} {
		got, want := shape(ours, f, sample), shape(whole, f, sample)
		if len(got) == 0 || len(got) != len(want) {
			t.Fatalf("%+v: %d glyphs, the whole collection %d", f, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%+v: glyph %d is %+v, the whole collection's %+v", f, i, got[i], want[i])
			}
		}
	}
	// The two faces differ, so the bold label is bold.
	if regular, bold := shape(ours, giofont.Font{Typeface: "Go"}, sample), shape(ours, giofont.Font{Typeface: "Go", Weight: giofont.Bold}, sample); regular[len(regular)-1].x == bold[len(bold)-1].x {
		t.Fatal("bold text shaped as wide as regular: the bold face is missing")
	}
}
