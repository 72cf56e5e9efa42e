//go:build windowtest

package wintest

import (
	"image"
	"strings"
	"testing"
)

// TestFirstWindow opens a real trace and checks that a flame chart is drawn and that the app survives
// keys and scrolling.
func TestFirstWindow(t *testing.T) {
	d := startXvfb(t)
	fixture := fixturePath(t, "fixtures", "generated", "gen-trace-small.json.gz")
	a := d.startApp(t, "flamedesk — gen-trace-small.json.gz", fixture)
	d.xdo(t, "windowmove", a.window, "0", "0")
	settle()
	img := d.screenshot(t, "first-window")
	chart := image.Rect(0, 80, screenW, screenH-40)
	sat, distinct := colourStats(img, chart)
	if sat < 20000 || distinct < 4 {
		t.Fatalf("no flame chart: %d coloured pixels in %d colours", sat, distinct)
	}

	d.xdo(t, "mousemove", "800", "400")
	d.xdo(t, "key", "w")
	d.xdo(t, "click", "5")
	d.xdo(t, "keydown", "ctrl", "click", "4", "keyup", "ctrl")
	settle()
	if !a.alive() {
		t.Fatalf("flamedesk died after input: %s", a.stderr.String())
	}
	if title := d.title(t, a); !strings.Contains(title, "gen-trace-small") {
		t.Fatalf("title changed to %q", title)
	}
}
