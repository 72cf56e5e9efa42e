package app

import (
	"testing"

	"gioui.org/io/key"
)

// Held navigation keys ask for frames only while they move the view: held against the trace's
// start or the fitted view they leave the window idle (a frame that repeats the last one still
// costs tens of ms of CPU on software GL), and a key that moves it again animates at once.
func TestHeldKeysAskForFramesOnlyWhileTheViewMoves(t *testing.T) {
	h := newHarness(t, SourceFromPath(fixture(t, "generated", smallTrace)))
	d := h.u.doc
	if !fitted(d) {
		t.Fatal("a new window does not show the whole trace")
	}
	h.move(h.chartPoint(float64(h.u.chart.size.X)/2, 10))
	// wakes runs a frame and reports whether it asked for another one.
	wakes := func() bool {
		h.router.WakeupTime()
		h.frame()
		_, w := h.router.WakeupTime()
		return w
	}
	for _, k := range []key.Name{"S", "A"} {
		h.queue(key.Event{Name: k, State: key.Press})
		if wakes() {
			t.Fatalf("%s held at the fitted view asks for frames", k)
		}
		if !fitted(d) {
			t.Fatalf("%s held at the fitted view moved it", k)
		}
		h.queue(key.Event{Name: k, State: key.Release})
	}
	h.queue(key.Event{Name: "W", State: key.Press})
	for i := range 3 {
		before := d.view.View()
		if !wakes() {
			t.Fatalf("frame %d of W held asks for no next frame", i)
		}
		if d.view.View() == before {
			t.Fatalf("frame %d of W held did not zoom", i)
		}
	}
	h.queue(key.Event{Name: "W", State: key.Release})
	if wakes() {
		t.Fatal("the window keeps drawing after W was released")
	}
}
