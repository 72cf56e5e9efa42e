package main

import (
	"encoding/xml"
	"errors"
	"fmt"
	"image"
	"image/color"
	"io"
	"strconv"
	"strings"

	"golang.org/x/image/vector"
)

// drawing is the part of SVG the icon uses: a view box and filled, optionally rounded, rectangles
// drawn in order. Anything else in the file is refused, so that the source can never show
// something the PNGs leave out.
type drawing struct {
	viewBox [4]float32 // min x, min y, width, height
	rects   []rect
}

type rect struct {
	x, y, w, h, rx float32
	fill           color.NRGBA
}

// parseSVG reads the SVG subset: one <svg> with a viewBox, holding <rect> elements with x, y,
// width, height, optional rx (ry must equal it when given) and a #rrggbb or #rgb fill.
func parseSVG(r io.Reader) (*drawing, error) {
	dec := xml.NewDecoder(r)
	var d *drawing
	depth := 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			switch {
			case depth == 1 && t.Name.Local == "svg":
				vb, err := parseViewBox(attr(t, "viewBox"))
				if err != nil {
					return nil, err
				}
				d = &drawing{viewBox: vb}
			case depth == 2 && t.Name.Local == "rect":
				rc, err := parseRect(t)
				if err != nil {
					return nil, err
				}
				d.rects = append(d.rects, rc)
			default:
				return nil, fmt.Errorf("line %d: <%s> is not supported here (only <rect> inside <svg>)", lineOf(dec), t.Name.Local)
			}
		case xml.EndElement:
			depth--
		}
	}
	if d == nil {
		return nil, errors.New("no <svg> element")
	}
	if len(d.rects) == 0 {
		return nil, errors.New("the drawing is empty")
	}
	return d, nil
}

func lineOf(dec *xml.Decoder) int {
	line, _ := dec.InputPos()
	return line
}

func attr(e xml.StartElement, name string) string {
	for _, a := range e.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

func parseViewBox(s string) ([4]float32, error) {
	var vb [4]float32
	fields := strings.Fields(strings.ReplaceAll(s, ",", " "))
	if len(fields) != 4 {
		return vb, fmt.Errorf("viewBox %q: want four numbers", s)
	}
	for i, f := range fields {
		v, err := strconv.ParseFloat(f, 32)
		if err != nil {
			return vb, fmt.Errorf("viewBox %q: %w", s, err)
		}
		vb[i] = float32(v)
	}
	if vb[2] <= 0 || vb[3] <= 0 {
		return vb, fmt.Errorf("viewBox %q: width and height must be positive", s)
	}
	return vb, nil
}

func parseRect(e xml.StartElement) (rect, error) {
	known := map[string]bool{"x": true, "y": true, "width": true, "height": true, "rx": true, "ry": true, "fill": true}
	for _, a := range e.Attr {
		if !known[a.Name.Local] {
			return rect{}, fmt.Errorf("<rect> attribute %q is not supported", a.Name.Local)
		}
	}
	var rc rect
	for _, f := range []struct {
		name     string
		dst      *float32
		optional bool
	}{{"x", &rc.x, true}, {"y", &rc.y, true}, {"width", &rc.w, false}, {"height", &rc.h, false}, {"rx", &rc.rx, true}} {
		s := attr(e, f.name)
		if s == "" && f.optional {
			continue
		}
		v, err := strconv.ParseFloat(s, 32)
		if err != nil {
			return rect{}, fmt.Errorf("<rect %s=%q>: %w", f.name, s, err)
		}
		*f.dst = float32(v)
	}
	if ry := attr(e, "ry"); ry != "" && ry != attr(e, "rx") {
		return rect{}, errors.New("<rect> with ry different from rx is not supported")
	}
	if rc.w <= 0 || rc.h <= 0 || rc.rx < 0 {
		return rect{}, fmt.Errorf("<rect> needs a positive size and a non-negative rx")
	}
	rc.rx = min(rc.rx, rc.w/2, rc.h/2)
	fill, err := parseColor(attr(e, "fill"))
	if err != nil {
		return rect{}, err
	}
	rc.fill = fill
	return rc, nil
}

func parseColor(s string) (color.NRGBA, error) {
	hex := strings.TrimPrefix(s, "#")
	if len(hex) == 3 {
		hex = string([]byte{hex[0], hex[0], hex[1], hex[1], hex[2], hex[2]})
	}
	if !strings.HasPrefix(s, "#") || len(hex) != 6 {
		return color.NRGBA{}, fmt.Errorf("fill %q: want #rrggbb or #rgb", s)
	}
	v, err := strconv.ParseUint(hex, 16, 32)
	if err != nil {
		return color.NRGBA{}, fmt.Errorf("fill %q: %w", s, err)
	}
	return color.NRGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 0xff}, nil
}

// kappa places the control points of a cubic Bézier that approximates a quarter circle.
const kappa = 0.5522847498

// render draws the drawing into a size×size image, scaling the view box to fit.
func (d *drawing) render(size int) *image.NRGBA {
	dst := image.NewNRGBA(image.Rect(0, 0, size, size))
	sx := float32(size) / d.viewBox[2]
	sy := float32(size) / d.viewBox[3]
	z := vector.NewRasterizer(size, size)
	for _, r := range d.rects {
		z.Reset(size, size)
		x0, y0 := (r.x-d.viewBox[0])*sx, (r.y-d.viewBox[1])*sy
		x1, y1 := x0+r.w*sx, y0+r.h*sy
		rx, ry := r.rx*sx, r.rx*sy
		kx, ky := rx*kappa, ry*kappa
		z.MoveTo(x0+rx, y0)
		z.LineTo(x1-rx, y0)
		z.CubeTo(x1-rx+kx, y0, x1, y0+ry-ky, x1, y0+ry)
		z.LineTo(x1, y1-ry)
		z.CubeTo(x1, y1-ry+ky, x1-rx+kx, y1, x1-rx, y1)
		z.LineTo(x0+rx, y1)
		z.CubeTo(x0+rx-kx, y1, x0, y1-ry+ky, x0, y1-ry)
		z.LineTo(x0, y0+ry)
		z.CubeTo(x0, y0+ry-ky, x0+rx-kx, y0, x0+rx, y0)
		z.ClosePath()
		z.Draw(dst, dst.Bounds(), image.NewUniform(r.fill), image.Point{})
	}
	return dst
}
