package app

import (
	"bytes"
	"image"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"gioui.org/layout"
	"gioui.org/unit"

	"flamedesk/app/recent"
	"flamedesk/core/pipeline"
)

// TestReadyAfterTheFirstChart loads a real trace: the frame that installs it lays out the chart
// while its call tree waits (built once that frame is handed to the window), and the ready line
// of --time-to-ready names every stage, in the order they happened (the load starts before the
// first frame). The file goes into the recent list once that frame is on screen, not before.
func TestReadyAfterTheFirstChart(t *testing.T) {
	var log bytes.Buffer
	h := &harness{t: t, host: &fakeHost{woken: make(chan struct{}, 1)}, size: image.Pt(1400, 900),
		now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), config: t.TempDir()}
	h.u = newUI(h.host, Options{Source: SourceFromPath(fixture(t, "generated", smallTrace)), Load: pipeline.Open,
		ConfigDir: h.config, ReadyLog: &log, Started: time.Now()})
	t.Cleanup(func() { h.u.load.Cancel(); h.u.panel.tree.build.Cancel() })
	layOut := func() {
		h.now = h.now.Add(16 * time.Millisecond)
		h.ops.Reset()
		gtx := layout.Context{Ops: &h.ops, Now: h.now, Metric: unit.Metric{PxPerDp: 1, PxPerSp: 1},
			Constraints: layout.Exact(h.size), Source: h.router.Source()}
		h.u.frame(gtx)
		h.router.Frame(&h.ops)
	}
	for deadline := time.Now().Add(time.Minute); h.u.doc == nil; {
		if time.Now().After(deadline) {
			t.Fatal("the trace did not load within a minute")
		}
		h.u.ready.frameDone(h.u, time.Now())
		h.u.afterFrame()
		time.Sleep(10 * time.Millisecond)
		layOut()
	}
	if h.u.panel.tree.build.Pending() || !h.u.panel.tree.buildDeferred {
		t.Fatal("the call tree was being built while the document's first frame was laid out")
	}
	inRecent := func() bool {
		return slices.ContainsFunc(h.u.config.recentFiles(), func(e recent.Entry) bool { return filepath.Base(e.Path) == smallTrace })
	}
	if inRecent() {
		t.Fatal("the recent list was written (and synced) before the document's first frame was on screen")
	}
	if h.u.ready.frameDone(h.u, time.Now()) {
		t.Fatal("the window asked to exit without ExitWhenReady")
	}
	h.u.afterFrame()
	if !h.u.panel.tree.build.Pending() && h.u.panel.tree.tree == nil {
		t.Fatal("the call tree was not started after the document's first frame")
	}
	if !inRecent() {
		t.Fatal("the file opened is not in the recent list after its first frame")
	}
	h.idle()
	if h.u.panel.tree.tree == nil {
		t.Fatalf("no call tree once idle (%q)", h.u.panel.tree.message)
	}

	readyLine, stagesLine, _ := strings.Cut(log.String(), "\n")
	readyLine += "\n"
	m := regexp.MustCompile(`^ready: (\d+) ms after start \(first frame (\d+) ms; load from file (\d+)-(\d+) ms; ` +
		`source maps (\d+) ms, levels (\d+) ms, lanes (\d+) ms; installed (\d+) ms; first chart on screen (\d+) ms\)\n$`).
		FindStringSubmatch(readyLine)
	if m == nil {
		t.Fatalf("ready line %q", log.String())
	}
	// The second line gives the load's stages as `flamedesk stats` names them.
	if !regexp.MustCompile(`^load stages: read \d+ ms, .*tracks: ProfileCalls and trees \d+ ms\n$`).MatchString(stagesLine) {
		t.Fatalf("no line of the load's stages after the ready line in %q", log.String())
	}
	// The load starts with the window, before its first frame; from there the load's stages
	// follow one another up to the chart on screen, which comes after the first frame too.
	v := make([]int, len(m))
	for i, s := range m[1:] {
		v[i+1], _ = strconv.Atoi(s)
	}
	firstFrame, loadBegan, onScreen := v[2], v[3], v[len(v)-1]
	if loadBegan > firstFrame || firstFrame > onScreen {
		t.Fatalf("the load did not start before the first frame, or that frame came after the chart, in %q", log.String())
	}
	for i := 4; i < len(v); i++ {
		if v[i] < v[i-1] {
			t.Fatalf("stages out of order in %q", log.String())
		}
	}
	if m[1] != m[len(m)-1] {
		t.Fatalf("the ready time is not the first chart's in %q", log.String())
	}
}
