package render

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"strings"
	"testing"

	"gioui.org/op"
	"gioui.org/op/paint"
)

// TestLabelAtlasDrawsEachLabelAsItsOwnImage draws enough labels through DrawText to fill more
// than one atlas page, plus one too wide for a page, and compares the frame pixel by pixel with
// the same labels drawn each from an image of its own, as the painter drew them before the atlas.
func TestLabelAtlasDrawsEachLabelAsItsOwnImage(t *testing.T) {
	const w, h = 1600, 1000
	win := headlessWindow(t, w, h)
	bg := color.NRGBA{R: 250, G: 248, B: 240, A: 255}
	f := Font{Size: 12}
	colors := []color.NRGBA{{R: 32, G: 33, B: 36, A: 255}, {R: 176, G: 96, A: 255}, {R: 26, G: 115, B: 232, A: 200}}
	type placed struct {
		s    string
		c    color.NRGBA
		x, y float32
	}
	var labels []placed
	for i := range 480 {
		s := fmt.Sprintf("label %d · %.1f ms (%s)", i, float64(i)*1.7, strings.Repeat("gy", i%5))
		labels = append(labels, placed{s, colors[i%len(colors)], float32(4 + (i%6)*265), float32(14 + (i/6)*12)})
	}
	labels = append(labels, placed{strings.Repeat("wide label ", 120), colors[0], 2, 990})

	var p GioPainter
	var ops op.Ops
	paint.Fill(&ops, bg)
	for _, l := range labels {
		p.DrawText(&ops, f, l.c, l.x, l.y, l.s)
	}
	p.EndFrame()
	got := frameShot(t, win, &ops, w, h)

	pages := map[*atlasPage]bool{}
	ops.Reset()
	paint.Fill(&ops, bg)
	own := 0
	for _, l := range labels {
		bt := p.bitmaps[textStyle{font: f, color: l.c}][l.s]
		img := bt.img
		if bt.slot.page != nil {
			pages[bt.slot.page] = true
			sub := bt.slot.page.img.SubImage(bt.slot.rect).(*image.RGBA)
			cp := image.NewRGBA(image.Rectangle{Max: sub.Rect.Size()})
			for y := range cp.Rect.Dy() {
				copy(cp.Pix[cp.PixOffset(0, y):][:4*cp.Rect.Dx()], sub.Pix[sub.PixOffset(sub.Rect.Min.X, sub.Rect.Min.Y+y):])
			}
			img = paint.NewImageOp(cp)
			img.Filter = paint.FilterNearest
		} else {
			own++
		}
		x, y := int(l.x)+bt.dx, int(l.y)+bt.dy
		off := op.Offset(image.Pt(x, y)).Push(&ops)
		img.Add(&ops)
		paint.PaintOp{}.Add(&ops)
		off.Pop()
	}
	want := frameShot(t, win, &ops, w, h)
	if len(pages) < 2 || own != 1 {
		t.Fatalf("the labels went to %d atlas pages and %d images of their own; the test needs at least 2 and 1", len(pages), own)
	}
	if !bytes.Equal(got.Pix, want.Pix) {
		bad := 0
		for y := range h {
			for x := range w {
				if a, b := got.RGBAAt(x, y), want.RGBAAt(x, y); a != b {
					if bad++; bad <= 5 {
						t.Errorf("pixel (%d,%d): from the atlas %v, from its own image %v", x, y, a, b)
					}
				}
			}
		}
		t.Fatalf("%d pixels differ", bad)
	}
}

// TestLabelAtlasLeavesAPublishedPageAlone adds a label to a page whose image Gio may hold: the
// label goes into a copy, and the published image keeps its pixels.
func TestLabelAtlasLeavesAPublishedPageAlone(t *testing.T) {
	label := func(v uint8, w, h int) *image.RGBA {
		img := image.NewRGBA(image.Rect(0, 0, w, h))
		for i := range img.Pix {
			img.Pix[i] = v
		}
		return img
	}
	var a labelAtlas
	first, ok := a.add(label(10, 40, 13))
	if !ok {
		t.Fatal("a small label did not fit in the atlas")
	}
	var ops op.Ops
	first.draw(&ops, image.Pt(5, 5))
	published := first.page.img
	before := bytes.Clone(published.Pix)
	second, ok := a.add(label(20, 30, 14))
	if !ok {
		t.Fatal("a second small label did not fit in the atlas")
	}
	if second.page != first.page {
		t.Fatal("the second label started a page though the first had room")
	}
	if !bytes.Equal(published.Pix, before) {
		t.Fatal("adding a label wrote into the image handed to Gio")
	}
	if second.page.img == published {
		t.Fatal("the page kept its published image for a new label")
	}
	if second.rect.Overlaps(first.rect) {
		t.Fatalf("labels overlap: %v and %v", first.rect, second.rect)
	}
	img := second.page.img
	for _, c := range []struct {
		r image.Rectangle
		v uint8
	}{{first.rect, 10}, {second.rect, 20}} {
		for y := c.r.Min.Y; y < c.r.Max.Y; y++ {
			for x := c.r.Min.X; x < c.r.Max.X; x++ {
				if px := img.RGBAAt(x, y); px.R != c.v || px.A != c.v {
					t.Fatalf("pixel (%d,%d) of the page is %v, want the label's %d", x, y, px, c.v)
				}
			}
		}
	}
	if _, ok := a.add(label(1, atlasPageW+1, 10)); ok {
		t.Error("a label wider than a page went into the atlas")
	}
}
