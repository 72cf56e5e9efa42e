package app

import (
	"testing"

	"flamedesk/timeline"
)

// A large trace's model comes to the window with only the rows its chart shows placed (the first
// view is the chart's height as the frames before lay it out), and the others are placed once it
// is shown: every row in the first chart is placed, and every row once the window is idle. They
// are placed only once the first chart is on screen, so as not to slow it down.
func TestRowsBelowTheFirstViewArePlacedOnceShown(t *testing.T) {
	h := loadedHarness(t, Options{Source: SourceFromPath(fixture(t, "generated", "gen-trace-medium-reload.json.gz"))}, nil)
	m, vp := h.u.doc.model, h.u.doc.view
	if !m.DeferredRows() {
		t.Fatal("the model came with every row placed")
	}
	if h.u.rest.Pending() {
		t.Fatal("the rows below the first view are placed before the first chart is on screen")
	}
	h.u.afterFrame()
	if !h.u.rest.Pending() {
		t.Fatal("the rows below the first view are not placed once the first chart is on screen")
	}
	// The first view the model was built for is the chart's as it is once the document shows,
	// taken by the frames before it, which drew no bottom panel.
	if got := float64(h.u.chartView.Load()); got != vp.Height() {
		t.Fatalf("the model was built for a first view of %.0f px, the chart shows %.0f", got, vp.Height())
	}
	// PlaceRest may have placed the other rows already.
	inView := 0
	for _, ti := range m.ShownTracks() {
		tk := &m.Tracks[ti]
		for d := range tk.Levels {
			top := tk.RowsY + float64(d)*m.Style.RowHeight - vp.ScrollY()
			switch {
			case tk.Collapsed || top >= vp.Height() || top+m.Style.RowHeight <= 0:
			case !tk.Placed(d):
				t.Fatalf("track %s: row %d is in the first chart (%.0f px down of %.0f) but not placed", tk.Title, d, top, vp.Height())
			default:
				inView++
			}
		}
	}
	if inView == 0 {
		t.Fatal("no row in the first chart")
	}
	h.idle()
	for ti := range m.Tracks {
		tk := &m.Tracks[ti]
		for d := range tk.Levels {
			if !tk.Placed(d) {
				t.Fatalf("track %s: row %d is not placed once the window is idle", tk.Title, d)
			}
		}
	}
	// A track whose rows were counted only once it was shown is then as high as the whole
	// build makes it.
	whole := timeline.NewWithPanelLanes(m.Trace)
	if m.ContentHeight() != whole.ContentHeight() {
		t.Fatalf("the chart is %.0f px high once the window is idle, the whole build's %.0f", m.ContentHeight(), whole.ContentHeight())
	}
}
