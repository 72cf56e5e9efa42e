package render

import (
	"image"

	"gioui.org/op"
	"gioui.org/op/clip"
	"gioui.org/op/paint"
)

// This file packs rasterised labels into shared pages, so that the Gio painter draws them all
// from a few textures. Under Mesa's llvmpipe a draw from a texture other than the last one's
// costs about twice a draw from the same texture (measured on 120 labels of 90×14 px at
// 1600×1000: 82 µs a label from a texture each, 39 µs from one page, 25 µs for a colour fill),
// and the chrome around the chart draws a hundred labels or so in every frame.

// Pages are atlasPageW×atlasPageH; labels that do not fit in one get a texture of their own.
const (
	atlasPageW = 1024
	atlasPageH = 256
)

// atlasPage is one texture of labels, filled shelf by shelf from the top. Labels are written
// into its image in place: Gio copies an image into its texture while the window renders a frame
// (FrameEvent.Frame returns after that), never while the frame is laid out, and what a page
// already holds is never written again. A frame's draws share one ImageOp of the page, made by
// the first of them, which Gio uploads with every label the frame added; a label added in a later
// frame needs a new ImageOp (a new texture), as Gio takes an image as immutable.
type atlasPage struct {
	img     *image.RGBA
	op      paint.ImageOp
	opFrame uint32 // the painter's frame that made op
	hasOp   bool
	changed bool // labels were added since op was made
	shelves []atlasShelf
	bottom  int // the first row below every shelf
}

// atlasShelf is a row of the page whose labels share a height.
type atlasShelf struct {
	y, h, x int // top, height, first free column
}

// labelAtlas holds the current page; older, full pages live on as long as labels drawn from
// them do.
type labelAtlas struct {
	page *atlasPage
}

// atlasSlot is where one label lives: its page and its rectangle there.
type atlasSlot struct {
	page *atlasPage
	rect image.Rectangle
}

// add copies img into a page and returns where; ok is false when img is larger than a page.
func (a *labelAtlas) add(img *image.RGBA) (slot atlasSlot, ok bool) {
	size := img.Bounds().Size()
	if size.X > atlasPageW || size.Y > atlasPageH || size.X <= 0 || size.Y <= 0 {
		return atlasSlot{}, false
	}
	if a.page == nil {
		a.page = newAtlasPage()
	}
	at, ok := a.page.place(size)
	if !ok {
		a.page = newAtlasPage()
		at, _ = a.page.place(size)
	}
	p := a.page
	p.changed = true
	r := image.Rectangle{Min: at, Max: at.Add(size)}
	for y := range size.Y {
		src := img.Pix[img.PixOffset(img.Rect.Min.X, img.Rect.Min.Y+y):][:4*size.X]
		copy(p.img.Pix[p.img.PixOffset(r.Min.X, r.Min.Y+y):], src)
	}
	return atlasSlot{page: p, rect: r}, true
}

func newAtlasPage() *atlasPage {
	return &atlasPage{img: image.NewRGBA(image.Rect(0, 0, atlasPageW, atlasPageH))}
}

// shelfStep is what shelf heights are rounded up to: labels of one font differ in height by
// their ascenders and descenders, and share shelves all the same.
const shelfStep = 4

// place finds room for size on a shelf of about its height, or on a new shelf below the others.
func (p *atlasPage) place(size image.Point) (image.Point, bool) {
	h := (size.Y + shelfStep - 1) / shelfStep * shelfStep
	for i := range p.shelves {
		s := &p.shelves[i]
		if s.h == h && s.x+size.X <= atlasPageW {
			at := image.Pt(s.x, s.y)
			s.x += size.X
			return at, true
		}
	}
	if p.bottom+h > atlasPageH {
		return image.Point{}, false
	}
	p.shelves = append(p.shelves, atlasShelf{y: p.bottom, h: h, x: size.X})
	at := image.Pt(0, p.bottom)
	p.bottom += h
	return at, true
}

// draw paints the slot's label with its top-left corner at dst, in the painter's frame: the
// page, offset so that the label lands on dst, through a clip of the label's rectangle, which Gio
// turns into a scissor.
func (s atlasSlot) draw(ops *op.Ops, dst image.Point, frame uint32) {
	p := s.page
	if !p.hasOp || p.changed && p.opFrame != frame {
		p.op = paint.NewImageOp(p.img)
		// Drawn one to one: nearest filtering gives the same pixels, and spares mipmaps.
		p.op.Filter = paint.FilterNearest
		p.opFrame, p.hasOp = frame, true
	}
	if p.opFrame == frame {
		// Not uploaded yet: the upload at the end of the frame takes in what was added since.
		p.changed = false
	}
	area := clip.Rect(image.Rectangle{Min: dst, Max: dst.Add(s.rect.Size())}).Push(ops)
	off := op.Offset(dst.Sub(s.rect.Min)).Push(ops)
	p.op.Add(ops)
	paint.PaintOp{}.Add(ops)
	off.Pop()
	area.Pop()
}
