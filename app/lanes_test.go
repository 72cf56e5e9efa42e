package app

import (
	"fmt"
	"image"
	"math"
	"strings"
	"testing"
	"time"

	"gioui.org/io/key"
	"gioui.org/io/pointer"

	"flamedesk/internal/fixtures"
	"flamedesk/render"
	"flamedesk/timeline"
)

// devtools-slow-interaction-keydown opens with its frames, filmstrip and interactions above the
// threads; the pointer on the reference's longest interaction shows its phases in the tooltip,
// and a click on the Interactions header collapses the lane.
func TestWindowShowsTheInteraction(t *testing.T) {
	const name = "devtools-slow-interaction-keydown"
	var ref struct {
		Interactions []struct {
			Type    string
			Ts, Dur float64
			Level   *int
		}
	}
	fixtures.DecodeGzipJSON(t, &ref, "conformance", "golden", name+".timelines.json.gz")
	best := -1
	for i, in := range ref.Interactions {
		if in.Level != nil && (best < 0 || in.Dur > ref.Interactions[best].Dur) {
			best = i
		}
	}
	if best < 0 {
		t.Fatal("the reference draws no interaction")
	}
	in := ref.Interactions[best]

	h := newHarness(t, SourceFromPath(fixture(t, "upstream", name+".json.gz")))
	m := h.u.doc.model
	lane := -1
	var kinds []string
	for i := range m.Lanes {
		if !m.Lanes[i].Shown {
			continue // memory, off until asked for
		}
		kinds = append(kinds, m.Lanes[i].Kind.String())
		if m.Lanes[i].Kind == timeline.LaneInteractions {
			lane = i
		}
	}
	if got := strings.Join(kinds, ","); got != "frames,screenshots,interactions" {
		t.Fatalf("lanes %s, want frames,screenshots,interactions", got)
	}
	v := h.u.doc.view
	x := v.TimeToPx(in.Ts + in.Dur/2)
	h.move(h.chartPoint(x, m.LaneRowTop(lane, *in.Level)+m.Style.RowHeight/2))
	h.idle()
	hov := h.u.doc.hover
	if hov.Kind != timeline.HitLaneItem || int(hov.Lane.Lane) != lane {
		t.Fatalf("hover %+v, want the interactions lane", hov)
	}
	tip := strings.Join(m.LaneTooltip(hov.Lane), "\n")
	for _, want := range []string{"Interaction: " + in.Type, "Input delay", "Processing duration", "Presentation delay", "INP"} {
		if !strings.Contains(tip, want) {
			t.Errorf("tooltip %q lacks %q", tip, want)
		}
	}
	// A click selects it: the details say what the tooltip says.
	h.click(h.chartPoint(x, m.LaneRowTop(lane, *in.Level)+m.Style.RowHeight/2), 0)
	h.idle()
	if !h.u.doc.hasLaneSelected || h.u.doc.laneSelected != hov.Lane {
		t.Fatalf("click selected %+v (%v)", h.u.doc.laneSelected, h.u.doc.hasLaneSelected)
	}
	var details []string
	for _, l := range h.u.panel.details.lines {
		details = append(details, l.label+" "+l.value)
	}
	if got := strings.Join(details, "\n"); !strings.Contains(got, "Interaction: "+in.Type) || !strings.Contains(got, "Input delay") {
		t.Errorf("details %q", got)
	}

	h.click(h.chartPoint(300, m.Lanes[lane].Y+2), 0)
	h.idle()
	if !m.Lanes[lane].Collapsed {
		t.Errorf("a click on the Interactions header did not collapse it")
	}

	// The memory graph is off, and the toolbar's switch turns it on below the other lanes.
	if !h.u.doc.hasMemory() || h.u.doc.memoryShown() {
		t.Fatalf("memory lane: present %v, shown %v", h.u.doc.hasMemory(), h.u.doc.memoryShown())
	}
	before := m.LanesHeight()
	h.u.emit(toggleMemory{})
	h.idle()
	if !h.u.doc.memoryShown() || m.LanesHeight() <= before {
		t.Errorf("memory on: shown %v, lanes %v px (were %v)", h.u.doc.memoryShown(), m.LanesHeight(), before)
	}
}

// A shift+drag selects a range; the Summary tab beside the trees gives the first thread's time in
// it by category, as render.CategoryTimes finds it, with times adding up to the range and a bar
// per category as long as its share.
func TestSummaryTab(t *testing.T) {
	h := newHarness(t, SourceFromPath(fixture(t, "generated", "gen-trace-small.json.gz")))
	d := h.u.doc
	c := &h.u.chart
	y := c.origin.Y + c.rulerHeight + 40
	h.drag(image.Pt(c.origin.X+c.size.X/4, y), image.Pt(c.origin.X+3*c.size.X/4, y), key.ModShift)
	h.idle()
	if !d.hasRange() {
		t.Fatal("shift+drag selected no range")
	}
	// The pointer moves to the panel and rests before it clicks, as a person's would (a press in
	// the same instant as the drag's release does not reach the tab).
	h.move(h.u.panel.origin.Add(h.u.panel.treeArea.Min))
	h.wait(300 * time.Millisecond)
	tp := &h.u.panel.tree
	if tp.showSummary {
		t.Fatal("the Summary tab is open before its button is clicked")
	}
	h.click(h.u.panel.origin.Add(h.u.panel.treeArea.Min).Add(tp.summaryTab), 0)
	h.idle()
	if !tp.showSummary {
		t.Fatalf("a click at the Summary tab (%v in the panel) did not open it", tp.summaryTab)
	}
	want := render.CategoryTimes(d.model, d.model.ShownTracks()[0], d.rangeStart, d.rangeEnd)
	whole := d.rangeEnd - d.rangeStart
	total := 0.0
	for _, v := range want {
		total += v
	}
	if math.Abs(total-whole) > 1e-6*whole {
		t.Errorf("the categories add up to %.3f µs, the range is %.3f µs", total, whole)
	}
	v := &tp.summary
	shown := 0
	for cat, us := range want {
		if us > 0 {
			shown++
		}
		if v.sum.times[cat] != us {
			t.Errorf("%v: the tab has %.3f µs, CategoryTimes %.3f µs", render.Category(cat), v.sum.times[cat], us)
		}
	}
	if len(v.rows) != shown || len(v.bars) != shown || shown == 0 {
		t.Fatalf("%d rows and %d bars drawn for %d categories with time", len(v.rows), len(v.bars), shown)
	}
	// Each bar is as long as its share: the widths keep the times' proportions.
	widest := v.bars[0].Dx()
	for i, cat := range v.rows {
		if i > 0 && want[cat] > want[v.rows[i-1]] {
			t.Errorf("%v after %v: rows not largest first", cat, v.rows[i-1])
		}
		expect := float64(widest) * want[cat] / want[v.rows[0]]
		if math.Abs(float64(v.bars[i].Dx())-expect) > 2 {
			t.Errorf("%v: bar %d px wide, %.1f px for its share", cat, v.bars[i].Dx(), expect)
		}
	}
	// The tree tab brings the table back.
	h.click(h.u.panel.origin.Add(h.u.panel.treeArea.Min).Add(image.Pt(20, tp.summaryTab.Y)), 0)
	h.idle()
	if tp.showSummary {
		t.Error("the Call tree tab did not close the Summary")
	}
}

// With the pointer on the ruler, the screenshot taken at that time is decoded off the UI
// goroutine and shown: the reference's screenshot count is what the lane holds, and the one at
// the pointer decodes to an image.
func TestFilmstripPeek(t *testing.T) {
	h := newHarness(t, SourceFromPath(fixture(t, "upstream", "devtools-slow-interaction-keydown.json.gz")))
	d := h.u.doc
	shots := d.model.Panel.Screenshots
	if len(shots) < 2 {
		t.Fatalf("%d screenshots", len(shots))
	}
	want := len(shots) / 2
	x := d.view.TimeToPx(shots[want].Ts + float64(shots[want].Dur)/2)
	h.move(h.chartPoint(x, d.view.ScrollY()-float64(h.u.chart.rulerHeight)/2))
	deadline := time.Now().Add(20 * time.Second)
	for {
		h.frame()
		if d.film != nil {
			d.film.mu.Lock()
			img, ok := d.film.images[want]
			d.film.mu.Unlock()
			if ok {
				if s := img.Size(); s.X < 10 || s.Y < 10 {
					t.Errorf("screenshot %d decoded to %v", want, s)
				}
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("screenshot %d never decoded: images %d, failed %v, pending %v", want, len(d.film.images), d.film.failed, d.film.pending)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// The search's match count holds the lane items it finds (here a timing's name, counted in the
// test from the lanes' labels) beside the entries.
func TestSearchCountsLaneItems(t *testing.T) {
	h := newHarness(t, SourceFromPath(fixture(t, "upstream", "devtools-timings-track.json.gz")))
	m := h.u.doc.model
	query := ""
	for i := range m.Lanes {
		if m.Lanes[i].Kind == timeline.LaneTimings {
			for _, s := range m.Lanes[i].Label {
				if len(s) >= 3 {
					query = s
					break
				}
			}
		}
	}
	if query == "" {
		t.Fatal("no timing with a name in the fixture")
	}
	inLanes := 0
	for i := range m.Lanes {
		if m.Lanes[i].Kind == timeline.LaneMemory {
			continue
		}
		for _, s := range m.Lanes[i].Label {
			if strings.Contains(strings.ToLower(s), strings.ToLower(query)) {
				inLanes++
			}
		}
	}
	h.press("F", key.ModShortcut)
	h.typeText(query)
	h.idle()
	d := h.u.doc
	if d.search == nil {
		t.Fatalf("no search for %q", query)
	}
	if len(d.laneMatches) != inLanes {
		t.Errorf("%q: %d lane matches, the labels hold %d", query, len(d.laneMatches), inLanes)
	}
	if got, want := searchCount(d), plural(d.search.Len()+inLanes, "match", "matches"); got != want {
		t.Errorf("%q: the count says %q, want %q (%d entries, %d lane items)", query, got, want, d.search.Len(), inLanes)
	}
}

// A right-click on a lane's header hides it like a thread; the status bar counts it among the
// hidden tracks, and its "Show hidden tracks" brings it back.
func TestShowHiddenTracksShowsLanes(t *testing.T) {
	h := newHarness(t, SourceFromPath(fixture(t, "upstream", "devtools-slow-interaction-keydown.json.gz")))
	d := h.u.doc
	m := d.model
	lane := -1
	for i := range m.Lanes {
		if m.Lanes[i].Kind == timeline.LaneInteractions {
			lane = i
		}
	}
	if lane < 0 {
		t.Fatal("no interactions lane")
	}
	before := d.hiddenTracks()
	p := h.chartPoint(300, m.Lanes[lane].Y+2)
	at := h.eventTime()
	h.queue(pointerAt(pointer.Move, p, 0, 0, at),
		pointerAt(pointer.Press, p, pointer.ButtonSecondary, 0, at),
		pointerAt(pointer.Release, p, 0, 0, at+10*time.Millisecond))
	h.idle()
	if !m.Lanes[lane].Hidden || d.hiddenTracks() != before+1 {
		t.Fatalf("after a right-click on its header the lane is hidden %v; hidden tracks %d (were %d)", m.Lanes[lane].Hidden, d.hiddenTracks(), before)
	}
	h.u.emit(showHiddenTracks{})
	h.idle()
	if m.Lanes[lane].Hidden || d.hiddenTracks() != 0 {
		t.Errorf("Show hidden tracks left the lane hidden %v, %d hidden tracks", m.Lanes[lane].Hidden, d.hiddenTracks())
	}
	if d.memoryShown() {
		t.Error("Show hidden tracks turned the memory graph on")
	}
}

// Enter steps through the search's matches in order of start time, the lane items among the
// entries: on a lane item (here a measure of the Timings lane) it selects the item, shows it in
// the details and brings its time and row into view, and it visits every match once per round.
func TestSearchStepsOntoLaneItems(t *testing.T) {
	h := newHarness(t, SourceFromPath(fixture(t, "upstream", "devtools-timings-track.json.gz")))
	d := h.u.doc
	m := d.model
	query := ""
	for i := range m.Lanes {
		l := &m.Lanes[i]
		for k := range l.Label {
			if l.Kind == timeline.LaneTimings && l.Style[k] == timeline.TimingMeasure && len(l.Label[k]) >= 3 {
				query = l.Label[k]
				break
			}
		}
	}
	if query == "" {
		t.Fatal("no measure with a name in the fixture")
	}
	h.press("F", key.ModShortcut)
	h.typeText(query)
	h.idle()
	n := d.matchCount()
	lanes := len(d.laneMatches)
	if lanes == 0 || n != d.search.Len()+lanes {
		t.Fatalf("%q: %d matches, %d of them lane items", query, n, lanes)
	}
	lower := strings.ToLower(query)
	seenLanes := map[timeline.LaneRef]bool{}
	seenEntries := map[timeline.EntryRef]bool{}
	last, wraps := math.Inf(-1), 0
	for step := 0; step < n; step++ {
		h.press(key.NameReturn, 0)
		h.idle()
		var start float64
		if d.hasLaneSelected {
			r := d.laneSelected
			l := &m.Lanes[r.Lane]
			if seenLanes[r] || !d.search.ContainsLane(r) {
				t.Fatalf("step %d: lane item %v visited twice or not a match", step, r)
			}
			seenLanes[r] = true
			if !strings.Contains(strings.ToLower(l.Label[r.Item]), lower) {
				t.Errorf("step %d: selected %q, which does not hold %q", step, l.Label[r.Item], query)
			}
			start = l.Start[r.Item]
			end := start + l.Dur[r.Item]
			if end < d.view.Start() || start > d.view.End() {
				t.Errorf("step %d: %q at %v–%v is outside the view %v–%v", step, l.Label[r.Item], start, end, d.view.Start(), d.view.End())
			}
			top := m.LaneRowTop(int(r.Lane), max(int(l.Row[r.Item]), 0))
			if top < d.view.ScrollY() || top+m.Style.RowHeight > d.view.ScrollY()+d.view.Height() {
				t.Errorf("step %d: the item's row at %v is scrolled out of %v+%v", step, top, d.view.ScrollY(), d.view.Height())
			}
			lines := laneDetails(d)
			if len(lines) == 0 || lines[0].value != l.Label[r.Item] {
				t.Errorf("step %d: the details say %+v", step, lines)
			}
		} else {
			if !d.selected.Valid() || seenEntries[d.selected] || !d.search.Contains(d.selected) {
				t.Fatalf("step %d: selected entry %v is none, a repeat or not a match", step, d.selected)
			}
			seenEntries[d.selected] = true
			start = m.EntryStart(d.selected)
		}
		if start < last {
			wraps++
		}
		last = start
		if got := searchCount(d); got != fmt.Sprintf("%d / %d", d.searchIndex+1, n) {
			t.Errorf("step %d: the count says %q", step, got)
		}
	}
	if len(seenLanes) != lanes || len(seenEntries) != d.search.Len() {
		t.Errorf("one round visited %d of %d lane items and %d of %d entries", len(seenLanes), lanes, len(seenEntries), d.search.Len())
	}
	// The round starts at the left edge of the view and goes by time, so it wraps at most once.
	if wraps > 1 {
		t.Errorf("the matches were not visited in order of time: %d steps back", wraps)
	}
}

// With the pointer on the overview, the screenshot taken at the time under it is decoded off the
// UI goroutine and shown, as with the pointer on the ruler: the overview spans the whole trace, so
// the time is the pointer's share of its width.
func TestOverviewFilmstripPeek(t *testing.T) {
	h := newHarness(t, SourceFromPath(fixture(t, "upstream", "devtools-slow-interaction-keydown.json.gz")))
	d := h.u.doc
	shots := d.model.Panel.Screenshots
	if len(shots) < 4 {
		t.Fatalf("%d screenshots", len(shots))
	}
	// Zoom the chart far in elsewhere: the overview still maps the whole trace.
	d.view.ZoomToRange(shots[0].Ts, shots[0].Ts+1000)
	want := len(shots) * 2 / 3
	mid := shots[want].Ts + float64(shots[want].Dur)/2
	x := (mid - d.view.Origin()) / d.view.Total() * float64(h.u.overview.width)
	h.move(image.Pt(int(x), toolbarHeight+overviewHeight/2))
	if !h.u.overview.hovering {
		t.Fatal("the overview did not see the pointer")
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		h.frame()
		if d.film != nil {
			d.film.mu.Lock()
			img, ok := d.film.images[want]
			n := len(d.film.images)
			d.film.mu.Unlock()
			if ok {
				if s := img.Size(); s.X < 10 || s.Y < 10 {
					t.Errorf("screenshot %d decoded to %v", want, s)
				}
				if n > filmstripCacheSize {
					t.Errorf("%d screenshots kept decoded, more than the cache's %d", n, filmstripCacheSize)
				}
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("screenshot %d never decoded", want)
		}
		time.Sleep(10 * time.Millisecond)
	}
	// Off the strip, no peek is asked for.
	h.move(h.emptyChartPoint())
	if h.u.overview.hovering {
		t.Error("the overview still hovers with the pointer on the chart")
	}
}

// The filmstrip row decodes the screenshots it shows, off the UI goroutine, and not the others:
// zoomed out on devtools-slow-interaction-keydown, every placed screenshot decodes, and what is
// decoded is at most what a first guess of their width placed.
func TestFilmstripRowDecodesWhatItShows(t *testing.T) {
	h := newHarness(t, SourceFromPath(fixture(t, "upstream", "devtools-slow-interaction-keydown.json.gz")))
	d := h.u.doc
	h.move(h.emptyChartPoint())
	deadline := time.Now().Add(20 * time.Second)
	for {
		h.frame()
		if d.film != nil {
			d.film.mu.Lock()
			pending := len(d.film.pending)
			d.film.mu.Unlock()
			if pending == 0 && d.film.lastAspect > 0 {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("the filmstrip never finished decoding")
		}
		time.Sleep(10 * time.Millisecond)
	}
	h.frame()
	d.film.mu.Lock()
	defer d.film.mu.Unlock()
	places := h.u.chart.builder.Filmstrip(d.view, func(i int) float64 {
		if img, ok := d.film.images[i]; ok {
			return float64(img.Size().X) / float64(img.Size().Y)
		}
		return d.film.aspect()
	})
	if len(places) < 3 {
		t.Fatalf("%d screenshots placed", len(places))
	}
	for _, p := range places {
		if _, ok := d.film.images[p.Shot]; !ok {
			t.Errorf("screenshot %d is shown but not decoded", p.Shot)
		}
	}
	if n := len(d.film.images); n > 2*len(places) || n >= len(d.model.Panel.Screenshots) {
		t.Errorf("%d screenshots decoded for %d shown (of %d)", n, len(places), len(d.model.Panel.Screenshots))
	}
}

// Switching the JS call timing to Lighthouse's refinement rebuilds the thread tracks; the lanes
// above them (network, frames, screenshots, timings) stay, with what the user collapsed.
func TestRefinedTimingKeepsTheLanes(t *testing.T) {
	h := newHarness(t, SourceFromPath(fixture(t, "upstream", "devtools-fenced-frame-fledge.json.gz")))
	sampled := h.u.doc.model
	lanes := func(m *timeline.Model) string {
		var kinds []string
		for i := range m.Lanes {
			if m.Lanes[i].Shown {
				kinds = append(kinds, fmt.Sprintf("%s:%d", m.Lanes[i].Kind, len(m.Lanes[i].Start)))
			}
		}
		return strings.Join(kinds, ",")
	}
	before := lanes(sampled)
	if !strings.Contains(before, "network") || !strings.Contains(before, "screenshots") {
		t.Fatalf("sampled lanes %q, want network and screenshots among them", before)
	}
	sampled.SetLaneCollapsed(0, true)
	s := h.u.settings
	s.Refined = true
	h.u.changeSettings(s)
	h.idle()
	refined := h.u.doc.model
	if refined == sampled || refined != h.u.doc.timing.refined {
		t.Fatal("the refined timing was not installed")
	}
	if got := lanes(refined); got != before {
		t.Errorf("refined lanes %q, want the sampled ones %q", got, before)
	}
	if !refined.Lanes[0].Collapsed {
		t.Error("the lane collapsed before the switch is expanded after it")
	}
	if refined.LanesHeight() != sampled.LanesHeight() {
		t.Errorf("lanes %.0f px high after the switch, %.0f before", refined.LanesHeight(), sampled.LanesHeight())
	}
}
