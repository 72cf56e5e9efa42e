// Tests of how the chart's pointer input reaches the rest of the window.
package app

import (
	"image"
	"testing"
	"time"

	"gioui.org/io/pointer"
)

// A press on the chart while the window has the keyboard focus (the start of every drag) leaves
// the chrome's recorded layout alone: it asked for the focus the window had, which laid the
// toolbar and panels out anew in the next frame and made each drag's first frame about twice as
// slow under software GL. A click, released where it was pressed, still has the chrome laid out
// anew, as what it selects can change the panels.
func TestAPressOnTheFocusedChartKeepsTheChrome(t *testing.T) {
	h := newHarness(t, SourceFromPath(fixture(t, "generated", smallTrace)))
	// Zoomed in, so that the chart can be dragged sideways.
	v := h.u.doc.view
	v.ZoomToRange(v.Origin()+v.Total()*0.4, v.Origin()+v.Total()*0.5)
	h.idle()
	p := h.emptyChartPoint()
	h.move(p)
	h.idle()
	if !h.u.chart.pointerInside {
		t.Fatal("the pointer is not over the chart")
	}
	at := h.eventTime()
	h.router.Queue(pointerAt(pointer.Press, p, pointer.ButtonPrimary, 0, at))
	h.frame()
	if h.u.focusPending {
		t.Fatal("a press on the focused chart has the chrome laid out anew in the next frame")
	}
	before := h.u.doc.view.View()
	for i := 1; i <= 5; i++ {
		h.router.Queue(pointerAt(pointer.Move, p.Add(image.Pt(20*i, 0)), pointer.ButtonPrimary, 0, at+time.Duration(i)*50*time.Millisecond))
		h.frame()
		if h.u.chromeFresh {
			t.Fatalf("frame %d of a drag laid the chrome out anew", i)
		}
	}
	if h.u.doc.view.View() == before {
		t.Fatal("the drag did not move the view")
	}
	h.router.Queue(pointerAt(pointer.Release, p.Add(image.Pt(100, 0)), 0, 0, at+time.Second))
	h.frame()
	h.wait(time.Second) // not a double click
	h.click(h.emptyChartPoint(), 0)
	if !h.u.chromeFresh {
		t.Fatal("the frame after a click on the chart did not lay the chrome out anew")
	}
}
