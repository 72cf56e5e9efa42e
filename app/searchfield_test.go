package app

import (
	"image"
	"image/color"
	"testing"

	"gioui.org/layout"
	"gioui.org/op"
	"gioui.org/op/paint"
	"gioui.org/unit"

	"flamedesk/app/theme"
	"flamedesk/internal/gioshot"
)

// The search field shows its hint only while it is empty, and is bordered by one crisp pixel of
// the border's colour all round.
func TestSearchFieldHintAndBorder(t *testing.T) {
	win := gioshot.Window(t, 200, 40)
	th := theme.New(false)
	var s searchBox
	s.init()
	draw := func() (*image.RGBA, layout.Dimensions) {
		var ops op.Ops
		gtx := layout.Context{Ops: &ops, Constraints: layout.Constraints{Max: image.Pt(200, 40)},
			Metric: unit.Metric{PxPerDp: 1, PxPerSp: 1}}
		paint.Fill(&ops, th.Panel)
		dims := s.layoutField(gtx, env{th: th, emit: func(action) {}})
		th.EndFrame()
		return gioshot.Shot(t, win, &ops), dims
	}
	// How many pixels inside the border are far from the panel's colour: the hint's or the text's.
	inked := func(img *image.RGBA, size image.Point) int {
		n := 0
		for y := 1; y < size.Y-1; y++ {
			for x := 1; x < size.X-1; x++ {
				if far(img.RGBAAt(x, y), th.Panel) {
					n++
				}
			}
		}
		return n
	}
	img, dims := draw()
	if dims.Size.X != 180 {
		t.Fatalf("the field is %d px wide, want 180", dims.Size.X)
	}
	for x := 0; x < dims.Size.X; x++ {
		for _, y := range []int{0, dims.Size.Y - 1} {
			if far(img.RGBAAt(x, y), th.Border) {
				t.Fatalf("border pixel (%d, %d) is %v, want %v", x, y, img.RGBAAt(x, y), th.Border)
			}
		}
		if far(img.RGBAAt(x, dims.Size.Y), th.Panel) {
			t.Fatalf("pixel (%d, %d) below the field is not the panel's", x, dims.Size.Y)
		}
	}
	hint := inked(img, dims.Size)
	if hint < 50 {
		t.Fatalf("the empty field shows %d inked pixels, want its hint", hint)
	}
	s.editor.SetText("x")
	img, dims = draw()
	if typed := inked(img, dims.Size); typed == 0 || typed >= hint/3 {
		t.Fatalf("with one letter typed the field shows %d inked pixels (the hint had %d): want the letter alone", typed, hint)
	}
}

// far says whether a pixel differs from c by more than rounding.
func far(a color.RGBA, c color.NRGBA) bool { return !gioshot.Near(a, c, 2) }
