// Package render turns the timeline's model and viewport into pixels: colours and themes, label
// fitting with measured text, the per-frame draw list, and two painters that draw the same list —
// the Gio painter the window uses (gio.go, the only file here that imports Gio) and an image
// painter on golang.org/x/image for PNGs without a window.
//
// # A frame
//
//	b := render.NewBuilder(model)            // once per trace: caches colours and text widths
//	var list render.DrawList                 // reused across frames: no allocation per frame
//	b.Build(&list, vp, &render.Frame{Width: w, Height: h, Theme: render.Light()})
//	painter.Paint(gtx.Ops, &list)            // or render.PaintImage(img, &list)
//
// The draw list is plain data in pixels: rectangles batched by colour (one batch per colour, so
// the Gio painter makes one path per colour), hatch rectangles for merged spans, triangles, and
// text runs that have already been fitted to their bars. Tests assert on it directly.
//
// # Text
//
// Labels are measured here, without Gio, with the Go fonts through golang.org/x/image's opentype
// package; the widths are cached per string. Both painters draw the same Go fonts at the same
// pixel size, so a label that fits here fits on screen and in a PNG.
package render
