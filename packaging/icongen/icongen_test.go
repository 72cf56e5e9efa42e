package main

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// repoFile finds a file of the repository from this package's folder.
func repoFile(elems ...string) string {
	return filepath.Join(append([]string{"..", ".."}, elems...)...)
}

func loadIcon(t *testing.T) *drawing {
	t.Helper()
	f, err := os.Open(repoFile("assets", "icon.svg"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d, err := parseSVG(f)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// The committed PNGs must be what the SVG gives today: a changed SVG without "make icons" fails.
func TestCommittedPNGsMatchTheSVG(t *testing.T) {
	d := loadIcon(t)
	for _, size := range pngSizes {
		f, err := os.Open(repoFile("assets", "icons", pngName(size)))
		if err != nil {
			t.Fatalf("%v (run make icons)", err)
		}
		committed, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		fresh := d.render(size)
		if committed.Bounds() != fresh.Bounds() {
			t.Fatalf("%s is %v, want %v", pngName(size), committed.Bounds(), fresh.Bounds())
		}
		for y := 0; y < size; y++ {
			for x := 0; x < size; x++ {
				if a, b := nrgba(committed, x, y), fresh.NRGBAAt(x, y); a != b {
					t.Fatalf("%s differs from assets/icon.svg at (%d,%d): %v, want %v (run make icons)", pngName(size), x, y, a, b)
				}
			}
		}
	}
}

func nrgba(img image.Image, x, y int) any {
	if n, ok := img.(*image.NRGBA); ok {
		return n.NRGBAAt(x, y)
	}
	return image.NewNRGBA(image.Rect(0, 0, 1, 1)).ColorModel().Convert(img.At(x, y))
}

// The drawing is what the SVG says: transparent corners, the background colour inside, the flame
// colours where the bars are.
func TestRenderFollowsTheSource(t *testing.T) {
	img := loadIcon(t).render(256)
	checks := []struct {
		x, y int
		want string
	}{
		{0, 0, "transparent"}, {10, 10, "transparent"}, // outside the rounded corner
		{128, 12, "#1e2230"}, // background, above the flame
		{128, 205, "#d9432b"}, {100, 170, "#e8612c"}, {72, 30, "#fde88a"},
	}
	for _, c := range checks {
		got := img.NRGBAAt(c.x, c.y)
		if c.want == "transparent" {
			if got.A != 0 {
				t.Errorf("(%d,%d) = %v, want transparent", c.x, c.y, got)
			}
			continue
		}
		want, _ := parseColor(c.want)
		if got != want {
			t.Errorf("(%d,%d) = %v, want %v", c.x, c.y, got, want)
		}
	}
}

func TestCommittedICNS(t *testing.T) {
	data, err := os.ReadFile(repoFile("packaging", "macos", "flamedesk.icns"))
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := icns(loadIcon(t))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, fresh) {
		t.Errorf("packaging/macos/flamedesk.icns is stale (run make icons)")
	}
	if string(data[:4]) != "icns" || binary.BigEndian.Uint32(data[4:8]) != uint32(len(data)) {
		t.Fatalf("bad icns header %q", data[:8])
	}
	seen := map[string]int{}
	for rest := data[8:]; len(rest) > 0; {
		if len(rest) < 8 {
			t.Fatalf("truncated element")
		}
		kind, n := string(rest[:4]), int(binary.BigEndian.Uint32(rest[4:8]))
		if n < 8 || n > len(rest) {
			t.Fatalf("element %s has length %d of %d left", kind, n, len(rest))
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(rest[8:n]))
		if err != nil {
			t.Fatalf("element %s: %v", kind, err)
		}
		seen[kind] = cfg.Width
		if cfg.Width != cfg.Height {
			t.Errorf("element %s is %dx%d", kind, cfg.Width, cfg.Height)
		}
		rest = rest[n:]
	}
	for _, want := range icnsTypes {
		if seen[want.kind] != want.size {
			t.Errorf("element %s: %d px, want %d", want.kind, seen[want.kind], want.size)
		}
	}
}

func TestParseSVGRefusesWhatItCannotDraw(t *testing.T) {
	for name, src := range map[string]string{
		"circle":      `<svg viewBox="0 0 10 10"><circle r="3"/></svg>`,
		"group":       `<svg viewBox="0 0 10 10"><g><rect width="1" height="1" fill="#fff"/></g></svg>`,
		"no viewBox":  `<svg><rect width="1" height="1" fill="#fff"/></svg>`,
		"named fill":  `<svg viewBox="0 0 10 10"><rect width="1" height="1" fill="red"/></svg>`,
		"opacity":     `<svg viewBox="0 0 10 10"><rect width="1" height="1" fill="#fff" opacity="0.5"/></svg>`,
		"elliptic":    `<svg viewBox="0 0 10 10"><rect width="4" height="4" rx="1" ry="2" fill="#fff"/></svg>`,
		"no size":     `<svg viewBox="0 0 10 10"><rect fill="#fff"/></svg>`,
		"empty":       `<svg viewBox="0 0 10 10"></svg>`,
		"not svg":     `<html/>`,
		"broken XML":  `<svg viewBox="0 0 10 10"><rect`,
		"bad numbers": `<svg viewBox="0 0 10 10"><rect width="a" height="1" fill="#fff"/></svg>`,
	} {
		if _, err := parseSVG(strings.NewReader(src)); err == nil {
			t.Errorf("%s: parseSVG accepted %s", name, src)
		}
	}
	d, err := parseSVG(strings.NewReader(`<svg viewBox="0,0,4,4"><rect width="4" height="2" rx="9" ry="9" fill="#0f0"/></svg>`))
	if err != nil {
		t.Fatal(err)
	}
	if r := d.rects[0]; r.rx != 1 || r.fill.G != 0xff || r.fill.R != 0 {
		t.Errorf("rect = %+v; rx should be clamped to half the height and #0f0 be green", r)
	}
}
