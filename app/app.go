// Package app owns the flamedesk window: input, panels, file dialogs, and loading with progress and
// cancel. It draws what render/ builds from timeline/'s model and never computes tracks itself.
//
// The window is one ui value owned by one goroutine (the event loop). Work that can take longer
// than a frame (loading, searching, building a call tree, showing a file dialog) runs on its own
// goroutine and hands its result back through a small struct polled each frame, followed by
// Invalidate.
package app

import (
	"image"
	"io"
	"time"

	gioapp "gioui.org/app"
	"gioui.org/font/gofont"
	"gioui.org/io/event"
	"gioui.org/io/key"
	"gioui.org/io/pointer"
	"gioui.org/layout"
	"gioui.org/op"
	"gioui.org/op/clip"
	"gioui.org/op/paint"
	"gioui.org/text"
	"gioui.org/unit"
	"gioui.org/widget/material"
)

// Options configure the window.
type Options struct {
	Source     Source
	Load       LoadFunc
	FrameStats io.Writer // when set, frame-time percentiles are printed here every few seconds
	// Blank draws only the background and redraws while a navigation key is held, to measure the
	// floor that frame times are compared with.
	Blank bool
}

// Run opens the window and never returns: Gio's main loop keeps the main goroutine (some platforms
// need it), so when the window closes Run calls exit with the window's error, nil for a normal close.
//
// Documents the system hands to the running app (macOS Finder's "open URLs" event) replace the
// open one, as a file chosen with Ctrl+O does.
func Run(opts Options, exit func(error)) {
	w := new(gioapp.Window)
	requests := make(openRequests, 8)
	go func() {
		u := newUI(w, opts)
		u.requests = requests
		exit(u.loop())
	}()
	gioapp.Events(func(e event.Event) bool {
		if ue, ok := e.(gioapp.URLEvent); ok {
			select {
			case requests <- requestFromURL(ue.URL):
			default: // the UI is behind by a full buffer; a newer request will follow or not matter
			}
			w.Invalidate()
		}
		return true
	})
}

// ui is the whole window state. Only the UI goroutine touches it.
type ui struct {
	win      *gioapp.Window
	opts     Options
	th       *material.Theme
	settings settings
	colors   chrome

	job     *loadJob
	doc     *document
	loadErr string
	x11     uint64  // our X window id, for modal dialogs
	hwnd    uintptr // our Windows handle, for modal dialogs

	toolbar  toolbar
	overview overview
	chart    chart
	panel    bottomPanel
	status   statusBar
	help     helpOverlay
	search   searchBox
	dialog   dialogState
	requests openRequests
	nav      keyNav

	toolbarCache, bottomCache opCache

	keyFilters []event.Filter
	focusSet   bool

	text       chromeText
	state      *stateWriter
	title      string
	timingBusy bool // the refinement is being computed

	stats     *frameStats
	lastFrame time.Time
	frameDt   time.Duration // since the previous frame, capped, for animations
}

func newUI(w *gioapp.Window, opts Options) *ui {
	u := &ui{win: w, opts: opts, settings: loadSettings()}
	u.th = material.NewTheme()
	u.th.Shaper = text.NewShaper(text.NoSystemFonts(), text.WithCollection(gofont.Collection()))
	u.th.TextSize = unit.Sp(13)
	u.applyTheme()
	u.search.init()
	u.state = newStateWriter()
	u.panel.init()
	if opts.FrameStats != nil {
		u.stats = newFrameStats(opts.FrameStats)
	}
	w.Option(gioapp.Title("flamedesk"), gioapp.Size(unit.Dp(1400), unit.Dp(900)))
	if opts.Blank {
		w.Option(gioapp.Title("flamedesk — blank"))
		return u
	}
	u.open(opts.Source)
	return u
}

// open starts loading src; the current document stays until the new one is ready.
func (u *ui) open(src Source) {
	if u.job != nil {
		u.job.cancel()
	}
	u.loadErr = ""
	u.job = startLoad(src, u.opts.Load, u.win.Invalidate)
}

func (u *ui) loop() error {
	var ops op.Ops
	for {
		switch e := u.win.Event().(type) {
		case gioapp.DestroyEvent:
			if u.job != nil {
				u.job.cancel()
			}
			return e.Err
		case gioapp.FrameEvent:
			began := time.Now()
			gtx := gioapp.NewContext(&ops, e)
			if u.opts.Blank {
				// The floor of frame time: a window that draws only its background.
				paint.Fill(gtx.Ops, u.colors.bg)
				u.blankAnimate(gtx)
			} else {
				u.frame(gtx)
			}
			e.Frame(gtx.Ops)
			u.stats.add(began, time.Since(began))
		default:
			u.viewEvent(e)
		}
	}
}

// pollLoad installs a finished load: a failure keeps the previous document open.
func (u *ui) pollLoad() {
	if u.job == nil {
		return
	}
	tr, model, elapsed, ok, err := u.job.result()
	if !ok {
		return
	}
	src := u.job.src
	u.job = nil
	if err != nil {
		if err != errLoadCancelled {
			u.loadErr = "Could not open " + src.Name + ": " + err.Error()
		}
		return
	}
	u.doc = newDocument(src.Name, src.Path, tr, model, elapsed)
	if u.settings.Refined {
		u.applyTiming(u.doc)
	}
	u.chart.reset()
	u.overview.reset()
	u.panel.reset(u)
	u.search.reset()
	if src.Path != "" {
		rememberRecent(src.Path)
	}
	u.title = "flamedesk — " + src.Name
	u.win.Option(gioapp.Title(u.title))
}

// frame lays out one frame: toolbar, overview, chart, bottom panel and status bar from top to
// bottom, with the help and warning overlays on top.
func (u *ui) frame(gtx layout.Context) {
	now := gtx.Now
	dt := now.Sub(u.lastFrame)
	if u.lastFrame.IsZero() || dt > 100*time.Millisecond {
		dt = 16 * time.Millisecond
	}
	u.lastFrame = now
	u.frameDt = dt

	u.pollLoad()
	u.dialog.poll(u)
	u.requests.poll(u)
	u.search.poll(u)
	u.pollTiming()
	u.handleKeys(gtx)
	if u.doc != nil && u.nav.step(u.doc, dt) {
		gtx.Execute(op.InvalidateCmd{})
	}

	paint.Fill(gtx.Ops, u.colors.bg)
	// The window as a whole takes the keyboard focus, so that keys work wherever the pointer is.
	// Its area goes first, below everything else, so that it never takes pointer events from them.
	area := clip.Rect{Max: gtx.Constraints.Max}.Push(gtx.Ops)
	event.Op(gtx.Ops, u)
	area.Pop()
	// Top to bottom: toolbar, overview, chart, bottom panel, status bar. The chart goes before
	// the panels, so that a click on it shows in the details in the same frame.
	size := gtx.Constraints.Max
	tbH, ovH, stH := gtx.Dp(toolbarHeight), gtx.Dp(overviewHeight), gtx.Dp(statusHeight)
	panelH := 0
	if u.doc != nil {
		panelH = min(gtx.Dp(unit.Dp(u.panel.heightDp)), max(size.Y-tbH-ovH-stH-gtx.Dp(120), 0))
	}
	chartH := max(size.Y-tbH-ovH-stH-panelH, 0)
	u.panel.maxHeightDp = float32(size.Y-tbH-ovH-stH-gtx.Dp(120)) / gtx.Metric.PxPerDp
	place := func(y, h int, w func(gtx layout.Context)) {
		off := op.Offset(image.Pt(0, y)).Push(gtx.Ops)
		g := gtx
		g.Constraints = layout.Exact(image.Pt(size.X, h))
		w(g)
		off.Pop()
	}
	place(tbH+ovH, chartH, func(gtx layout.Context) { u.chart.layout(gtx, u) })
	place(tbH, ovH, func(gtx layout.Context) { u.overview.layout(gtx, u) })
	// The chrome is replayed while it cannot have changed (chromecache.go).
	ck := u.chromeKey(size)
	fresh := !u.chart.pointerInside || !gtx.Focused(u) || u.job != nil
	place(0, tbH, func(gtx layout.Context) {
		u.toolbarCache.layout(gtx, ck, fresh, func(gtx layout.Context) { u.toolbar.layout(u)(gtx) })
	})
	place(tbH+ovH+chartH, panelH+stH, func(gtx layout.Context) {
		u.bottomCache.layout(gtx, ck, fresh, func(gtx layout.Context) {
			place := func(y, h int, w func(gtx layout.Context)) {
				off := op.Offset(image.Pt(0, y)).Push(gtx.Ops)
				g := gtx
				g.Constraints = layout.Exact(image.Pt(size.X, h))
				w(g)
				off.Pop()
			}
			place(0, panelH, func(gtx layout.Context) { u.panel.layout(gtx, u) })
			place(panelH, stH, func(gtx layout.Context) { u.status.layout(gtx, u) })
		})
	})
	if u.job != nil {
		u.layoutProgress(gtx)
	}
	u.status.layoutWarnings(gtx, u)
	u.toolbar.layoutRecentMenu(gtx, u)
	u.help.layout(gtx, u)
	u.state.write(gtx, u, u.title)
	u.text.painter.EndFrame()
	if !u.focusSet {
		u.focusSet = true
		gtx.Execute(key.FocusCmd{Tag: u})
	}
}

// layoutProgress draws the loading card with its progress bar and Cancel button.
func (u *ui) layoutProgress(gtx layout.Context) {
	for u.toolbar.cancel.Clicked(gtx) {
		u.job.cancel()
	}
	size := gtx.Constraints.Max
	w, h := gtx.Dp(420), gtx.Dp(96)
	r := image.Rect((size.X-w)/2, (size.Y-h)/2, (size.X+w)/2, (size.Y+h)/2)
	defer op.Offset(r.Min).Push(gtx.Ops).Pop()
	paint.FillShape(gtx.Ops, u.colors.panel, clip.UniformRRect(image.Rectangle{Max: r.Size()}, gtx.Dp(6)).Op(gtx.Ops))
	g := gtx
	g.Constraints = layout.Exact(r.Size())
	layout.UniformInset(unit.Dp(12)).Layout(g, func(gtx layout.Context) layout.Dimensions {
		return layout.Flex{Axis: layout.Vertical, Spacing: layout.SpaceBetween}.Layout(gtx,
			layout.Rigid(func(gtx layout.Context) layout.Dimensions {
				stage := u.job.progress.Stage()
				if stage == "" {
					stage = "reading"
				}
				return u.label(gtx, "Loading "+u.job.src.Name+" — "+stage+"…")
			}),
			layout.Rigid(func(gtx layout.Context) layout.Dimensions {
				pb := material.ProgressBar(u.th, float32(u.job.progress.Fraction()))
				return pb.Layout(gtx)
			}),
			layout.Rigid(func(gtx layout.Context) layout.Dimensions {
				return layout.E.Layout(gtx, func(gtx layout.Context) layout.Dimensions {
					return u.smallButton(gtx, &u.toolbar.cancel, "Cancel")
				})
			}),
		)
	})
}

// pointerFilter is the filter every interactive area of the window uses.
func pointerFilter(tag event.Tag, kinds pointer.Kind) pointer.Filter {
	return pointer.Filter{Target: tag, Kinds: kinds,
		ScrollX: pointer.ScrollRange{Min: -1e6, Max: 1e6}, ScrollY: pointer.ScrollRange{Min: -1e6, Max: 1e6}}
}

// blankAnimate keeps a blank window redrawing while a navigation key is held, like the real chart.
func (u *ui) blankAnimate(gtx layout.Context) {
	for {
		ev, ok := gtx.Event(u.keyFiltersFor()...)
		if !ok {
			break
		}
		if e, ok := ev.(key.Event); ok {
			u.nav.set(e.Name, e.State == key.Press)
		}
	}
	area := clip.Rect{Max: gtx.Constraints.Max}.Push(gtx.Ops)
	event.Op(gtx.Ops, u)
	area.Pop()
	if !u.focusSet {
		u.focusSet = true
		gtx.Execute(key.FocusCmd{Tag: u})
	}
	if u.nav.active() {
		gtx.Execute(op.InvalidateCmd{})
	}
}
