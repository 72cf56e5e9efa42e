package wmicon

import (
	"bytes"
	"image/png"
	"testing"

	"flamedesk/assets"
)

func TestNetWMIconOfTheAppIcon(t *testing.T) {
	data, err := netWMIcon(assets.WindowIconPNGs)
	if err != nil {
		t.Fatal(err)
	}
	// Walk the property the way a window manager does: width, height, pixels, repeated.
	var sizes []uint32
	rest := data
	for i, p := range assets.WindowIconPNGs {
		img, err := png.Decode(bytes.NewReader(p))
		if err != nil {
			t.Fatal(err)
		}
		if len(rest) < 2 {
			t.Fatalf("property ends before image %d", i)
		}
		w, h := rest[0], rest[1]
		sizes = append(sizes, w)
		if int(w) != img.Bounds().Dx() || int(h) != img.Bounds().Dy() || len(rest) < 2+int(w*h) {
			t.Fatalf("image %d: header %dx%d, want %v", i, w, h, img.Bounds().Size())
		}
		pixels := rest[2 : 2+w*h]
		// Compare every pixel with the decoded PNG, converted to straight alpha.
		for y := 0; y < int(h); y++ {
			for x := 0; x < int(w); x++ {
				r, g, b, a := img.At(x, y).RGBA()
				got := pixels[y*int(w)+x]
				if a == 0 {
					if got>>24 != 0 {
						t.Fatalf("image %d (%d,%d): %08x, want transparent", i, x, y, got)
					}
					continue
				}
				want := (a>>8)<<24 | (r*0xffff/a>>8)<<16 | (g*0xffff/a>>8)<<8 | (b * 0xffff / a >> 8)
				if diff(got, want) > 1 {
					t.Fatalf("image %d (%d,%d): %08x, want %08x", i, x, y, got, want)
				}
			}
		}
		rest = rest[2+w*h:]
	}
	if len(rest) != 0 {
		t.Errorf("%d values after the last image", len(rest))
	}
	if len(sizes) != 6 || sizes[0] != 16 || sizes[5] != 256 {
		t.Errorf("sizes %v, want 16 to 256", sizes)
	}
}

// diff is the largest difference between two ARGB values' channels.
func diff(a, b uint32) uint32 {
	var m uint32
	for shift := 0; shift < 32; shift += 8 {
		x, y := a>>shift&0xff, b>>shift&0xff
		if x > y {
			x, y = y, x
		}
		m = max(m, y-x)
	}
	return m
}

func TestNetWMIconRejectsBadInput(t *testing.T) {
	if _, err := netWMIcon(nil); err == nil {
		t.Errorf("no images accepted")
	}
	if _, err := netWMIcon([][]byte{assets.IconPNG[:100]}); err == nil {
		t.Errorf("a truncated PNG accepted")
	}
}
