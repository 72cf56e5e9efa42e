//go:build windowtest

package wintest

import (
	"image"
	"image/color"
)

// colourStats counts pixels that are neither background-white nor near-grey inside r, and the number
// of distinct saturated colours among them (quantised to 4 bits per channel).
func colourStats(img image.Image, r image.Rectangle) (saturated int, distinct int) {
	seen := map[uint16]bool{}
	r = r.Intersect(img.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
			if !isSaturated(c) {
				continue
			}
			saturated++
			seen[uint16(c.R>>4)<<8|uint16(c.G>>4)<<4|uint16(c.B>>4)] = true
		}
	}
	return saturated, len(seen)
}

func isSaturated(c color.NRGBA) bool {
	hi := max(c.R, c.G, c.B)
	lo := min(c.R, c.G, c.B)
	return int(hi)-int(lo) > 40
}

// diffPixels counts pixels that differ between two screenshots inside r.
func diffPixels(a, b image.Image, r image.Rectangle) int {
	n := 0
	r = r.Intersect(a.Bounds()).Intersect(b.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if a.At(x, y) != b.At(x, y) {
				n++
			}
		}
	}
	return n
}
