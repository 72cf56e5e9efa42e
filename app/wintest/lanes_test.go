//go:build windowtest

package wintest

import (
	"bytes"
	"image"
	"image/color"
	_ "image/jpeg" // screenshots are JPEGs
	_ "image/png"
	"math"
	"testing"

	"flamedesk/core/timelines"
	"flamedesk/internal/fixtures"
	"flamedesk/render"
	"flamedesk/timeline"
)

// The Performance panel's tracks above the threads, checked in screenshots of the real window:
// where each item must be is computed from the data (core/timelines through timeline.Lane) and
// the view the window reports, and the pixels of those columns are compared with the colour
// render gives the item.

// screenX is the screen column of time t (absolute µs), as the chart rounds it.
func screenX(s shownState, t float64) int {
	return s.ChartX + int(math.Round((t-s.ViewStart)/(s.ViewEnd-s.ViewStart)*float64(s.ChartW)))
}

// laneRowTop is the screen y of the top of a lane's row, and whether the whole row is on screen.
func laneRowTop(s shownState, m *timeline.Model, lane, row int) (int, bool) {
	y := s.ChartY + s.RulerH + int(math.Round(m.LaneRowTop(lane, row)-s.ScrollY))
	rowH := int(m.Style.RowHeight)
	return y, y >= s.ChartY+s.RulerH && y+rowH <= s.ChartY+s.ChartH
}

func near(a color.Color, b color.NRGBA, tol int) bool {
	c := color.NRGBAModel.Convert(a).(color.NRGBA)
	return absDiff(c.R, b.R) <= tol && absDiff(c.G, b.G) <= tol && absDiff(c.B, b.B) <= tol
}

// share is the fraction of the pixels of r whose colour is within tol of c.
func share(img image.Image, r image.Rectangle, c color.NRGBA, tol int) float64 {
	n, hit := 0, 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			n++
			if near(img.At(x, y), c, tol) {
				hit++
			}
		}
	}
	if n == 0 {
		return 0
	}
	return float64(hit) / float64(n)
}

// laneOf is the index of the model's first lane of kind k, -1 without one.
func laneOf(m *timeline.Model, k timeline.LaneKind) int {
	for i := range m.Lanes {
		if m.Lanes[i].Kind == k {
			return i
		}
	}
	return -1
}

// checkBoxes checks, for every item of lane li that ok accepts, that the inside of the box
// box(i) returns (screen columns [x0, x1)) on the item's row shows the item's colour over at least
// minShare of its pixels (labels take the rest); it returns how many it checked.
func checkBoxes(t *testing.T, img image.Image, s shownState, m *timeline.Model, li int, minShare float64,
	box func(i int32) (x0, x1 int, ok bool)) int {
	t.Helper()
	l := &m.Lanes[li]
	th := render.Light()
	rowH := int(m.Style.RowHeight)
	checked := 0
	for i := int32(0); i < int32(l.Len()); i++ {
		if l.Row[i] < 0 {
			continue
		}
		top, on := laneRowTop(s, m, li, int(l.Row[i]))
		x0, x1, ok := box(i)
		x0, x1 = max(x0, s.ChartX+1), min(x1, s.ChartX+s.ChartW-1)
		if !on || !ok || x1-x0 < 3 {
			continue
		}
		want := render.LaneItemInk(m, l, i, th)
		r := image.Rect(x0+1, top+3, x1-1, top+rowH-4)
		if got := share(img, r, want, 24); got < minShare {
			c := color.NRGBAModel.Convert(img.At((r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2)).(color.NRGBA)
			t.Errorf("%s item %d %q: %.0f%% of columns %d–%d, rows %d–%d show %v (the middle is %v)",
				l.Title(), i, l.Label[i], got*100, r.Min.X, r.Max.X, r.Min.Y, r.Max.Y, want, c)
		}
		checked++
	}
	return checked
}

// TestWebDevMarkersAndWaterfall: devtools-web-dev opens on the bounds DevTools gives it, its
// page-load markers' lines cross the chart in their columns with their flags on the ruler, and
// its network waterfall shows each request's solid box in its resource colour on its row, with
// nothing drawn on the rows between requests.
func TestWebDevMarkersAndWaterfall(t *testing.T) {
	d := startXvfb(t)
	fixture := fixturePath(t, "fixtures", "upstream", "devtools-web-dev.json.gz")
	_, _, s := startOn(t, d, fixture)
	m := loadModel(t, fixture)
	var ref struct{ Bounds struct{ Min, Max float64 } }
	fixtures.DecodeGzipJSON(t, &ref, "conformance", "golden", "devtools-web-dev.timelines.json.gz")
	if math.Abs(s.ViewStart-ref.Bounds.Min) > 1 || math.Abs(s.ViewEnd-ref.Bounds.Max) > 1 {
		t.Fatalf("the window opened on %.0f–%.0f µs, DevTools' bounds are %.0f–%.0f", s.ViewStart, s.ViewEnd, ref.Bounds.Min, ref.Bounds.Max)
	}
	img := d.screenshot(t, "web-dev")
	th := render.Light()

	// The markers: each one's line, in its own column and not in the columns beside it.
	ti := laneOf(m, timeline.LaneTimings)
	if ti < 0 {
		t.Fatal("no Timings lane")
	}
	tl := &m.Lanes[ti]
	var xs []int
	for i := range tl.Start {
		if tl.Row[i] < 0 {
			xs = append(xs, screenX(s, tl.Start[i]))
		}
	}
	y0, y1 := s.ChartY+s.RulerH+1, s.ChartY+s.ChartH-1
	column := func(x int, c color.NRGBA) int {
		n := 0
		for y := y0; y < y1; y++ {
			if near(img.At(x, y), c, 28) {
				n++
			}
		}
		return n
	}
	markers, flags := 0, 0
	k := -1
	for i := range tl.Start {
		if tl.Row[i] >= 0 {
			continue
		}
		k++
		x := xs[k]
		if x < s.ChartX+6 || x > s.ChartX+s.ChartW-7 {
			continue
		}
		crowded, covered := false, false
		for j, xj := range xs {
			if j != k && xj >= x-5 && xj <= x+5 {
				crowded = true // another line mixes in
			}
			if j > k && xj > x-40 && xj <= x+1 {
				covered = true // a flag drawn later may lie over this one's left edge
			}
		}
		flag := render.LaneItemInk(m, tl, int32(i), th)
		if !crowded {
			want := render.PageLoadLineInk(flag, th)
			on, off := column(x, want), max(column(x-4, want), column(x+4, want))
			if on < (y1-y0)/3 || on <= 3*off {
				t.Errorf("marker %q at x=%d: %d of %d pixels of its column are %v, %d in the columns 4 px beside it",
					tl.Label[i], x, on, y1-y0, want, off)
			}
			markers++
		}
		if !covered {
			if c := img.At(x+1, s.ChartY+s.RulerH-3); !near(c, flag, 20) {
				t.Errorf("marker %q: its flag at x=%d on the ruler is %v, want %v", tl.Label[i], x+1, c, flag)
			}
			flags++
		}
	}
	if markers < 2 || flags < 2 {
		t.Fatalf("only %d marker lines and %d flags could be checked", markers, flags)
	}

	// The waterfall: each request's solid box (download) in its resource colour.
	ni := laneOf(m, timeline.LaneNetwork)
	if ni < 0 {
		t.Fatal("no network lane")
	}
	nl := &m.Lanes[ni]
	clamp := func(t, lo, hi float64) float64 {
		if math.IsNaN(t) {
			return lo
		}
		return min(max(t, lo), hi)
	}
	boxes := checkBoxes(t, img, s, m, ni, 0.5, func(i int32) (int, int, bool) {
		if nl.Style[i] >= timeline.NetWebSocket {
			return 0, 0, false
		}
		q := &m.Panel.Network[nl.Ref[i]]
		end := nl.Start[i] + nl.Dur[i]
		send := clamp(float64(q.SendStartTime), nl.Start[i], end)
		dl := clamp(float64(q.DownloadStart), send, end)
		fin := clamp(float64(q.FinishTime), dl, end)
		return screenX(s, dl), screenX(s, fin), true
	})
	if boxes < 5 {
		t.Fatalf("only %d requests' boxes were wide enough to check", boxes)
	}
	// Between requests, a row shows nothing but the background (grid lines and marker lines
	// aside): columns away from every request of the row and from every marker.
	rowH := int(m.Style.RowHeight)
	bg := th.Background
	gaps, wrong := 0, 0
	for row := 0; row < nl.Rows; row++ {
		top, on := laneRowTop(s, m, ni, row)
		if !on {
			continue
		}
		busy := make([]bool, s.ChartW)
		mark := func(x0, x1 int) {
			for x := max(x0-s.ChartX, 0); x < min(x1-s.ChartX, s.ChartW); x++ {
				busy[x] = true
			}
		}
		for i := range nl.Start {
			if int(nl.Row[i]) == row {
				mark(screenX(s, nl.Start[i])-rowH, screenX(s, nl.Start[i]+nl.Dur[i])+rowH)
			}
		}
		for _, x := range xs {
			mark(x-2, x+3)
		}
		for x := 2; x < s.ChartW-2; x++ {
			if busy[x] {
				continue
			}
			gaps++
			for y := top + 1; y < top+rowH-1; y++ {
				if isBar(img.At(s.ChartX+x, y), bg) {
					wrong++
					break
				}
			}
		}
	}
	if gaps < 200 || wrong > gaps/50 {
		t.Errorf("%d of %d empty columns of the network rows show something", wrong, gaps)
	}
}

// TestSlowInteractionAndFilmstrip: devtools-slow-interaction-keydown shows its interaction's
// processing box in its columns, with the red corner and the hatching past 200 ms of a long one,
// and its filmstrip row; with the pointer on the ruler, then on the overview, the screenshot of
// that time appears below them.
func TestSlowInteractionAndFilmstrip(t *testing.T) {
	d := startXvfb(t)
	fixture := fixturePath(t, "fixtures", "upstream", "devtools-slow-interaction-keydown.json.gz")
	_, _, s := startOn(t, d, fixture)
	m := loadModel(t, fixture)
	img := d.screenshot(t, "slow-interaction")
	rowH := int(m.Style.RowHeight)

	ii := laneOf(m, timeline.LaneInteractions)
	if ii < 0 {
		t.Fatal("no Interactions lane")
	}
	il := &m.Lanes[ii]
	longest := int32(-1)
	for i := int32(0); i < int32(il.Len()); i++ {
		if longest < 0 || il.Dur[i] > il.Dur[longest] {
			longest = i
		}
	}
	long := il.Dur[longest] > timeline.LongInteraction
	if long != (il.Style[longest] == timeline.InteractionLong) {
		t.Fatalf("the longest interaction (%.0f µs) is marked long %v", il.Dur[longest], !long)
	}
	n := checkBoxes(t, img, s, m, ii, 0.5, func(i int32) (int, int, bool) {
		in := &m.Panel.Interactions[il.Ref[i]]
		x1 := screenX(s, float64(in.ProcessingEnd))
		if il.Style[i] == timeline.InteractionLong {
			x1 = min(x1, screenX(s, il.Start[i]+timeline.LongInteraction)) // hatched past it
		}
		return screenX(s, float64(in.ProcessingStart)), x1, true
	})
	if n == 0 {
		t.Fatal("no interaction box wide enough to check")
	}
	top, on := laneRowTop(s, m, ii, int(il.Row[longest]))
	if !on {
		t.Fatal("the longest interaction's row is off screen")
	}
	in := &m.Panel.Interactions[il.Ref[longest]]
	box := render.LaneItemInk(m, il, longest, render.Light())
	// The red corner at the top right of the processing box of an interaction over 200 ms, and
	// none under it.
	xe := max(screenX(s, float64(in.ProcessingEnd)), screenX(s, il.Start[longest])+8)
	c := color.NRGBAModel.Convert(img.At(xe-2, top+1)).(color.NRGBA)
	if red := c.R >= 170 && c.G <= 110 && c.B <= 110; red != long {
		t.Errorf("interaction of %.0f ms: red corner at (%d, %d) is %v, want %v (%v)", il.Dur[longest]/1000, xe-2, top+1, red, long, c)
	}
	// Hatching past 200 ms: stripes, so the box colour and another alternate along the row.
	x200, xEnd := screenX(s, il.Start[longest]+timeline.LongInteraction), screenX(s, il.Start[longest]+il.Dur[longest])
	if long && xEnd-x200 >= 8 {
		plain := 0
		for x := x200 + 2; x < xEnd-2; x++ {
			if near(img.At(x, top+rowH/2-2), box, 24) {
				plain++
			}
		}
		if cols := xEnd - x200 - 4; plain == cols || plain == 0 {
			t.Errorf("no hatching past 200 ms (columns %d–%d): %d of %d plain", x200, xEnd, plain, cols)
		}
	}

	// The filmstrip row: from the left, each screenshot at its time, as tall as the lane, unless
	// it would cover the one before; compared with the decoded screenshots.
	si := laneOf(m, timeline.LaneScreenshots)
	if si < 0 {
		t.Fatal("no Screenshots lane")
	}
	sl := &m.Lanes[si]
	top, on = laneRowTop(s, m, si, 0)
	thumbH := sl.Rows*rowH - 3
	if !on || top+thumbH > s.ChartY+s.ChartH {
		t.Fatal("the filmstrip is off screen")
	}
	boxInk := render.LaneItemInk(m, sl, 0, render.Light())
	film := d.screenshot(t, "filmstrip")
	lastEnd, thumbs := math.Inf(-1), 0
	for i := int32(0); i < int32(sl.Len()); i++ {
		x := float64(screenX(s, sl.Start[i]) - s.ChartX)
		if x >= float64(s.ChartW) {
			break
		}
		shot := decodeScreenshot(t, m, int(sl.Ref[i]))
		w := float64(thumbH) * float64(shot.Bounds().Dx()) / float64(shot.Bounds().Dy())
		if x < lastEnd {
			continue
		}
		lastEnd = x + w + 2
		if x < 0 || x+w > float64(s.ChartW) {
			continue
		}
		at := image.Pt(s.ChartX+int(x)+1, top+1)
		// Where the screenshot averages to the grey of the box, a missing thumbnail would look
		// the same: those cells do not count.
		if n, same := matchCells(film, shot, at, int(w), thumbH, boxInk); n < 8 || same < n*3/4 {
			t.Errorf("screenshot %d at x=%d: %d of %d cells show it", i, at.X, same, n)
		}
		thumbs++
	}
	if thumbs < 3 {
		t.Fatalf("only %d thumbnails in the filmstrip", thumbs)
	}

	// The peek: the widest screenshot, from the ruler and from the overview, drawn 240 px wide
	// 12 px right of the pointer, below the ruler or the overview.
	widest := int32(0)
	for i := int32(0); i < int32(sl.Len()); i++ {
		if sl.Dur[i] > sl.Dur[widest] {
			widest = i
		}
	}
	shot := decodeScreenshot(t, m, int(sl.Ref[widest]))
	mid := sl.Start[widest] + sl.Dur[widest]/2
	x := screenX(s, mid)
	d.xdo(t, "mousemove", itoa(x), itoa(s.ChartY+s.RulerH/2))
	checkPeek(t, d, "on the ruler", img, shot, image.Pt(min(x+12, s.ChartX+s.ChartW-242), s.ChartY+s.RulerH+4))
	// The overview spans the whole trace, right above the chart.
	ox := s.ChartX + int((mid-s.ViewStart)/(s.ViewEnd-s.ViewStart)*float64(s.ChartW))
	d.xdo(t, "mousemove", itoa(ox), itoa(s.ChartY-20))
	checkPeek(t, d, "on the overview", img, shot, image.Pt(min(ox+12, s.ChartX+s.ChartW-242), s.ChartY+2))
}

// TestReactCustomTracks: devtools-react-console-timestamp shows its console.timeStamp tracks
// (React's Scheduler and Components tracks) with each entry's bar in the colour the trace gives
// it, once the network lane above them is collapsed by a click on its header.
func TestReactCustomTracks(t *testing.T) {
	d := startXvfb(t)
	fixture := fixturePath(t, "fixtures", "upstream", "devtools-react-console-timestamp.json.gz")
	_, state, s := startOn(t, d, fixture)
	m := loadModel(t, fixture)
	if ni := laneOf(m, timeline.LaneNetwork); ni >= 0 {
		y := s.ChartY + s.RulerH + int(m.Lanes[ni].Y-s.ScrollY) + int(m.Style.TrackHeaderHeight)/2
		d.xdo(t, "mousemove", itoa(s.ChartX+200), itoa(y), "click", "1", "mousemove", "5", "5")
		m.SetLaneCollapsed(ni, true)
		settle()
		s = readState(t, state)
	}
	img := d.screenshot(t, "react")
	checked, lanes := 0, 0
	for li := range m.Lanes {
		l := &m.Lanes[li]
		if l.Kind != timeline.LaneExtension {
			continue
		}
		n := checkBoxes(t, img, s, m, li, 0.5, func(i int32) (int, int, bool) {
			return screenX(s, l.Start[i]), screenX(s, l.Start[i]+l.Dur[i]), l.Dur[i] > 0
		})
		if n > 0 {
			lanes++
		}
		checked += n
	}
	if checked < 3 || lanes < 2 {
		t.Fatalf("only %d custom-track entries in %d tracks were on screen and wide enough to check", checked, lanes)
	}
}

// decodeScreenshot is screenshot i of the trace as its JPEG decodes.
func decodeScreenshot(t *testing.T, m *timeline.Model, i int) image.Image {
	t.Helper()
	img, _, err := image.Decode(bytes.NewReader(timelines.SnapshotImage(m.Trace, m.Panel.Screenshots[i])))
	if err != nil {
		t.Fatalf("screenshot %d: %v", i, err)
	}
	return img
}

// matchPicture compares a grid of points of the screen, in the rectangle w px wide with its
// top-left at at, with the nearest pixels of shot scaled to w, give or take a pixel of scaling.
// Points for which skip says the screen would show that colour anyway do not count.
func matchPicture(screen, shot image.Image, at image.Point, w int, skip func(x, y int, want color.NRGBA) bool) (n, same int) {
	b := shot.Bounds()
	scale := float64(w) / float64(b.Dx())
	h := int(float64(b.Dy()) * scale)
	for gy := 1; gy < 30; gy++ {
		for gx := 1; gx < 60; gx++ {
			px, py := gx*w/60, gy*h/30
			want := color.NRGBAModel.Convert(shot.At(b.Min.X+int((float64(px)+0.5)/scale), b.Min.Y+int((float64(py)+0.5)/scale))).(color.NRGBA)
			if skip(at.X+px, at.Y+py, want) {
				continue
			}
			n++
		search:
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					if near(screen.At(at.X+px+dx, at.Y+py+dy), want, 48) {
						same++
						break search
					}
				}
			}
		}
	}
	return n, same
}

// meanColour is the average colour of r in img.
func meanColour(img image.Image, r image.Rectangle) color.NRGBA {
	var sr, sg, sb, n int
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
			sr, sg, sb, n = sr+int(c.R), sg+int(c.G), sb+int(c.B), n+1
		}
	}
	if n == 0 {
		return color.NRGBA{}
	}
	return color.NRGBA{R: uint8(sr / n), G: uint8(sg / n), B: uint8(sb / n), A: 0xff}
}

// matchCells compares a thumbnail by its cells: the screen's rectangle w × h at at and shot, each
// cut in 8 × 3 cells, the average colours of matching cells compared. A thumbnail's detail is
// below a pixel, so averages are what a scaled picture keeps. Cells whose average is near
// skip's colour (what shows where the thumbnail is missing) do not count.
func matchCells(screen, shot image.Image, at image.Point, w, h int, skipInk color.NRGBA) (n, same int) {
	b := shot.Bounds()
	const cols, rows = 8, 3
	for cy := 0; cy < rows; cy++ {
		for cx := 0; cx < cols; cx++ {
			src := image.Rect(b.Min.X+cx*b.Dx()/cols, b.Min.Y+cy*b.Dy()/rows, b.Min.X+(cx+1)*b.Dx()/cols, b.Min.Y+(cy+1)*b.Dy()/rows)
			want := meanColour(shot, src)
			if near(want, skipInk, 12) {
				continue
			}
			n++
			dst := image.Rect(at.X+cx*w/cols+1, at.Y+cy*h/rows+1, at.X+(cx+1)*w/cols-1, at.Y+(cy+1)*h/rows-1)
			if near(meanColour(screen, dst), want, 10) {
				same++
			}
		}
	}
	return n, same
}

// checkPeek waits until the screen shows shot scaled to 240 px wide with its top-left at at (the
// first decoding takes a moment). Only the points where the screen without the peek (before)
// differs from the screenshot count, so that a white page over a white chart proves nothing.
func checkPeek(t *testing.T, d *display, where string, before, shot image.Image, at image.Point) {
	t.Helper()
	var n, same int
	for try := 0; try < 10; try++ {
		n, same = matchPicture(d.screenshot(t, "peek"), shot, at, 240, func(x, y int, want color.NRGBA) bool {
			return near(before.At(x, y), want, 48)
		})
		if n >= 30 && same >= n*3/4 {
			return
		}
		settle()
	}
	t.Errorf("with the pointer %s, %d of %d points at %v show the screenshot", where, same, n, at)
}
