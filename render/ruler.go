package render

import (
	"math"
	"strconv"

	"flamedesk/timeline"
)

// TickStep is the ruler's step in µs for a scale of usPerPx: the smallest 1, 2 or 5 × 10ⁿ µs that
// puts ticks at least minPx apart.
func TickStep(usPerPx, minPx float64) float64 {
	raw := usPerPx * minPx
	if !(raw > 0) || math.IsInf(raw, 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range [...]float64{1, 2, 5, 10} {
		if m*p >= raw*(1-1e-12) {
			return m * p
		}
	}
	return 10 * p
}

// nextStep is the next 1-2-5 step after step.
func nextStep(step float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(step)+1e-9))
	switch m := math.Round(step / p); {
	case m < 2:
		return 2 * p
	case m < 5:
		return 5 * p
	}
	return 10 * p
}

// AppendTime appends a time of v µs (since the trace's start) to dst in the unit that suits a
// ruler step of step µs, with as many decimals as the step needs: "1.5 s", "250 ms", "12.25 µs".
// It allocates nothing when dst has room.
func AppendTime(dst []byte, v, step float64) []byte {
	// The unit keeps the numbers short: steps of 100 µs and more read in ms, of 0.1 s in s.
	div, unit := 1.0, " µs"
	switch {
	case step >= 1e5:
		div, unit = 1e6, " s"
	case step >= 1e2:
		div, unit = 1e3, " ms"
	}
	decimals := 0
	if s := step / div; s < 1 {
		decimals = int(math.Ceil(-math.Log10(s) - 1e-9))
	}
	v /= div
	if math.Abs(v) < 0.5*math.Pow(10, -float64(decimals)) {
		v = 0 // no "-0"
	}
	dst = strconv.AppendFloat(dst, v, 'f', decimals, 64)
	return append(dst, unit...)
}

// ruler draws the time ruler along the top (times since the trace's first entry) and the grid
// lines under the chart.
func (b *Builder) ruler(dst *DrawList, vp *timeline.Viewport, f *Frame) {
	st := &b.Style
	t := b.theme
	width := vp.Width()
	h := st.RulerHeight
	dst.rect(LayerRuler, b.ui.rulerBg, Rect{0, 0, float32(width), h})
	dst.rect(LayerRuler, b.ui.separator, Rect{0, h - 1, float32(width), h})

	view := vp.View()
	scale := vp.Scale()
	step := TickStep(scale, float64(st.TickSpacing))
	// Long labels (deep inside a long trace) need more room than the default spacing: widen the
	// step until the label at the right edge fits between two ticks.
	for range 4 {
		mark := len(dst.text)
		dst.text = AppendTime(dst.text, view.Start+view.Span, step)
		w := b.Text.WidthBytes(st.RulerFont, dst.text[mark:])
		dst.text = dst.text[:mark]
		if float64(w)+12 <= step/scale {
			break
		}
		step = nextStep(step)
	}

	ascent, descent := b.Text.Metrics(st.RulerFont)
	baseline := (h-1)/2 + (ascent-descent)/2
	first := math.Ceil(view.Start / step)
	chartTop, chartBottom := h, float32(dst.Height)
	// The count of ticks bounds the loop, not the time: past 2⁵³ steps, adding one to k changes
	// nothing, and a loop on k never ends.
	maxTicks := int(min(width/max(step/scale, 1), width)) + 2
	for i := 0; i <= maxTicks; i++ {
		v := (first + float64(i)) * step // a multiple of the step, not a running sum: no drift
		x := math.Round(vp.RelToPx(v))
		if !(x <= width) { // also NaN
			break
		}
		xf := float32(x)
		dst.rect(LayerGrid, b.ui.grid, Rect{xf, chartTop, xf + 1, chartBottom})
		dst.rect(LayerRulerText, b.ui.rulerTick, Rect{xf, h - 6, xf + 1, h - 1})
		mark := len(dst.text)
		dst.text = AppendTime(dst.text, v, step)
		dst.addTextFrom(LayerRulerText, xf+3, baseline, st.RulerFont, t.RulerText, mark)
	}
}
