//go:build windowtest

package wintest

import (
	"fmt"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"flamedesk/core/lighthouse"
	"flamedesk/render"
	"flamedesk/timeline"
)

const smallTrace = "gen-trace-small.json.gz"

// startOn starts the app on a fixture with a state file, waits for the loaded window and moves the
// pointer off the chart so that no hover wash is in the screenshots.
func startOn(t *testing.T, d *display, fixture string) (*app, string, shownState) {
	t.Helper()
	state := stateFile(t)
	t.Setenv("FLAMEDESK_STATE_FILE", state)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // fresh settings and recent files
	a := d.startApp(t, "flamedesk — "+filepath.Base(fixture), fixture)
	waitState(t, state, "the loaded trace", func(s shownState) bool { return s.ChartW > 0 && !s.Loading })
	d.xdo(t, "mousemove", "5", "5")
	d.waitDrawn(t)
	return a, state, readState(t, state)
}

// startWithSettings starts the app on a fixture with settings.json holding settings, and returns
// the state file.
func startWithSettings(t *testing.T, d *display, fixture, settings string) string {
	t.Helper()
	cfg := t.TempDir()
	if err := os.MkdirAll(filepath.Join(cfg, "flamedesk"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfg, "flamedesk", "settings.json"), []byte(settings), 0o644); err != nil {
		t.Fatal(err)
	}
	state := stateFile(t)
	t.Setenv("FLAMEDESK_STATE_FILE", state)
	t.Setenv("XDG_CONFIG_HOME", cfg)
	d.startApp(t, "flamedesk — "+filepath.Base(fixture), fixture)
	return state
}

// rowY is the screen y of the middle of a level's row of the track of pid/tid.
func rowY(t *testing.T, s shownState, m *timeline.Model, pid, tid int64, level int) int {
	t.Helper()
	for _, tp := range s.Tracks {
		if tp.Pid == pid && tp.Tid == tid {
			return s.ChartY + s.RulerH + int(tp.RowsY+float64(level)*m.Style.RowHeight-s.ScrollY+m.Style.RowHeight/2)
		}
	}
	t.Fatalf("track %d:%d not shown", pid, tid)
	return 0
}

// firstTrack is the model track shown first, and its pid and tid.
func firstTrack(t *testing.T, s shownState, m *timeline.Model) (*timeline.Track, int64, int64) {
	t.Helper()
	pid, tid := s.Tracks[0].Pid, s.Tracks[0].Tid
	for i := range m.Tracks {
		th := m.Trace.Threads[m.Tracks[i].Thread]
		if th.Pid == pid && th.Tid == tid {
			return &m.Tracks[i], pid, tid
		}
	}
	t.Fatal("first shown track not in the model")
	return nil, 0, 0
}

func isBar(c color.Color, bg color.NRGBA) bool {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	d := absDiff(n.R, bg.R) + absDiff(n.G, bg.G) + absDiff(n.B, bg.B)
	return d > 75
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

// rowProfile says, per chart column, whether the row at y shows a bar.
func rowProfile(img image.Image, s shownState, y int) []bool {
	bg := render.Light().Background
	out := make([]bool, s.ChartW)
	for x := range out {
		out[x] = isBar(img.At(s.ChartX+x, y), bg)
	}
	return out
}

// longestRun is the length of the longest run of bar pixels in a profile.
func longestRun(p []bool) int {
	best, cur := 0, 0
	for _, b := range p {
		if b {
			cur++
			best = max(best, cur)
		} else {
			cur = 0
		}
	}
	return best
}

// TestBarsWhereTheDataPutsThem opens a real trace and checks, column by column, that the top level
// of the first track is painted exactly where its entries are.
func TestBarsWhereTheDataPutsThem(t *testing.T) {
	d := startXvfb(t)
	fixture := fixturePath(t, "fixtures", "generated", smallTrace)
	a, _, s := startOn(t, d, fixture)
	m := loadModel(t, fixture)
	img := d.screenshot(t, "bars")

	sat, distinct := colourStats(img, image.Rect(0, s.ChartY, s.ChartW, s.ChartY+s.ChartH))
	if sat < 20000 || distinct < 6 {
		t.Fatalf("no flame chart: %d coloured pixels in %d colours", sat, distinct)
	}

	tr, pid, tid := firstTrack(t, s, m)
	y := rowY(t, s, m, pid, tid, 0)
	got := rowProfile(img, s, y)
	covered := make([]float64, s.ChartW) // how much of each column the level covers
	span := s.ViewEnd - s.ViewStart
	for _, e := range tr.Levels[0].Entries {
		x0 := (tr.Core.StartAt(int(e)) - s.ViewStart) / span * float64(s.ChartW)
		x1 := (tr.Core.StartAt(int(e)) + tr.Core.DurAt(int(e)) - s.ViewStart) / span * float64(s.ChartW)
		for x := max(int(x0), 0); x < s.ChartW && float64(x) < x1; x++ {
			covered[x] += min(x1, float64(x+1)) - max(x0, float64(x))
		}
	}
	var wrongFull, wrongEmpty, full, empty int
	for x := 2; x < s.ChartW-2; x++ {
		switch {
		case covered[x-2] >= 1 && covered[x-1] >= 1 && covered[x] >= 1 && covered[x+1] >= 1 && covered[x+2] >= 1:
			full++
			if !got[x] {
				wrongFull++
			}
		case covered[x-2]+covered[x-1]+covered[x]+covered[x+1]+covered[x+2] == 0:
			empty++
			if got[x] {
				wrongEmpty++
			}
		}
	}
	if full < 100 || empty < 50 {
		t.Fatalf("fixture gives too little to check: %d full and %d empty columns", full, empty)
	}
	if wrongFull > full/50 || wrongEmpty > empty/50 {
		t.Fatalf("row y=%d: %d of %d columns that have an entry show none, %d of %d empty columns show a bar",
			y, wrongFull, full, wrongEmpty, empty)
	}

	// Labels: dark text pixels inside the widest bar of the row.
	var best int32 = -1
	for _, e := range tr.Levels[0].Entries {
		if best < 0 || tr.Core.DurAt(int(e)) > tr.Core.DurAt(int(best)) {
			best = e
		}
	}
	x0 := int((tr.Core.StartAt(int(best)) - s.ViewStart) / span * float64(s.ChartW))
	x1 := int((tr.Core.StartAt(int(best)) + tr.Core.DurAt(int(best)) - s.ViewStart) / span * float64(s.ChartW))
	dark := 0
	for x := max(x0, 0) + 2; x < min(x1, s.ChartW)-2; x++ {
		for yy := y - 5; yy <= y+5; yy++ {
			c := color.NRGBAModel.Convert(img.At(x, yy)).(color.NRGBA)
			if int(c.R)+int(c.G)+int(c.B) < 250 {
				dark++
			}
		}
	}
	if dark < 20 {
		t.Fatalf("no label drawn in the widest bar (%d–%d px): %d dark pixels", x0, x1, dark)
	}

	// A key and a scroll: the app survives and keeps its title.
	d.xdo(t, "mousemove", "800", "400", "key", "w", "click", "5")
	d.xdo(t, "keydown", "ctrl", "click", "4", "keyup", "ctrl")
	settle()
	if !a.alive() {
		t.Fatalf("flamedesk died after input: %s", a.stderr.String())
	}
	if title := d.title(t, a); !strings.Contains(title, smallTrace) {
		t.Fatalf("title changed to %q", title)
	}
}

// TestNavigation zooms with ctrl+wheel, pans by dragging and with D, and checks both the view and
// the picture.
func TestNavigation(t *testing.T) {
	d := startXvfb(t)
	fixture := fixturePath(t, "fixtures", "generated", smallTrace)
	_, state, s0 := startOn(t, d, fixture)
	m := loadModel(t, fixture)
	_, pid, tid := firstTrack(t, s0, m)
	y := rowY(t, s0, m, pid, tid, 2)
	before := d.screenshot(t, "nav-before")
	w0 := longestRun(rowProfile(before, s0, y))

	// Zoom in at the middle of the chart: three notches up.
	cx := s0.ChartX + s0.ChartW/2
	d.xdo(t, "mousemove", itoa(cx), itoa(y))
	for range 3 {
		d.xdo(t, "keydown", "ctrl", "click", "4", "keyup", "ctrl")
	}
	s1 := waitState(t, state, "a zoomed view", func(s shownState) bool { return s.ViewEnd-s.ViewStart < 0.8*(s0.ViewEnd-s0.ViewStart) })
	d.xdo(t, "mousemove", "5", "5")
	settle()
	s1 = readState(t, state)
	mid0 := (s0.ViewStart + s0.ViewEnd) / 2
	mid1 := (s1.ViewStart + s1.ViewEnd) / 2
	if diff := mid1 - mid0; diff > 0.05*(s0.ViewEnd-s0.ViewStart) || diff < -0.05*(s0.ViewEnd-s0.ViewStart) {
		t.Fatalf("zoom did not keep the point under the pointer: centre moved by %.0f µs", diff)
	}
	after := d.screenshot(t, "nav-zoomed")
	// The widest bar of the row grows with the zoom (×1.8 here). The mean run length does not
	// tell: the zoom also splits merged spans into many thin bars.
	w1 := longestRun(rowProfile(after, s1, y))
	if w0 == 0 || float64(w1) <= 1.3*float64(w0) {
		t.Fatalf("bars did not get wider: the widest was %d px before the zoom, %d px after", w0, w1)
	}

	// Drag left by 300 px: later times come into view.
	d.xdo(t, "mousemove", itoa(cx), itoa(y), "mousedown", "1")
	for i := 1; i <= 10; i++ {
		d.xdo(t, "mousemove", itoa(cx-30*i), itoa(y))
	}
	d.xdo(t, "mouseup", "1")
	d.xdo(t, "mousemove", "5", "5")
	time.Sleep(1500 * time.Millisecond) // let a fling come to rest
	s2 := readState(t, state)
	pxMoved := (s2.ViewStart - s1.ViewStart) / (s1.ViewEnd - s1.ViewStart) * float64(s1.ChartW)
	if pxMoved < 250 {
		t.Fatalf("dragging 300 px moved the view by %.0f px", pxMoved)
	}
	dragged := d.screenshot(t, "nav-dragged")
	if diffPixels(after, dragged, image.Rect(0, s1.ChartY+s1.RulerH, s1.ChartW, s1.ChartY+s1.ChartH)) < 5000 {
		t.Fatal("the picture did not change after dragging")
	}

	// Hold A: the view keeps moving left (the drag may have reached the end of the trace, so A
	// goes first); then D brings it back right.
	d.xdo(t, "mousemove", itoa(cx), itoa(y), "keydown", "a")
	time.Sleep(400 * time.Millisecond)
	d.xdo(t, "keyup", "a")
	time.Sleep(300 * time.Millisecond)
	s3 := waitState(t, state, "a view panned with A", func(s shownState) bool { return s.ViewStart < s2.ViewStart })
	d.xdo(t, "keydown", "d")
	time.Sleep(400 * time.Millisecond)
	d.xdo(t, "keyup", "d")
	waitState(t, state, "a view panned with D", func(s shownState) bool { return s.ViewStart > s3.ViewStart })

	// Alt+Left goes back through history; 0 fits the whole trace.
	d.xdo(t, "key", "0")
	waitState(t, state, "the fitted view", func(s shownState) bool {
		return s.ViewStart <= s0.ViewStart+1 && s.ViewEnd >= s0.ViewEnd-1
	})
}

// TestWheelSchemes checks both wheel schemes with real wheel clicks: modern (the default), where
// the wheel scrolls the tracks and shift+wheel pans, and classic, where the wheel zooms at the
// pointer and shift+wheel scrolls.
func TestWheelSchemes(t *testing.T) {
	fixture := fixturePath(t, "fixtures", "generated", smallTrace)
	for _, classic := range []bool{false, true} {
		name := map[bool]string{false: "modern", true: "classic"}[classic]
		t.Run(name, func(t *testing.T) {
			d := startXvfb(t)
			state := startWithSettings(t, d, fixture, fmt.Sprintf(`{"wheelZooms": %v}`, classic))
			s0 := waitState(t, state, "the loaded trace", func(s shownState) bool { return s.ChartW > 0 && !s.Loading })
			d.waitDrawn(t)
			s0 = readState(t, state)
			cx, cy := s0.ChartX+s0.ChartW/2, s0.ChartY+s0.ChartH/2
			span0 := s0.ViewEnd - s0.ViewStart
			d.xdo(t, "mousemove", itoa(cx), itoa(cy))

			if classic {
				// A plain notch up zooms in at the pointer.
				d.xdo(t, "click", "4")
				s := waitState(t, state, "a zoomed-in view", func(s shownState) bool { return s.ViewEnd-s.ViewStart < 0.95*span0 })
				if s.ScrollY != s0.ScrollY {
					t.Errorf("the wheel zoomed and also scrolled: %v → %v", s0.ScrollY, s.ScrollY)
				}
			} else {
				// A plain notch down scrolls the tracks.
				d.xdo(t, "click", "5")
				s := waitState(t, state, "scrolled tracks", func(s shownState) bool { return s.ScrollY > s0.ScrollY })
				if s.ViewStart != s0.ViewStart || s.ViewEnd != s0.ViewEnd {
					t.Errorf("the wheel scrolled and also changed the time range")
				}
			}

			// Shift + a notch down: classic scrolls, modern pans (after zooming in, so there is room).
			if !classic {
				for range 3 {
					d.xdo(t, "keydown", "ctrl", "click", "4", "keyup", "ctrl")
				}
				waitState(t, state, "a zoomed-in view", func(s shownState) bool { return s.ViewEnd-s.ViewStart < 0.9*span0 })
				time.Sleep(300 * time.Millisecond)
			}
			s1 := readState(t, state)
			d.xdo(t, "keydown", "shift", "click", "5", "keyup", "shift")
			if classic {
				s := waitState(t, state, "scrolled tracks", func(s shownState) bool { return s.ScrollY > s1.ScrollY })
				if s.ViewStart != s1.ViewStart {
					t.Errorf("shift+wheel scrolled and also panned")
				}
			} else {
				s := waitState(t, state, "a panned view", func(s shownState) bool { return s.ViewStart > s1.ViewStart })
				if s.ScrollY != s1.ScrollY {
					t.Errorf("shift+wheel panned and also scrolled")
				}
			}
		})
	}
}

// TestSelectAndSearch clicks a bar and checks the details, then searches and checks the highlight.
func TestSelectAndSearch(t *testing.T) {
	d := startXvfb(t)
	fixture := fixturePath(t, "fixtures", "generated", smallTrace)
	_, state, s := startOn(t, d, fixture)
	m := loadModel(t, fixture)
	tr, pid, tid := firstTrack(t, s, m)

	// The widest ProfileCall on level 4 of the first track.
	level := 4
	var pick int32 = -1
	for _, e := range tr.Levels[level].Entries {
		if tr.Core.KindAt(int(e)) == 1 && (pick < 0 || tr.Core.DurAt(int(e)) > tr.Core.DurAt(int(pick))) {
			pick = e
		}
	}
	if pick < 0 {
		t.Fatal("no ProfileCall on level 4 of the first track")
	}
	want := m.EntryName(timeline.EntryRef{Track: trackIndex(m, tr), Entry: pick})
	span := s.ViewEnd - s.ViewStart
	x := int((tr.Core.StartAt(int(pick)) + tr.Core.DurAt(int(pick))/2 - s.ViewStart) / span * float64(s.ChartW))
	y := rowY(t, s, m, pid, tid, level)
	d.xdo(t, "mousemove", itoa(x), itoa(y), "click", "1")
	waitState(t, state, "the details of "+want, func(s shownState) bool {
		return s.Selected == want && len(s.Details) > 0 && strings.Contains(s.Details[0], want)
	})

	// Ctrl+F, type a query, Enter: matches are outlined in the search colour.
	query := "parse"
	d.xdo(t, "mousemove", "5", "5", "key", "ctrl+f")
	d.xdo(t, "type", "--delay", "30", query)
	waitState(t, state, "search matches", func(s shownState) bool { return s.Matches > 0 })
	d.xdo(t, "key", "Return")
	found := waitState(t, state, "the first match selected", func(s shownState) bool { return s.MatchIndex >= 0 })
	if !strings.Contains(strings.ToLower(found.Selected), query) {
		t.Fatalf("the first match %q does not contain %q", found.Selected, query)
	}
	settle()
	img := d.screenshot(t, "search")
	if hits := highlighted(img, found); hits < 50 {
		t.Fatalf("search matches are not highlighted: %d pixels of the highlight colour", hits)
	}
}

func trackIndex(m *timeline.Model, tr *timeline.Track) timeline.TrackID {
	for i := range m.Tracks {
		if &m.Tracks[i] == tr {
			return timeline.TrackID(i)
		}
	}
	return -1
}

// TestBrokenFile starts on a file that is not a trace: the error shows and the app keeps running.
func TestBrokenFile(t *testing.T) {
	d := startXvfb(t)
	bad := filepath.Join(t.TempDir(), "broken.json")
	if err := os.WriteFile(bad, []byte(`{"traceEvents": [{"name": "x", "ph": "X", "ts": `), 0o644); err != nil {
		t.Fatal(err)
	}
	state := stateFile(t)
	t.Setenv("FLAMEDESK_STATE_FILE", state)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // the file opened must not reach the user's recent list
	a := d.startApp(t, "flamedesk", bad)
	s := waitState(t, state, "an error or a warning", func(s shownState) bool {
		return !s.Loading && (s.Error != "" || len(s.Warnings) > 0)
	})
	// The first frame of a fresh GL window can take seconds on a busy machine: look again until
	// the text shows or the deadline passes.
	bottom := image.Rect(0, screenH-200, screenW, screenH)
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(500 * time.Millisecond) {
		sat, _ := colourStats(d.screenshot(t, "broken"), bottom)
		if sat >= 30 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no error or warning text visible (%q, %q)", s.Error, s.Warnings)
		}
	}
	d.xdo(t, "mousemove", "400", "400", "key", "w", "click", "4")
	settle()
	if !a.alive() {
		t.Fatalf("flamedesk died on a broken file: %s", a.stderr.String())
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestRefinedTiming starts with the remembered "refined to task edges" setting: the calls are
// rebuilt from Lighthouse's refined boundaries and a selected call tells where it could have begun.
func TestRefinedTiming(t *testing.T) {
	d := startXvfb(t)
	fixture := fixturePath(t, "fixtures", "generated", smallTrace)
	state := startWithSettings(t, d, fixture, `{"refinedTiming": true}`)
	waitState(t, state, "refined timing", func(s shownState) bool { return s.Timing == "refined" && s.ChartW > 0 })
	d.xdo(t, "mousemove", "5", "5")
	d.waitDrawn(t)
	s := readState(t, state)

	// Click the middle of the widest ProfileCall of the refined tracks, computed here as the window
	// computes them.
	m := loadModel(t, fixture)
	refined := lighthouse.RefinedTiming(m.Trace)
	m.Trace.Tracks = refined.Tracks
	m = timeline.New(m.Trace)
	tr, pid, tid := firstTrack(t, s, m)
	level, pick := -1, int32(-1)
	for l := 3; l < len(tr.Levels) && l < 12; l++ {
		for _, e := range tr.Levels[l].Entries {
			if tr.Core.KindAt(int(e)) == 1 && (pick < 0 || tr.Core.DurAt(int(e)) > tr.Core.DurAt(int(pick))) {
				level, pick = l, e
			}
		}
	}
	if pick < 0 {
		t.Fatal("no refined ProfileCall on the first track")
	}
	span := s.ViewEnd - s.ViewStart
	bestX := int((tr.Core.StartAt(int(pick)) + tr.Core.DurAt(int(pick))/2 - s.ViewStart) / span * float64(s.ChartW))
	y := rowY(t, s, m, pid, tid, level)
	d.xdo(t, "mousemove", itoa(s.ChartX+bestX), itoa(y), "click", "1")
	sel := waitState(t, state, "details of a refined call", func(s shownState) bool {
		for _, l := range s.Details {
			if strings.HasPrefix(l, "Began\tstarted between") || strings.HasPrefix(l, "Began\tstarted at") {
				return true
			}
		}
		return false
	})
	if sel.Selected == "" {
		t.Fatal("nothing selected")
	}
}

// TestCallTreePanel drives the call tree with the keyboard: selecting a function highlights its
// calls in the flame chart, and m merges its node, which shows as a breadcrumb.
func TestCallTreePanel(t *testing.T) {
	d := startXvfb(t)
	fixture := fixturePath(t, "fixtures", "generated", smallTrace)
	_, state, s := startOn(t, d, fixture)
	if len(s.TreeRows) < 3 {
		t.Fatalf("the call tree shows %d rows", len(s.TreeRows))
	}
	// Focus the table, then walk down to the first function that has calls in the chart.
	d.xdo(t, "mousemove", itoa(s.TreeX), itoa(s.TreeY), "click", "1")
	var sel shownState
	for i := 0; i < 6; i++ {
		d.xdo(t, "key", "Down")
		settle()
		sel = readState(t, state)
		if sel.Marked > 0 {
			break
		}
	}
	if sel.Marked == 0 {
		t.Fatalf("no function selected in the call tree highlights calls in the chart (selected %q)", sel.TreeSel)
	}
	d.xdo(t, "mousemove", "5", "5")
	settle()
	img := d.screenshot(t, "calltree-highlight")
	if hits := highlighted(img, sel); hits < 20 {
		t.Fatalf("the calls of %q are not highlighted: %d pixels of the highlight colour", sel.TreeSel, hits)
	}

	// m merges the selected node; the breadcrumb names it, and clicking "Complete" is not needed
	// to undo: the test only checks the transform took.
	fn := strings.Fields(sel.TreeSel)[0]
	d.xdo(t, "mousemove", itoa(s.TreeX), itoa(s.TreeY), "key", "m")
	merged := waitState(t, state, "a merge breadcrumb", func(s shownState) bool { return len(s.Crumbs) == 1 })
	if !strings.Contains(merged.Crumbs[0], fn) {
		t.Fatalf("breadcrumb %q does not name %q", merged.Crumbs[0], fn)
	}
}

// highlighted counts the chart's pixels in the light theme's search-match colour.
func highlighted(img image.Image, s shownState) int {
	mark := render.Light().SearchMatch
	hits := 0
	for y := s.ChartY + s.RulerH; y < s.ChartY+s.ChartH; y++ {
		for x := 0; x < s.ChartW; x++ {
			c := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
			if absDiff(c.R, mark.R)+absDiff(c.G, mark.G)+absDiff(c.B, mark.B) < 30 {
				hits++
			}
		}
	}
	return hits
}
