package render

import (
	"image/color"
	"math"
	"testing"

	"flamedesk/timeline"
)

// Every fill of the lanes stays visible on both themes' backgrounds, and on the dark one none is
// a pale glare meant for white.
func TestLaneInksOnBothThemes(t *testing.T) {
	var inks []color.NRGBA
	inks = append(inks, networkInk[:]...)
	inks = append(inks, frameInk[:]...)
	inks = append(inks, timingInk[:]...)
	inks = append(inks, interactionInk, animationInk, shiftInk, screenshotInk, extensionDefault)
	for _, th := range []*Theme{Light(), Dark()} {
		b := &Builder{theme: th}
		for _, c := range inks {
			got := b.laneInk(c)
			if cr := ContrastRatio(got, th.Background); cr < 1.05 {
				t.Errorf("%s: %v drawn as %v vanishes into the background (contrast %.2f)", th.Name, c, got, cr)
			}
			if th.Name == "dark" && relativeLuminance(got) > 0.55 {
				t.Errorf("dark: %v drawn as %v glares (luminance %.2f)", c, got, relativeLuminance(got))
			}
		}
	}
}

// React's extension tracks name themselves with "⚛", which the Go fonts lack: it is drawn as a
// bullet, which they have; text they can draw is left alone.
func TestDrawableReplacesMissingSymbols(t *testing.T) {
	for in, want := range map[string]string{
		"⚛ Server Components":  "• Server Components",
		"Scheduler ⚛":          "Scheduler •",
		"plain":                "plain",
		"Ünïcode – “quoted” …": "Ünïcode – “quoted” …",
	} {
		if got := Drawable(in); got != want {
			t.Errorf("Drawable(%q) = %q, want %q", in, got, want)
		}
		for _, r := range Drawable(in) {
			if r > 0x7f && !hasGlyph(r) {
				t.Errorf("Drawable(%q) keeps %q, which the font lacks", in, r)
			}
		}
	}
}

// The memory graph's per-column ranges, from the block minima and maxima, are the brute-force
// least and greatest values of any run of points of devtools-web-dev's counters.
func TestMemoryRangesMatchThePoints(t *testing.T) {
	m := loadModel(t, "fixtures", "upstream", "devtools-web-dev.json.gz")
	m.AddPanelLanes()
	var l *timeline.Lane
	for i := range m.Lanes {
		if m.Lanes[i].Kind == timeline.LaneMemory {
			l = &m.Lanes[i]
		}
	}
	if l == nil {
		t.Fatal("no memory lane")
	}
	b := NewBuilder(m)
	checked := 0
	for _, sr := range b.memorySeriesOf(l) {
		n := sr.to - sr.from
		for a := sr.from; a < sr.to; a += max(n/37, 1) {
			for e := a + 1; e <= sr.to; e += max(n/23, 1) {
				lo, hi := math.Inf(1), math.Inf(-1)
				for k := a; k < e; k++ {
					lo, hi = min(lo, l.Value[k]), max(hi, l.Value[k])
				}
				if glo, ghi := sr.rangeOf(l, a, e); glo != lo || ghi != hi {
					t.Fatalf("%s points %d–%d: range %v–%v, the points span %v–%v", l.Label[a], a, e, glo, ghi, lo, hi)
				}
				checked++
			}
		}
	}
	if checked < 100 {
		t.Fatalf("only %d ranges checked", checked)
	}
}
