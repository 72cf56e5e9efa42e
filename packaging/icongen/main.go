// Command icongen draws flamedesk's icon files from assets/icon.svg: the PNG sizes that the Linux
// desktop, the Windows resources and the Gio window use, and the macOS .icns. It understands only
// the SVG the icon needs (rectangles), so the output depends on nothing but this program and the
// source file. "make icons" runs it; its output is committed.
//
//	go run ./packaging/icongen -svg assets/icon.svg -png-dir assets/icons -icns packaging/macos/flamedesk.icns
package main

import (
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
)

// pngSizes are the square sizes written as PNG files: the hicolor theme's usual sizes, which also
// cover what Windows picks from (16 to 256).
var pngSizes = []int{16, 22, 24, 32, 48, 64, 128, 256, 512}

// icnsTypes maps each .icns element type to the pixel size of the PNG it holds. The @2x types
// repeat a size under another name; macOS picks by type, so both are written.
var icnsTypes = []struct {
	kind string
	size int
}{
	{"icp4", 16}, {"icp5", 32}, {"icp6", 64}, {"ic07", 128}, {"ic08", 256}, {"ic09", 512}, {"ic10", 1024},
	{"ic11", 32}, {"ic12", 64}, {"ic13", 256}, {"ic14", 512},
}

func main() {
	svgPath := flag.String("svg", "assets/icon.svg", "the icon's SVG source")
	pngDir := flag.String("png-dir", "assets/icons", "folder for flamedesk-SIZE.png files (empty: none)")
	icnsPath := flag.String("icns", "", "path of the macOS .icns to write (empty: none)")
	flag.Parse()
	if err := run(*svgPath, *pngDir, *icnsPath); err != nil {
		fmt.Fprintln(os.Stderr, "icongen:", err)
		os.Exit(1)
	}
}

func run(svgPath, pngDir, icnsPath string) error {
	f, err := os.Open(svgPath)
	if err != nil {
		return err
	}
	d, err := parseSVG(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", svgPath, err)
	}
	if pngDir != "" {
		if err := os.MkdirAll(pngDir, 0o755); err != nil {
			return err
		}
		for _, size := range pngSizes {
			data, err := encodePNG(d, size)
			if err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(pngDir, pngName(size)), data, 0o644); err != nil {
				return err
			}
		}
	}
	if icnsPath != "" {
		data, err := icns(d)
		if err != nil {
			return err
		}
		if err := os.WriteFile(icnsPath, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func pngName(size int) string { return fmt.Sprintf("flamedesk-%d.png", size) }

func encodePNG(d *drawing, size int) ([]byte, error) {
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&buf, d.render(size)); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// icns builds an Apple icon file: the magic "icns" and the total length, then elements of a
// four-letter type, their length (header included) and a PNG, all lengths big-endian.
func icns(d *drawing) ([]byte, error) {
	var body bytes.Buffer
	rendered := map[int][]byte{}
	for _, t := range icnsTypes {
		data, ok := rendered[t.size]
		if !ok {
			var err error
			if data, err = encodePNG(d, t.size); err != nil {
				return nil, err
			}
			rendered[t.size] = data
		}
		body.WriteString(t.kind)
		binary.Write(&body, binary.BigEndian, uint32(8+len(data)))
		body.Write(data)
	}
	var out bytes.Buffer
	out.WriteString("icns")
	binary.Write(&out, binary.BigEndian, uint32(8+body.Len()))
	out.Write(body.Bytes())
	return out.Bytes(), nil
}
