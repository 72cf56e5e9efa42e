package app

import (
	"image/color"

	"gioui.org/widget/material"

	"flamedesk/render"
)

// chrome is the colours of everything around the chart; render.Theme colours the chart itself.
type chrome struct {
	bg, panel, button, border, text, muted, accent, warn, errText color.NRGBA
	chart                                                         *render.Theme
}

func lightChrome() chrome {
	return chrome{
		bg: rgb(0xf3f3f3), panel: rgb(0xffffff), button: rgb(0xe3e3e3), border: rgb(0xcccccc),
		text: rgb(0x202124), muted: rgb(0x5f6368), accent: rgb(0x1a73e8), warn: rgb(0xb06000),
		errText: rgb(0xc5221f), chart: render.Light(),
	}
}

func darkChrome() chrome {
	return chrome{
		bg: rgb(0x202124), panel: rgb(0x292a2d), button: rgb(0x3c4043), border: rgb(0x494c50),
		text: rgb(0xe8eaed), muted: rgb(0x9aa0a6), accent: rgb(0x8ab4f8), warn: rgb(0xfdd663),
		errText: rgb(0xf28b82), chart: render.Dark(),
	}
}

func rgb(v uint32) color.NRGBA {
	return color.NRGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 0xff}
}

// applyTheme switches chrome, chart and material widgets to the theme in the settings.
func (u *ui) applyTheme() {
	if u.settings.Dark {
		u.colors = darkChrome()
	} else {
		u.colors = lightChrome()
	}
	u.th.Palette = materialPalette(u.colors)
	u.chart.invalidate()
}

func materialPalette(c chrome) (p material.Palette) {
	p.Bg, p.Fg, p.ContrastBg, p.ContrastFg = c.panel, c.text, c.accent, c.panel
	return p
}
