package app

import (
	"image"
	"image/color"

	"gioui.org/f32"
	"gioui.org/layout"
	"gioui.org/op/clip"
	"gioui.org/op/paint"

	"flamedesk/core"
)

// This first painter draws each thread's tree as nested bars, one clip path per colour, until
// render/'s draw lists take over.

const (
	rowHeight    = 16
	headerHeight = 20
)

var barPalette = []color.NRGBA{
	{R: 0xf2, G: 0xc9, B: 0x4c, A: 0xff}, {R: 0x9c, G: 0x7c, B: 0xd8, A: 0xff},
	{R: 0x71, G: 0xb8, B: 0x6a, A: 0xff}, {R: 0x6a, G: 0x9f, B: 0xe0, A: 0xff},
	{R: 0xe0, G: 0x8a, B: 0x6a, A: 0xff}, {R: 0x5c, G: 0xc0, B: 0xc0, A: 0xff},
}

func (u *ui) drawTracks(gtx layout.Context, size image.Point) {
	tr := u.doc.trace
	span := u.view.end - u.view.start
	pxPerUs := float64(size.X) / span
	paths := make([]clip.Path, len(barPalette))
	for i := range paths {
		paths[i].Begin(gtx.Ops)
	}
	type label struct {
		at   image.Point
		text string
	}
	var labels []label
	y := -int(u.view.scrollY)
	for ti := range tr.Tracks {
		t := &tr.Tracks[ti]
		if y > size.Y {
			break
		}
		paint.FillShape(gtx.Ops, colHeader, clip.Rect(image.Rect(0, y, size.X, y+headerHeight)).Op())
		labels = append(labels, label{image.Pt(6, y+2), tr.ThreadLabel(t.Thread) + " — " + tr.Strings.Get(tr.Threads[t.Thread].ProcessName)})
		y += headerHeight
		lastX := make([]float64, t.MaxDepth+1)
		for i := range lastX {
			lastX[i] = -1
		}
		for i := 0; i < t.Len(); i++ {
			x0 := (t.Start[i] - u.view.start) * pxPerUs
			x1 := x0 + t.Dur[i]*pxPerUs
			if x1 < 0 || x0 > float64(size.X) {
				continue
			}
			d := int(t.Depth[i])
			if x1 <= lastX[d]+1 {
				continue // falls into a pixel already drawn at this depth
			}
			x0 = max(x0, lastX[d]+1, 0)
			x1 = min(max(x1, x0+1), float64(size.X))
			lastX[d] = x1
			by := float32(y + d*rowHeight)
			if int(by) > size.Y {
				continue
			}
			c := int(t.Name[i]) % len(barPalette)
			p := &paths[c]
			p.MoveTo(f32.Pt(float32(x0), by))
			p.LineTo(f32.Pt(float32(x1)-0.5, by))
			p.LineTo(f32.Pt(float32(x1)-0.5, by+rowHeight-1))
			p.LineTo(f32.Pt(float32(x0), by+rowHeight-1))
			p.Close()
			if x1-x0 > 60 && len(labels) < 400 {
				labels = append(labels, label{image.Pt(int(x0)+3, int(by)+1), entryName(tr, t, i)})
			}
		}
		y += (t.MaxDepth + 1) * rowHeight
	}
	for i := range paths {
		paint.FillShape(gtx.Ops, barPalette[i], clip.Outline{Path: paths[i].End()}.Op())
	}
	for _, l := range labels {
		u.label(gtx, l.at, l.text, colText, 10)
	}
}

func entryName(tr *core.Trace, t *core.Track, i int) string {
	if n := tr.Strings.Get(t.Name[i]); n != "" {
		return n
	}
	if t.Kind[i] == core.EntryProfileCall {
		return "(anonymous)"
	}
	return "?"
}
