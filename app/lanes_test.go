package app

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"flamedesk/internal/fixtures"
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

// A selected entry's details end with its Summary: its time by category, which adds up to the
// entry's duration.
func TestDetailsSummary(t *testing.T) {
	h := newHarness(t, SourceFromPath(fixture(t, "generated", "gen-trace-small.json.gz")))
	m := h.u.doc.model
	ref := h.visibleEntry(func(r timeline.EntryRef) bool { return m.EntryEnd(r)-m.EntryStart(r) > 1000 })
	h.click(h.entryPoint(ref), 0)
	h.idle()
	var pct float64
	summary := false
	for _, l := range h.u.panel.details.lines {
		if l.label == "Summary" {
			summary = true
			continue
		}
		var ms, p float64
		var unit string
		if summary {
			if _, err := fmt.Sscanf(strings.ReplaceAll(l.value, "(", ""), "%g %s %g%%", &ms, &unit, &p); err == nil {
				pct += p
			}
		}
	}
	if !summary || math.Abs(pct-100) > 0.5 {
		t.Errorf("summary present %v, its shares add up to %.1f%%", summary, pct)
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
