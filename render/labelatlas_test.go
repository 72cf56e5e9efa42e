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

	"flamedesk/internal/gioshot"
)

// TestLabelAtlasDrawsEachLabelAsItsOwnImage draws enough labels through DrawText to fill more
// than one atlas page, plus one too wide for a page, some of them already drawn in the frame
// before, and compares the frame pixel by pixel with the same labels drawn each from an image of
// its own, as the painter drew them before the atlas.
func TestLabelAtlasDrawsEachLabelAsItsOwnImage(t *testing.T) {
	const w, h = 1600, 1000
	win := gioshot.Window(t, w, h)
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
	// A first frame uploads the page with some of the labels; the second adds the rest to it.
	paint.Fill(&ops, bg)
	for _, l := range labels[:100] {
		p.DrawText(&ops, f, l.c, l.x, l.y, l.s)
	}
	p.EndFrame()
	frameShot(t, win, &ops, w, h)
	ops.Reset()
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

// TestLabelAtlasMakesAnOpPerFrame adds labels to a page in two frames: the labels of one frame
// share one ImageOp of the page (Gio uploads it once, at the end of the frame, with all of them),
// a label added in a later frame gets a new one (the first was uploaded without it), and no label
// is written over another.
func TestLabelAtlasMakesAnOpPerFrame(t *testing.T) {
	label := func(v uint8, w, h int) *image.RGBA {
		img := image.NewRGBA(image.Rect(0, 0, w, h))
		for i := range img.Pix {
			img.Pix[i] = v
		}
		return img
	}
	var a labelAtlas
	var ops op.Ops
	var slots []atlasSlot
	var opsOf []paint.ImageOp
	for i, frame := range []uint32{7, 7, 8} {
		s, ok := a.add(label(uint8(10*(i+1)), 30+10*i, 12+i))
		if !ok {
			t.Fatal("a small label did not fit in the atlas")
		}
		s.draw(&ops, image.Pt(5, 5+20*i), frame)
		slots = append(slots, s)
		opsOf = append(opsOf, s.page.op)
	}
	if slots[1].page != slots[0].page || slots[2].page != slots[0].page {
		t.Fatal("a label started a page though the first had room")
	}
	if opsOf[1] != opsOf[0] {
		t.Error("two labels of one frame were drawn from two ImageOps of their page")
	}
	if opsOf[2] == opsOf[1] {
		t.Error("a label added in a later frame was drawn from the ImageOp an earlier frame uploaded")
	}
	// Drawn again in frame 8 with nothing added: the same op.
	slots[0].draw(&ops, image.Pt(5, 5), 8)
	if slots[0].page.op != opsOf[2] {
		t.Error("a frame that added nothing made a new ImageOp")
	}
	img := slots[0].page.img
	for i, s := range slots {
		for _, q := range slots[:i] {
			if s.rect.Overlaps(q.rect) {
				t.Fatalf("labels overlap: %v and %v", q.rect, s.rect)
			}
		}
		v := uint8(10 * (i + 1))
		for y := s.rect.Min.Y; y < s.rect.Max.Y; y++ {
			for x := s.rect.Min.X; x < s.rect.Max.X; x++ {
				if px := img.RGBAAt(x, y); px.R != v || px.A != v {
					t.Fatalf("pixel (%d,%d) of the page is %v, want label %d's %d", x, y, px, i, v)
				}
			}
		}
	}
	if _, ok := a.add(label(1, atlasPageW+1, 10)); ok {
		t.Error("a label wider than a page went into the atlas")
	}
}
