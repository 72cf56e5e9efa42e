package render

import (
	"image/color"
	"math"
)

// Theme is the colours of the chart. Light and Dark return the two built-in ones; a Theme is a
// plain value, so the window can derive its own.
type Theme struct {
	Name string

	Background      color.NRGBA // behind everything
	Grid            color.NRGBA // vertical lines at the ruler's ticks
	RulerBackground color.NRGBA
	RulerText       color.NRGBA
	RulerTick       color.NRGBA
	GroupHeader     color.NRGBA // a process's header row
	GroupText       color.NRGBA
	TrackHeader     color.NRGBA // a thread's header row
	TrackText       color.NRGBA
	Separator       color.NRGBA // the line under each header row
	HeaderHover     color.NRGBA // a header row under the pointer

	Selection   color.NRGBA // outline of the selected entry
	Hover       color.NRGBA // wash over the span under the pointer
	SearchMatch color.NRGBA // outline of spans matching the search
	RangeFill   color.NRGBA // wash over a selected time range
	Hatch       color.NRGBA // stripes over merged spans

	// TextDark and TextLight are the label colours; each bar takes whichever contrasts more.
	TextDark, TextLight color.NRGBA

	// Categories colours trace events (and V8's pseudo-frames) by Category.
	Categories [numCategories]color.NRGBA
	// NoURL colours ProfileCalls whose frame has no script URL.
	NoURL color.NRGBA
	// URLLightness is the HSL lightness (0–1) of the colours generated from script URLs; hue
	// and saturation come from the URL's hash and are the same in both themes.
	URLLightness float64
	// Dim is how far (0–1) bars that do not match an active search fade into the background.
	Dim float64
}

// Light is the default theme, close to DevTools' light theme.
func Light() *Theme {
	return &Theme{
		Name:            "light",
		Background:      rgb(0xffffff),
		Grid:            rgba(0x000000, 0x14),
		RulerBackground: rgb(0xf3f3f3),
		RulerText:       rgb(0x333333),
		RulerTick:       rgb(0xb0b0b0),
		GroupHeader:     rgb(0xe8eaed),
		GroupText:       rgb(0x1f1f1f),
		TrackHeader:     rgb(0xf6f7f9),
		TrackText:       rgb(0x303030),
		Separator:       rgb(0xd0d0d0),
		HeaderHover:     rgba(0x1a73e8, 0x1c),
		Selection:       rgb(0x1a73e8),
		Hover:           rgba(0xffffff, 0x66),
		SearchMatch:     rgb(0xe8710a),
		RangeFill:       rgba(0x1a73e8, 0x22),
		Hatch:           rgba(0x000000, 0x38),
		TextDark:        rgb(0x1f1f1f),
		TextLight:       rgb(0xffffff),
		Categories: [numCategories]color.NRGBA{
			CatSystem:    rgb(0xdadce0),
			CatScripting: rgb(0xf2c94c),
			CatRendering: rgb(0xaf9ce9),
			CatPainting:  rgb(0x81c784),
			CatLoading:   rgb(0x7baaf7),
			CatGC:        rgb(0xb0b3b8),
			CatIdle:      rgb(0xf1f3f4),
		},
		NoURL:        rgb(0xf2ecdc),
		URLLightness: 0.80,
		Dim:          0.75,
	}
}

// Dark is the dark theme: the same hues, darker bars and light text.
func Dark() *Theme {
	return &Theme{
		Name:            "dark",
		Background:      rgb(0x1e1f22),
		Grid:            rgba(0xffffff, 0x14),
		RulerBackground: rgb(0x2a2b2f),
		RulerText:       rgb(0xd0d0d0),
		RulerTick:       rgb(0x5f6368),
		GroupHeader:     rgb(0x35363a),
		GroupText:       rgb(0xe8eaed),
		TrackHeader:     rgb(0x292a2d),
		TrackText:       rgb(0xc8c8c8),
		Separator:       rgb(0x4a4b4f),
		HeaderHover:     rgba(0x8ab4f8, 0x22),
		Selection:       rgb(0x8ab4f8),
		Hover:           rgba(0xffffff, 0x40),
		SearchMatch:     rgb(0xfbbc04),
		RangeFill:       rgba(0x8ab4f8, 0x26),
		Hatch:           rgba(0x000000, 0x50),
		TextDark:        rgb(0x1f1f1f),
		TextLight:       rgb(0xf1f1f1),
		Categories: [numCategories]color.NRGBA{
			CatSystem:    rgb(0x5f6368),
			CatScripting: rgb(0xb48a1c),
			CatRendering: rgb(0x7058c2),
			CatPainting:  rgb(0x3e8e41),
			CatLoading:   rgb(0x3a6fc7),
			CatGC:        rgb(0x80868b),
			CatIdle:      rgb(0x2f3033),
		},
		NoURL:        rgb(0x54504a),
		URLLightness: 0.36,
		Dim:          0.7,
	}
}

// ThemeByName returns Light for "light" and Dark for "dark"; nil for anything else.
func ThemeByName(name string) *Theme {
	switch name {
	case "light":
		return Light()
	case "dark":
		return Dark()
	}
	return nil
}

func rgb(v uint32) color.NRGBA { return rgba(v, 0xff) }

func rgba(v uint32, a uint8) color.NRGBA {
	return color.NRGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: a}
}

// URLHue picks the hue (degrees, 30–329) and saturation (0.5, 0.65 or 0.8) of a script URL's
// colour from a hash of the URL, the way DevTools spreads scripts over the colour wheel while
// leaving out the reds it keeps for warnings. The hash is FNV-1a, so the same URL gets the same
// colour in every file and every run.
func URLHue(url string) (hue, sat float64) {
	h := uint32(2166136261)
	for i := 0; i < len(url); i++ {
		h ^= uint32(url[i])
		h *= 16777619
	}
	hue = 30 + float64(h%300)
	sat = [3]float64{0.5, 0.65, 0.8}[(h>>16)%3]
	return hue, sat
}

// URLColor is the colour of ProfileCalls from script url in theme t; NoURL for "".
func (t *Theme) URLColor(url string) color.NRGBA {
	if url == "" {
		return t.NoURL
	}
	h, s := URLHue(url)
	return hsl(h, s, t.URLLightness)
}

// hsl converts hue (degrees), saturation and lightness (0–1) to an opaque colour.
func hsl(h, s, l float64) color.NRGBA {
	c := (1 - math.Abs(2*l-1)) * s
	hp := math.Mod(h, 360) / 60
	x := c * (1 - math.Abs(math.Mod(hp, 2)-1))
	var r, g, b float64
	switch {
	case hp < 1:
		r, g, b = c, x, 0
	case hp < 2:
		r, g, b = x, c, 0
	case hp < 3:
		r, g, b = 0, c, x
	case hp < 4:
		r, g, b = 0, x, c
	case hp < 5:
		r, g, b = x, 0, c
	default:
		r, g, b = c, 0, x
	}
	m := l - c/2
	to8 := func(v float64) uint8 { return uint8(math.Round(min(max(v+m, 0), 1) * 255)) }
	return color.NRGBA{R: to8(r), G: to8(g), B: to8(b), A: 0xff}
}

// relativeLuminance is WCAG 2's luminance of an opaque colour.
func relativeLuminance(c color.NRGBA) float64 {
	lin := func(v uint8) float64 {
		f := float64(v) / 255
		if f <= 0.04045 {
			return f / 12.92
		}
		return math.Pow((f+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.R) + 0.7152*lin(c.G) + 0.0722*lin(c.B)
}

// ContrastRatio is WCAG 2's contrast ratio between two opaque colours, from 1 to 21.
func ContrastRatio(a, b color.NRGBA) float64 {
	la, lb := relativeLuminance(a), relativeLuminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// MinContrast is the contrast every label keeps on its bar: WCAG AA for small text.
const MinContrast = 4.5

// TextOn is the label colour for a bar of colour bg: the theme's dark or light text, whichever
// contrasts more; and when neither reaches MinContrast (mid-tones), black or white, one of which
// always does.
func (t *Theme) TextOn(bg color.NRGBA) color.NRGBA {
	pick := func(dark, light color.NRGBA) (color.NRGBA, float64) {
		cd, cl := ContrastRatio(dark, bg), ContrastRatio(light, bg)
		if cd >= cl {
			return dark, cd
		}
		return light, cl
	}
	if c, r := pick(t.TextDark, t.TextLight); r >= MinContrast {
		return c
	}
	c, _ := pick(color.NRGBA{A: 0xff}, color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff})
	return c
}

// mix blends a towards b by f (0 keeps a), for opaque colours.
func mix(a, b color.NRGBA, f float64) color.NRGBA {
	l := func(x, y uint8) uint8 { return uint8(math.Round(float64(x)*(1-f) + float64(y)*f)) }
	return color.NRGBA{R: l(a.R, b.R), G: l(a.G, b.G), B: l(a.B, b.B), A: 0xff}
}
