package app

import (
	"context"
	"image"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"gioui.org/f32"
	"gioui.org/io/input"
	"gioui.org/io/key"
	"gioui.org/io/pointer"
	"gioui.org/layout"
	"gioui.org/op"
	"gioui.org/unit"

	"flamedesk/core"
	"flamedesk/core/pipeline"
	"flamedesk/internal/fixtures"
	"flamedesk/timeline"
)

// The window's behaviour is tested here without a display: whole frames are laid out and their
// input routed through Gio's input.Router, as Gio's own widget tests do, with a fake host in place
// of the system window. app/wintest keeps a few smoke tests of the real window under Xvfb.

// TestMain points HOME and the config directory at a scratch directory, so that nothing a test
// does (settings, the recent list) can reach the user's own.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "flamedesk-app-test-")
	if err != nil {
		panic(err)
	}
	os.Setenv("HOME", dir)
	os.Setenv("XDG_CONFIG_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// fakeHost stands in for the system window.
type fakeHost struct {
	mu     sync.Mutex
	title  string
	closed bool
	woken  chan struct{}
}

func (h *fakeHost) Invalidate() {
	select {
	case h.woken <- struct{}{}:
	default:
	}
}

func (h *fakeHost) SetTitle(t string) { h.mu.Lock(); h.title = t; h.mu.Unlock() }
func (h *fakeHost) Close()            { h.mu.Lock(); h.closed = true; h.mu.Unlock() }

// harness runs a window's frames and feeds it input.
type harness struct {
	t      *testing.T
	u      *ui
	host   *fakeHost
	router input.Router
	ops    op.Ops
	size   image.Point
	now    time.Time
	config string
}

// fixture is the path of a fixture under the shared corpus.
func fixture(t *testing.T, kind, name string) string {
	return fixtures.Path(t, "fixtures", kind, name)
}

// newHarness opens a window on src with pipeline.Open, at 1400×900 px, in a config directory of
// its own, and runs frames until the file is loaded.
func newHarness(t *testing.T, src Source) *harness {
	return newHarnessWith(t, Options{Source: src, Load: pipeline.Open})
}

func newHarnessWith(t *testing.T, opts Options) *harness {
	t.Helper()
	h := &harness{t: t, host: &fakeHost{woken: make(chan struct{}, 1)}, size: image.Pt(1400, 900),
		now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), config: t.TempDir()}
	if opts.ConfigDir != "" {
		h.config = opts.ConfigDir // a test that prepared the directory
	}
	opts.ConfigDir = h.config
	h.u = newUI(h.host, opts)
	t.Cleanup(func() {
		h.u.load.Cancel()
		h.u.rest.Cancel()
		h.u.search.Cancel()
		h.u.highlight.Cancel()
		h.u.dialog.Cancel()
		h.u.panel.tree.build.Cancel()
		h.u.panel.tree.source.build.Cancel()
		h.u.panel.compare.cancel()
		if h.u.doc != nil {
			h.u.doc.timing.refine.Cancel()
		}
	})
	h.idle()
	return h
}

// frame lays out one frame 16 ms after the last, as the window's loop does.
func (h *harness) frame() {
	h.layOutFrame()
	h.u.afterFrame()
}

// layOutFrame lays out one frame 16 ms after the last without what the window does once the
// frame is on screen (afterFrame).
func (h *harness) layOutFrame() {
	h.now = h.now.Add(16 * time.Millisecond)
	h.ops.Reset()
	gtx := layout.Context{
		Ops: &h.ops, Now: h.now, Metric: unit.Metric{PxPerDp: 1, PxPerSp: 1},
		Constraints: layout.Exact(h.size), Source: h.router.Source(),
	}
	h.u.frame(gtx)
	h.router.Frame(&h.ops)
}

// busy reports whether the window waits for background work.
func (h *harness) busy() bool {
	u := h.u
	return u.comparePending || u.loading || u.restDeferred || u.load.Pending() || u.rest.Pending() || u.search.Pending() || u.highlight.Pending() || u.dialog.Pending() ||
		u.panel.tree.build.Pending() || u.panel.tree.source.pending() || u.panel.compare.pending() || (u.doc != nil && u.doc.timing.refine.Pending())
}

// idle runs frames until no background work is left and its results are shown.
func (h *harness) idle() {
	h.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for h.frame(); h.busy(); h.frame() {
		if time.Now().After(deadline) {
			h.t.Fatal("the window stayed busy for a minute")
		}
		select {
		case <-h.host.woken:
		case <-time.After(20 * time.Millisecond):
		}
	}
	h.frame()
	h.frame()
}

// queue hands events to the router and runs the frame that handles them.
func (h *harness) queue(events ...any) {
	for _, e := range events {
		h.router.Queue(e.(interface{ ImplementsEvent() }))
	}
	h.frame()
	h.frame()
}

// press types one key (down and up) with modifiers.
func (h *harness) press(name key.Name, mods key.Modifiers) {
	h.queue(key.Event{Name: name, Modifiers: mods, State: key.Press}, key.Event{Name: name, Modifiers: mods, State: key.Release})
}

// typeText types s into whatever has the focus, as a keyboard does: a key event and the text
// edit of each letter.
func (h *harness) typeText(s string) {
	for _, r := range s {
		name := key.Name(strings.ToUpper(string(r)))
		var mods key.Modifiers
		if r >= 'A' && r <= 'Z' {
			mods = key.ModShift
		}
		n := len([]rune(h.u.searchBox.editor.Text()))
		h.queue(key.Event{Name: name, Modifiers: mods, State: key.Press},
			key.EditEvent{Range: key.Range{Start: n, End: n}, Text: string(r)},
			key.Event{Name: name, Modifiers: mods, State: key.Release})
	}
}

// pointerAt is a mouse event at p.
func pointerAt(kind pointer.Kind, p image.Point, buttons pointer.Buttons, mods key.Modifiers, at time.Duration) pointer.Event {
	return pointer.Event{Kind: kind, Source: pointer.Mouse, Position: f32.Pt(float32(p.X), float32(p.Y)),
		Buttons: buttons, Modifiers: mods, Time: at}
}

// eventTime is the timestamp of the next pointer event, from the harness clock.
func (h *harness) eventTime() time.Duration { return h.now.Sub(time.Time{}) }

// move moves the mouse to p.
func (h *harness) move(p image.Point) {
	h.queue(pointerAt(pointer.Move, p, 0, 0, h.eventTime()))
}

// click presses and releases the primary button at p with modifiers.
func (h *harness) click(p image.Point, mods key.Modifiers) {
	at := h.eventTime()
	h.queue(pointerAt(pointer.Move, p, 0, mods, at),
		pointerAt(pointer.Press, p, pointer.ButtonPrimary, mods, at),
		pointerAt(pointer.Release, p, 0, mods, at+10*time.Millisecond))
}

// drag presses at from, moves to to in steps, and releases there, slowly enough not to fling.
func (h *harness) drag(from, to image.Point, mods key.Modifiers) {
	at := h.eventTime()
	evs := []any{pointerAt(pointer.Move, from, 0, mods, at), pointerAt(pointer.Press, from, pointer.ButtonPrimary, mods, at)}
	for i := 1; i <= 10; i++ {
		p := from.Add(to.Sub(from).Mul(i).Div(10))
		at += 50 * time.Millisecond
		// The router turns a move with a button held into a drag.
		evs = append(evs, pointerAt(pointer.Move, p, pointer.ButtonPrimary, mods, at))
	}
	at += 200 * time.Millisecond
	evs = append(evs, pointerAt(pointer.Release, to, 0, mods, at))
	h.queue(evs...)
}

// scroll turns the wheel at p by dy pixels with modifiers.
func (h *harness) scroll(p image.Point, dy float32, mods key.Modifiers) {
	e := pointerAt(pointer.Scroll, p, 0, mods, h.eventTime())
	e.Scroll = f32.Pt(0, dy)
	h.queue(pointerAt(pointer.Move, p, 0, mods, h.eventTime()), e)
}

// wait lets the harness clock run for d, a frame at a time.
func (h *harness) wait(d time.Duration) {
	for end := h.now.Add(d); h.now.Before(end); {
		h.frame()
	}
}

// chartPoint is the window point of chart x and content y (below the ruler, before scrolling).
func (h *harness) chartPoint(x, contentY float64) image.Point {
	c := &h.u.chart
	return image.Pt(c.origin.X+int(x), c.origin.Y+c.rulerHeight+int(contentY-h.u.doc.view.ScrollY()))
}

// entryPoint is the middle of an entry's bar as drawn now; the entry must be on screen.
func (h *harness) entryPoint(ref timeline.EntryRef) image.Point {
	h.t.Helper()
	d := h.u.doc
	m := d.model
	x0 := max(d.view.TimeToPx(m.EntryStart(ref)), 0)
	x1 := min(d.view.TimeToPx(m.EntryEnd(ref)), d.view.Width())
	y := m.RowTop(ref.Track, m.EntryDepth(ref)) + m.Style.RowHeight/2
	return h.chartPoint((x0+x1)/2, y)
}

// emptyChartPoint is a point of the chart where a click hits nothing.
func (h *harness) emptyChartPoint() image.Point {
	h.t.Helper()
	c := &h.u.chart
	d := h.u.doc
	for y := c.size.Y - 3; y > c.rulerHeight; y -= 5 {
		for x := 5; x < c.size.X; x += 37 {
			if d.model.HitTest(d.view, float64(x), float64(y-c.rulerHeight), c.builder.Style.MinBarPx).Kind == timeline.HitNone {
				return c.origin.Add(image.Pt(x, y))
			}
		}
	}
	h.t.Fatal("no empty point on the chart")
	return image.Point{}
}

// visibleEntry returns the widest entry on screen, at any level, for which ok holds.
func (h *harness) visibleEntry(ok func(ref timeline.EntryRef) bool) timeline.EntryRef {
	d := h.u.doc
	m := d.model
	best, bestDur := timeline.NoEntry, -1.0
	for ti := range m.Tracks {
		t := &m.Tracks[ti]
		if t.Hidden || t.Collapsed || m.Groups[t.Group].Hidden || m.Groups[t.Group].Collapsed {
			continue
		}
		for lv := range t.Levels {
			top := m.RowTop(timeline.TrackID(ti), lv) - d.view.ScrollY()
			if top < 0 || top+m.Style.RowHeight > d.view.Height() {
				continue
			}
			for _, e := range t.Levels[lv].Entries {
				ref := timeline.EntryRef{Track: timeline.TrackID(ti), Entry: e}
				if dur := m.EntryEnd(ref) - m.EntryStart(ref); dur > bestDur && ok(ref) {
					best, bestDur = ref, dur
				}
			}
		}
	}
	return best
}

// stubLoad is a LoadFunc that waits until released, for tests of what the window does meanwhile.
type stubLoad struct {
	started chan Source
	release chan error
}

func newStubLoad() *stubLoad {
	return &stubLoad{started: make(chan Source, 4), release: make(chan error, 4)}
}

func (s *stubLoad) load(ctx context.Context, src Source, p *core.Progress) (*core.Trace, error) {
	s.started <- src
	select {
	case err := <-s.release:
		if err != nil {
			return nil, err
		}
		return pipeline.Open(ctx, src, p)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// TestHarnessOpensAFile is the harness's own check: a real trace loads, its title is set and
// the chart has a size.
func TestHarnessOpensAFile(t *testing.T) {
	h := newHarness(t, SourceFromPath(fixture(t, "generated", "gen-trace-small.json.gz")))
	if h.u.doc == nil || len(h.u.doc.model.Tracks) == 0 {
		t.Fatal("no document after loading")
	}
	if h.host.title != "flamedesk — gen-trace-small.json.gz" {
		t.Fatalf("title %q", h.host.title)
	}
	if h.u.chart.size.X != h.size.X || h.u.chart.size.Y <= 0 {
		t.Fatalf("chart size %v", h.u.chart.size)
	}
}

// loadedHarness opens opts.Source in a window 1400×900 as a user's first open does, and runs
// frames until the document is installed, handing them to the window (afterFrame) only before
// that: what starts once its first frame is on screen has not started yet. settings, when not
// nil, changes the window's settings before the load ends.
func loadedHarness(t *testing.T, opts Options, settings func(*settings)) *harness {
	t.Helper()
	h := &harness{t: t, host: &fakeHost{woken: make(chan struct{}, 1)}, size: image.Pt(1400, 900),
		now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), config: t.TempDir()}
	opts.Load, opts.ConfigDir = pipeline.Open, h.config
	h.u = newUI(h.host, opts)
	if settings != nil {
		settings(&h.u.settings)
	}
	t.Cleanup(func() {
		h.u.load.Cancel()
		h.u.rest.Cancel()
		h.u.search.Cancel()
		h.u.panel.tree.build.Cancel()
		if h.u.doc != nil {
			h.u.doc.timing.refine.Cancel()
		}
	})
	for deadline := time.Now().Add(time.Minute); h.u.doc == nil; {
		if time.Now().After(deadline) {
			t.Fatal("the trace did not load within a minute")
		}
		h.u.ready.frameDone(h.u, time.Now())
		time.Sleep(10 * time.Millisecond)
		h.layOutFrame()
		if h.u.doc == nil {
			h.u.afterFrame()
		}
	}
	return h
}
