//go:build windowtest

package wintest

import (
	"image"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestComparison opens A with B stacked under it: B's chart shows bars on the same window of
// the aligned axis, and dragging B's ruler with the mouse moves B by as much as the pointer.
func TestComparison(t *testing.T) {
	d := startXvfb(t)
	a, b := fixturePath(t, "diff", "trace-a.json.gz"), fixturePath(t, "diff", "trace-slow.json.gz")
	state := stateFile(t)
	t.Setenv("FLAMEDESK_STATE_FILE", state)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	app := d.startApp(t, "flamedesk — "+filepath.Base(a), "--align", "mark:work-start", a, b)
	s := waitState(t, state, "B stacked under A", func(s shownState) bool {
		return !s.Loading && s.Compare != nil && s.Compare.Aligned && s.Compare.ChartH > 0
	})
	c := s.Compare
	if !strings.Contains(c.Align, "work-start") || c.ChartY < s.ChartY+s.ChartH {
		t.Fatalf("B: %+v; A's chart at %d, %d px high", c, s.ChartY, s.ChartH)
	}
	if math.Abs((c.ViewStart-c.Offset)-s.ViewStart) > 1e-3 || math.Abs((c.ViewEnd-c.Offset)-s.ViewEnd) > 1e-3 {
		t.Errorf("B shows [%v, %v] on its clock, A [%v, %v]; offset %v", c.ViewStart, c.ViewEnd, s.ViewStart, s.ViewEnd, c.Offset)
	}
	d.xdo(t, "mousemove", "5", "5")
	d.waitDrawn(t)
	img := d.screenshot(t, "compare")
	if sat, distinct := colourStats(img, image.Rect(0, c.ChartY+c.RulerH, s.ChartW, c.ChartY+c.ChartH)); sat < 5000 || distinct < 4 {
		t.Errorf("B's chart shows %d coloured pixels in %d colours", sat, distinct)
	}

	scale := (s.ViewEnd - s.ViewStart) / float64(s.ChartW)
	y := itoa(c.ChartY + c.RulerH/2)
	d.xdo(t, "mousemove", "500", y, "mousedown", "1")
	for x := 520; x <= 700; x += 20 {
		d.xdo(t, "mousemove", itoa(x), y)
	}
	d.xdo(t, "mouseup", "1")
	after := waitState(t, state, "B moved", func(n shownState) bool {
		return n.Compare != nil && n.Compare.Offset != c.Offset
	})
	// The state file is written every frame, so the first change may be a frame in the middle of
	// the drag: wait until the offset holds still.
	for same, deadline := 0, time.Now().Add(10*time.Second); same < 5 && time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond)
		if n := readState(t, state); n.Compare != nil && n.Compare.Offset != after.Compare.Offset {
			after, same = n, 0
		} else {
			same++
		}
	}
	if moved := c.Offset - after.Compare.Offset; math.Abs(moved-200*scale) > 0.05*200*scale {
		t.Errorf("a 200 px drag of B's ruler moved B by %v µs, want about %v", moved, 200*scale)
	}
	if math.Abs(after.ViewStart-s.ViewStart) > 1e-3 {
		t.Errorf("A's view moved from %v to %v", s.ViewStart, after.ViewStart)
	}
	if !app.alive() {
		t.Fatal("flamedesk died")
	}
}
