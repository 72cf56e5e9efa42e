package assets

import (
	"embed"
	"strconv"
)

// The icon, drawn from icon.svg by "make icons" (packaging/icongen).
//
//go:embed icons/flamedesk-16.png icons/flamedesk-32.png icons/flamedesk-48.png icons/flamedesk-64.png icons/flamedesk-128.png icons/flamedesk-256.png
var iconFiles embed.FS

// IconPNG is the application icon as a 256×256 PNG.
var IconPNG = embeddedIcon(256)

// WindowIconPNGs are the sizes a window manager picks from for a window's icon, 16 to 256 px,
// smallest first, as PNG files.
var WindowIconPNGs = [][]byte{embeddedIcon(16), embeddedIcon(32), embeddedIcon(48), embeddedIcon(64), embeddedIcon(128), IconPNG}

func embeddedIcon(size int) []byte {
	data, err := iconFiles.ReadFile("icons/flamedesk-" + strconv.Itoa(size) + ".png")
	if err != nil {
		panic("assets: the " + strconv.Itoa(size) + " px icon is not embedded: " + err.Error())
	}
	return data
}
