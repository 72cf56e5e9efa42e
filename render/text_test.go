package render

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestFitCutsWithAnEllipsis(t *testing.T) {
	tm := NewTextMeasurer()
	f := Font{Size: 11}
	s := "pp$5.parseExprSubscripts"
	full := tm.Width(f, s)
	if full < 80 || full > 160 {
		t.Fatalf("%q is %g px wide at 11 px: the font is not loaded right", s, full)
	}
	if n, cut := tm.Fit(f, s, full); n != len(s) || cut {
		t.Errorf("fits exactly: n %d cut %v", n, cut)
	}
	ell := tm.EllipsisWidth(f)
	for avail := full - 0.5; avail > 0; avail -= 3 {
		n, cut := tm.Fit(f, s, avail)
		if n == 0 {
			if tm.Width(f, s[:1])+ell <= avail {
				t.Errorf("avail %g: nothing drawn although %q… fits", avail, s[:1])
			}
			continue
		}
		if !cut {
			t.Fatalf("avail %g < full %g but not cut", avail, full)
		}
		if w := tm.Width(f, s[:n]) + ell; w > avail {
			t.Errorf("avail %g: %q… is %g px", avail, s[:n], w)
		}
		if n < len(s) {
			if w := tm.Width(f, s[:n+1]) + ell; w <= avail {
				t.Errorf("avail %g: %q… would fit too, %q… chosen", avail, s[:n+1], s[:n])
			}
		}
	}
	if n, _ := tm.Fit(f, s, ell); n != 0 {
		t.Errorf("room for the ellipsis only: %d bytes drawn", n)
	}
}

func TestFitKeepsRunesWhole(t *testing.T) {
	tm := NewTextMeasurer()
	f := Font{Size: 11}
	s := "Ünïcödé-fünctiön-nämé"
	full := tm.Width(f, s)
	for avail := float32(1); avail < full; avail += 0.7 {
		n, _ := tm.Fit(f, s, avail)
		if !utf8.ValidString(s[:n]) {
			t.Fatalf("avail %g: cut inside a rune: %q", avail, s[:n])
		}
	}
}

func TestWidthsAgreeWithTheImagePainter(t *testing.T) {
	// The builder measures with the same faces the image painter draws with: the text drawn for
	// a label ends where the measurement says.
	tm := NewTextMeasurer()
	f := Font{Size: 11}
	s := "runMicrotasks"
	var l DrawList
	l.reset(200, 20)
	l.Background = Light().Background
	l.addText(LayerText, 10, 14, f, Light().TextDark, s, len(s), false)
	img := PaintImage(&l)
	right := 0
	for x := 0; x < 200; x++ {
		for y := 0; y < 20; y++ {
			if Pixel(img, x, y) != Light().Background {
				right = x
			}
		}
	}
	w := tm.Width(f, s)
	if got := float32(right + 1 - 10); got > w+1 || got < w-3 {
		t.Errorf("ink spans %g px, measured advance %g", got, w)
	}
}

func TestMeasureCacheIsBounded(t *testing.T) {
	tm := NewTextMeasurer()
	f := Font{Size: 11}
	long := strings.Repeat("x", 1000)
	for i := 0; i < measureCacheLimit/1000+10; i++ {
		tm.Width(f, long+strconv.Itoa(i))
	}
	mf := tm.face(f)
	if n := len(mf.cum); n > measureCacheLimit || len(mf.cache) > measureCacheLimit/1000 {
		t.Fatalf("cache holds %d widths, limit %d", n, measureCacheLimit)
	}
	if w := tm.Width(f, "abc"); w <= 0 {
		t.Fatal("measuring after the cache started over failed")
	}
}
