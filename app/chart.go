package app

import (
	"fmt"
	"image"
	"math"
	"os"
	"time"

	"gioui.org/f32"
	"gioui.org/io/event"
	"gioui.org/io/key"
	"gioui.org/io/pointer"
	"gioui.org/layout"
	"gioui.org/op"
	"gioui.org/op/clip"
	"gioui.org/op/paint"
	"gioui.org/unit"

	"flamedesk/render"
	"flamedesk/timeline"
)

const (
	wheelZoomRate  = 0.01 // zoom factor per scroll pixel is e^rate: one X11 notch (2×10 px) ≈ 1.22×
	momentumDecay  = 5.0  // per second: the fling velocity falls to 1/e in 200 ms
	momentumStopPx = 20.0 // px/s below which a fling stops
	clickSlopPx    = 4    // a press and release closer than this is a click, not a drag
	doubleClick    = 400 * time.Millisecond
	// maxFlingPxPerS caps a fling: pointer events a millisecond apart can make a drag look far
	// faster than the hand was.
	maxFlingPxPerS = 6000
	// zoomGesturePause is the pause between wheel events that ends one zoom gesture.
	zoomGesturePause = 400 * time.Millisecond
)

// chart is the time ruler and the track area: it turns pointer input into viewport changes and
// selections, and paints render's draw list, replaying last frame's ops when nothing changed.
type chart struct {
	builder *render.Builder
	// diffLevels colours the chart by a comparison's changes when set (compare.go).
	diffLevels []int8
	painter    render.GioPainter
	list       render.DrawList

	// The recorded ops of the last painted state, replayed while the state stays the same.
	cacheOps op.Ops
	cache    op.CallOp
	cacheKey chartKey
	dirty    bool

	drag struct {
		active, moved, rangeSelect bool
		start, last                f32.Point
		lastTime                   time.Duration // the pointer event's own timestamp
		velocity                   float64       // px/s, along x
	}
	lastPress     time.Time
	lastPressAt   f32.Point
	fling         float64 // px/s, while coasting after a drag
	rulerHeight   int
	pointerInside bool // the pointer is over the chart, so the chrome gets no pointer input
	size          image.Point
	origin        image.Point // the chart's top-left in the window, for the test state
	tooltipAnchor f32.Point
	// hoverView is the view the hover was found in: when the view moves under a still pointer
	// (a search jump, a key zoom), the hovered entry is no longer under it.
	hoverView   timeline.View
	hoverScroll float64
	lastZoom    time.Time // the last wheel zoom, to tell one zoom gesture from the next
	// sticky is the track whose name is kept at the top in the last frame, -1 for none.
	sticky timeline.TrackID
	// rulerShifts makes a drag on the ruler move the chart's trace in time (B's chart of a
	// comparison) rather than pan; rulerDrag is set during one.
	rulerShifts, rulerDrag bool
}

// chartKey is everything a painted chart depends on; equal keys paint equal pixels.
type chartKey struct {
	view       timeline.View
	scrollY    float64
	size       image.Point
	selected   timeline.EntryRef
	hoverKind  timeline.HitKind
	hoverSpan  timeline.Span
	hoverTrack timeline.TrackID
	hoverGroup int
	search     *timeline.SearchResult
	rangeStart float64
	rangeEnd   float64
	theme      *render.Theme
	layoutH    float64
	doc        *document
}

func (c *chart) reset() {
	c.builder = nil
	c.fling = 0
	c.dirty = true
}

func (c *chart) invalidate() { c.dirty = true }

func (c *chart) layout(gtx layout.Context, e env) layout.Dimensions {
	size := gtx.Constraints.Max
	c.size = size
	d := e.doc
	if d == nil {
		paint.FillShape(gtx.Ops, e.th.Chart.Background, clip.Rect{Max: size}.Op())
		return layout.Dimensions{Size: size}
	}
	if c.builder == nil {
		c.painter.Mode = paintMode()
		c.builder = render.NewBuilder(d.model)
		c.builder.Style = render.DefaultStyle().Scaled(gtx.Metric.PxPerDp)
		if len(c.diffLevels) == len(d.trace.Frames) {
			c.builder.SetDiffLevels(c.diffLevels)
		}
	}
	c.rulerHeight = int(c.builder.Style.RulerHeight)
	d.view.SetSize(float64(size.X), float64(size.Y-c.rulerHeight))
	d.view.SetContentHeight(d.model.ContentHeight())

	c.handlePointer(gtx, e, d)
	if e.navigating {
		c.fling = 0 // a navigation key takes over from a fling
	}
	if c.fling != 0 {
		dt := e.dt.Seconds()
		before := d.view.View()
		d.view.Pan(-c.fling * dt)
		c.fling *= math.Exp(-momentumDecay * dt)
		// A fling stops when it has slowed down, or when it ran into either end of the trace.
		if math.Abs(c.fling) < momentumStopPx || d.view.View() == before {
			c.fling = 0
		}
		gtx.Execute(op.InvalidateCmd{})
	}
	if d.hover.Kind != timeline.HitNone && (d.view.View() != c.hoverView || d.view.ScrollY() != c.hoverScroll) {
		d.hover = noHit
	}

	key := chartKey{
		view: d.view.View(), scrollY: d.view.ScrollY(), size: size, selected: d.selected,
		hoverKind: d.hover.Kind, hoverSpan: d.hover.Span, hoverTrack: d.hover.Track, hoverGroup: d.hover.Group,
		search: d.marked(), rangeStart: d.rangeStart, rangeEnd: d.rangeEnd, theme: e.th.Chart,
		layoutH: d.model.ContentHeight(), doc: d,
	}
	if c.dirty || key != c.cacheKey {
		c.builder.Build(&c.list, d.view, &render.Frame{
			Width: size.X, Height: size.Y, Theme: e.th.Chart, Selection: d.selected, Hover: d.hover,
			LaneSelection: d.laneSelected, HasLaneSelection: d.hasLaneSelected,
			Search: d.marked(), RangeStart: d.rangeStart, RangeEnd: d.rangeEnd,
		})
		c.cacheOps.Reset()
		m := op.Record(&c.cacheOps)
		// The window is cleared to the panel colour (app.go) and nothing else is drawn under the
		// chart: where the chart shows only its background in that colour, it need not be drawn.
		c.painter.Backdrop = e.th.Panel
		c.painter.Paint(&c.cacheOps, &c.list)
		c.cache = m.Stop()
		c.cacheKey = key
		c.dirty = false
	}
	clipArea := clip.Rect{Max: size}.Push(gtx.Ops)
	c.cache.Add(gtx.Ops)
	c.layoutFilmstripRow(gtx, d)
	event.Op(gtx.Ops, c)
	pointer.CursorDefault.Add(gtx.Ops)
	c.rulerCursor(gtx)
	if c.drag.active && c.drag.moved && !c.drag.rangeSelect {
		pointer.CursorGrabbing.Add(gtx.Ops)
	}
	clipArea.Pop()
	c.layoutStickyTitle(gtx, e, d)
	c.layoutTooltip(gtx, e, d)
	c.layoutFilmstripPeek(gtx, e, d)
	return layout.Dimensions{Size: size}
}

// handlePointer turns the chart's pointer events into navigation, hover and selection.
func (c *chart) handlePointer(gtx layout.Context, env env, d *document) {
	for {
		ev, ok := gtx.Event(pointerFilter(c, pointer.Move|pointer.Press|pointer.Drag|pointer.Release|
			pointer.Scroll|pointer.Enter|pointer.Leave|pointer.Cancel))
		if !ok {
			break
		}
		e, ok := ev.(pointer.Event)
		if !ok {
			continue
		}
		chartY := float64(e.Position.Y) - float64(c.rulerHeight)
		c.pointerInside = e.Kind != pointer.Leave && e.Kind != pointer.Cancel
		switch e.Kind {
		case pointer.Move:
			c.hoverAt(d, e.Position, chartY)
		case pointer.Leave, pointer.Cancel:
			d.hover = noHit
			d.hoverX = -1
			c.drag.active = false
		case pointer.Scroll:
			c.fling = 0
			c.onScroll(d, e, env.settings.WheelZooms, env.now)
			c.hoverAt(d, e.Position, chartY)
		case pointer.Press:
			c.fling = 0
			if e.Buttons.Contain(pointer.ButtonSecondary) {
				env.emit(focus{refresh: true})
				c.onSecondaryClick(env, d, e.Position, chartY)
				continue
			}
			// The window takes the focus (nothing happens when it has it already); a click also has
			// the chrome laid out anew, on release, as it may change what the panels show.
			env.emit(focus{})
			c.drag.active, c.drag.moved = true, false
			c.rulerDrag = c.rulerShifts && chartY < 0
			c.drag.rangeSelect = e.Modifiers.Contain(key.ModShift)
			c.drag.start, c.drag.last, c.drag.lastTime = e.Position, e.Position, e.Time
			c.drag.velocity = 0
		case pointer.Drag:
			if !c.drag.active {
				continue
			}
			if !c.drag.moved && dist(e.Position, c.drag.start) >= clickSlopPx {
				c.drag.moved = true
				if !c.drag.rangeSelect && !c.rulerDrag {
					d.view.Mark()
				}
			}
			if !c.drag.moved {
				continue
			}
			now := e.Time
			dx := float64(e.Position.X - c.drag.last.X)
			dy := float64(e.Position.Y - c.drag.last.Y)
			if c.rulerDrag {
				// Dragged right, B's events come later on A's axis: a smaller offset.
				env.emit(shiftB{delta: -dx * d.view.Scale()})
			} else if c.drag.rangeSelect {
				a := d.view.PxToTime(float64(c.drag.start.X))
				b := d.view.PxToTime(float64(e.Position.X))
				env.emit(setRange{start: a, end: b})
			} else {
				d.view.Pan(-dx)
				d.view.ScrollBy(-dy)
				if dt := (now - c.drag.lastTime).Seconds(); dt > 0 {
					// A smoothed velocity, so one jittery event does not decide the fling.
					c.drag.velocity = 0.6*c.drag.velocity + 0.4*(dx/dt)
				}
			}
			c.drag.last, c.drag.lastTime = e.Position, now
			c.hoverAt(d, e.Position, chartY)
		case pointer.Release:
			if !c.drag.active {
				continue
			}
			c.drag.active = false
			if c.rulerDrag {
				c.rulerDrag = false
				env.emit(shiftB{done: true})
				continue
			}
			if c.drag.moved {
				if !c.drag.rangeSelect && e.Time-c.drag.lastTime < 80*time.Millisecond &&
					math.Abs(c.drag.velocity) > 200 {
					c.fling = max(-maxFlingPxPerS, min(c.drag.velocity, maxFlingPxPerS))
					gtx.Execute(op.InvalidateCmd{})
				}
				continue
			}
			double := env.now.Sub(c.lastPress) < doubleClick && dist(e.Position, c.lastPressAt) < clickSlopPx
			c.lastPress, c.lastPressAt = env.now, e.Position
			env.emit(focus{refresh: true})
			c.onClick(env, d, e.Position, chartY, double)
		}
	}
}

func dist(a, b f32.Point) float32 {
	return float32(math.Hypot(float64(a.X-b.X), float64(a.Y-b.Y)))
}

// noHit is the hover when the pointer is over nothing.
var noHit = timeline.Hit{Kind: timeline.HitNone, Group: -1, Track: -1, Entry: timeline.NoEntry}

func (c *chart) hoverAt(d *document, p f32.Point, chartY float64) {
	d.hoverX, d.hoverY = float64(p.X), chartY
	c.hoverView, c.hoverScroll = d.view.View(), d.view.ScrollY()
	if chartY < 0 {
		d.hover = noHit
		return
	}
	d.hover = d.model.HitTest(d.view, float64(p.X), chartY, c.builder.Style.MinBarPx)
	c.tooltipAnchor = p
}

// onScroll follows one of DevTools' two wheel schemes. Modern: ctrl/cmd+wheel zooms at the
// cursor, shift+wheel pans, the wheel scrolls the tracks. Classic (wheelZooms): the wheel, with or
// without ctrl/cmd, zooms at the cursor and shift+wheel scrolls the tracks. In both, a horizontal
// delta (trackpad swipe, tilt wheel) pans.
func (c *chart) onScroll(d *document, e pointer.Event, wheelZooms bool, now time.Time) {
	sx, sy := float64(e.Scroll.X), float64(e.Scroll.Y)
	shortcut, shift := e.Modifiers.Contain(key.ModShortcut), e.Modifiers.Contain(key.ModShift)
	if shift && sy == 0 {
		// Gio turns shift+wheel into a horizontal delta on X11, Wayland and Windows; the scheme
		// decides what shift+wheel does, so take it back as the wheel's own axis.
		sx, sy = 0, sx
	}
	switch {
	case sy != 0 && (shortcut || (wheelZooms && !shift && math.Abs(sy) >= math.Abs(sx))):
		// A pause between wheel events starts a new zoom gesture: the view before it is one step
		// back (Alt+←).
		if now.Sub(c.lastZoom) > zoomGesturePause {
			d.view.Mark()
		}
		c.lastZoom = now
		d.view.ZoomAt(float64(e.Position.X), math.Exp(sy*wheelZoomRate))
	case sy != 0 && shift && wheelZooms:
		d.view.ScrollBy(sy * 2)
	case sy != 0 && shift:
		d.view.Pan(sy * 2)
	case math.Abs(sx) > math.Abs(sy):
		d.view.Pan(sx * 2)
	default:
		d.view.ScrollBy(sy * 2)
	}
}

// onClick selects what was clicked, toggles a header, or zooms to an entry on a double click.
func (c *chart) onClick(e env, d *document, p f32.Point, chartY float64, double bool) {
	if chartY < 0 {
		return
	}
	h := d.model.HitTest(d.view, float64(p.X), chartY, c.builder.Style.MinBarPx)
	switch h.Kind {
	case timeline.HitGroupHeader:
		g := &d.model.Groups[h.Group]
		d.model.SetGroupCollapsed(h.Group, !g.Collapsed)
		e.emit(tracksChanged{})
	case timeline.HitTrackHeader:
		t := &d.model.Tracks[h.Track]
		d.model.SetTrackCollapsed(h.Track, !t.Collapsed)
		e.emit(tracksChanged{})
	case timeline.HitLaneHeader:
		d.model.SetLaneCollapsed(int(h.Lane.Lane), !d.model.Lanes[h.Lane.Lane].Collapsed)
		e.emit(tracksChanged{})
	case timeline.HitEntry:
		if double {
			if h.Span.Merged() {
				d.view.ZoomToRange(h.Span.Start, h.Span.End)
			} else {
				d.view.ZoomToEntry(d.model.EntryStart(h.Entry), d.model.EntryEnd(h.Entry))
			}
		}
		e.emit(selectHit{hit: h})
	default:
		e.emit(selectHit{hit: h})
	}
	c.invalidate()
}

// onSecondaryClick hides the process or thread whose header was right-clicked.
func (c *chart) onSecondaryClick(e env, d *document, p f32.Point, chartY float64) {
	if chartY < 0 {
		return
	}
	h := d.model.HitTest(d.view, float64(p.X), chartY, c.builder.Style.MinBarPx)
	switch h.Kind {
	case timeline.HitGroupHeader:
		d.model.SetGroupHidden(h.Group, true)
	case timeline.HitTrackHeader:
		d.model.SetTrackHidden(h.Track, true)
	case timeline.HitLaneHeader:
		d.model.SetLaneHidden(int(h.Lane.Lane), true)
	}
	e.emit(tracksChanged{})
}

// stickyTrack is the track whose header is scrolled above the top of the chart while its levels
// are still on show, -1 when there is none.
func stickyTrack(d *document) timeline.TrackID {
	top := d.view.ScrollY()
	m := d.model
	for i := range m.Tracks {
		t := &m.Tracks[i]
		if t.Shown && t.Y < top && t.Y+t.Height > top+m.Style.RowHeight {
			return timeline.TrackID(i)
		}
	}
	return -1
}

// layoutStickyTitle keeps the name of a track scrolled deep into at the top of the chart, where
// its header would be.
func (c *chart) layoutStickyTitle(gtx layout.Context, e env, d *document) {
	id := stickyTrack(d)
	c.sticky = id
	if id < 0 {
		return
	}
	t := &d.model.Tracks[id]
	title := t.Title
	if g := &d.model.Groups[t.Group]; g.Title() != "" {
		title = g.Title() + " › " + title
	}
	defer op.Offset(image.Pt(0, c.rulerHeight)).Push(gtx.Ops).Pop()
	h := int(d.model.Style.TrackHeaderHeight)
	g := gtx
	g.Constraints = layout.Exact(image.Pt(c.size.X, h))
	paint.FillShape(gtx.Ops, e.th.Chart.Background, clip.Rect{Max: g.Constraints.Max}.Op())
	paint.FillShape(gtx.Ops, e.th.Border, clip.Rect{Min: image.Pt(0, h-1), Max: g.Constraints.Max}.Op())
	layout.Inset{Left: unit.Dp(8)}.Layout(g, func(gtx layout.Context) layout.Dimensions {
		return e.th.Label(gtx, title)
	})
}

// layoutTooltip shows name, duration and URL of the entry under the pointer.
func (c *chart) layoutTooltip(gtx layout.Context, e env, d *document) {
	// No tooltip while the view moves under the pointer: it would name a different entry every
	// frame, and its freshly shaped text is the most expensive thing to draw on software GL.
	if (d.hover.Kind != timeline.HitEntry && d.hover.Kind != timeline.HitLaneItem) || c.drag.active || c.fling != 0 || e.navigating {
		return
	}
	var lines []string
	if d.hover.Kind == timeline.HitLaneItem {
		lines = laneTooltip(d, d.hover.Lane)
	} else {
		lines = tooltipLines(d, d.hover)
	}
	m := op.Record(gtx.Ops)
	g := gtx
	g.Constraints.Min = image.Point{}
	g.Constraints.Max.X = gtx.Dp(520)
	dims := layout.UniformInset(unit.Dp(6)).Layout(g, func(gtx layout.Context) layout.Dimensions {
		children := make([]layout.FlexChild, 0, len(lines))
		for i, l := range lines {
			children = append(children, layout.Rigid(func(gtx layout.Context) layout.Dimensions {
				if i == 0 {
					return e.th.Label(gtx, l)
				}
				return e.th.MutedLabel(gtx, l)
			}))
		}
		return layout.Flex{Axis: layout.Vertical}.Layout(gtx, children...)
	})
	call := m.Stop()
	at := image.Pt(int(c.tooltipAnchor.X)+14, int(c.tooltipAnchor.Y)+18)
	if at.X+dims.Size.X > c.size.X {
		at.X = max(0, c.size.X-dims.Size.X)
	}
	if at.Y+dims.Size.Y > c.size.Y {
		at.Y = max(0, int(c.tooltipAnchor.Y)-dims.Size.Y-6)
	}
	defer op.Offset(at).Push(gtx.Ops).Pop()
	e.th.Box(gtx.Ops, image.Rectangle{Max: dims.Size}, 1)
	call.Add(gtx.Ops)
}

// tooltipLines describes a hovered span: its name and duration, then where it comes from.
func tooltipLines(d *document, h timeline.Hit) []string {
	m := d.model
	if h.Span.Merged() {
		return []string{
			fmt.Sprintf("%d entries merged", h.Span.Count()),
			fmt.Sprintf("%s, starting with %s", formatDuration(h.Span.End-h.Span.Start), m.EntryName(h.Entry)),
			"double-click to zoom in",
		}
	}
	ref := h.Entry
	// As the panel's tooltip: the total time, then the time spent in the entry itself.
	total := formatDuration(m.EntryEnd(ref) - m.EntryStart(ref))
	if ct := m.Tracks[ref.Track].Core; int(ref.Entry) < ct.Len() {
		total += " (self " + formatDuration(m.EntrySelf(ref)) + ")"
	}
	lines := []string{fmt.Sprintf("%s  %s", total, m.EntryName(ref))}
	if url := m.EntryURL(ref); url != "" {
		lines = append(lines, url)
	} else if cat := m.EntryCategory(ref); cat != "" {
		lines = append(lines, cat)
	}
	return lines
}

// formatDuration prints µs the way DevTools does: µs below a millisecond, ms below a second, s above.
// Nothing at all is "0 µs", not "0.00 µs".
func formatDuration(us float64) string {
	switch {
	case us < 0.005:
		return "0 µs"
	case us < 1:
		return fmt.Sprintf("%.2f µs", us)
	case us < 1000:
		return fmt.Sprintf("%.0f µs", us)
	case us < 1e6:
		return fmt.Sprintf("%.2f ms", us/1000)
	default:
		return fmt.Sprintf("%.3f s", us/1e6)
	}
}

// paintMode is how the chart's bars reach the GPU. FLAMEDESK_PAINT=frame|rects|image|paths overrides
// the default, for measuring on a given machine.
func paintMode() render.GioMode {
	switch os.Getenv("FLAMEDESK_PAINT") {
	case "paths":
		return render.GioPaths
	case "rects":
		return render.GioRects
	case "image":
		return render.GioImage
	case "frame":
		return render.GioFrame
	}
	// One image per frame: on Mesa's software GL it measured 20–25 ms per frame at p50 on
	// gen-trace-large where one draw per bar took 55–130 ms (scripts/framebench.sh).
	return render.GioFrame
}
