package timeline

import "math"

// MinSpan is the narrowest window the viewport zooms to, µs: 1 µs over the whole width, which at
// 1,600 px is 0.625 ns per pixel (wider for traces longer than 2⁴⁰ µs: see minSpan).
const MinSpan = 1.0

// maxHistory bounds the back/forward history.
const maxHistory = 128

// View is a time window relative to the trace's origin (Viewport.Origin): Start µs after it, Span
// µs wide. Views are what the history stores and what an animation interpolates.
type View struct {
	Start, Span float64
}

// Lerp interpolates between two views, for animated navigation; t is clamped to [0, 1].
func Lerp(a, b View, t float64) View {
	t = min(max(t, 0), 1)
	return View{Start: a.Start + (b.Start-a.Start)*t, Span: a.Span + (b.Span-a.Span)*t}
}

// Viewport maps the trace's time to the chart's pixels and back, and keeps the vertical scroll
// position. It clamps every change to the trace's bounds, so no method can leave it showing
// nothing or less than MinSpan.
//
// Horizontal pixels are in [0, Width) from the chart's left edge; vertical ones are content pixels
// of the Model's layout (ScrollY is the content y at the top of the chart area).
//
// Times come in two forms: absolute µs on the trace's clock (what core.Track stores), and relative
// µs after Origin. Converting an absolute time to pixels is exact; converting pixels to an absolute
// time rounds to the resolution of the trace's clock values (≈10⁻⁴ µs near 10¹² µs), so code that
// needs sub-nanosecond round trips uses the relative forms PxToRel and RelToPx.
type Viewport struct {
	origin  float64 // absolute µs of the first entry
	total   float64 // µs covered by the trace, ≥ MinSpan
	view    View
	width   float64 // px
	height  float64 // px of the chart area below the ruler
	scrollY float64
	content float64 // content height, px

	past, future []View
}

// NewViewport returns a viewport on [minTs, maxTs] (absolute µs, e.g. from Model.Bounds), fitted
// to the whole trace, 1,600 by 1,000 px until SetSize says otherwise.
func NewViewport(minTs, maxTs float64) *Viewport {
	if math.IsNaN(minTs) || math.IsInf(minTs, 0) {
		minTs = 0
	}
	total := maxTs - minTs
	if !(total >= MinSpan) { // also NaN and ±Inf
		total = MinSpan
	}
	v := &Viewport{origin: minTs, total: total, width: 1600, height: 1000}
	v.view = View{Start: 0, Span: total}
	return v
}

// SetSize sets the chart's size in pixels: its width, and the height of the area where tracks
// are drawn (below the ruler). The time window is kept, so resizing rescales.
func (v *Viewport) SetSize(width, height float64) {
	v.width = max(width, 1)
	v.height = max(height, 0)
	v.clampY()
}

// Width is the chart's width in pixels.
func (v *Viewport) Width() float64 { return v.width }

// Height is the height of the chart area below the ruler, in pixels.
func (v *Viewport) Height() float64 { return v.height }

// Origin is the absolute time, µs, that relative times count from: the trace's first entry.
func (v *Viewport) Origin() float64 { return v.origin }

// Total is the length of the trace in µs (at least MinSpan).
func (v *Viewport) Total() float64 { return v.total }

// View is the current window relative to Origin.
func (v *Viewport) View() View { return v.view }

// SetView moves to w, clamped to the trace, without touching the history (an animation step, for
// example). Use Navigate for a jump the user can go back from.
func (v *Viewport) SetView(w View) { v.view = v.clamp(w) }

// Navigate moves to w and records the current view in the history, so that Back returns to it.
func (v *Viewport) Navigate(w View) {
	v.Mark()
	v.view = v.clamp(w)
}

// Start is the absolute time at the left edge, µs.
func (v *Viewport) Start() float64 { return v.origin + v.view.Start }

// End is the absolute time at the right edge, µs.
func (v *Viewport) End() float64 { return v.origin + v.view.Start + v.view.Span }

// Span is the width of the window in µs.
func (v *Viewport) Span() float64 { return v.view.Span }

// Scale is µs per pixel.
func (v *Viewport) Scale() float64 { return v.view.Span / v.width }

// TimeToPx maps an absolute time to the chart's x.
func (v *Viewport) TimeToPx(t float64) float64 {
	// Subtracting the origin first is exact for t within a factor of two of it, so no precision
	// of the trace's clock is lost before scaling.
	return ((t - v.origin) - v.view.Start) * (v.width / v.view.Span)
}

// RelToPx maps a time relative to Origin to the chart's x.
func (v *Viewport) RelToPx(rel float64) float64 {
	return (rel - v.view.Start) * (v.width / v.view.Span)
}

// PxToRel maps the chart's x to a time relative to Origin.
func (v *Viewport) PxToRel(x float64) float64 {
	return v.view.Start + x*(v.view.Span/v.width)
}

// PxToTime maps the chart's x to an absolute time (see the type's note on precision).
func (v *Viewport) PxToTime(x float64) float64 { return v.origin + v.PxToRel(x) }

// DurToPx is the width in pixels of a duration in µs.
func (v *Viewport) DurToPx(d float64) float64 { return d * (v.width / v.view.Span) }

// PxToDur is the duration in µs of a width in pixels.
func (v *Viewport) PxToDur(px float64) float64 { return px * (v.view.Span / v.width) }

// ZoomAt scales the window by factor around the pixel anchorX, keeping the time under it in place:
// factor < 1 zooms in, > 1 zooms out. The result is clamped to [MinSpan, Total] and to the trace,
// which can move the anchor only when the window hits an edge.
func (v *Viewport) ZoomAt(anchorX, factor float64) {
	if !(factor > 0) || math.IsInf(factor, 0) {
		return
	}
	anchor := v.PxToRel(anchorX)
	span := v.view.Span * factor
	span = min(max(span, v.minSpan()), v.total)
	frac := anchorX / v.width
	v.view = v.clamp(View{Start: anchor - frac*span, Span: span})
}

// Pan moves the window by dx pixels: positive dx shows later times (the content moves left).
func (v *Viewport) Pan(dx float64) {
	v.view = v.clamp(View{Start: v.view.Start + v.PxToDur(dx), Span: v.view.Span})
}

// Fit shows the whole trace, recording the current view in the history.
func (v *Viewport) Fit() { v.Navigate(View{Start: 0, Span: v.total}) }

// ZoomToRange shows [t0, t1] (absolute µs) exactly across the width, or MinSpan centred on it when
// it is narrower, recording the current view in the history.
func (v *Viewport) ZoomToRange(t0, t1 float64) {
	if t1 < t0 {
		t0, t1 = t1, t0
	}
	start, span := t0-v.origin, t1-t0
	if !(span >= v.minSpan()) { // also NaN
		span = max(span, 0)
		start -= (v.minSpan() - span) / 2
		span = v.minSpan()
	}
	v.Navigate(View{Start: start, Span: span})
}

// ZoomToEntry shows an entry [start, end] (absolute µs) with a tenth of its length free on each
// side, recording the current view in the history.
func (v *Viewport) ZoomToEntry(start, end float64) {
	pad := max(end-start, 0) * 0.1
	v.ZoomToRange(start-pad, end+pad)
}

// clamp keeps a view inside the trace: span in [MinSpan, Total] and the window within [0, Total].
func (v *Viewport) clamp(w View) View {
	if math.IsNaN(w.Span) || math.IsNaN(w.Start) {
		return v.view
	}
	w.Span = min(max(w.Span, v.minSpan()), v.total)
	w.Start = min(max(w.Start, 0), v.total-w.Span)
	return w
}

// minSpan is the narrowest window: MinSpan, or wider when the trace is so long that times after
// its origin are coarser than that (a trace mixing a 1970-based clock with a boot-based one spans
// 10¹⁵ µs, where a float64 steps by 0.25 µs): a pixel then still covers a few distinct times,
// and the ruler and the chart never work below the resolution of the numbers.
func (v *Viewport) minSpan() float64 { return max(MinSpan, v.total*0x1p-40) }

// Mark records the current view in the history, so that Back returns to it, and forgets the
// forward history. Navigation methods call it; the window calls it when a wheel or drag gesture
// starts, so that each gesture is one step back.
func (v *Viewport) Mark() {
	if n := len(v.past); n > 0 && v.past[n-1] == v.view {
		v.future = v.future[:0]
		return
	}
	if len(v.past) == maxHistory {
		copy(v.past, v.past[1:])
		v.past = v.past[:maxHistory-1]
	}
	v.past = append(v.past, v.view)
	v.future = v.future[:0]
}

// Back returns to the view before the last navigation; false when there is none.
func (v *Viewport) Back() bool {
	n := len(v.past)
	if n == 0 {
		return false
	}
	v.future = append(v.future, v.view)
	v.view = v.past[n-1]
	v.past = v.past[:n-1]
	return true
}

// Forward redoes the navigation that Back undid; false when there is none.
func (v *Viewport) Forward() bool {
	n := len(v.future)
	if n == 0 {
		return false
	}
	v.past = append(v.past, v.view)
	v.view = v.future[n-1]
	v.future = v.future[:n-1]
	return true
}

// CanBack and CanForward report whether Back or Forward would move.
func (v *Viewport) CanBack() bool { return len(v.past) > 0 }

// CanForward reports whether Forward would move.
func (v *Viewport) CanForward() bool { return len(v.future) > 0 }

// ScrollY is the content y shown at the top of the chart area.
func (v *Viewport) ScrollY() float64 { return v.scrollY }

// SetContentHeight tells the viewport how tall the model's content is (Model.ContentHeight), so
// that scrolling stops at its end.
func (v *Viewport) SetContentHeight(h float64) {
	v.content = max(h, 0)
	v.clampY()
}

// SetScrollY scrolls to content y, clamped so that the content fills the area where it can.
func (v *Viewport) SetScrollY(y float64) {
	v.scrollY = y
	v.clampY()
}

// ScrollBy scrolls by dy pixels (positive shows content further down).
func (v *Viewport) ScrollBy(dy float64) { v.SetScrollY(v.scrollY + dy) }

func (v *Viewport) clampY() {
	maxY := max(v.content-v.height, 0)
	if math.IsNaN(v.scrollY) {
		v.scrollY = 0
	}
	v.scrollY = min(max(v.scrollY, 0), maxY)
}
