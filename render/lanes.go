package render

import (
	"image/color"
	"math"
	"sort"

	"flamedesk/timeline"
)

// The lanes above the threads (timeline.Lane) are drawn here as the Performance panel draws its
// tracks: requests as whisker, light box, solid box, whisker coloured by resource type;
// interactions as input delay, processing and presentation delay; layout shifts as diamonds over
// their clusters' bands; frames by kind; page-load markers as flags on the ruler whose lines cross
// every track. Long tasks on the thread tracks get their red corner and hatching in bars.

// LongTask is the duration past which a task is long, µs.
const LongTask = 50_000

var (
	networkInk = [...]color.NRGBA{
		timeline.NetDocument:       rgb(0x4c8df6),
		timeline.NetStylesheet:     rgb(0x9c6ade),
		timeline.NetScript:         rgb(0xe8a93c),
		timeline.NetImage:          rgb(0x5fb25c),
		timeline.NetMedia:          rgb(0x3fa99a),
		timeline.NetFont:           rgb(0x2e9cb8),
		timeline.NetFetch:          rgb(0xd88c4a),
		timeline.NetOther:          rgb(0x9aa0a6),
		timeline.NetWebSocket:      rgb(0x7f8a96),
		timeline.NetWebSocketEvent: rgb(0x3c4043),
	}
	frameInk = [...]color.NRGBA{
		timeline.FrameComplete: rgb(0xb8e0b0),
		timeline.FrameIdle:     rgb(0xeeeeee),
		timeline.FramePartial:  rgb(0xf6e08a),
		timeline.FrameDropped:  rgb(0xf0a8a0),
	}
	timingInk = [...]color.NRGBA{
		timeline.TimingMark:            rgb(0xd36ba2),
		timeline.TimingMeasure:         rgb(0xf4b6d2),
		timeline.TimingConsoleTime:     rgb(0xf6d08a),
		timeline.TimingTimeStamp:       rgb(0xe3a23a),
		timeline.TimingExtensionMarker: rgb(0x1a73e8),
		timeline.TimingNavigationStart: rgb(0x5f6368),
		timeline.TimingFCP:             rgb(0x188038),
		timeline.TimingLCP:             rgb(0x0d652d),
		timeline.TimingDCL:             rgb(0x1a5fd0),
		timeline.TimingLoad:            rgb(0xc5221f),
	}
	interactionInk   = rgb(0xc5a8f0)
	animationInk     = rgb(0xb38ee8)
	clusterInk       = rgba(0x9c6ade, 0x40)
	shiftInk         = rgb(0x7b3fc9)
	screenshotInk    = rgb(0xdadce0)
	warningInk       = rgb(0xd93025)
	extensionInks    = map[string]color.NRGBA{}
	extensionDefault = rgb(0x8ab4f8)
)

func init() {
	for name, c := range map[string]uint32{"primary": 0x1a73e8, "secondary": 0x9334e6, "tertiary": 0x1e8e3e, "error": 0xd93025,
		"warning": 0xf9ab00} {
		base := rgb(c)
		extensionInks[name] = base
		extensionInks[name+"-light"] = mix(base, rgb(0xffffff), 0.55)
		extensionInks[name+"-dark"] = mix(base, rgb(0x000000), 0.35)
	}
}

// laneInk is c as the lanes draw it on the theme's background: on a dark background the pale
// fills meant for white (idle and complete frames, screenshots, the WebSocket events' dark grey)
// become their dim counterparts, as the panel's dark theme has them, so that they neither glare
// nor vanish.
func (b *Builder) laneInk(c color.NRGBA) color.NRGBA {
	if b.laneInksOf != b.theme || b.laneInks == nil {
		b.laneInks, b.laneInksOf = map[color.NRGBA]color.NRGBA{}, b.theme
	}
	if got, ok := b.laneInks[c]; ok {
		return got
	}
	got := b.themedLaneInk(c)
	b.laneInks[c] = got
	return got
}

func (b *Builder) themedLaneInk(c color.NRGBA) color.NRGBA {
	if relativeLuminance(b.theme.Background) > 0.2 {
		return c
	}
	switch c {
	case frameInk[timeline.FrameIdle]:
		return mix(b.theme.Background, rgb(0xffffff), 0.08)
	case networkInk[timeline.NetWebSocketEvent]:
		return rgb(0xbdc1c6)
	case shiftInk:
		return rgb(0xa57ee8)
	case screenshotInk:
		return mix(b.theme.Background, rgb(0xffffff), 0.18)
	}
	// Pale fills keep their hue at a lower lightness.
	if relativeLuminance(c) > 0.55 {
		return mix(c, b.theme.Background, 0.55)
	}
	return c
}

// extensionInk is the colour an extension entry names, the panel's default otherwise.
func extensionInk(name any) color.NRGBA {
	if s, ok := name.(string); ok {
		if c, ok := extensionInks[s]; ok {
			return c
		}
	}
	return extensionDefault
}

// laneItemRect is where item i of lane l is drawn on its row: at least the merge width wide so
// that instants and tiny requests stay visible. ok is false when the item has no row.
func (b *Builder) laneItemRect(vp *timeline.Viewport, l *timeline.Lane, li int, i int32) (Rect, bool) {
	row := l.Row[i]
	if row < 0 || !l.Shown || l.Collapsed {
		return Rect{}, false
	}
	rowH := float32(b.Model.Style.RowHeight)
	y0 := b.rowY(vp, b.Model.LaneRowTop(li, int(row)))
	x0 := float32(math.Round(vp.TimeToPx(l.Start[i])))
	x1 := float32(math.Round(vp.TimeToPx(l.Start[i] + l.Dur[i])))
	if l.Dur[i] == 0 {
		half := rowH / 4
		return Rect{x0 - half, y0 + 1, x0 + half, y0 + rowH - 2}, true
	}
	if x1 < x0+1 {
		x1 = x0 + 1
	}
	if l.Kind == timeline.LaneScreenshots {
		return Rect{x0, y0, x1, y0 + float32(l.Rows)*rowH - 1}, true // the filmstrip fills the lane
	}
	return Rect{x0, y0, x1, y0 + rowH - 1}, true
}

// lanes draws the lanes' headers and items.
func (b *Builder) lanes(dst *DrawList, vp *timeline.Viewport, f *Frame) {
	m := b.Model
	if len(m.Lanes) == 0 {
		return
	}
	st := &b.Style
	rowH := m.Style.RowHeight
	top, bottom := vp.ScrollY(), vp.ScrollY()+vp.Height()
	width := float32(vp.Width())
	// Items reach a few pixels past their time (diamonds, labels): look that far outside.
	pad := vp.PxToDur(8)
	t0, t1 := vp.Start()-pad, vp.End()+pad
	ascent, descent := b.Text.Metrics(st.LabelFont)
	baseline := float32(rowH-1)/2 + (ascent-descent)/2
	label := func(r Rect, fill color.NRGBA, s string) {
		lx0, lx1 := max(r.X0, 0)+st.LabelPadding, min(r.X1, width)-st.LabelPadding
		if lx1-lx0 < st.MinLabelPx || s == "" {
			return
		}
		s = Drawable(s)
		n, cut := b.Text.Fit(st.LabelFont, s, lx1-lx0)
		if n > 0 {
			dst.addText(LayerText, lx0, r.Y0+baseline, st.LabelFont, b.theme.TextOn(fill), s, n, cut)
			dst.Stats.Labels++
		}
	}
	for li := range m.Lanes {
		l := &m.Lanes[li]
		if !l.Shown || l.Y+l.Height <= top || l.Y >= bottom {
			continue
		}
		b.laneHeader(dst, vp, l)
		if l.Collapsed {
			continue
		}
		if l.Kind == timeline.LaneMemory {
			b.memoryGraph(dst, vp, l, li)
			continue
		}
		firstRow := max(int(math.Floor((top-l.RowsY)/rowH)), 0)
		if l.Kind == timeline.LaneScreenshots {
			firstRow = 0 // its one row of items fills the lane
		}
		lastRow := min(int(math.Ceil((bottom-l.RowsY)/rowH)), l.Rows)
		for row := firstRow; row < lastRow; row++ {
			lastX := float32(math.Inf(-1))
			l.Visible(row, t0, t1, func(i int32) bool {
				r, _ := b.laneItemRect(vp, l, li, i)
				// Several items inside one pixel column: the first stands for them.
				if r.X1 <= lastX && r.X1-r.X0 <= 1 {
					return true
				}
				lastX = r.X1
				dst.Stats.Spans++
				b.laneItem(dst, vp, l, i, r, label)
				if f.Search.ContainsLane(timeline.LaneRef{Lane: int32(li), Item: i}) {
					dst.outline(LayerOutline, b.ui.search, r, 1)
				}
				return true
			})
		}
	}
	b.pageLoadFlags(dst, vp)
}

// laneItem draws one item in its rect r.
func (b *Builder) laneItem(dst *DrawList, vp *timeline.Viewport, l *timeline.Lane, i int32, r Rect, label func(Rect, color.NRGBA, string)) {
	tl := b.Model.Panel
	style := l.Style[i]
	px := func(t float64) float32 { return float32(math.Round(vp.TimeToPx(t))) }
	fill := func(c color.NRGBA, r Rect) { dst.rect(LayerBars, b.colorID(b.laneInk(c)), r) }
	mid := (r.Y0 + r.Y1) / 2
	whisker := func(c color.NRGBA, x0, x1 float32) {
		if x1 > x0 {
			fill(c, Rect{x0, mid - 0.5, x1, mid + 0.5})
		}
	}
	instant := l.Dur[i] == 0
	switch l.Kind {
	case timeline.LaneNetwork:
		c := networkInk[style]
		if style == timeline.NetWebSocketEvent {
			b.diamond(dst, r, b.laneInk(c))
			return
		}
		if style == timeline.NetWebSocket || tl == nil || int(l.Ref[i]) >= len(tl.Network) {
			fill(c, r)
			label(r, b.laneInk(c), l.Label[i])
			return
		}
		req := &tl.Network[l.Ref[i]]
		send := clampTime(float64(req.SendStartTime), l.Start[i], l.Start[i]+l.Dur[i])
		dl := clampTime(float64(req.DownloadStart), send, l.Start[i]+l.Dur[i])
		fin := clampTime(float64(req.FinishTime), dl, l.Start[i]+l.Dur[i])
		xs, xd, xf := px(send), px(dl), px(fin)
		light := mix(c, b.theme.Background, 0.55)
		whisker(c, r.X0, xs)
		inner := Rect{xs, r.Y0 + 2, max(xd, xs), r.Y1 - 2}
		fill(light, inner)
		solid := Rect{xd, r.Y0 + 2, max(xf, xd+1), r.Y1 - 2}
		fill(c, solid)
		whisker(c, solid.X1, r.X1)
		// Whisker ends, as the panel draws them.
		fill(c, Rect{r.X0, mid - 3, r.X0 + 1, mid + 3})
		if r.X1-r.X0 > 2 {
			fill(c, Rect{r.X1 - 1, mid - 3, r.X1, mid + 3})
		}
		// The label sits on the wider of the two boxes, and contrasts with that one.
		under := c
		if inner.X1-inner.X0 > solid.X1-solid.X0 {
			under = light
		}
		label(Rect{inner.X0, r.Y0, max(solid.X1, inner.X1), r.Y1}, b.laneInk(under), l.Label[i])
		if req.IsRenderBlocking {
			b.cornerTriangle(dst, Rect{r.X0, r.Y0, r.X0 + 7, r.Y1}, false)
		}
	case timeline.LaneFrames:
		c := frameInk[style]
		rr := r
		if rr.X1-rr.X0 >= 3 {
			rr.X1--
		}
		fill(c, rr)
		if style == timeline.FrameDropped || style == timeline.FramePartial {
			dst.Layers[LayerHighlight].Hatches = append(dst.Layers[LayerHighlight].Hatches, rr)
		}
	case timeline.LaneScreenshots:
		rr := r
		if rr.X1-rr.X0 >= 3 {
			rr.X1--
		}
		fill(screenshotInk, rr)
		dst.outline(LayerBars, b.ui.separator, rr, 1)
	case timeline.LaneAnimations:
		fill(animationInk, r)
		label(r, b.laneInk(animationInk), l.Label[i])
		if style == timeline.AnimationNonComposited {
			b.cornerTriangle(dst, r, true)
		}
	case timeline.LaneTimings:
		c := timingInk[style]
		if instant {
			b.diamond(dst, r, b.laneInk(c))
			return
		}
		fill(c, r)
		label(r, b.laneInk(c), l.Label[i])
	case timeline.LaneInteractions:
		if tl == nil || int(l.Ref[i]) >= len(tl.Interactions) {
			return
		}
		in := &tl.Interactions[l.Ref[i]]
		end := l.Start[i] + l.Dur[i]
		ps := clampTime(float64(in.ProcessingStart), l.Start[i], end)
		pe := clampTime(float64(in.ProcessingEnd), ps, end)
		xs, xe := px(ps), max(px(pe), px(ps)+1)
		whisker(shiftInk, r.X0, xs)
		fill(shiftInk, Rect{r.X0, mid - 3, r.X0 + 1, mid + 3})
		box := Rect{xs, r.Y0 + 1, xe, r.Y1 - 1}
		fill(interactionInk, box)
		whisker(shiftInk, xe, r.X1)
		if r.X1-r.X0 > 2 {
			fill(shiftInk, Rect{r.X1 - 1, mid - 3, r.X1, mid + 3})
		}
		label(box, b.laneInk(interactionInk), l.Label[i])
		if style == timeline.InteractionLong {
			x200 := px(l.Start[i] + timeline.LongInteraction)
			if r.X1 > x200 {
				dst.Layers[LayerHighlight].Hatches = append(dst.Layers[LayerHighlight].Hatches, Rect{max(x200, r.X0), r.Y0, r.X1, r.Y1})
			}
			b.cornerTriangle(dst, Rect{r.X0, r.Y0, max(xe, r.X0+8), r.Y1}, true)
		}
	case timeline.LaneLayoutShifts:
		if style == timeline.ShiftCluster {
			fill(clusterInk, r)
			return
		}
		// The diamond grows with the score: a third of the row for a tiny shift, the whole row
		// from a score of 0.25.
		h := r.Y1 - r.Y0
		s := h/3 + (h-h/3)*float32(min(max(l.Value[i], 0)/0.25, 1))
		cx, cy := (r.X0+r.X1)/2, (r.Y0+r.Y1)/2
		b.diamond(dst, Rect{cx - s/2, cy - s/2, cx + s/2, cy + s/2}, b.laneInk(shiftInk))
	case timeline.LaneExtension:
		c := extensionDefault
		if tl != nil && l.ExtGroup < len(tl.Extension) && l.ExtTrack < len(tl.Extension[l.ExtGroup].Tracks) {
			if es := tl.Extension[l.ExtGroup].Tracks[l.ExtTrack].Entries; int(l.Ref[i]) < len(es) {
				c = extensionInk(es[l.Ref[i]].Color)
			}
		}
		if instant {
			b.diamond(dst, r, b.laneInk(c))
			return
		}
		fill(c, r)
		label(r, b.laneInk(c), l.Label[i])
	}
}

func clampTime(t, lo, hi float64) float64 {
	if math.IsNaN(t) {
		return lo
	}
	return min(max(t, lo), hi)
}

// diamond fills a diamond inscribed in r.
func (b *Builder) diamond(dst *DrawList, r Rect, c color.NRGBA) {
	cx, cy := (r.X0+r.X1)/2, (r.Y0+r.Y1)/2
	tris := &dst.Layers[LayerBars].Triangles
	*tris = append(*tris,
		Triangle{Pts: [3][2]float32{{r.X0, cy}, {cx, r.Y0}, {r.X1, cy}}, Color: c},
		Triangle{Pts: [3][2]float32{{r.X0, cy}, {r.X1, cy}, {cx, r.Y1}}, Color: c})
}

// cornerTriangle is the panel's red warning corner, at the top right of r (or top left).
func (b *Builder) cornerTriangle(dst *DrawList, r Rect, right bool) {
	s := min(float32(7), r.X1-r.X0, r.Y1-r.Y0)
	if s < 3 {
		return
	}
	t := Triangle{Color: warningInk}
	if right {
		t.Pts = [3][2]float32{{r.X1 - s, r.Y0}, {r.X1, r.Y0}, {r.X1, r.Y0 + s}}
	} else {
		t.Pts = [3][2]float32{{r.X0, r.Y0}, {r.X0 + s, r.Y0}, {r.X0, r.Y0 + s}}
	}
	dst.Layers[LayerOutline].Triangles = append(dst.Layers[LayerOutline].Triangles, t)
}

// laneHeader draws a lane's header row like a thread's.
func (b *Builder) laneHeader(dst *DrawList, vp *timeline.Viewport, l *timeline.Lane) {
	st := &b.Style
	h := float32(b.Model.Style.TrackHeaderHeight)
	width := float32(vp.Width())
	y0 := b.rowY(vp, l.Y)
	y1 := y0 + h
	dst.rect(LayerBackground, b.ui.trackBg, Rect{0, y0, width, y1})
	dst.rect(LayerGrid, b.ui.separator, Rect{0, y1 - 1, width, y1})
	ink := b.theme.TrackText
	cx, cy, r := st.HeaderIndent/2, (y0+y1-1)/2, h*0.18
	tri := Triangle{Color: ink}
	if !l.Collapsed {
		tri.Pts = [3][2]float32{{cx - r, cy - r*0.6}, {cx + r, cy - r*0.6}, {cx, cy + r*0.8}}
	} else {
		tri.Pts = [3][2]float32{{cx - r*0.6, cy - r}, {cx - r*0.6, cy + r}, {cx + r*0.8, cy}}
	}
	dst.Layers[LayerText].Triangles = append(dst.Layers[LayerText].Triangles, tri)
	ascent, descent := b.Text.Metrics(st.TrackFont)
	title := Drawable(l.Title())
	if n, cut := b.Text.Fit(st.TrackFont, title, width-st.HeaderIndent-4); n > 0 {
		dst.addText(LayerText, st.HeaderIndent, cy+(ascent-descent)/2, st.TrackFont, ink, title, n, cut)
	}
}

// pageLoadLineAlpha is the opacity of a page-load marker's line across the tracks.
const pageLoadLineAlpha = 0xb0

// pageLoadFlags draws the page-load markers of the Timings lane: a labelled flag on the ruler
// and a line down through every track.
func (b *Builder) pageLoadFlags(dst *DrawList, vp *timeline.Viewport) {
	m := b.Model
	st := &b.Style
	width := float32(vp.Width())
	for li := range m.Lanes {
		l := &m.Lanes[li]
		if l.Kind != timeline.LaneTimings || !l.Shown {
			continue
		}
		ascent, descent := b.Text.Metrics(st.RulerFont)
		for i := range l.Start {
			if l.Row[i] >= 0 {
				continue
			}
			x := float32(math.Round(vp.TimeToPx(l.Start[i])))
			if x < -1 || x > width+1 {
				continue
			}
			c := timingInk[l.Style[i]]
			dst.rect(LayerHighlight, b.colorID(color.NRGBA{R: c.R, G: c.G, B: c.B, A: pageLoadLineAlpha}), Rect{x, st.RulerHeight, x + 1, float32(dst.Height)})
			// A flag's label stops short of the next flag, so that close markers (FCP and LCP
			// often share a frame) stay legible instead of printing over each other.
			next := float32(math.Inf(1))
			for j := range l.Start {
				if l.Row[j] >= 0 || j == i {
					continue
				}
				xj := float32(math.Round(vp.TimeToPx(l.Start[j])))
				if xj > x || (xj == x && j > i) {
					next = min(next, xj)
				}
			}
			name := l.Label[i]
			w := min(b.Text.Width(st.RulerFont, name)+6, max(next-x, 3))
			flag := Rect{x, st.RulerHeight - ascent - descent - 4, x + w, st.RulerHeight}
			dst.rect(LayerRulerText, b.colorID(c), flag)
			if n, cut := b.Text.Fit(st.RulerFont, name, w-6); n > 0 {
				dst.addText(LayerRulerText, x+3, st.RulerHeight-descent-2, st.RulerFont, rgb(0xffffff), name, n, cut)
			}
		}
	}
}

// memorySeries is one counter of the memory lane: items [from, to), their value range, and the
// least and greatest values of each block of 2^k points (levels[k-1][j] covers points
// from+j·2^k …), so that a pixel column's range costs O(log points) whatever the zoom.
type memorySeries struct {
	from, to int
	lo, hi   float64
	mins     [][]float64
	maxs     [][]float64
}

// memorySeriesOf splits the memory lane into its counters, once per lane.
func (b *Builder) memorySeriesOf(l *timeline.Lane) []memorySeries {
	if b.memLane == l && b.memLen == l.Len() {
		return b.memSeries
	}
	b.memLane, b.memLen, b.memSeries = l, l.Len(), b.memSeries[:0]
	for s := 0; s < l.Len(); {
		e := s
		lo, hi := math.Inf(1), math.Inf(-1)
		for e < l.Len() && l.Label[e] == l.Label[s] && l.Ref[e] == l.Ref[s] {
			lo, hi = min(lo, l.Value[e]), max(hi, l.Value[e])
			e++
		}
		sr := memorySeries{from: s, to: e, lo: lo, hi: hi}
		prevMin, prevMax := l.Value[s:e], l.Value[s:e]
		for len(prevMin) > 1 {
			n := len(prevMin) / 2
			mins, maxs := make([]float64, n), make([]float64, n)
			for j := range n {
				mins[j], maxs[j] = min(prevMin[2*j], prevMin[2*j+1]), max(prevMax[2*j], prevMax[2*j+1])
			}
			sr.mins, sr.maxs = append(sr.mins, mins), append(sr.maxs, maxs)
			prevMin, prevMax = mins, maxs
		}
		b.memSeries = append(b.memSeries, sr)
		s = e
	}
	return b.memSeries
}

// rangeOf is the least and greatest value of the series' points [a, b) (absolute indexes).
func (sr *memorySeries) rangeOf(l *timeline.Lane, a, b int) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for a < b {
		rel := a - sr.from
		k := 0 // the largest aligned block that starts at a and ends by b
		for k < len(sr.mins) && rel%(2<<k) == 0 && a+(2<<k) <= b {
			k++
		}
		if k == 0 {
			lo, hi = min(lo, l.Value[a]), max(hi, l.Value[a])
		} else {
			lo, hi = min(lo, sr.mins[k-1][rel>>k]), max(hi, sr.maxs[k-1][rel>>k])
		}
		a += 1 << k
	}
	return lo, hi
}

// memoryGraph draws each counter of the memory lane as a step graph across the lane's height,
// scaled to the counter's own range. The points inside one pixel column become one vertical bar
// from their least to their greatest value (the riser from the step before included), found in
// O(log points), so a frame costs a few rects per column whatever the zoom.
func (b *Builder) memoryGraph(dst *DrawList, vp *timeline.Viewport, l *timeline.Lane, li int) {
	m := b.Model
	y0 := b.rowY(vp, m.LaneRowTop(li, 0))
	h := float32(float64(l.Rows)*m.Style.RowHeight) - 2
	width := float32(vp.Width())
	t0 := vp.Start()
	series := b.memorySeriesOf(l)
	for si := range series {
		sr := &series[si]
		c := b.colorID(memoryInks[si%len(memoryInks)])
		yOf := func(v float64) float32 {
			frac := float32(0.5)
			if sr.hi > sr.lo {
				frac = float32((v - sr.lo) / (sr.hi - sr.lo))
			}
			return y0 + h - frac*h
		}
		// The step in force at the window's start, then one pixel column at a time.
		k := sr.from + sort.Search(sr.to-sr.from, func(j int) bool { return l.Start[sr.from+j] > t0 })
		k = max(k-1, sr.from)
		prevY := float32(math.NaN())
		for k < sr.to {
			x0 := float32(math.Floor(vp.TimeToPx(l.Start[k])))
			if x0 > width {
				break
			}
			// The points of this column: up to the first one in the next.
			next := vp.PxToTime(float64(x0) + 1)
			end := k + 1 + sort.Search(sr.to-k-1, func(j int) bool { return l.Start[k+1+j] >= next })
			lo, hi := sr.rangeOf(l, k, end)
			yLo, yHi := yOf(hi), yOf(lo)
			if !math.IsNaN(float64(prevY)) {
				yLo, yHi = min(yLo, prevY), max(yHi, prevY)
			}
			dst.rect(LayerBars, c, Rect{max(x0, -1), yLo, max(x0, -1) + 1, yHi + 1})
			// The last point's step runs on to the next point's column.
			y := yOf(l.Value[end-1])
			x1 := width
			if end < sr.to {
				x1 = float32(math.Floor(vp.TimeToPx(l.Start[end])))
			}
			if x1 > x0+1 {
				dst.rect(LayerBars, c, Rect{max(x0+1, -1), y, min(x1, width+1), y + 1})
			}
			prevY = y
			k = end
		}
	}
}

var memoryInks = []color.NRGBA{rgb(0x1a73e8), rgb(0xd93025), rgb(0x188038), rgb(0xf9ab00), rgb(0x9334e6)}

// laneHighlights washes the lane item under the pointer and outlines the selected one.
func (b *Builder) laneHighlights(dst *DrawList, vp *timeline.Viewport, f *Frame) {
	m := b.Model
	item := func(ref timeline.LaneRef) (Rect, bool) {
		if !ref.Valid() || int(ref.Lane) >= len(m.Lanes) || int(ref.Item) >= m.Lanes[ref.Lane].Len() {
			return Rect{}, false
		}
		return b.laneItemRect(vp, &m.Lanes[ref.Lane], int(ref.Lane), ref.Item)
	}
	switch f.Hover.Kind {
	case timeline.HitLaneItem:
		if r, ok := item(f.Hover.Lane); ok {
			dst.rect(LayerHighlight, b.ui.hover, r)
		}
	case timeline.HitLaneHeader:
		if li := int(f.Hover.Lane.Lane); li >= 0 && li < len(m.Lanes) && m.Lanes[li].Shown {
			y := b.rowY(vp, m.Lanes[li].Y)
			dst.rect(LayerHighlight, b.ui.headerHover, Rect{0, y, float32(vp.Width()), y + float32(m.Style.TrackHeaderHeight)})
		}
	}
	if f.HasLaneSelection {
		if r, ok := item(f.LaneSelection); ok {
			dst.outline(LayerOutline, b.ui.selection, Rect{r.X0 - 1, r.Y0 - 1, r.X1 + 1, r.Y1 + 1}, 2)
		}
	}
}

// isLongTask tells a top-level task of a thread track that ran over LongTask.
func (b *Builder) isLongTask(tk *timeline.Track, e int32) bool {
	if b.runTask < 0 {
		return false
	}
	ct := tk.Core
	return ct.DepthAt(int(e)) == 0 && int32(ct.NameAt(int(e))) == b.runTask && ct.DurAt(int(e)) > LongTask
}

// longTask marks a long task's bar r: the red corner, and hatching over its time past LongTask.
func (b *Builder) longTask(dst *DrawList, vp *timeline.Viewport, tk *timeline.Track, e int32, r Rect) {
	x := float32(math.Round(vp.TimeToPx(tk.Core.StartAt(int(e)) + LongTask)))
	if x < r.X1 {
		dst.Layers[LayerHighlight].Hatches = append(dst.Layers[LayerHighlight].Hatches, Rect{max(x, r.X0), r.Y0, r.X1, r.Y1})
	}
	b.cornerTriangle(dst, r, true)
}

// LaneItemInk is the colour the body of lane item i is filled with on theme th: a request's
// solid box, an interaction's processing box, a frame, a screenshot, a timing's bar or diamond, an
// extension entry, a page-load flag. Tests find the items in screenshots by it.
func LaneItemInk(m *timeline.Model, l *timeline.Lane, i int32, th *Theme) color.NRGBA {
	b := &Builder{Model: m, theme: th}
	style := l.Style[i]
	switch l.Kind {
	case timeline.LaneNetwork:
		return b.laneInk(networkInk[style])
	case timeline.LaneFrames:
		return b.laneInk(frameInk[style])
	case timeline.LaneScreenshots:
		return b.laneInk(screenshotInk)
	case timeline.LaneAnimations:
		return b.laneInk(animationInk)
	case timeline.LaneTimings:
		if l.Row[i] < 0 {
			return timingInk[style] // a flag keeps its colour on either theme
		}
		return b.laneInk(timingInk[style])
	case timeline.LaneInteractions:
		return b.laneInk(interactionInk)
	case timeline.LaneLayoutShifts:
		if style == timeline.ShiftCluster {
			return clusterInk
		}
		return b.laneInk(shiftInk)
	case timeline.LaneExtension:
		if tl := m.Panel; tl != nil && l.ExtGroup < len(tl.Extension) && l.ExtTrack < len(tl.Extension[l.ExtGroup].Tracks) {
			if es := tl.Extension[l.ExtGroup].Tracks[l.ExtTrack].Entries; int(l.Ref[i]) < len(es) {
				return b.laneInk(extensionInk(es[l.Ref[i]].Color))
			}
		}
		return b.laneInk(extensionDefault)
	}
	return th.Background
}

// PageLoadLineInk is the colour of a page-load marker's line where it crosses the background.
func PageLoadLineInk(c color.NRGBA, th *Theme) color.NRGBA {
	return mix(th.Background, c, float64(pageLoadLineAlpha)/255)
}
