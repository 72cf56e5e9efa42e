package app

import (
	"image"
	"image/color"
	"math"
	"strings"

	"gioui.org/io/pointer"
	"gioui.org/layout"
	"gioui.org/op/clip"
	"gioui.org/op/paint"
	"gioui.org/unit"
	"gioui.org/widget"

	"flamedesk/render"
)

// The chrome's text is drawn from rasterised bitmaps, like the chart's labels: on software GL a
// shaped label is a path rasterised anew every frame, while a cached bitmap is one image draw.
// Labels are single-line per line of text, cut with an ellipsis when they do not fit.

// chromeText is the label cache and the measurer of the chrome's text.
type chromeText struct {
	painter render.GioPainter
	measure *render.TextMeasurer
}

// textFont is the chrome's font at the window's scale.
func textFont(gtx layout.Context) render.Font { return render.Font{Size: float32(gtx.Sp(12.5))} }

// drawText draws s (one label per line) in c from the top-left of the constraints.
func (u *ui) drawText(gtx layout.Context, s string, c color.NRGBA) layout.Dimensions {
	if u.text.measure == nil {
		u.text.measure = render.NewTextMeasurer()
	}
	f := textFont(gtx)
	asc, desc := u.text.measure.Metrics(f)
	lineH := int(math.Ceil(float64(asc+desc) * 1.3))
	pad := float32(lineH)/2 - (asc+desc)/2
	avail := float32(gtx.Constraints.Max.X)
	w, y := 0, 0
	for line := range strings.SplitSeq(s, "\n") {
		if y+lineH > gtx.Constraints.Max.Y && y > 0 {
			break
		}
		n, ellipsis := u.text.measure.Fit(f, line, avail)
		shown := line[:n]
		if ellipsis {
			shown += render.Ellipsis
		}
		if shown != "" {
			u.text.painter.DrawText(gtx.Ops, f, c, 0, float32(y)+pad+asc, shown)
		}
		w = max(w, int(math.Ceil(float64(u.text.measure.Width(f, shown)))))
		y += lineH
	}
	size := image.Pt(min(max(w, gtx.Constraints.Min.X), gtx.Constraints.Max.X), max(y, gtx.Constraints.Min.Y))
	return layout.Dimensions{Size: size, Baseline: size.Y - int(pad+asc)}
}

// label draws one line of chrome text.
func (u *ui) label(gtx layout.Context, s string) layout.Dimensions {
	return u.drawText(gtx, s, u.colors.text)
}

// mutedLabel draws secondary chrome text.
func (u *ui) mutedLabel(gtx layout.Context, s string) layout.Dimensions {
	return u.drawText(gtx, s, u.colors.muted)
}

// smallButton is the flat button used everywhere in the chrome: a rectangle and a label (no
// rounded corners, which would be paths).
func (u *ui) smallButton(gtx layout.Context, c *widget.Clickable, s string) layout.Dimensions {
	return c.Layout(gtx, func(gtx layout.Context) layout.Dimensions {
		inset := layout.Inset{Top: unit.Dp(4), Bottom: unit.Dp(4), Left: unit.Dp(8), Right: unit.Dp(8)}
		gtx.Constraints.Min = image.Point{}
		return layout.Background{}.Layout(gtx,
			func(gtx layout.Context) layout.Dimensions {
				bg := u.colors.button
				if c.Hovered() {
					bg = mix(bg, u.colors.text, 0.08)
				}
				paint.FillShape(gtx.Ops, bg, clip.Rect{Max: gtx.Constraints.Min}.Op())
				pointer.CursorPointer.Add(gtx.Ops)
				return layout.Dimensions{Size: gtx.Constraints.Min}
			},
			func(gtx layout.Context) layout.Dimensions {
				return inset.Layout(gtx, func(gtx layout.Context) layout.Dimensions { return u.label(gtx, s) })
			})
	})
}
