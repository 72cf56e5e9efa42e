package main

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"flamedesk/core"
	"flamedesk/core/integrate"
	"flamedesk/core/load"
	"flamedesk/internal/fixtures"
	"flamedesk/render"
	"flamedesk/timeline"
)

// renderPNG runs "flamedesk render" and decodes the PNG it wrote.
func renderPNG(t *testing.T, args ...string) *image.RGBA {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out.png")
	var stdout, stderr bytes.Buffer
	if code := run(append([]string{"render", "-o", out}, args...), &stdout, &stderr); code != exitOK {
		t.Fatalf("render %v: exit %d: %s", args, code, stderr.String())
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	rgba := image.NewRGBA(img.Bounds())
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			rgba.Set(x, y, img.At(x, y))
		}
	}
	return rgba
}

// loadTracks loads a fixture the way the command does, to know where the data puts bars.
func loadTracks(t *testing.T, path string) *core.Trace {
	t.Helper()
	tr, err := load.File(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	integrate.Build(tr)
	return tr
}

// rootOf is the longest depth-0 entry of a track, and the track's time bounds.
func rootOf(ct *core.Track) (e int, lo, hi float64) {
	e, lo, hi = -1, math.Inf(1), math.Inf(-1)
	for i := 0; i < ct.Len(); i++ {
		lo, hi = min(lo, ct.StartAt(i)), max(hi, ct.StartAt(i)+ct.DurAt(i))
		if ct.DepthAt(i) == 0 && (e < 0 || ct.DurAt(i) > ct.DurAt(e)) {
			e = i
		}
	}
	return e, lo, hi
}

// barColor is the colour the chart gives a trace event, from its name and category.
func barColor(tr *core.Trace, ct *core.Track, e int, th *render.Theme) color.NRGBA {
	ev := ct.RefAt(e)
	return th.Categories[render.EventCategory(tr.Strings.Get(ct.NameAt(e)), tr.Strings.Get(tr.Events.Cat[ev]))]
}

// firstRowY is the frame y of the first level of the first track: below the ruler, the
// process header and the thread header.
func firstRowY() int {
	ls := timeline.DefaultLayoutStyle()
	return int(render.DefaultStyle().RulerHeight + float32(ls.GroupHeaderHeight+ls.TrackHeaderHeight))
}

func TestRenderDrawsBarsWhereTheDataPutsThem(t *testing.T) {
	path := fixtures.Path(t, "fixtures", "generated", "gen-trace-small.json.gz")
	tr := loadTracks(t, path)
	// The trace's main thread (renderer with the main frame, CrRendererMain) is drawn first.
	var main *core.Track
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range tr.Tracks {
		ct := &tr.Tracks[i]
		_, l, h := rootOf(ct)
		lo, hi = min(lo, l), max(hi, h)
		if tr.Strings.Get(tr.Threads[ct.Thread].Name) == "CrRendererMain" {
			main = ct
		}
	}
	if main == nil {
		t.Fatal("no CrRendererMain track")
	}
	e, _, _ := rootOf(main)
	img := renderPNG(t, path, "--tracks", "thread")
	if img.Bounds().Dx() != 1600 || img.Bounds().Dy() != 1000 {
		t.Fatalf("image is %v", img.Bounds())
	}
	th := render.Light()
	x := func(ts float64) int { return int(math.Round((ts - lo) / (hi - lo) * 1600)) }
	y := firstRowY() + 2
	x0, x1 := x(main.StartAt(e)), x(main.StartAt(e)+main.DurAt(e))
	want := barColor(tr, main, e, th)
	// A task over 50 ms is hatched past 50 ms and has a red top-right corner.
	plain := []int{x0 + 1, (x0 + x1) / 2, x1 - 3}
	if main.DurAt(e) > render.LongTask {
		x50 := x(main.StartAt(e) + render.LongTask)
		plain = []int{x0 + 1, (x0 + x50) / 2}
		red := false
		for px := x1 - 12; px <= x1+4; px++ {
			if c := render.Pixel(img, px, firstRowY()+1); c.R > 200 && c.G < 80 {
				red = true
			}
		}
		if !red {
			t.Errorf("long task %.0f µs: no red corner near (%d, %d)", main.DurAt(e), x1, firstRowY()+1)
		}
	}
	for _, px := range plain {
		if got := render.Pixel(img, px, y); got != want {
			t.Errorf("longest root %s [%d, %d) px: pixel (%d, %d) is %v, want %v",
				tr.Strings.Get(main.NameAt(e)), x0, x1, px, y, got, want)
		}
	}
	// Just before the trace's first entry on that row and well after its last, nothing.
	var rowEnd float64
	for i := 0; i < main.Len(); i++ {
		if main.DepthAt(i) == 0 {
			rowEnd = max(rowEnd, main.StartAt(i)+main.DurAt(i))
		}
	}
	if px := x(rowEnd) + 6; px < 1600 {
		if got := render.Pixel(img, px, y); got.R < 200 || got.G < 200 || got.B < 200 {
			t.Errorf("after the last root at %d px: pixel %v is not background", px, got)
		}
	}
	// The ruler is there, and labelled: dark text pixels in its band.
	ink := 0
	for yy := 0; yy < int(render.DefaultStyle().RulerHeight); yy++ {
		for xx := 0; xx < 1600; xx++ {
			if c := render.Pixel(img, xx, yy); c.R < 120 {
				ink++
			}
		}
	}
	if ink < 200 {
		t.Errorf("the ruler has %d dark pixels: no labels?", ink)
	}
}

func TestRenderWindowThreadAndTheme(t *testing.T) {
	path := fixtures.Path(t, "fixtures", "generated", "gen-trace-small.json.gz")
	tr := loadTracks(t, path)
	// A worker thread alone, zoomed to its longest root event: the bar fills the row from
	// edge to edge.
	var worker *core.Track
	for i := range tr.Tracks {
		if tr.Strings.Get(tr.Threads[tr.Tracks[i].Thread].Name) == "DedicatedWorker thread" {
			worker = &tr.Tracks[i]
		}
	}
	if worker == nil {
		t.Fatal("no DedicatedWorker thread track")
	}
	e, _, _ := rootOf(worker)
	th := tr.Threads[worker.Thread]
	start, end := worker.StartAt(e), worker.StartAt(e)+worker.DurAt(e)
	for _, theme := range []*render.Theme{render.Light(), render.Dark()} {
		img := renderPNG(t, path, "--thread", fmt.Sprintf("%d:%d", th.Pid, th.Tid),
			"--start", fmt.Sprintf("@%.3f", start), "--end", fmt.Sprintf("@%.3f", end),
			"--width", "800", "--height", "300", "--theme", theme.Name)
		if img.Bounds().Dx() != 800 || img.Bounds().Dy() != 300 {
			t.Fatalf("image is %v", img.Bounds())
		}
		want := barColor(tr, worker, e, theme)
		y := firstRowY() + 2
		plain := []int{3, 400, 795}
		if worker.DurAt(e) > render.LongTask {
			// Hatched past 50 ms, with the red corner: only its first 50 ms are plain.
			plain = []int{3, int(render.LongTask / worker.DurAt(e) * 800 / 2)}
		}
		for _, px := range plain {
			if got := render.Pixel(img, px, y); got != want {
				t.Errorf("%s: worker's root %s zoomed: pixel (%d, %d) is %v, want %v", theme.Name,
					tr.Strings.Get(worker.NameAt(e)), px, y, got, want)
			}
		}
		// The process header row, right of its title, in the theme's colour.
		if got := render.Pixel(img, 790, int(render.DefaultStyle().RulerHeight)+5); got != theme.GroupHeader {
			t.Errorf("%s: process header %v, want %v", theme.Name, got, theme.GroupHeader)
		}
	}
	// Relative times: the same window from the trace's start.
	lo := math.Inf(1)
	for i := range tr.Tracks {
		_, l, _ := rootOf(&tr.Tracks[i])
		lo = min(lo, l)
	}
	img := renderPNG(t, path, "--thread", fmt.Sprintf("%d:%d", th.Pid, th.Tid),
		"--start", fmt.Sprintf("%.3f", start-lo), "--end", fmt.Sprintf("%.3f", end-lo), "--width", "800", "--height", "300")
	if got, want := render.Pixel(img, 3, firstRowY()+2), barColor(tr, worker, e, render.Light()); got != want {
		t.Errorf("relative window: %v, want %v", got, want)
	}
}

func TestRenderCPUProfile(t *testing.T) {
	img := renderPNG(t, fixtures.Path(t, "fixtures", "upstream", "devtools-basic.cpuprofile.gz"), "--height", "400")
	// A .cpuprofile is one thread of ProfileCalls: some row holds bars.
	bars := 0
	for x := 0; x < 1600; x += 4 {
		if c := render.Pixel(img, x, firstRowY()+2); c != render.Light().Background {
			bars++
		}
	}
	if bars < 100 {
		t.Fatalf("only %d of 400 probes on the first row hit a bar", bars)
	}
}

func TestRenderUsageErrors(t *testing.T) {
	path := fixtures.Path(t, "fixtures", "generated", "gen-trace-small.json.gz")
	out := filepath.Join(t.TempDir(), "x.png")
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{path}, exitUsage, "-o OUT.png is required"},
		{[]string{"-o", out}, exitUsage, "want exactly one FILE"},
		{[]string{path, "-o", out, "--theme", "pink"}, exitUsage, "--theme"},
		{[]string{path, "-o", out, "--width", "0"}, exitUsage, "--width"},
		{[]string{path, "-o", out, "--thread", "abc"}, exitUsage, "PID:TID"},
		{[]string{path, "-o", out, "--thread", "1:2"}, exitUsage, "no thread 1:2"},
		{[]string{path, "-o", out, "--start", "500", "--end", "100"}, exitUsage, "must be after"},
		{[]string{path, "-o", out, "--start", "soon"}, exitUsage, "not a time"},
		{[]string{path, "-o", out, "--frobnicate"}, exitUsage, "frobnicate"},
		{[]string{filepath.Join(t.TempDir(), "missing.json"), "-o", out}, exitInput, "missing.json"},
		{[]string{path, "-o", filepath.Join(t.TempDir(), "no", "such", "dir.png")}, exitInput, "writing"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"render"}, c.args...), &stdout, &stderr)
		if code != c.code || !strings.Contains(stderr.String(), c.msg) {
			t.Errorf("render %v: exit %d, stderr %q; want exit %d mentioning %q", c.args, code, stderr.String(), c.code, c.msg)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"render", "--help"}, &stdout, &stderr); code != exitOK || !strings.Contains(stdout.String(), "Usage: flamedesk render") {
		t.Errorf("--help: exit %d, %q", code, stdout.String())
	}
}

// Without --start/--end, render draws the trace's bounds as DevTools has them and its summary
// line names that range; devtools-web-dev's "…::UMA" instant 26 s early stays out of it.
func TestRenderDefaultRangeIsTheTraceBounds(t *testing.T) {
	file := fixtures.Path(t, "fixtures", "upstream", "devtools-web-dev.json.gz")
	out := filepath.Join(t.TempDir(), "out.png")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"render", "-o", out, file}, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	// conformance/golden/devtools-web-dev.timelines.json.gz: bounds.range 1264914 µs
	if want := "0 µs to 1264914 µs"; !strings.Contains(stdout.String(), want) {
		t.Errorf("summary %q, want the range %q", stdout.String(), want)
	}
}
