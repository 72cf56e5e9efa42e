package main

import (
	"math"
	"testing"

	"flamedesk/internal/fixtures"
	"flamedesk/render"
	"flamedesk/timeline"
)

// The network lane of devtools-web-dev, drawn alone: the request with the longest download, placed
// from the reference's own times and level, shows its whisker before the send, its light box
// while waiting, and its solid box while downloading; the page-load markers the reference draws
// put their lines through the chart.
func TestRenderNetworkWaterfall(t *testing.T) {
	const name = "devtools-web-dev"
	var ref struct {
		Bounds  struct{ Min, Max float64 }
		Network []struct {
			Ts, Dur, SendStartTime, DownloadStart, FinishTime float64
			Level                                             int
		}
		Timings struct {
			PageLoad []struct {
				Kind        string
				Ts          float64
				PanelMarker bool
			}
		}
	}
	fixtures.DecodeGzipJSON(t, &ref, "conformance", "golden", name+".timelines.json.gz")
	img := renderPNG(t, fixtures.Path(t, "fixtures", "upstream", name+".json.gz"), "--tracks", "network,timings")
	x := func(ts float64) int {
		return int(math.Floor((ts - ref.Bounds.Min) / (ref.Bounds.Max - ref.Bounds.Min) * 1600))
	}
	best := 0
	for i, r := range ref.Network {
		if r.FinishTime-r.DownloadStart > ref.Network[best].FinishTime-ref.Network[best].DownloadStart {
			best = i
		}
	}
	r := ref.Network[best]
	st, ls := render.DefaultStyle(), timeline.DefaultLayoutStyle()
	rowTop := float64(st.RulerHeight) + ls.TrackHeaderHeight + float64(r.Level)*ls.RowHeight
	mid := int(rowTop + ls.RowHeight/2)
	bg := render.Light().Background
	solid := render.Pixel(img, (x(r.DownloadStart)+x(r.FinishTime))/2, mid)
	if x(r.FinishTime)-x(r.DownloadStart) < 4 {
		t.Fatalf("the longest download is %d px: pick another trace", x(r.FinishTime)-x(r.DownloadStart))
	}
	if solid == bg {
		t.Errorf("downloading part of the request at level %d is background", r.Level)
	}
	if x(r.DownloadStart)-x(r.SendStartTime) >= 4 {
		light := render.Pixel(img, (x(r.SendStartTime)+x(r.DownloadStart))/2, mid)
		if light == bg || light == solid || int(light.R)+int(light.G)+int(light.B) <= int(solid.R)+int(solid.G)+int(solid.B) {
			t.Errorf("waiting part %v is not lighter than the downloading part %v", light, solid)
		}
	}
	if x(r.SendStartTime)-x(r.Ts) >= 6 {
		// The whisker is one pixel on the row's middle line: just above it, background.
		wx := (x(r.Ts) + x(r.SendStartTime)) / 2
		if render.Pixel(img, wx, int(rowTop)+2) != bg {
			t.Errorf("above the whisker at %d: not background", wx)
		}
	}
	lines := 0
	for _, p := range ref.Timings.PageLoad {
		if !p.PanelMarker {
			continue
		}
		lines++
		hit := false
		for dx := -1; dx <= 1; dx++ {
			if render.Pixel(img, x(p.Ts)+dx, 990) != bg {
				hit = true
			}
		}
		if !hit {
			t.Errorf("no line for %s at %d px", p.Kind, x(p.Ts))
		}
	}
	if lines == 0 {
		t.Errorf("the reference draws no page-load marker")
	}
}
