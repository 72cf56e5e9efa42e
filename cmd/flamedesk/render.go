package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"image"
	_ "image/jpeg" // screenshots are JPEGs
	"image/png"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"

	"flamedesk/core/timelines"
	"flamedesk/render"
	"flamedesk/timeline"
)

const renderUsage = `Usage: flamedesk render FILE -o OUT.png [flags]

Draws the flame chart of FILE into a PNG, as the window shows it: the time ruler, process and
thread headers, and the bars with their labels. Runs of entries narrower than 3 px are merged
into one hatched bar.

  -o OUT.png            where to write the PNG ("-" for stdout)
  --width PX            image width (default 1600)
  --height PX           image height (default 1000)
  --start US --end US   the time window, in µs from the start of the trace (the ruler's 0);
                        prefix a value with @ for an absolute time on the trace's clock, as
                        "flamedesk dump" prints it (default: the whole trace)
  --thread PID:TID      draw only this thread
  --theme light|dark    colours (default light)
  --generated           label JS calls as the engine recorded them, even where a source map
                        gives their original names (the default where one applies)
  --tracks KIND,...     which tracks to draw: network, frames, screenshots, animations, timings,
                        interactions, layoutShifts, extension, memory, thread (default: what the
                        window shows, every kind but memory; with --thread, only that thread)
  --no-cache            neither read nor write the cache of files opened before
` + sourceMapsUsage

// renderOptions are the parsed flags of the render subcommand.
type renderOptions struct {
	file, out     string
	width, height int
	start, end    timeArg
	thread        string
	theme         string
	sourceMaps    string
	generated     bool
	tracks        string
	noCache       bool
}

// timeArg is a --start or --end value: µs from the trace's start, or absolute with "@".
type timeArg struct {
	set, absolute bool
	us            float64
}

func (t *timeArg) String() string {
	if !t.set {
		return ""
	}
	if t.absolute {
		return "@" + strconv.FormatFloat(t.us, 'f', -1, 64)
	}
	return strconv.FormatFloat(t.us, 'f', -1, 64)
}

func (t *timeArg) Set(s string) error {
	abs := strings.HasPrefix(s, "@")
	v, err := strconv.ParseFloat(strings.TrimPrefix(s, "@"), 64)
	if err != nil || v != v || v > 1e300 || v < -1e300 {
		return fmt.Errorf("not a time in µs: %q", s)
	}
	*t = timeArg{set: true, absolute: abs, us: v}
	return nil
}

// resolve is the absolute time of t in a trace whose first entry is at origin.
func (t timeArg) resolve(origin float64) float64 {
	if t.absolute {
		return t.us
	}
	return origin + t.us
}

func runRender(args []string, stdout, stderr io.Writer) int {
	opt, code, ok := parseRenderArgs(args, stdout, stderr)
	if !ok {
		return code
	}
	opts, wait := firstOpenOptions(opt.noCache)
	defer wait()
	tr, err := opts.OpenFile(opt.file)
	if err != nil {
		return inputError(stderr, opt.file, err)
	}
	noteSourceMaps(stderr, applySourceMaps(tr, opt.sourceMaps))
	runtime.GC() // the load's garbage makes room for the levels (see app.open)
	m := timeline.New(tr)
	m.GeneratedNames = opt.generated
	if opt.thread != "" {
		if err := showOnlyThread(m, opt.thread); err != nil {
			return usageError(stderr, "render: %v", err)
		}
	}
	if opt.thread == "" || opt.tracks != "" {
		m.AddPanelLanes()
	}
	if opt.tracks != "" {
		kinds, _ := parseKinds(opt.tracks)
		showKinds(m, kinds)
	}
	lo, hi := m.Bounds()
	vp := timeline.NewViewport(lo, hi)
	if opt.start.set || opt.end.set {
		t0, t1 := lo, hi
		if opt.start.set {
			t0 = opt.start.resolve(lo)
		}
		if opt.end.set {
			t1 = opt.end.resolve(lo)
		}
		if !(t1 > t0) {
			return usageError(stderr, "render: --end (%s) must be after --start (%s)", opt.end.String(), opt.start.String())
		}
		vp.SetView(timeline.View{Start: t0 - vp.Origin(), Span: t1 - t0})
	}

	var list render.DrawList
	b := render.NewBuilder(m)
	b.Build(&list, vp, &render.Frame{
		Width: opt.width, Height: opt.height, Theme: render.ThemeByName(opt.theme),
		Selection: timeline.NoEntry, Hover: timeline.Hit{Kind: timeline.HitNone, Track: -1, Group: -1, Entry: timeline.NoEntry},
	})
	img := render.PaintImage(&list)
	drawFilmstrip(img, b, vp, m)

	if opt.out == "-" {
		w := bufio.NewWriter(stdout)
		if err := png.Encode(w, img); err != nil {
			return writeError(stderr, opt.out, err)
		}
		if err := w.Flush(); err != nil {
			return writeError(stderr, opt.out, err)
		}
		return exitOK
	}
	f, err := os.Create(opt.out)
	if err != nil {
		return writeError(stderr, opt.out, err)
	}
	w := bufio.NewWriter(f)
	err = png.Encode(w, img)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return writeError(stderr, opt.out, err)
	}
	fmt.Fprintf(stdout, "%s: %d×%d, %d bars (%d merged), %d labels, %s to %s\n", opt.out, opt.width, opt.height,
		list.Stats.Spans, list.Stats.Merged, list.Stats.Labels,
		timeString(vp.View().Start), timeString(vp.View().Start+vp.Span()))
	return exitOK
}

// timeString prints µs since the trace's start for the summary line.
func timeString(us float64) string {
	return string(render.AppendTime(nil, us, 1))
}

func writeError(stderr io.Writer, out string, err error) int {
	fmt.Fprintf(stderr, "flamedesk: render: writing %s: %v\n", out, err)
	return exitInput
}

// parseRenderArgs reads the flags, which may come before or after FILE. ok is false when the
// command should end with code (after --help, or on a usage error).
func parseRenderArgs(args []string, stdout, stderr io.Writer) (opt renderOptions, code int, ok bool) {
	fs := flag.NewFlagSet("render", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&opt.out, "o", "", "")
	fs.IntVar(&opt.width, "width", 1600, "")
	fs.IntVar(&opt.height, "height", 1000, "")
	fs.Var(&opt.start, "start", "")
	fs.Var(&opt.end, "end", "")
	fs.StringVar(&opt.thread, "thread", "", "")
	fs.StringVar(&opt.theme, "theme", "light", "")
	fs.StringVar(&opt.sourceMaps, "sourcemaps", "", "")
	fs.BoolVar(&opt.generated, "generated", false, "")
	fs.StringVar(&opt.tracks, "tracks", "", "")
	fs.BoolVar(&opt.noCache, "no-cache", false, "")
	files, code, ok := parseFileArgs(fs, "render", renderUsage, args, stdout, stderr)
	if !ok {
		return opt, code, false
	}
	switch {
	case opt.out == "":
		return opt, usageError(stderr, "render: -o OUT.png is required"), false
	case opt.width < 1 || opt.height < 1 || opt.width > 16384 || opt.height > 16384:
		return opt, usageError(stderr, "render: --width and --height must be between 1 and 16384, got %d×%d", opt.width, opt.height), false
	case render.ThemeByName(opt.theme) == nil:
		return opt, usageError(stderr, "render: --theme must be light or dark, got %q", opt.theme), false
	}
	if opt.thread != "" {
		if _, _, err := parseThread(opt.thread); err != nil {
			return opt, usageError(stderr, "render: %v", err), false
		}
	}
	if _, err := parseKinds(opt.tracks); err != nil {
		return opt, usageError(stderr, "render: %v", err), false
	}
	opt.file = files[0]
	return opt, exitOK, true
}

func parseThread(s string) (pid, tid int64, err error) {
	p, t, found := strings.Cut(s, ":")
	if found {
		pid, err = strconv.ParseInt(p, 10, 64)
		if err == nil {
			tid, err = strconv.ParseInt(t, 10, 64)
		}
	}
	if !found || err != nil {
		return 0, 0, fmt.Errorf("--thread wants PID:TID, got %q", s)
	}
	return pid, tid, nil
}

// showOnlyThread hides every track but the one of pid:tid, and every other process.
func showOnlyThread(m *timeline.Model, spec string) error {
	pid, tid, err := parseThread(spec)
	if err != nil {
		return err
	}
	found := false
	for i := range m.Tracks {
		th := m.Trace.Threads[m.Tracks[i].Thread]
		hit := th.Pid == pid && th.Tid == tid
		found = found || hit
		m.Tracks[i].Hidden = !hit
	}
	if !found {
		return fmt.Errorf("no thread %s with entries; the file has %s", spec, threadList(m))
	}
	for gi := range m.Groups {
		m.Groups[gi].Hidden = m.Groups[gi].Pid != pid
	}
	m.Relayout()
	return nil
}

func threadList(m *timeline.Model) string {
	var parts []string
	for i := range m.Tracks {
		th := m.Trace.Threads[m.Tracks[i].Thread]
		parts = append(parts, fmt.Sprintf("%d:%d (%s)", th.Pid, th.Tid, m.Tracks[i].Title))
		if len(parts) == 12 && len(m.Tracks) > 12 {
			parts = append(parts, fmt.Sprintf("and %d more", len(m.Tracks)-12))
			break
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// parseKinds reads a --tracks list; nil for an empty one.
func parseKinds(list string) (map[timeline.LaneKind]bool, error) {
	if list == "" {
		return nil, nil
	}
	kinds := map[timeline.LaneKind]bool{}
	for _, name := range strings.Split(list, ",") {
		k, ok := timeline.ParseLaneKind(strings.TrimSpace(name))
		if !ok {
			return nil, fmt.Errorf("--tracks: no track kind %q (network, frames, screenshots, animations, timings, interactions, layoutShifts, extension, memory, thread)", name)
		}
		kinds[k] = true
	}
	return kinds, nil
}

// showKinds shows the lanes of the given kinds and hides the rest; without "thread", the thread
// tracks are hidden too.
func showKinds(m *timeline.Model, kinds map[timeline.LaneKind]bool) {
	for i := range m.Lanes {
		m.Lanes[i].Hidden = !kinds[m.Lanes[i].Kind]
	}
	if !kinds[timeline.LaneThread] {
		for gi := range m.Groups {
			m.Groups[gi].Hidden = true
		}
	}
	m.Relayout()
}

// drawFilmstrip draws the screenshots of the Screenshots lane into img, as the window shows
// them; a screenshot that does not decode leaves its grey box.
func drawFilmstrip(img *image.RGBA, b *render.Builder, vp *timeline.Viewport, m *timeline.Model) {
	if m.Panel == nil || len(m.Panel.Screenshots) == 0 {
		return
	}
	decoded := map[int]image.Image{}
	decode := func(i int) image.Image {
		if d, ok := decoded[i]; ok {
			return d
		}
		d, _, err := image.Decode(bytes.NewReader(timelines.SnapshotImage(m.Trace, m.Panel.Screenshots[i])))
		if err != nil {
			d = nil
		}
		decoded[i] = d
		return d
	}
	places := b.Filmstrip(vp, func(i int) float64 {
		if d := decode(i); d != nil && d.Bounds().Dy() > 0 {
			return float64(d.Bounds().Dx()) / float64(d.Bounds().Dy())
		}
		return 16.0 / 10
	})
	render.DrawFilmstrip(img, places, int(b.Style.RulerHeight), decode)
}
