// Package wmicon gives flamedesk's window its icon where Gio has no option for it. On Windows Gio
// already takes the icon from the executable's resources (see packaging/windows), and on macOS the
// app bundle's .icns is used, so only X11 needs help: the icon goes into the window's
// _NET_WM_ICON property, which window managers and task bars read.
package wmicon

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/png"
)

// netWMIcon encodes PNG images as the _NET_WM_ICON property wants them: for each image its width
// and height, then its pixels row by row as non-premultiplied 0xAARRGGBB values.
func netWMIcon(pngs [][]byte) ([]uint32, error) {
	if len(pngs) == 0 {
		return nil, errors.New("wmicon: no icon images")
	}
	var data []uint32
	for i, p := range pngs {
		img, err := png.Decode(bytes.NewReader(p))
		if err != nil {
			return nil, fmt.Errorf("wmicon: image %d: %w", i, err)
		}
		b := img.Bounds()
		data = append(data, uint32(b.Dx()), uint32(b.Dy()))
		nrgba, ok := img.(*image.NRGBA)
		if !ok {
			nrgba = image.NewNRGBA(b)
			for y := b.Min.Y; y < b.Max.Y; y++ {
				for x := b.Min.X; x < b.Max.X; x++ {
					nrgba.Set(x, y, img.At(x, y))
				}
			}
		}
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				c := nrgba.NRGBAAt(x, y)
				data = append(data, uint32(c.A)<<24|uint32(c.R)<<16|uint32(c.G)<<8|uint32(c.B))
			}
		}
	}
	return data, nil
}
