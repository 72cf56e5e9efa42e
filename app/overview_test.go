// Tests of the overview's activity picture: painted at the size it is drawn, scaled as a linear
// filter would.

package app

import (
	"image"
	"math"
	"testing"
)

// Stretched, each value is the interpolation at the pixel's centre between the two nearest
// buckets, the edges held; shrunk, the mean of the buckets a pixel covers.
func TestResampleLinear(t *testing.T) {
	src := []float32{0, 1, 0.5, 0.25}
	near := func(got, want float32) bool { return math.Abs(float64(got-want)) < 1e-6 }

	wide := make([]float32, 8) // each bucket over two pixels, their centres a quarter inside it
	resampleLinear(wide, src, 1, len(src))
	for x, got := range wide {
		u := (float64(x)+0.5)/2 - 0.5
		i := int(math.Floor(u))
		f := float32(u - math.Floor(u))
		a, b := src[max(i, 0)], src[min(i+1, len(src)-1)]
		if want := a*(1-f) + b*f; !near(got, want) {
			t.Errorf("stretched x=%d: %v, want %v", x, got, want)
		}
	}
	if wide[0] != src[0] || wide[7] != src[3] {
		t.Errorf("the edges are not held: %v", wide)
	}

	narrow := make([]float32, 2)
	resampleLinear(narrow, src, 1, len(src))
	if !near(narrow[0], 0.5) || !near(narrow[1], 0.375) {
		t.Errorf("shrunk by two: %v, want the means of pairs [0.5 0.375]", narrow)
	}
	third := make([]float32, 3) // each pixel covers 4/3 buckets
	resampleLinear(third, src, 1, len(src))
	if want := (0 + 1.0/3) / (4.0 / 3); !near(third[0], float32(want)) {
		t.Errorf("shrunk by 4/3: first %v, want %v", third[0], want)
	}

	// A column read across rows with a stride.
	grid := []float32{0, 9, 1, 9} // two rows of two; the column x=0 is 0, 1
	col := make([]float32, 4)
	resampleLinear(col, grid, 2, 2)
	if !near(col[0], 0) || !near(col[1], 0.25) || !near(col[2], 0.75) || !near(col[3], 1) {
		t.Errorf("column stretched: %v, want [0 0.25 0.75 1]", col)
	}
}

// The window draws the picture one to one: its image is the size of the strip less its margins,
// and it follows the window's width.
func TestOverviewPaintedAtDrawnSize(t *testing.T) {
	h := newHarness(t, SourceFromPath(fixture(t, "generated", smallTrace)))
	o := &h.u.overview
	want := image.Pt(h.size.X, overviewHeight-4)
	if o.imgSize != want {
		t.Fatalf("activity picture %v, want the strip's %v", o.imgSize, want)
	}
	if o.rows == 0 {
		t.Fatal("no track's activity")
	}
	h.size = image.Pt(900, h.size.Y)
	h.frame()
	if want := image.Pt(900, overviewHeight-4); o.imgSize != want {
		t.Fatalf("after a resize the picture is %v, want %v", o.imgSize, want)
	}
}
