// Package app owns the flamedesk window: input, panels, file dialogs, and loading with progress and
// cancel. It draws what render/ builds from timeline/'s model and never computes tracks itself.
//
// The window is one ui value owned by one goroutine (the event loop). Its parts (toolbar,
// overview, chart, bottom panel, status bar) are components: each draws from an env (the theme,
// the document, the settings) and emits actions for anything beyond itself, which ui.apply
// carries out in one place (actions.go). Work that can take longer than a frame runs as a
// task.Future, polled once per frame. The system window is behind the host interface, so that
// tests drive whole frames through Gio's input router without a display (headless_test.go).
package app

import (
	"context"
	"image"
	"io"
	"sync/atomic"
	"time"

	gioapp "gioui.org/app"
	"gioui.org/io/event"
	"gioui.org/io/key"
	"gioui.org/io/pointer"
	"gioui.org/layout"
	"gioui.org/op"
	"gioui.org/op/clip"
	"gioui.org/op/paint"
	"gioui.org/unit"
	"gioui.org/widget"

	"flamedesk/app/dialog"
	"flamedesk/app/task"
	"flamedesk/app/theme"
	"flamedesk/core"
	"flamedesk/core/align"
	"flamedesk/core/cache"
	"flamedesk/core/pipeline"
	"flamedesk/core/sourcemap"
	"flamedesk/internal/background"
	"flamedesk/render"
	"flamedesk/timeline"
)

// Options configure the window.
type Options struct {
	Source     Source
	Load       LoadFunc
	FrameStats io.Writer // when set, frame-time percentiles are printed here every few seconds
	// FrameLog, when set, gets a line per frame: "frame START_UNIX_MS BUILD_MS INTERVAL_MS", the
	// interval -1 when the frame did not follow another one at once.
	FrameLog io.Writer
	// Blank draws only the background and redraws while a navigation key is held, to measure the
	// floor that frame times are compared with.
	Blank bool
	// OpenDialog asks the user for a file to open; nil means the system's dialog (dialog.Open).
	OpenDialog func(ctx context.Context, opts dialog.Options) (string, error)
	// ConfigDir holds settings.json and recent.json; empty means os.UserConfigDir()/flamedesk.
	// Tests always set it, so that they never touch the user's own.
	ConfigDir string
	// SourceMaps is the folder of source maps named with --sourcemaps; "" means the one remembered
	// for the file (mapdirs), if any. Maps embedded in the trace apply either way.
	SourceMaps string
	// Compare, when named, is loaded in the background after Source and compared with it in the
	// Compare tab, its clock lined up as Align says.
	Compare Source
	Align   align.Spec
	// ReadyLog, when set, gets one line saying how long after Started the first loaded chart was
	// on screen, stage by stage (readyClock); with ExitWhenReady the window then closes.
	ReadyLog      io.Writer
	ExitWhenReady bool
	Started       time.Time
	// Later is where the loader defers work (the cache write) until a loaded chart is on screen.
	Later *Later
}

// Run opens the window and never returns: Gio's main loop keeps the main goroutine (some platforms
// need it), so when the window closes Run calls exit with the window's error, nil for a normal close.
//
// Documents the system hands to the running app (macOS Finder's "open URLs" event) replace the
// open one, as a file chosen with Ctrl+O does.
func Run(opts Options, exit func(error)) {
	background.Enable()
	w := new(gioapp.Window)
	requests := make(openRequests, 8)
	go func() {
		w.Option(gioapp.Title("flamedesk"), gioapp.Size(unit.Dp(1400), unit.Dp(900)))
		u := newUI(gioHost{w}, opts)
		u.requests = requests
		exit(u.loop(w))
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

// loaded is what a load hands back: the trace and its display model.
type loaded struct {
	trace   *core.Trace
	model   *timeline.Model
	late    core.LateTracks // the tracks the model shows to come, nil for none
	maps    *sourcemap.Set
	elapsed time.Duration
	times   loadTimes
}

// ui is the whole window state. Only the UI goroutine touches it.
type ui struct {
	host     host
	opts     Options
	softGL   bool // frames are rendered on the CPU (softwareGL): background work waits for them
	th       *theme.Theme
	settings settings
	config   configDir

	load task.Future[loaded]
	// rest places the rows of the shown model that its first view left out (Model.PlaceRest),
	// and beside them builds its late tracks (late.go).
	rest task.Future[restDone]
	// restDeferred says rest is to start once the new document's first frame is on screen
	// (afterFrame): beside that frame its two goroutines took the cores from the frame's layout
	// and from the GL driver's rasteriser threads.
	restDeferred bool
	loadSrc      Source
	loadProgress *core.Progress
	loading      bool
	loadBegan    time.Time // the first frame of the load in progress, for the card's redraws
	// comparePending says the file to compare with (Options.Compare) is to be loaded once the
	// first frame is on screen.
	comparePending bool
	dialog         task.Future[string]
	search         task.Future[searchFound]
	// highlight finds the calls of the function chosen in the call tree (startHighlight).
	highlight task.Future[highlightFound]
	// mapsFor is the file whose source maps folder the dialog is choosing; "" while it opens a file.
	mapsFor string
	// comparePick says the dialog chooses a file to compare the open one with (comparechart.go).
	comparePick bool

	doc *document
	// banner is why the last open failed, shown over the document that stays open.
	banner string
	// bannerNote is the banner when it is a note about the open document, not a failed open.
	bannerNote  string
	bannerClose widget.Clickable
	cancel      widget.Clickable
	x11         uint64  // our X window id, for modal dialogs
	hwnd        uintptr // our Windows handle, for modal dialogs

	toolbar   toolbar
	searchBox searchBox
	overview  overview
	chart     chart
	panel     bottomPanel
	status    statusBar
	help      helpOverlay
	requests  openRequests
	nav       keyNav

	toolbarCache, bottomCache opCache

	// actions are what the components asked for in this frame (actions.go).
	actions []action
	// changed is set when actions were applied, so that another frame shows their result.
	changed bool

	keyFilters []event.Filter
	focusSet   bool
	// focusTag gets the keyboard focus at the end of the next frame when focusPending is set.
	focusTag     any
	focusPending bool
	// chromeFresh says this frame lays out the chrome anew rather than replaying it; laidOut
	// that the frame's layout is done.
	chromeFresh, laidOut bool

	state *stateWriter
	title string

	// heap sets the collector for a window that holds a document (memory.go); release is set when
	// background work left garbage to return to the system after the next frame.
	heap    heapKeeper
	release bool
	// recentPending is a file opened whose entry in the recent list is written once the frame
	// showing it is on screen: the write syncs the list to disk, which can take tens of ms.
	recentPending string
	// swapPending is the trace read back after the cache write, waiting for the document to be
	// moved onto it (cacheswap.go); swapRetry wakes the window to try again.
	swapPending *cacheReopen
	swapRetry   *time.Timer

	// chartView is the height in pixels of the chart's content while a document is shown, as
	// the last frame laid it out: the first view a load builds its model for. 0 before the
	// first frame. Loading goroutines read it.
	chartView atomic.Int64

	stats     *frameStats
	ready     *readyClock
	lastFrame time.Time
	frameDt   time.Duration // since the previous frame, capped, for animations
}

func newUI(h host, opts Options) *ui {
	u := &ui{host: h, opts: opts, config: configDir(opts.ConfigDir), softGL: softwareGL()}
	u.settings = u.config.loadSettings()
	u.load.Invalidate = h.Invalidate
	u.rest.Invalidate = h.Invalidate
	u.ready = newReadyClock(opts.ReadyLog, opts.ExitWhenReady, opts.Started)
	opts.Later.setInvalidate(h.Invalidate)
	if !opts.Blank {
		// The first file is read at once, before anything else here (the theme parses the Go
		// fonts it draws in), while the system window and its GL context are made (100 ms and
		// more under a software GL): time-to-ready counts from the process's start. Until
		// a document is shown the loader's goroutines keep the usual priority
		// (background.Lower), and share the cores with the first frame. The comparison's file,
		// the second in line, waits for the first frame.
		u.open(opts.Source)
		u.comparePending = opts.Compare.Name != ""
	}
	u.th = theme.New(u.settings.Dark)
	u.dialog.Invalidate = h.Invalidate
	u.search.Invalidate = h.Invalidate
	u.highlight.Invalidate = h.Invalidate
	u.searchBox.init()
	u.state = newStateWriter()
	u.panel.init(h.Invalidate)
	u.panel.compare.init(h.Invalidate, opts.Compare, opts.Align)
	if opts.FrameStats != nil || opts.FrameLog != nil {
		u.stats = newFrameStats(opts.FrameStats, opts.FrameLog)
	}
	if opts.Blank {
		h.SetTitle("flamedesk — blank")
	}
	return u
}

// emit queues an action for applyActions; components get it through their env.
func (u *ui) emit(a action) { u.actions = append(u.actions, a) }

// env is what every component draws from this frame.
func (u *ui) env(gtx layout.Context) env {
	return env{th: u.th, doc: u.doc, settings: u.settings, emit: u.emit, now: gtx.Now, dt: u.frameDt,
		navigating: u.nav.active(), loading: u.loading,
		comparing: u.panel.compare.active(), diffColours: u.panel.compare.colours}
}

// env is what a component gets: what to draw and how, and emit for what it asks of others.
type env struct {
	th       *theme.Theme
	doc      *document // nil before the first file is loaded
	settings settings
	emit     func(action)
	now      time.Time
	dt       time.Duration // since the previous frame, for animations
	// navigating is set while navigation keys move the view.
	navigating bool
	loading    bool
	// comparing says a second profile is open for the Compare tab; diffColours that the chart
	// is coloured by its changes.
	comparing, diffColours bool
}

// open starts loading src; the current document stays until the new one is ready. A newer open
// cancels an older one still loading.
func (u *ui) open(src Source) {
	p := new(core.Progress)
	u.loadSrc, u.loadProgress, u.loading, u.loadBegan = src, p, true, time.Time{}
	load := u.opts.Load
	mapsDir := u.sourceMapsDir(src)
	generated := u.settings.GeneratedNames
	heap := &u.heap
	chartView := &u.chartView
	u.ready.began()
	u.load.Start(func(ctx context.Context) (loaded, error) {
		heap.loadBegan()
		defer heap.loadEnded(ctx)
		began := time.Now()
		// Each thread's track is laid out as soon as it is built, while the others still are.
		pre := timeline.NewPrelayout(ctx)
		pre.DeferRows(func() float64 { return float64(chartView.Load()) })
		defer pre.Close()
		pre.Hook(p)
		tr, err := load(ctx, src, p)
		if err != nil {
			return loaded{}, err
		}
		times := loadTimes{opened: time.Now(), cacheHit: p.Stage() == pipeline.StageCache}
		// The panel's lists built ahead read the trace's strings, which source maps add to.
		pre.StopEarly(ctx)
		maps := applySourceMaps(tr, mapsDir)
		// The display model takes a noticeable time on large traces: it is built here too, so
		// the window never waits for it.
		pipeline.NextPhase(p)
		p.SetStage("laying out tracks")
		times.mapped = time.Now()
		// The panel's lists need only the trace: they start now, beside the main thread's rows
		// that the Prelayout may still be laying out.
		pre.StartLists(tr)
		// The load's garbage (hundreds of MB on a large trace) is not collected here: the first
		// view's levels are few, and the window collects and returns it once the document is on
		// screen (heapKeeper.release). A collection here waited for a P behind the main thread's
		// rows and the lists: 20-60 ms more to wait on gen-trace-large, 2 cores.
		// The rows the chart's first view shows are placed now, the others once it is shown.
		m, err := pre.Model(ctx, tr, p, float64(chartView.Load()))
		if err != nil {
			return loaded{}, err
		}
		times.model = time.Now()
		m.GeneratedNames = generated
		times.laidOut = time.Now()
		return loaded{trace: tr, model: m, late: p.Late, maps: maps, elapsed: time.Since(began), times: times}, nil
	})
}

func (u *ui) cancelLoad() {
	u.load.Cancel()
	u.loading = false
}

func (u *ui) loop(w *gioapp.Window) error {
	var ops op.Ops
	for {
		switch e := w.Event().(type) {
		case gioapp.DestroyEvent:
			u.heap.stop()
			if u.swapRetry != nil {
				u.swapRetry.Stop()
			}
			u.load.Cancel()
			u.rest.Cancel()
			u.search.Cancel()
			u.highlight.Cancel()
			u.panel.tree.build.Cancel()
			u.panel.compare.cancel()
			if u.doc != nil {
				u.doc.timing.refine.Cancel()
			}
			return e.Err
		case gioapp.FrameEvent:
			began := time.Now()
			gtx := gioapp.NewContext(&ops, e)
			if u.opts.Blank {
				// The floor of frame time: a window that draws only its background.
				paint.Fill(gtx.Ops, u.th.Bg)
				u.blankAnimate(gtx)
			} else {
				u.frame(gtx)
			}
			// Background work (a second file loading) waits while a software GL renders a chart:
			// sharing the cores' caches with it made that rendering half as slow again. While the
			// first file loads, the window draws only its loading card, and the load goes on.
			laidOut := time.Since(began)
			pause := u.softGL && u.doc != nil
			if pause {
				background.Pause()
			}
			e.Frame(gtx.Ops)
			if pause {
				background.Resume()
			}
			drawn := time.Now()
			// While the first file loads the window shows only the loading card, redrawn twice a
			// second: its goroutine can wait for a P, and the spare ones would cost the load CPU.
			background.KeepSpares(u.doc != nil || !u.loading)
			u.afterFrame()
			u.stats.add(began, laidOut, time.Since(began))
			u.heap.frameDrawn()
			if u.ready.frameDone(u, drawn) {
				return nil
			}
			if u.doc != nil && !u.loading {
				u.opts.Later.start(u.heap.release)
			}
		default:
			u.viewEvent(e)
		}
	}
}

// afterFrame starts loading the file to compare with once the first frame has been handed to the
// window, and a new document's call tree once its first frame has; and writes the recent list.
func (u *ui) afterFrame() {
	if u.recentPending != "" {
		u.config.rememberRecent(u.recentPending)
		u.toolbar.recentChanged()
		u.recentPending = ""
	}
	if u.release {
		u.release = false
		u.heap.release()
	}
	if u.restDeferred && u.doc != nil {
		u.restDeferred = false
		u.rest.Start(restOf(u.doc.model, u.doc.late))
	}
	u.panel.tree.startDeferred()
	if u.comparePending {
		u.comparePending = false
		u.startCompare(u.opts.Compare, u.opts.Align)
		u.host.Invalidate()
	}
}

// poll installs what background work finished since the last frame.
func (u *ui) poll() {
	if l, err, ok := u.load.Poll(); ok {
		u.loading, u.release = false, true
		if err != nil {
			u.banner = "Could not open " + u.loadSrc.Name + ": " + err.Error()
		} else {
			u.install(u.loadSrc, l)
		}
	}
	if path, err, ok := u.dialog.Poll(); ok {
		u.dialogDone(path, err)
	}
	if done, err, ok := u.rest.Poll(); ok {
		if u.doc != nil {
			// A track whose rows were not counted before it was shown (timeline.Model.SettleRows)
			// may now take fewer rows than it was laid out with.
			u.doc.model.SettleRows()
			if err == nil {
				u.lateDone(done)
			}
		}
		u.chart.invalidate() // the hatched rows are placed
	}
	if found, _, ok := u.search.Poll(); ok && u.doc != nil {
		r := found.entries
		if r != nil && r.Query == "" {
			r = nil
		}
		u.doc.setSearch(r, found.lanes)
		u.chart.invalidate()
	}
	if found, err, ok := u.highlight.Poll(); ok && err == nil && u.doc != nil && u.doc.model == found.model {
		u.doc.highlight = found.calls
		u.chart.invalidate()
	}
	u.requests.poll(u)
	u.pollTiming()
	u.panel.tree.poll(u.doc)
	u.pollCompare()
	u.pollCacheSwap()
	if f := u.panel.tree.source.takeFailure(); f != "" {
		u.banner = "Open in editor: " + f
	}
	if u.panel.compare.poll(u.doc, u.panel.tree.profile, u.panel.tree.rng, u.panel.tree.stackFor(u.doc), u.panel.tree.inverted) {
		u.chart.setDiffLevels(u.panel.compare.chartLevels())
		u.panel.compare.chartB.setDiffLevels(u.panel.compare.chartLevelsB())
	}
}

// install shows a document that finished loading.
func (u *ui) install(src Source, l loaded) {
	if u.doc != nil {
		u.doc.timing.refine.Cancel()
		if u.doc.trace != l.trace {
			// A trace reopened from the cache keeps its file mapped; its pages go with it.
			cache.Release(u.doc.trace)
		}
	}
	u.banner, u.bannerNote = "", ""
	u.ready.install(l)
	u.doc = newDocument(src.Name, src.Path, l.trace, l.model, l.elapsed)
	u.rest.Cancel()
	u.restDeferred = l.model.DeferredRows() || l.late != nil
	u.doc.late = l.late
	// From now on background work leaves the window the CPU first (background.Lower), the rows
	// placed after the first view included; the frame would say so only once it is drawn.
	background.KeepSpares(true)
	u.doc.maps = l.maps
	if note := l.maps.FolderNote(); note != "" {
		u.banner = "Source maps: " + note + "."
		u.bannerNote = u.banner
	}
	u.doc.timing.refine.Invalidate = u.host.Invalidate
	if u.settings.Refined {
		u.applyTiming()
	}
	u.chart.reset()
	u.overview.reset()
	u.overview.startAhead(u.doc, u.th.Colors)
	u.panel.reset(u.doc)
	u.searchBox.reset()
	u.search.Cancel()
	u.highlight.Cancel()
	if src.Path != "" && !u.panel.compare.active() {
		// A comparison is remembered with B and its alignment once B is lined up.
		u.recentPending = src.Path
	}
	u.title = "flamedesk — " + src.Name
	u.host.SetTitle(u.title)
}

// frame lays out one frame: toolbar, overview, chart, bottom panel and status bar from top to
// bottom, with the help and warning overlays on top, then applies what the components asked for.
func (u *ui) frame(gtx layout.Context) {
	now := gtx.Now
	dt := now.Sub(u.lastFrame)
	if u.lastFrame.IsZero() || dt > 100*time.Millisecond || dt < 0 {
		dt = 16 * time.Millisecond
	}
	u.lastFrame = now
	u.frameDt = dt

	u.poll()
	u.laidOut = false
	// A load in progress does not refresh the chrome: nothing in it shows the load (the loading
	// card is drawn on top, outside the cache), and laying the panels out anew in every frame
	// while a second file loads cost CPU taken from both the frame and the load.
	u.chromeFresh = !u.chart.pointerInside || !gtx.Focused(u) || u.focusPending
	u.handleKeys(gtx)
	if u.doc != nil && u.nav.step(u.doc, now, dt) {
		gtx.Execute(op.InvalidateCmd{})
	}
	e := u.env(gtx)

	// The window is cleared to the chrome's colour (a full-window fill is a clear to Gio), so the
	// toolbar, overview, bottom panel and status bar draw no background of their own: under Mesa's
	// software GL each of those fills was a blended quad of its whole area, ~650 K pixels a frame
	// together, shaded again in every frame though the clear covers them anyway.
	paint.Fill(gtx.Ops, u.th.Panel)
	if u.doc == nil {
		render.WarmTextures(gtx.Ops)
	}
	// The window as a whole takes the keyboard focus, so that keys work wherever the pointer is.
	// Its area goes first, below everything else, so that it never takes pointer events from them.
	area := clip.Rect{Max: gtx.Constraints.Max}.Push(gtx.Ops)
	event.Op(gtx.Ops, u)
	area.Pop()
	// Top to bottom: toolbar, overview, chart, bottom panel, status bar. The chart goes before
	// the panels, so that a click on it shows in the details in the same frame.
	size := gtx.Constraints.Max
	tbH, ovH, stH := gtx.Dp(toolbarHeight), gtx.Dp(overviewHeight), gtx.Dp(statusHeight)
	between := size.Y - tbH - ovH - stH
	// The panel leaves the chart at least 120 dp.
	panelMax := between - gtx.Dp(120)
	// The panel shows with a document; the chart's height with it is what a load lays out for.
	panelShown := min(gtx.Dp(unit.Dp(u.panel.heightDp)), max(panelMax, 0))
	u.noteChartView(gtx, between-panelShown)
	panelH := 0
	if u.doc != nil {
		panelH = panelShown
	}
	chartH := max(between-panelH, 0)
	u.panel.maxHeightDp = float32(panelMax) / gtx.Metric.PxPerDp
	place := func(gtx layout.Context, y, h int, w func(gtx layout.Context)) {
		off := op.Offset(image.Pt(0, y)).Push(gtx.Ops)
		g := gtx
		g.Constraints = layout.Exact(image.Pt(size.X, h))
		w(g)
		off.Pop()
	}
	u.chart.origin = image.Pt(0, tbH+ovH)
	// What the chart and the overview draw beyond their areas (a peek below the overview reaches
	// into the chart) is clipped where the chrome's backgrounds used to cover it.
	place(gtx, tbH+ovH, chartH, func(gtx layout.Context) {
		defer clip.Rect{Max: gtx.Constraints.Max}.Push(gtx.Ops).Pop()
		u.layoutCharts(gtx, e)
	})
	place(gtx, tbH, ovH, func(gtx layout.Context) {
		defer clip.Rect{Max: image.Pt(size.X, ovH+chartH)}.Push(gtx.Ops).Pop()
		u.overview.layout(gtx, e)
	})
	// The chrome is replayed while it cannot have changed (chromecache.go).
	ck := u.chromeKey(size)
	// The chart went first: when the pointer left it in this frame, the chrome is laid out anew
	// now, or the router would hold no filters of the toolbar's buttons when the next press comes
	// (a window draws no frame in between), and that click would be lost.
	u.chromeFresh = u.chromeFresh || !u.chart.pointerInside
	fresh := u.chromeFresh
	place(gtx, 0, tbH, func(gtx layout.Context) {
		u.toolbarCache.layout(gtx, ck, fresh, func(gtx layout.Context) {
			u.toolbar.layout(gtx, e, u.dialog.Busy(), func(gtx layout.Context) layout.Dimensions {
				return u.searchBox.layout(gtx, e)
			})
		})
	})
	u.panel.origin = image.Pt(0, tbH+ovH+chartH)
	place(gtx, tbH+ovH+chartH, panelH+stH, func(gtx layout.Context) {
		u.bottomCache.layout(gtx, ck, fresh, func(gtx layout.Context) {
			place(gtx, 0, panelH, func(gtx layout.Context) { u.panel.layout(gtx, e) })
			place(gtx, panelH, stH, func(gtx layout.Context) { u.status.layout(gtx, e, u.banner != "" && u.banner != u.bannerNote) })
		})
	})
	if u.loading {
		u.layoutProgress(gtx)
		// Progress has no completion signal of its own: redraw now and then to move the bar. Not
		// more often: under a software GL a frame of the window costs tens of ms of CPU, taken
		// from the load on a small machine (10 redraws a second made the load of a 238 MB trace
		// use 3 s more CPU than 1 a second).
		if u.loadBegan.IsZero() {
			u.loadBegan = now
		}
		gtx.Execute(op.InvalidateCmd{At: nextProgressRedraw(u.loadBegan, now)})
	}
	u.layoutBanner(gtx, tbH+ovH)
	u.status.layoutWarnings(gtx, e)
	u.toolbar.layoutRecentMenu(gtx, e)
	u.help.layout(gtx, e)
	u.laidOut = true
	if u.focusPending {
		u.focusPending = false
		gtx.Execute(key.FocusCmd{Tag: u.focusTag})
	}
	u.applyActions(gtx)
	if u.changed {
		u.changed = false
		gtx.Execute(op.InvalidateCmd{})
	}
	u.state.write(gtx, u, u.title)
	u.th.EndFrame()
	// The window takes the keyboard focus in its first frame; in the first frames of the first
	// file's load, in the next one that comes anyway (the card's redraw, the document's).
	// Focus asks for a frame of its own to tell the window of it, and under a software GL that
	// frame, right after the first, took 11-16 ms of CPU from the load's start.
	if !u.focusSet && (u.doc != nil || !u.loading || u.loadBegan.Before(now)) {
		u.focusSet = true
		gtx.Execute(key.FocusCmd{Tag: u})
	}
}

// noteChartView keeps the height of the chart's content once a document shows (below the
// ruler), out of the chart's area chartH: what a loading model's first view is.
func (u *ui) noteChartView(gtx layout.Context, chartH int) {
	ruler := int(render.DefaultStyle().Scaled(gtx.Metric.PxPerDp).RulerHeight)
	u.chartView.Store(int64(max(chartH-ruler, 0)))
}

// progressRedraw is how often the loading card is redrawn while nothing else happens, from
// progressFirstRedraw after the load began: most files load within a second, and the redraw in it
// showed little but took a frame's CPU (13-45 ms under llvmpipe, the load of gen-trace-large
// ending 20 ms later in medians of 8 runs).
const (
	progressRedraw      = 500 * time.Millisecond
	progressFirstRedraw = time.Second
)

// nextProgressRedraw is when the loading card of a load first drawn at began is next redrawn,
// after a frame at now.
func nextProgressRedraw(began, now time.Time) time.Time {
	if first := began.Add(progressFirstRedraw); now.Before(first.Add(-progressRedraw / 2)) {
		return first
	}
	return now.Add(progressRedraw)
}

// layoutProgress draws the loading card: the file, the stage, one bar across every stage, and
// Cancel.
func (u *ui) layoutProgress(gtx layout.Context) {
	for u.cancel.Clicked(gtx) {
		u.emit(cancelLoad{})
	}
	size := gtx.Constraints.Max
	w, h := gtx.Dp(420), gtx.Dp(96)
	r := image.Rect((size.X-w)/2, (size.Y-h)/2, (size.X+w)/2, (size.Y+h)/2)
	defer op.Offset(r.Min).Push(gtx.Ops).Pop()
	u.th.Box(gtx.Ops, image.Rectangle{Max: r.Size()}, 1)
	g := gtx
	g.Constraints = layout.Exact(r.Size())
	layout.UniformInset(unit.Dp(12)).Layout(g, func(gtx layout.Context) layout.Dimensions {
		return layout.Flex{Axis: layout.Vertical, Spacing: layout.SpaceBetween}.Layout(gtx,
			layout.Rigid(func(gtx layout.Context) layout.Dimensions {
				return u.th.Label(gtx, u.progressText())
			}),
			layout.Rigid(func(gtx layout.Context) layout.Dimensions {
				return u.th.ProgressBar(gtx, float32(u.loadProgress.Overall()))
			}),
			layout.Rigid(func(gtx layout.Context) layout.Dimensions {
				return layout.E.Layout(gtx, func(gtx layout.Context) layout.Dimensions {
					return u.th.Button(gtx, &u.cancel, "Cancel")
				})
			}),
		)
	})
}

// progressText names the file and the stage of the load.
func (u *ui) progressText() string {
	stage := u.loadProgress.Stage()
	if stage == "" {
		stage = "reading"
	}
	return "Loading " + u.loadSrc.Name + " — " + stage + "…"
}

// layoutBanner shows why the last open failed, across the top of the chart, until dismissed.
func (u *ui) layoutBanner(gtx layout.Context, y int) {
	for u.bannerClose.Clicked(gtx) {
		u.emit(dismissBanner{})
	}
	if u.banner == "" {
		return
	}
	defer op.Offset(image.Pt(0, y)).Push(gtx.Ops).Pop()
	g := gtx
	g.Constraints = layout.Exact(image.Pt(gtx.Constraints.Max.X, gtx.Dp(34)))
	paint.FillShape(gtx.Ops, u.th.Banner, clip.Rect{Max: g.Constraints.Max}.Op())
	paint.FillShape(gtx.Ops, u.th.Error, clip.Rect{Max: image.Pt(gtx.Dp(4), g.Constraints.Max.Y)}.Op())
	layout.Inset{Left: unit.Dp(12), Right: unit.Dp(8)}.Layout(g, func(gtx layout.Context) layout.Dimensions {
		return layout.Flex{Alignment: layout.Middle}.Layout(gtx,
			layout.Flexed(1, func(gtx layout.Context) layout.Dimensions {
				gtx.Constraints.Min.Y = 0
				return u.th.DrawText(gtx, u.banner, u.th.Error)
			}),
			layout.Rigid(func(gtx layout.Context) layout.Dimensions {
				return u.th.Button(gtx, &u.bannerClose, "Dismiss")
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
			u.nav.set(e.Name, e.State == key.Press, gtx.Now)
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
