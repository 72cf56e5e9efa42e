package render

import (
	"context"
	"image"
	"image/color"
	"math"
	"testing"

	"flamedesk/core"
	"flamedesk/core/pipeline"
	"flamedesk/internal/fixtures"
	"flamedesk/timeline"

	"golang.org/x/image/vector"
)

var noHover = timeline.Hit{Kind: timeline.HitNone, Group: -1, Track: -1, Entry: timeline.NoEntry}

func smallModel(t testing.TB) *timeline.Model {
	return loadModel(t, "fixtures", "generated", "gen-trace-small.json.gz")
}

// blend is c drawn over an opaque bg.
func blend(bg, c color.NRGBA) color.NRGBA {
	a := float64(c.A) / 255
	l := func(b, f uint8) uint8 { return uint8(math.Round(float64(b)*(1-a) + float64(f)*a)) }
	return color.NRGBA{R: l(bg.R, c.R), G: l(bg.G, c.G), B: l(bg.B, c.B), A: 0xff}
}

func near(a, b color.NRGBA) bool {
	d := func(x, y uint8) int { return max(int(x)-int(y), int(y)-int(x)) }
	return d(a.R, b.R) <= 2 && d(a.G, b.G) <= 2 && d(a.B, b.B) <= 2
}

// visibleRows calls fn for every level row of every shown track that is fully inside the chart
// area, with the row's top in frame pixels.
func visibleRows(m *timeline.Model, vp *timeline.Viewport, st Style, height int, fn func(ti timeline.TrackID, li int, top int)) {
	for _, ti := range m.ShownTracks() {
		tk := &m.Tracks[ti]
		if tk.Collapsed {
			continue
		}
		for li := range tk.Levels {
			top := m.RowTop(ti, li) - vp.ScrollY() + float64(st.RulerHeight)
			if top >= float64(st.RulerHeight) && top+m.Style.RowHeight <= float64(height) {
				fn(ti, li, int(math.Round(top)))
			}
		}
	}
}

func TestBarsArePaintedWhereTheDataPutsThem(t *testing.T) {
	m := smallModel(t)
	for _, th := range []*Theme{Light(), Dark()} {
		vp := timeline.NewViewport(m.Bounds())
		b := NewBuilder(m)
		var l DrawList
		b.Build(&l, vp, &Frame{Width: 1600, Height: 1000, Theme: th, Selection: timeline.NoEntry, Hover: noHover})
		img := PaintImage(&l)
		grid := blend(th.Background, th.Grid)
		bars, gaps := 0, 0
		visibleRows(m, vp, b.Style, 1000, func(ti timeline.TrackID, li, top int) {
			tk := &m.Tracks[ti]
			lv := &tk.Levels[li]
			// Straight from the core columns: every entry at least 8 px wide has its colour just
			// inside its left edge, where neither label nor hatching reaches.
			covered := make([]bool, 1600)
			for _, e := range lv.Entries {
				x0, x1 := vp.TimeToPx(tk.Core.StartAt(int(e))), vp.TimeToPx(tk.Core.StartAt(int(e))+tk.Core.DurAt(int(e)))
				for x := max(int(math.Floor(x0))-4, 0); x < min(int(math.Ceil(x1))+4, 1600); x++ {
					covered[x] = true
				}
				if x1-x0 < 8 || x0 < 0 || x1 > 1600 {
					continue
				}
				want := b.EntryColor(timeline.EntryRef{Track: ti, Entry: e}, th)
				x := int(math.Round(x0)) + 1
				if got := Pixel(img, x, top+1); got != want {
					t.Fatalf("%s: entry %d (%s) of %s level %d: pixel (%d, %d) is %v, want %v", th.Name, e,
						m.EntryName(timeline.EntryRef{Track: ti, Entry: e}), tk.Title, li, x, top+1, got, want)
				}
				bars++
			}
			// And where no entry of the level comes near, the row is empty.
			for x := 0; x < 1600; x += 7 {
				if covered[x] {
					continue
				}
				if got := Pixel(img, x, top+5); got != th.Background && !near(got, grid) {
					t.Fatalf("%s: %s level %d: pixel (%d, %d) is %v where no entry is", th.Name, tk.Title, li, x, top+5, got)
				}
				gaps++
			}
		})
		if bars < 100 || gaps < 1000 {
			t.Fatalf("%s: checked only %d bars and %d gaps", th.Name, bars, gaps)
		}
		if l.Stats.Merged == 0 || l.Stats.Labels == 0 {
			t.Errorf("%s: %+v: nothing merged or labelled at full zoom-out", th.Name, l.Stats)
		}
	}
}

func TestLabelsAreDrawnInsideTheirBars(t *testing.T) {
	m := smallModel(t)
	vp := timeline.NewViewport(m.Bounds())
	b := NewBuilder(m)
	var l DrawList
	b.Build(&l, vp, &Frame{Width: 1600, Height: 1000, Selection: timeline.NoEntry, Hover: noHover})
	texts := l.Layers[LayerText].Texts
	if len(texts) == 0 {
		t.Fatal("no labels")
	}
	bars := l.Layers[LayerBars].Batches
	inBar := func(x, y float32) bool {
		for _, bt := range bars {
			for _, r := range bt.Rects {
				if x >= r.X0 && x < r.X1 && y >= r.Y0 && y < r.Y1 {
					return true
				}
			}
		}
		return false
	}
	inHeader := func(y float32) bool {
		cy := float64(y-b.Style.RulerHeight) + vp.ScrollY()
		for gi := range m.Groups {
			if g := &m.Groups[gi]; cy >= g.Y && cy < g.Y+m.Style.GroupHeaderHeight {
				return true
			}
		}
		for _, ti := range m.ShownTracks() {
			if tk := &m.Tracks[ti]; cy >= tk.Y && cy < tk.RowsY {
				return true
			}
		}
		return false
	}
	labels := 0
	for _, tx := range texts {
		if inHeader(tx.Y) {
			continue
		}
		s := l.TextString(tx)
		w := b.Text.Width(tx.Font, s)
		if !inBar(tx.X, tx.Y-2) || !inBar(tx.X+w-1, tx.Y-2) {
			t.Errorf("label %q at (%g, %g), %g px wide, is not inside one bar", s, tx.X, tx.Y, w)
		}
		labels++
	}
	if labels != l.Stats.Labels {
		t.Errorf("%d labels in the text layer, stats say %d", labels, l.Stats.Labels)
	}
}

func TestFramesAllocateNothing(t *testing.T) {
	m := smallModel(t)
	vp := timeline.NewViewport(m.Bounds())
	b := NewBuilder(m)
	var l DrawList
	views, scrolls := randomViews(m, vp, 30)
	search := m.Search("parse")
	frame := &Frame{Width: 1600, Height: 1000, Selection: timeline.EntryRef{Track: 0, Entry: 5}, Hover: noHover, Search: search}
	run := func() {
		for i := range views {
			vp.SetView(views[i])
			vp.SetScrollY(scrolls[i])
			b.Build(&l, vp, frame)
		}
	}
	run() // grow the buffers and caches
	if a := testing.AllocsPerRun(5, run); a != 0 {
		t.Fatalf("%v allocations per 30 frames", a)
	}
}

func TestSearchHighlightsAndDims(t *testing.T) {
	m := smallModel(t)
	vp := timeline.NewViewport(m.Bounds())
	b := NewBuilder(m)
	th := Light()
	search := m.Search("runPlan")
	if search.Len() == 0 {
		t.Fatal("no runPlan in the small trace")
	}
	var l DrawList
	b.Build(&l, vp, &Frame{Width: 1600, Height: 1000, Theme: th, Selection: timeline.NoEntry, Hover: noHover, Search: search})
	img := PaintImage(&l)
	matched, dimmed := 0, 0
	visibleRows(m, vp, b.Style, 1000, func(ti timeline.TrackID, li, top int) {
		tk := &m.Tracks[ti]
		for _, e := range tk.Levels[li].Entries {
			x0, x1 := vp.TimeToPx(tk.Core.StartAt(int(e))), vp.TimeToPx(tk.Core.StartAt(int(e))+tk.Core.DurAt(int(e)))
			if x1-x0 < 8 {
				continue
			}
			ref := timeline.EntryRef{Track: ti, Entry: e}
			at := Pixel(img, int(math.Round(x0)), top+5)
			if search.Contains(ref) {
				if at != th.SearchMatch {
					t.Errorf("match %s: left edge %v, want the search outline %v", m.EntryName(ref), at, th.SearchMatch)
				}
				matched++
			} else {
				want := mix(b.EntryColor(ref, th), th.Background, th.Dim)
				if got := Pixel(img, int(math.Round(x0))+1, top+1); !near(got, want) {
					t.Errorf("non-match %s: %v, want dimmed %v", m.EntryName(ref), got, want)
				}
				dimmed++
			}
		}
	})
	if matched == 0 || dimmed == 0 {
		t.Fatalf("checked %d matches and %d others", matched, dimmed)
	}
}

func TestSelectionHoverAndRange(t *testing.T) {
	m := smallModel(t)
	vp := timeline.NewViewport(m.Bounds())
	b := NewBuilder(m)
	th := Light()
	// Select the longest root of the first track, and hover the second longest.
	tk := &m.Tracks[0]
	roots := tk.Levels[0].Entries
	sel, hov := roots[0], roots[1]
	for _, e := range roots {
		if tk.Core.DurAt(int(e)) > tk.Core.DurAt(int(sel)) {
			hov, sel = sel, e
		} else if e != sel && tk.Core.DurAt(int(e)) > tk.Core.DurAt(int(hov)) {
			hov = e
		}
	}
	var l DrawList
	b.Build(&l, vp, &Frame{Width: 1600, Height: 1000, Theme: th, Selection: timeline.EntryRef{Track: 0, Entry: sel}, Hover: noHover})
	lo, hi := m.Bounds()
	x0 := vp.TimeToPx(tk.Core.StartAt(int(sel)))
	y := int(m.RowTop(0, 0)) + int(b.Style.RulerHeight) + 5
	hit := m.HitTest(vp, vp.TimeToPx(tk.Core.StartAt(int(hov))+tk.Core.DurAt(int(hov))/2), float64(y)-float64(b.Style.RulerHeight), b.Style.MinBarPx)
	if hit.Kind != timeline.HitEntry || hit.Entry.Entry != hov {
		t.Fatalf("hit test on the hovered root: %+v", hit)
	}
	b.Build(&l, vp, &Frame{Width: 1600, Height: 1000, Theme: th, Selection: timeline.EntryRef{Track: 0, Entry: sel}, Hover: hit,
		RangeStart: lo + (hi-lo)*0.9, RangeEnd: hi})
	img := PaintImage(&l)
	if got := Pixel(img, int(math.Round(x0)), y); got != th.Selection {
		t.Errorf("selection outline: %v, want %v", got, th.Selection)
	}
	hx := int(math.Round(vp.TimeToPx(tk.Core.StartAt(int(hov))))) + 2
	want := blend(b.EntryColor(timeline.EntryRef{Track: 0, Entry: hov}, th), th.Hover)
	if got := Pixel(img, hx, y-4); !near(got, want) {
		t.Errorf("hover wash: %v, want %v", got, want)
	}
	// The range wash covers the last tenth, ruler included.
	if got, want := Pixel(img, 1590, 2), blend(th.RulerBackground, th.RangeFill); !near(got, want) {
		t.Errorf("range wash over the ruler: %v, want %v", got, want)
	}
}

func TestRulerTicksAndLabels(t *testing.T) {
	for _, c := range []struct {
		scale, minPx, want float64
	}{{1, 90, 100}, {0.01, 90, 1}, {1000, 90, 100000}, {3, 90, 500}, {0.0005, 90, 0.05}} {
		if got := TickStep(c.scale, c.minPx); math.Abs(got-c.want) > c.want*1e-9 {
			t.Errorf("TickStep(%g, %g) = %g, want %g", c.scale, c.minPx, got, c.want)
		}
	}
	for _, c := range []struct {
		v, step float64
		want    string
	}{
		{0, 1e4, "0 ms"}, {1.5e6, 5e5, "1.5 s"}, {250e3, 50e3, "250 ms"}, {12.25, 0.05, "12.25 µs"},
		{31_415_926.5, 0.5, "31415926.5 µs"}, {2e6, 1e6, "2 s"}, {1234.5, 500, "1.2 ms"}, {-1e-9, 1, "0 µs"},
		{300, 100, "0.3 ms"}, {0.0025, 0.0005, "0.0025 µs"},
	} {
		if got := string(AppendTime(nil, c.v, c.step)); got != c.want {
			t.Errorf("AppendTime(%g, %g) = %q, want %q", c.v, c.step, got, c.want)
		}
	}
	// On a frame: the labels are at their ticks, in order, and do not overlap.
	m := smallModel(t)
	vp := timeline.NewViewport(m.Bounds())
	b := NewBuilder(m)
	var l DrawList
	for _, span := range []float64{vp.Total(), 1e4, 10, 1} {
		vp.SetView(timeline.View{Start: vp.Total() / 3, Span: span})
		b.Build(&l, vp, &Frame{Width: 1600, Height: 1000, Selection: timeline.NoEntry, Hover: noHover})
		texts := l.Layers[LayerRulerText].Texts
		if len(texts) < 3 {
			t.Fatalf("span %g: %d ruler labels", span, len(texts))
		}
		for i := 1; i < len(texts); i++ {
			prevEnd := texts[i-1].X + b.Text.Width(b.Style.RulerFont, l.TextString(texts[i-1]))
			if texts[i].X < prevEnd+4 {
				t.Errorf("span %g: ruler labels %q and %q overlap", span, l.TextString(texts[i-1]), l.TextString(texts[i]))
			}
		}
	}
}

func TestCollapsedAndHiddenTracksAreNotDrawn(t *testing.T) {
	m := smallModel(t)
	defer func() {
		for ti := range m.Tracks {
			m.SetTrackCollapsed(timeline.TrackID(ti), false)
		}
		m.SetGroupHidden(0, false)
	}()
	vp := timeline.NewViewport(m.Bounds())
	b := NewBuilder(m)
	var l DrawList
	b.Build(&l, vp, &Frame{Width: 1600, Height: 1000, Selection: timeline.NoEntry, Hover: noHover})
	full := l.Stats.Spans
	// Collapsing the tall main thread brings the tracks below it into view, so collapse them all.
	for ti := range m.Tracks {
		m.SetTrackCollapsed(timeline.TrackID(ti), true)
	}
	b.Build(&l, vp, &Frame{Width: 1600, Height: 1000, Selection: timeline.NoEntry, Hover: noHover})
	if full == 0 || l.Stats.Spans != 0 {
		t.Errorf("collapsing every track kept %d of %d bars", l.Stats.Spans, full)
	}
	for gi := range m.Groups {
		m.SetGroupHidden(gi, true)
	}
	b.Build(&l, vp, &Frame{Width: 1600, Height: 1000, Selection: timeline.NoEntry, Hover: noHover})
	if l.Stats.Spans != 0 || len(l.Layers[LayerText].Texts) != 0 {
		t.Errorf("everything hidden, still %d bars and %d texts", l.Stats.Spans, len(l.Layers[LayerText].Texts))
	}
	for gi := range m.Groups {
		m.SetGroupHidden(gi, false)
	}
}

func TestHatchStripesStayInsideTheirRect(t *testing.T) {
	r := Rect{10, 20, 57, 36}
	h := Hatch{Period: 6, Width: 2}
	var area float64
	HatchStripes(r, h, func(pts [][2]float32) {
		for _, p := range pts {
			if p[0] < r.X0-1e-3 || p[0] > r.X1+1e-3 || p[1] < r.Y0-1e-3 || p[1] > r.Y1+1e-3 {
				t.Fatalf("stripe point %v outside %v", p, r)
			}
		}
		// Shoelace area.
		for i := range pts {
			j := (i + 1) % len(pts)
			area += float64(pts[i][0]*pts[j][1] - pts[j][0]*pts[i][1])
		}
	})
	// A third of the rectangle is striped (2 of every 6 px along x+y), give or take the ends.
	total := float64((r.X1 - r.X0) * (r.Y1 - r.Y0))
	if frac := math.Abs(area) / 2 / total; frac < 0.28 || frac > 0.39 {
		t.Errorf("stripes cover %.2f of the rect, want about 1/3", frac)
	}
}

func TestMergedSpansAreHatched(t *testing.T) {
	m := smallModel(t)
	vp := timeline.NewViewport(m.Bounds())
	b := NewBuilder(m)
	var l DrawList
	b.Build(&l, vp, &Frame{Width: 1600, Height: 1000, Selection: timeline.NoEntry, Hover: noHover})
	img := PaintImage(&l)
	hatches := l.Layers[LayerBars].Hatches
	if len(hatches) == 0 {
		t.Fatal("no hatched spans at full zoom-out")
	}
	striped := 0
	for _, r := range hatches {
		pr := pixelRect(r).Intersect(image.Rect(0, int(b.Style.RulerHeight), 1600, 1000))
		if pr.Dx() < 8 || pr.Dy() < 8 {
			continue
		}
		seen := map[color.NRGBA]bool{}
		for x := pr.Min.X; x < pr.Min.X+8; x++ {
			seen[Pixel(img, x, pr.Min.Y+4)] = true
		}
		if len(seen) >= 2 {
			striped++
		}
	}
	if striped == 0 {
		t.Fatal("no merged span shows stripes")
	}
}

// A trace without tracks still makes a frame: background, ruler, nothing else.
func TestEmptyModel(t *testing.T) {
	m := timeline.New(&core.Trace{Strings: core.NewStrings()})
	vp := timeline.NewViewport(m.Bounds())
	var l DrawList
	NewBuilder(m).Build(&l, vp, &Frame{Width: 300, Height: 200, Selection: timeline.NoEntry, Hover: noHover})
	if l.Stats.Spans != 0 || len(l.Layers[LayerRulerText].Texts) == 0 {
		t.Fatalf("empty model: %+v", l.Stats)
	}
	img := PaintImage(&l)
	if px := Pixel(img, 151, 150); img.Bounds().Dx() != 300 || (px != Light().Background && !near(px, blend(Light().Background, Light().Grid))) {
		t.Fatal("empty model: bad image")
	}
}

func TestStaleHoverAndSelectionAreIgnored(t *testing.T) {
	m := smallModel(t)
	vp := timeline.NewViewport(m.Bounds())
	var l DrawList
	b := NewBuilder(m)
	for _, h := range []timeline.Hit{
		{Kind: timeline.HitTrackHeader, Track: 999, Group: 0},
		{Kind: timeline.HitGroupHeader, Track: -1, Group: 999},
		{Kind: timeline.HitEntry, Track: 999, Group: 0, Level: 3},
		{Kind: timeline.HitEntry, Track: 0, Group: 0, Level: 99999},
	} {
		b.Build(&l, vp, &Frame{Width: 400, Height: 300, Hover: h, Selection: timeline.EntryRef{Track: 77, Entry: 1 << 30}})
	}
}

// The frame's hatching copies its first period of rows down the frame. Those rows must be what
// rasterising the whole frame gives, and every pixel must equal the one up and to the right of
// it (the stripes run at 45°), which the whole rasterisation meets only up to its rounding: its
// running sums drift by several units of alpha along the rows. A period of a fraction of a pixel
// is rasterised whole.
func TestHatchFrameMatchesWholeRasterisation(t *testing.T) {
	for _, h := range []Hatch{{Color: color.NRGBA{R: 40, G: 60, B: 200, A: 90}, Period: 6, Width: 2},
		{Color: color.NRGBA{R: 200, A: 255}, Period: 5.5, Width: 2}} {
		bounds := image.Rect(3, 7, 203, 130)
		got := NewImagePainter().hatchFrame(bounds, h)
		want := image.NewRGBA(bounds)
		var rast vector.Rasterizer
		beginShape(&rast, bounds)
		r := Rect{X0: float32(bounds.Min.X), Y0: float32(bounds.Min.Y), X1: float32(bounds.Max.X), Y1: float32(bounds.Max.Y)}
		HatchStripes(r, h, func(pts [][2]float32) { addPolygon(&rast, bounds, pts) })
		rast.Draw(want, bounds, image.NewUniform(h.Color), image.Point{})
		striped := 0
		for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
			for x := bounds.Min.X; x < bounds.Max.X; x++ {
				g, w := got.RGBAAt(x, y), want.RGBAAt(x, y)
				if w.A != 0 {
					striped++
				}
				if y < bounds.Min.Y+int(h.Period) && g != w {
					t.Fatalf("period %v: first rows' pixel (%d, %d) is %v, whole rasterisation %v", h.Period, x, y, g, w)
				}
				if h.Period != 6 && g != w {
					t.Fatalf("period %v: pixel (%d, %d) is %v, whole rasterisation %v", h.Period, x, y, g, w)
				}
				if h.Period == 6 && y > bounds.Min.Y && x+1 < bounds.Max.X && g != got.RGBAAt(x+1, y-1) {
					t.Fatalf("pixel (%d, %d) is %v, the one up and right %v", x, y, g, got.RGBAAt(x+1, y-1))
				}
			}
		}
		if striped == 0 {
			t.Fatalf("period %v: nothing striped", h.Period)
		}
	}
}

// Rows that the model is still placing (timeline.Model.PlaceRest) are hatched across the chart
// and hold no bars; once placed, they are drawn as any other row.
func TestRowsStillPlacedAreHatched(t *testing.T) {
	path := fixtures.Path(t, "fixtures", "generated", "gen-trace-medium-reload.json.gz")
	pl := timeline.NewPrelayout(context.Background())
	pl.DeferRows(func() float64 { return 100 })
	p := new(core.Progress)
	pl.Hook(p)
	tr, err := pipeline.Open(context.Background(), pipeline.FromPath(path), p)
	if err != nil {
		t.Fatal(err)
	}
	m, err := pl.Model(context.Background(), tr, p, 100)
	if err != nil || !m.DeferredRows() {
		t.Fatalf("no rows left to place (%v)", err)
	}
	vp := timeline.NewViewport(m.Bounds())
	b := NewBuilder(m)
	const width, height = 1600, 1000
	vp.SetSize(width, height-float64(b.Style.RulerHeight))
	vp.SetContentHeight(m.ContentHeight())
	// Scrolled to the middle of the first track with rows left.
	var tk *timeline.Track
	for _, ti := range m.ShownTracks() {
		if tk = &m.Tracks[ti]; !tk.Collapsed && !tk.Placed(len(tk.Levels)-1) {
			break
		}
	}
	if tk == nil || tk.Placed(len(tk.Levels)-1) {
		t.Fatal("no shown track has rows left")
	}
	vp.SetScrollY(tk.RowsY + float64(len(tk.Levels))*m.Style.RowHeight/2 - height/2)
	frame := &Frame{Width: width, Height: height, Selection: timeline.NoEntry, Hover: noHover}
	pendingRows := func(l *DrawList) (hatched, unplaced int) {
		for li := range tk.Levels {
			y0 := float32(tk.RowsY + float64(li)*m.Style.RowHeight - vp.ScrollY() + float64(b.Style.RulerHeight))
			if y0 < float32(b.Style.RulerHeight) || y0+float32(m.Style.RowHeight) > height {
				continue
			}
			if !tk.Placed(li) {
				unplaced++
			}
			for _, r := range l.Layers[LayerBars].Hatches {
				if r == (Rect{0, y0, width, y0 + float32(m.Style.RowHeight) - 1}) {
					hatched++
					break
				}
			}
		}
		return hatched, unplaced
	}
	var l DrawList
	b.Build(&l, vp, frame)
	if hatched, unplaced := pendingRows(&l); unplaced == 0 || hatched != unplaced {
		t.Fatalf("%d rows in view are still to place, %d hatched across", unplaced, hatched)
	}
	if err := m.PlaceRest(context.Background()); err != nil {
		t.Fatal(err)
	}
	b.Build(&l, vp, frame)
	if hatched, unplaced := pendingRows(&l); unplaced != 0 || hatched != 0 {
		t.Fatalf("after PlaceRest: %d rows unplaced, %d hatched across", unplaced, hatched)
	}
}
