package render

import (
	"image/color"
	"math"

	"flamedesk/core"
	"flamedesk/timeline"
)

// Style sizes what Build draws, in pixels. Row heights come from the model's LayoutStyle; scale
// both together for a high-density display (Scaled).
type Style struct {
	RulerHeight float32
	// MinBarPx is the merge width: runs of entries narrower than this merge into one span.
	MinBarPx float64
	// LabelPadding is the space left free inside a bar on each side of its label; a bar whose
	// inside is narrower than MinLabelPx gets no label.
	LabelPadding, MinLabelPx float32
	// TickSpacing is the least distance between the ruler's ticks.
	TickSpacing float32
	LabelFont   Font // bar labels
	TrackFont   Font // thread header titles
	GroupFont   Font // process header titles
	RulerFont   Font // ruler labels
	// HeaderIndent is where header titles start, after the disclosure arrow.
	HeaderIndent float32
}

// DefaultStyle is the style at scale 1, matching timeline.DefaultLayoutStyle.
func DefaultStyle() Style {
	return Style{
		RulerHeight:  20,
		MinBarPx:     3,
		LabelPadding: 3,
		MinLabelPx:   12,
		TickSpacing:  90,
		LabelFont:    Font{Size: 11},
		TrackFont:    Font{Size: 11},
		GroupFont:    Font{Size: 12, Bold: true},
		RulerFont:    Font{Size: 10},
		HeaderIndent: 20,
	}
}

// Scaled multiplies every size of s by k. Scale the model's timeline.LayoutStyle by the same
// factor (and call Model.Relayout), so that labels keep fitting their rows.
func (s Style) Scaled(k float32) Style {
	s.RulerHeight *= k
	s.MinBarPx *= float64(k)
	s.LabelPadding *= k
	s.MinLabelPx *= k
	s.TickSpacing *= k
	s.LabelFont.Size *= k
	s.TrackFont.Size *= k
	s.GroupFont.Size *= k
	s.RulerFont.Size *= k
	s.HeaderIndent *= k
	return s
}

// Frame is the per-frame input of Build besides the model and the viewport.
type Frame struct {
	Width, Height int    // of the whole chart, ruler included
	Theme         *Theme // nil is Light(); a Theme must not be changed while in use
	// Selection is outlined, in the merged span that holds it when zoomed out. Set it to
	// timeline.NoEntry for none: the zero EntryRef is the first entry of the first track.
	Selection timeline.EntryRef
	// Hover is what the pointer is on (Model.HitTest): a span gets a wash, a header a tint.
	Hover timeline.Hit
	// Search highlights its matches and dims the rest; nil or empty for no search.
	Search *timeline.SearchResult
	// RangeStart < RangeEnd (absolute µs) washes a selected time range.
	RangeStart, RangeEnd float64
	// LaneSelection is the selected item of a lane (network request, interaction…), outlined
	// when HasLaneSelection.
	LaneSelection    timeline.LaneRef
	HasLaneSelection bool
}

// Builder builds draw lists for one model. It keeps what stays valid across frames — the colour
// of each script and event name, text widths, the colour table — so that a frame costs only what
// it shows. Not safe for concurrent use.
type Builder struct {
	Model *timeline.Model
	Style Style
	Text  *TextMeasurer

	theme *Theme
	// frameStyle and nameStyle cache the palette entry (plus one; 0 is "not yet") of each call
	// frame and of each event name.
	frameStyle []uint16
	nameStyle  []uint16
	styles     []styleKey
	styleIndex map[styleKey]uint16
	styleInk   []ink // per style, in the current theme

	colors   []color.NRGBA
	colorIDs map[color.NRGBA]uint16
	counts   []int32
	ui       uiInk
	// groupTitles caches Group.Title, which formats.
	groupTitles []string
	// diffLevels, when set, colours each ProfileCall by its frame's diff level (SetDiffLevels).
	diffLevels []int8
	// runTask is the name of a task event (core.StrID), -1 when the trace has none.
	runTask int32
	// memSeries caches the counters of the memory lane memLane (of memLen items).
	memLane   *timeline.Lane
	memLen    int
	memSeries []memorySeries
	// laneInks caches laneInk's colours for the theme laneInksOf.
	laneInks   map[color.NRGBA]color.NRGBA
	laneInksOf *Theme
}

// styleKey names a bar colour independently of the theme: a category, a URL hue and saturation,
// or "no URL".
type styleKey struct {
	kind     uint8 // styleCategory, styleURL, styleNoURL
	cat      Category
	hue, sat uint16
}

const (
	styleCategory = iota
	styleURL
	styleNoURL
	styleDiff // hue holds the diff level + DiffLevels
)

// ink is a style's colours as colour-table ids: fill and text, normal and dimmed.
type ink struct{ fill, text, dimFill, dimText uint16 }

// uiInk is the theme's chrome colours as colour-table ids.
type uiInk struct {
	grid, rulerBg, rulerTick, groupBg, trackBg, separator, headerHover uint16
	selection, hover, search, rangeFill                                uint16
}

// NewBuilder returns a builder for m with DefaultStyle.
func NewBuilder(m *timeline.Model) *Builder {
	return &Builder{
		Model:      m,
		Style:      DefaultStyle(),
		Text:       NewTextMeasurer(),
		frameStyle: make([]uint16, len(m.Trace.Frames)),
		nameStyle:  make([]uint16, m.Trace.Strings.Len()),
		styleIndex: map[styleKey]uint16{},
		colorIDs:   map[color.NRGBA]uint16{},
		runTask:    lookupName(m, "RunTask"),
	}
}

func lookupName(m *timeline.Model, name string) int32 {
	if id, ok := m.Trace.Strings.Lookup(name); ok {
		return int32(id)
	}
	return -1
}

// colorID interns a colour in the colour table that batches are keyed by.
func (b *Builder) colorID(c color.NRGBA) uint16 {
	if id, ok := b.colorIDs[c]; ok {
		return id
	}
	if len(b.colors) >= math.MaxUint16 {
		// Not reachable with the colours a theme can make (about a thousand); keep working.
		return 0
	}
	id := uint16(len(b.colors))
	b.colors = append(b.colors, c)
	b.colorIDs[c] = id
	return id
}

func (b *Builder) setTheme(t *Theme) {
	if t == b.theme {
		return
	}
	b.theme = t
	b.styleInk = b.styleInk[:0]
	for _, k := range b.styles {
		b.styleInk = append(b.styleInk, b.inkFor(k))
	}
	b.ui = uiInk{
		grid: b.colorID(t.Grid), rulerBg: b.colorID(t.RulerBackground), rulerTick: b.colorID(t.RulerTick),
		groupBg: b.colorID(t.GroupHeader), trackBg: b.colorID(t.TrackHeader), separator: b.colorID(t.Separator),
		headerHover: b.colorID(t.HeaderHover), selection: b.colorID(t.Selection), hover: b.colorID(t.Hover),
		search: b.colorID(t.SearchMatch), rangeFill: b.colorID(t.RangeFill),
	}
}

func (b *Builder) inkFor(k styleKey) ink {
	t := b.theme
	var fill color.NRGBA
	switch k.kind {
	case styleCategory:
		fill = t.Categories[k.cat]
	case styleURL:
		fill = hsl(float64(k.hue), float64(k.sat)/100, t.URLLightness)
	case styleDiff:
		fill = t.DiffLevelColor(int8(int(k.hue) - DiffLevels))
	default:
		fill = t.NoURL
	}
	dim := mix(fill, t.Background, t.Dim)
	return ink{
		fill: b.colorID(fill), text: b.colorID(t.TextOn(fill)),
		dimFill: b.colorID(dim), dimText: b.colorID(mix(t.TextOn(fill), dim, 0.5)),
	}
}

func (b *Builder) style(k styleKey) uint16 {
	if id, ok := b.styleIndex[k]; ok {
		return id
	}
	id := uint16(len(b.styles))
	b.styles = append(b.styles, k)
	b.styleIndex[k] = id
	b.styleInk = append(b.styleInk, b.inkFor(k))
	return id
}

// entryStyle is the palette entry of an entry: ProfileCalls by their script's URL (V8's
// pseudo-frames by category), trace events by category.
func (b *Builder) entryStyle(ct *core.Track, e int32) uint16 {
	tr := b.Model.Trace
	if ct.KindAt(int(e)) == core.EntryProfileCall {
		f := ct.FrameAt(int(e))
		if int(f) < len(b.frameStyle) {
			if s := b.frameStyle[f]; s != 0 {
				return s - 1
			}
			key := b.frameKey(&tr.Frames[f])
			if b.diffLevels != nil {
				level := 0
				if int(f) < len(b.diffLevels) {
					level = int(min(max(b.diffLevels[f], -DiffLevels), DiffLevels))
				}
				key = styleKey{kind: styleDiff, hue: uint16(level + DiffLevels)}
			}
			s := b.style(key)
			b.frameStyle[f] = s + 1
			return s
		}
		return b.style(styleKey{kind: styleNoURL})
	}
	name := ct.NameAt(int(e))
	if int(name) < len(b.nameStyle) {
		if s := b.nameStyle[name]; s != 0 {
			return s - 1
		}
	}
	// The category of a name that DevTools does not know comes from the first event seen with
	// it; one name rarely changes trace category.
	var cat string
	if ref := ct.RefAt(int(e)); ref >= 0 && int(ref) < len(tr.Events.Cat) {
		cat = tr.Strings.Get(tr.Events.Cat[ref])
	}
	s := b.style(styleKey{kind: styleCategory, cat: EventCategory(tr.Strings.Get(name), cat)})
	if int(name) < len(b.nameStyle) {
		b.nameStyle[name] = s + 1
	}
	return s
}

// SetDiffLevels switches the flame chart to diff colours: each ProfileCall takes the colour of
// its frame's level (DiffShades.FrameLevels, indexed by FrameID); nil goes back to colours by
// script. Trace events keep their category colours.
func (b *Builder) SetDiffLevels(levels []int8) {
	b.diffLevels = levels
	clear(b.frameStyle)
}

func (b *Builder) frameKey(f *core.CallFrame) styleKey {
	tr := b.Model.Trace
	if cat, ok := callCategory(tr.Strings.Get(f.FunctionName)); ok {
		return styleKey{kind: styleCategory, cat: cat}
	}
	url := tr.Strings.Get(f.URL)
	if url == "" {
		return styleKey{kind: styleNoURL}
	}
	h, s := URLHue(url)
	return styleKey{kind: styleURL, hue: uint16(h), sat: uint16(math.Round(s * 100))}
}

// defaultTheme is the theme of a Frame without one.
var defaultTheme = Light()

// EntryColor is the fill colour of an entry's bar in theme t (nil for Light).
func (b *Builder) EntryColor(r timeline.EntryRef, t *Theme) color.NRGBA {
	if t == nil {
		t = defaultTheme
	}
	b.setTheme(t)
	return b.colors[b.styleInk[b.entryStyle(b.Model.Tracks[r.Track].Core, r.Entry)].fill]
}

// Build fills dst with the frame that vp shows, replacing what dst held. It sizes vp to the chart
// area (the frame minus the ruler) and clamps its vertical scroll to the model's content. The
// cost is proportional to what is visible, and nothing is allocated once dst and the builder's
// caches have grown.
func (b *Builder) Build(dst *DrawList, vp *timeline.Viewport, f *Frame) {
	t := f.Theme
	if t == nil {
		t = defaultTheme
	}
	b.setTheme(t)
	st := &b.Style
	m := b.Model
	width, height := max(f.Width, 1), max(f.Height, 1)
	dst.reset(width, height)
	dst.Background = t.Background
	dst.Hatch = Hatch{Color: t.Hatch, Period: 6, Width: 2}
	chartTop := float64(st.RulerHeight)
	vp.SetSize(float64(width), max(float64(height)-chartTop, 0))
	vp.SetContentHeight(m.ContentHeight())

	b.ruler(dst, vp, f)
	b.headers(dst, vp, f)
	b.bars(dst, vp, f)
	b.lanes(dst, vp, f)
	b.highlights(dst, vp, f)
	b.laneHighlights(dst, vp, f)
	b.counts = dst.batch(b.colors, b.counts)
}

// rowY is the frame y of content y.
func (b *Builder) rowY(vp *timeline.Viewport, contentY float64) float32 {
	return float32(contentY - vp.ScrollY() + float64(b.Style.RulerHeight))
}

func (b *Builder) bars(dst *DrawList, vp *timeline.Viewport, f *Frame) {
	m := b.Model
	st := &b.Style
	rowH := m.Style.RowHeight
	top, bottom := vp.ScrollY(), vp.ScrollY()+vp.Height()
	t0, t1 := vp.Start(), vp.End()
	minW := vp.PxToDur(st.MinBarPx)
	width := float32(vp.Width())
	searching := f.Search.Len() > 0
	ascent, descent := b.Text.Metrics(st.LabelFont)
	baseline := float32(rowH-1)/2 + (ascent-descent)/2
	for _, ti := range m.ShownTracks() {
		tk := &m.Tracks[ti]
		if tk.Collapsed || tk.RowsY >= bottom || tk.Y+tk.Height <= top {
			continue
		}
		firstLevel := max(int(math.Floor((top-tk.RowsY)/rowH)), 0)
		lastLevel := min(int(math.Ceil((bottom-tk.RowsY)/rowH)), len(tk.Levels))
		for li := firstLevel; li < lastLevel; li++ {
			y0 := b.rowY(vp, tk.RowsY+float64(li)*rowH)
			y1 := y0 + float32(rowH) - 1
			if !tk.Placed(li) {
				// A row the model is still placing (timeline.Model.PlaceRest): hatched, so that
				// it does not read as empty.
				dst.Layers[LayerBars].Hatches = append(dst.Layers[LayerBars].Hatches, Rect{0, y0, width, y1})
				continue
			}
			lv := &tk.Levels[li]
			it := lv.Spans(tk.Core, t0, t1, minW)
			for {
				s, ok := it.Next()
				if !ok {
					break
				}
				e := s.Entry(lv)
				x0f, x1f := timeline.SnapSpan(vp, s)
				x0, x1 := float32(max(x0f, -1)), float32(min(x1f, float64(width)+1))
				merged := s.Merged()
				in := b.styleInk[b.entryStyle(tk.Core, e)]
				fill, text := in.fill, in.text
				if searching {
					var hit bool
					if merged {
						hit = f.Search.AnyIn(ti, li, s)
					} else {
						hit = f.Search.Contains(timeline.EntryRef{Track: ti, Entry: e})
					}
					if hit {
						dst.outline(LayerOutline, b.ui.search, Rect{x0, y0, x1, y1}, 1)
					} else {
						fill, text = in.dimFill, in.dimText
					}
				}
				r := Rect{x0, y0, x1, y1}
				if x1-x0 >= 4 {
					r.X1-- // a pixel of air between neighbours
				}
				dst.rect(LayerBars, fill, r)
				dst.Stats.Spans++
				if merged {
					dst.Stats.Merged++
					if r.X1-r.X0 >= 4 {
						dst.Layers[LayerBars].Hatches = append(dst.Layers[LayerBars].Hatches, r)
					}
					continue
				}
				if b.isLongTask(tk, e) {
					b.longTask(dst, vp, tk, e, r)
				}
				// The label sits in the visible part of the bar.
				lx0, lx1 := max(r.X0, 0)+st.LabelPadding, min(r.X1, width)-st.LabelPadding
				if lx1-lx0 < st.MinLabelPx {
					continue
				}
				name := m.EntryName(timeline.EntryRef{Track: ti, Entry: e})
				n, cut := b.Text.Fit(st.LabelFont, name, lx1-lx0)
				if n == 0 {
					continue
				}
				dst.addText(LayerText, lx0, y0+baseline, st.LabelFont, b.colors[text], name, n, cut)
				dst.Stats.Labels++
			}
		}
	}
}

func (b *Builder) highlights(dst *DrawList, vp *timeline.Viewport, f *Frame) {
	m := b.Model
	width := float32(vp.Width())
	chartTop := b.Style.RulerHeight
	if f.RangeEnd > f.RangeStart {
		x0 := float32(max(math.Round(vp.TimeToPx(f.RangeStart)), -1))
		x1 := float32(min(math.Round(vp.TimeToPx(f.RangeEnd)), float64(width)+1))
		if x1 > x0 {
			dst.rect(LayerHighlight, b.ui.rangeFill, Rect{x0, chartTop, x1, float32(dst.Height)})
			dst.rect(LayerRulerText, b.ui.rangeFill, Rect{x0, 0, x1, chartTop})
		}
	}
	spanRect := func(ti timeline.TrackID, level int, s timeline.Span) (Rect, bool) {
		if ti < 0 || int(ti) >= len(m.Tracks) {
			return Rect{}, false
		}
		tk := &m.Tracks[ti]
		if !tk.Shown || tk.Collapsed || !tk.Placed(level) {
			return Rect{}, false
		}
		y0 := b.rowY(vp, m.RowTop(ti, level))
		if y0+float32(m.Style.RowHeight) <= chartTop || y0 >= float32(dst.Height) {
			return Rect{}, false
		}
		x0, x1 := timeline.SnapSpan(vp, s)
		return Rect{float32(max(x0, -2)), y0, float32(min(x1, float64(width)+2)), y0 + float32(m.Style.RowHeight) - 1}, true
	}
	switch f.Hover.Kind {
	case timeline.HitEntry:
		if r, ok := spanRect(f.Hover.Track, f.Hover.Level, f.Hover.Span); ok {
			dst.rect(LayerHighlight, b.ui.hover, r)
		}
	case timeline.HitTrackHeader:
		// A hit from before the model changed may name a track that is gone or hidden now.
		if ti := f.Hover.Track; ti >= 0 && int(ti) < len(m.Tracks) && m.Tracks[ti].Shown {
			y := b.rowY(vp, m.Tracks[ti].Y)
			dst.rect(LayerHighlight, b.ui.headerHover, Rect{0, y, width, y + float32(m.Style.TrackHeaderHeight)})
		}
	case timeline.HitGroupHeader:
		if gi := f.Hover.Group; gi >= 0 && gi < len(m.Groups) && !m.Groups[gi].Hidden {
			y := b.rowY(vp, m.Groups[gi].Y)
			dst.rect(LayerHighlight, b.ui.headerHover, Rect{0, y, width, y + float32(m.Style.GroupHeaderHeight)})
		}
	}
	if level, s, ok := m.SpanOf(vp, f.Selection, b.Style.MinBarPx); ok {
		if r, ok := spanRect(f.Selection.Track, level, s); ok {
			r.X0, r.Y0, r.X1, r.Y1 = r.X0-1, r.Y0-1, r.X1+1, r.Y1+1
			dst.outline(LayerOutline, b.ui.selection, r, 2)
		}
	}
}

func (b *Builder) headers(dst *DrawList, vp *timeline.Viewport, f *Frame) {
	m := b.Model
	st := &b.Style
	t := b.theme
	width := float32(vp.Width())
	top, bottom := vp.ScrollY(), vp.ScrollY()+vp.Height()
	header := func(contentY, h float64, bg uint16, font Font, ink color.NRGBA, title string, open bool) {
		if contentY+h <= top || contentY >= bottom {
			return
		}
		y0 := b.rowY(vp, contentY)
		y1 := y0 + float32(h)
		dst.rect(LayerBackground, bg, Rect{0, y0, width, y1})
		dst.rect(LayerGrid, b.ui.separator, Rect{0, y1 - 1, width, y1})
		// The disclosure arrow: pointing down when open, right when collapsed.
		cx, cy, r := st.HeaderIndent/2, (y0+y1-1)/2, float32(h)*0.18
		tri := Triangle{Color: ink}
		if open {
			tri.Pts = [3][2]float32{{cx - r, cy - r*0.6}, {cx + r, cy - r*0.6}, {cx, cy + r*0.8}}
		} else {
			tri.Pts = [3][2]float32{{cx - r*0.6, cy - r}, {cx - r*0.6, cy + r}, {cx + r*0.8, cy}}
		}
		dst.Layers[LayerText].Triangles = append(dst.Layers[LayerText].Triangles, tri)
		ascent, descent := b.Text.Metrics(font)
		n, cut := b.Text.Fit(font, title, width-st.HeaderIndent-4)
		if n > 0 {
			dst.addText(LayerText, st.HeaderIndent, (y0+y1-1)/2+(ascent-descent)/2, font, ink, title, n, cut)
		}
	}
	if len(b.groupTitles) != len(m.Groups) {
		b.groupTitles = b.groupTitles[:0]
		for gi := range m.Groups {
			b.groupTitles = append(b.groupTitles, m.Groups[gi].Title())
		}
	}
	for gi := range m.Groups {
		g := &m.Groups[gi]
		if g.Hidden || g.Y+g.Height <= top || g.Y >= bottom {
			continue
		}
		header(g.Y, m.Style.GroupHeaderHeight, b.ui.groupBg, st.GroupFont, t.GroupText, b.groupTitles[gi], !g.Collapsed)
		if g.Collapsed {
			continue
		}
		for _, ti := range g.Tracks {
			tk := &m.Tracks[ti]
			if tk.Shown {
				header(tk.Y, m.Style.TrackHeaderHeight, b.ui.trackBg, st.TrackFont, t.TrackText, tk.Title, !tk.Collapsed)
			}
		}
	}
}
