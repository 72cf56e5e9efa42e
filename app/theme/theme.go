// Package theme is how the window's chrome looks: its colours, text, buttons and lists. Widget
// state (clickables, lists, editors) stays with the components that own it, as Gio splits
// widget/ from widget/material; the components draw through a Theme and never pick a colour or a
// font of their own.
package theme

import (
	"image"
	"image/color"
	"math"
	"strings"

	"gioui.org/io/pointer"
	"gioui.org/layout"
	"gioui.org/op"
	"gioui.org/op/clip"
	"gioui.org/op/paint"
	"gioui.org/text"
	"gioui.org/unit"
	"gioui.org/widget"
	"gioui.org/widget/material"

	"flamedesk/render"
)

// Colors are the colours of everything around the chart; Chart colours the chart itself.
type Colors struct {
	Bg, Panel, Control, Border, Text, Muted, Accent, Warn, Error color.NRGBA
	// Banner is the background of a message over the window (a failed open).
	Banner color.NRGBA
	Chart  *render.Theme
}

// Light is the default palette.
func Light() Colors {
	return Colors{
		Bg: RGB(0xf3f3f3), Panel: RGB(0xffffff), Control: RGB(0xe3e3e3), Border: RGB(0xcccccc),
		Text: RGB(0x202124), Muted: RGB(0x5f6368), Accent: RGB(0x1a73e8), Warn: RGB(0xb06000),
		Error: RGB(0xc5221f), Banner: RGB(0xfce8e6), Chart: render.Light(),
	}
}

// Dark is the palette for dark desktops.
func Dark() Colors {
	return Colors{
		Bg: RGB(0x202124), Panel: RGB(0x292a2d), Control: RGB(0x3c4043), Border: RGB(0x494c50),
		Text: RGB(0xe8eaed), Muted: RGB(0x9aa0a6), Accent: RGB(0x8ab4f8), Warn: RGB(0xfdd663),
		Error: RGB(0xf28b82), Banner: RGB(0x5c2b29), Chart: render.Dark(),
	}
}

// RGB is an opaque colour from 0xRRGGBB.
func RGB(v uint32) color.NRGBA {
	return color.NRGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 0xff}
}

// Mix blends a towards b by t in [0, 1].
func Mix(a, b color.NRGBA, t float64) color.NRGBA {
	l := func(x, y uint8) uint8 { return uint8(float64(x) + (float64(y)-float64(x))*t + 0.5) }
	return color.NRGBA{R: l(a.R, b.R), G: l(a.G, b.G), B: l(a.B, b.B), A: 0xff}
}

// Theme draws the chrome. The chrome's text is drawn from rasterised bitmaps, like the chart's
// labels: on software GL a shaped label is a path rasterised anew every frame, while a cached
// bitmap is one image draw. Labels are one line per line of text, cut with an ellipsis when they
// do not fit.
type Theme struct {
	Colors
	Dark     bool
	Material *material.Theme
	painter  render.GioPainter
	measure  *render.TextMeasurer
}

// New returns the light or dark theme.
func New(dark bool) *Theme {
	th := &Theme{Material: material.NewTheme()}
	th.Material.Shaper = text.NewShaper(text.NoSystemFonts(), text.WithCollection(render.GoFaces()))
	th.Material.TextSize = unit.Sp(13)
	th.SetDark(dark)
	return th
}

// SetDark switches palettes.
func (th *Theme) SetDark(dark bool) {
	th.Dark = dark
	th.Colors = Light()
	if dark {
		th.Colors = Dark()
	}
	p := &th.Material.Palette
	p.Bg, p.Fg, p.ContrastBg, p.ContrastFg = th.Panel, th.Colors.Text, th.Accent, th.Panel
}

// EndFrame lets the label cache drop what the frame did not draw.
func (th *Theme) EndFrame() { th.painter.EndFrame() }

// TextSize is the size of the chrome's text, labels and the search field's editor alike.
const TextSize = unit.Sp(12.5)

// font is the chrome's font at the window's scale.
func font(gtx layout.Context) render.Font { return render.Font{Size: float32(gtx.Sp(TextSize))} }

func (th *Theme) measurer() *render.TextMeasurer {
	if th.measure == nil {
		th.measure = render.NewTextMeasurer()
	}
	return th.measure
}

// Fit returns how many bytes of s fit in width px at the chrome's font, and whether an ellipsis
// must follow them.
func (th *Theme) Fit(gtx layout.Context, s string, width float32) (int, bool) {
	return th.measurer().Fit(font(gtx), s, width)
}

// TextWidth is the width of s at the chrome's font, in px.
func (th *Theme) TextWidth(gtx layout.Context, s string) int {
	return int(math.Ceil(float64(th.measurer().Width(font(gtx), s))))
}

// DrawText draws s (one label per line) in c from the top-left of the constraints.
func (th *Theme) DrawText(gtx layout.Context, s string, c color.NRGBA) layout.Dimensions {
	m := th.measurer()
	f := font(gtx)
	asc, desc := m.Metrics(f)
	lineH := int(math.Ceil(float64(asc+desc) * 1.3))
	pad := float32(lineH)/2 - (asc+desc)/2
	avail := float32(gtx.Constraints.Max.X)
	w, y := 0, 0
	for line := range strings.SplitSeq(s, "\n") {
		if y+lineH > gtx.Constraints.Max.Y && y > 0 {
			break
		}
		n, ellipsis := m.Fit(f, line, avail)
		shown := line[:n]
		if ellipsis {
			shown += render.Ellipsis
		}
		if shown != "" {
			th.painter.DrawText(gtx.Ops, f, c, 0, float32(y)+pad+asc, shown)
		}
		w = max(w, int(math.Ceil(float64(m.Width(f, shown)))))
		y += lineH
	}
	size := image.Pt(min(max(w, gtx.Constraints.Min.X), gtx.Constraints.Max.X), max(y, gtx.Constraints.Min.Y))
	return layout.Dimensions{Size: size, Baseline: size.Y - int(pad+asc)}
}

// Label draws one line of chrome text.
func (th *Theme) Label(gtx layout.Context, s string) layout.Dimensions {
	return th.DrawText(gtx, s, th.Colors.Text)
}

// MutedLabel draws secondary chrome text.
func (th *Theme) MutedLabel(gtx layout.Context, s string) layout.Dimensions {
	return th.DrawText(gtx, s, th.Muted)
}

// Button is the flat button used everywhere in the chrome: a rectangle and a label (no rounded
// corners, which would be paths).
func (th *Theme) Button(gtx layout.Context, c *widget.Clickable, s string) layout.Dimensions {
	return c.Layout(gtx, func(gtx layout.Context) layout.Dimensions {
		inset := layout.Inset{Top: unit.Dp(4), Bottom: unit.Dp(4), Left: unit.Dp(8), Right: unit.Dp(8)}
		gtx.Constraints.Min = image.Point{}
		return layout.Background{}.Layout(gtx,
			func(gtx layout.Context) layout.Dimensions {
				bg := th.Control
				if c.Hovered() {
					bg = Mix(bg, th.Colors.Text, 0.08)
				}
				paint.FillShape(gtx.Ops, bg, clip.Rect{Max: gtx.Constraints.Min}.Op())
				pointer.CursorPointer.Add(gtx.Ops)
				return layout.Dimensions{Size: gtx.Constraints.Min}
			},
			func(gtx layout.Context) layout.Dimensions {
				return inset.Layout(gtx, func(gtx layout.Context) layout.Dimensions { return th.Label(gtx, s) })
			})
	})
}

// List draws a scrolling list of n rows.
func (th *Theme) List(gtx layout.Context, l *widget.List, n int, row layout.ListElement) layout.Dimensions {
	style := material.List(th.Material, l)
	// A square indicator is a rectangle clip; a rounded one is a path, which software GL
	// rasterises anew in every frame.
	style.Indicator.CornerRadius = 0
	return style.Layout(gtx, n, row)
}

// Card draws w on a bordered panel at the top-left of the constraints, sized to what w takes.
func (th *Theme) Card(gtx layout.Context, w layout.Widget) layout.Dimensions {
	m := op.Record(gtx.Ops)
	g := gtx
	g.Constraints.Min = image.Point{}
	dims := w(g)
	call := m.Stop()
	th.Box(gtx.Ops, image.Rectangle{Max: dims.Size}, 1)
	call.Add(gtx.Ops)
	return dims
}

// Box fills r with the panel's colour and borders it with width px of the border's, inside r: the
// ground of a card, a tooltip or an overlay.
func (th *Theme) Box(ops *op.Ops, r image.Rectangle, width int) {
	paint.FillShape(ops, th.Panel, clip.Rect(r).Op())
	Outline(ops, r, width, th.Border)
}

// Outline draws a border of width px just inside r in c, as four rectangles. Under a software GL
// a stroked path (clip.Stroke) is rasterised anew in every frame that shows it, through a pass of
// its own, where a pixel-aligned rectangle is a scissor; and a 1 px stroke along a rectangle's
// edge falls half on each side, two half-covered rows of pixels instead of one crisp one.
func Outline(ops *op.Ops, r image.Rectangle, width int, c color.NRGBA) {
	if width <= 0 || r.Empty() {
		return
	}
	width = min(width, (r.Dx()+1)/2, (r.Dy()+1)/2)
	for _, side := range [4]image.Rectangle{
		{Min: r.Min, Max: image.Pt(r.Max.X, r.Min.Y+width)},
		{Min: image.Pt(r.Min.X, r.Max.Y-width), Max: r.Max},
		{Min: image.Pt(r.Min.X, r.Min.Y+width), Max: image.Pt(r.Min.X+width, r.Max.Y-width)},
		{Min: image.Pt(r.Max.X-width, r.Min.Y+width), Max: image.Pt(r.Max.X, r.Max.Y-width)},
	} {
		if !side.Empty() {
			paint.FillShape(ops, c, clip.Rect(side).Op())
		}
	}
}

// ProgressBar draws a flat bar across the constraints' width, filled to fraction (0 to 1) in the
// accent colour: square ends, as the rest of the chrome, where material's rounded ones are paths
// that a software GL rasterises in every frame of a load.
func (th *Theme) ProgressBar(gtx layout.Context, fraction float32) layout.Dimensions {
	size := image.Pt(gtx.Constraints.Max.X, gtx.Dp(4))
	paint.FillShape(gtx.Ops, th.Control, clip.Rect{Max: size}.Op())
	fraction = min(max(fraction, 0), 1)
	if fill := int(float32(size.X)*fraction + 0.5); fill > 0 {
		paint.FillShape(gtx.Ops, th.Accent, clip.Rect{Max: image.Pt(fill, size.Y)}.Op())
	}
	return layout.Dimensions{Size: size}
}
