// Package app owns the flamedesk window: input, panels, file dialogs, and loading with progress and
// cancel. It draws what render/ builds from timeline/'s model and never computes tracks itself.
package app

import (
	"fmt"
	"image"
	"image/color"
	"io"
	"time"

	gioapp "gioui.org/app"
	"gioui.org/font"
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
	"gioui.org/widget"

	"flamedesk/core"
)

// Options configure the window.
type Options struct {
	Source     Source
	Load       LoadFunc
	FrameStats io.Writer // when set, frame-time percentiles are printed here every few seconds
}

// Run opens the window and blocks until it is closed. It must be called from the main goroutine,
// because on some platforms the window system needs it.
func Run(opts Options) error {
	errc := make(chan error, 1)
	go func() {
		w := new(gioapp.Window)
		errc <- newWindow(w, opts).loop()
	}()
	gioapp.Main()
	return <-errc
}

// ui is the whole window state. Only the UI goroutine touches it.
type ui struct {
	win    *gioapp.Window
	opts   Options
	shaper *text.Shaper

	job     *loadJob
	doc     *document
	loadErr string

	view viewState
}

// document is an opened file.
type document struct {
	name     string
	trace    *core.Trace
	loadTime time.Duration
}

// viewState is the visible time window; it becomes timeline.Viewport once that lands.
type viewState struct {
	start, end float64 // µs
	scrollY    float32
}

func newWindow(w *gioapp.Window, opts Options) *ui {
	u := &ui{
		win:    w,
		opts:   opts,
		shaper: text.NewShaper(text.NoSystemFonts(), text.WithCollection(gofont.Collection())),
	}
	w.Option(gioapp.Title("flamedesk"), gioapp.Size(unit.Dp(1400), unit.Dp(900)))
	u.open(opts.Source)
	return u
}

func (u *ui) open(src Source) {
	if u.job != nil {
		u.job.cancel()
	}
	u.job = startLoad(src, u.opts.Load, u.win.Invalidate)
	u.win.Option(gioapp.Title("flamedesk — loading " + src.Name))
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
			gtx := gioapp.NewContext(&ops, e)
			u.frame(gtx)
			e.Frame(gtx.Ops)
		}
	}
}

func (u *ui) pollLoad() {
	if u.job == nil {
		return
	}
	tr, err, elapsed, ok := u.job.result()
	if !ok {
		return
	}
	src := u.job.src
	u.job = nil
	if err != nil {
		u.loadErr = fmt.Sprintf("Could not open %s: %v", src.Name, err)
		if u.doc != nil {
			u.win.Option(gioapp.Title("flamedesk — " + u.doc.name))
		} else {
			u.win.Option(gioapp.Title("flamedesk"))
		}
		return
	}
	u.loadErr = ""
	u.doc = &document{name: src.Name, trace: tr, loadTime: elapsed}
	u.view = viewState{start: tr.MinTs, end: tr.MaxTs}
	if u.view.end <= u.view.start {
		u.view.end = u.view.start + 1
	}
	u.win.Option(gioapp.Title("flamedesk — " + src.Name))
}

var (
	colBackground = color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}
	colText       = color.NRGBA{R: 0x20, G: 0x20, B: 0x20, A: 0xff}
	colError      = color.NRGBA{R: 0xb0, G: 0x10, B: 0x10, A: 0xff}
	colHeader     = color.NRGBA{R: 0xee, G: 0xee, B: 0xee, A: 0xff}
)

func (u *ui) frame(gtx layout.Context) {
	u.pollLoad()
	paint.Fill(gtx.Ops, colBackground)
	u.handleInput(gtx)

	size := gtx.Constraints.Max
	if u.doc != nil {
		u.drawTracks(gtx, size)
	}
	if u.job != nil {
		u.drawProgress(gtx, size)
	}
	if u.loadErr != "" {
		u.label(gtx, image.Pt(12, size.Y-28), u.loadErr, colError, 13)
	}

	// The whole window takes keys and pointer events.
	area := clip.Rect{Max: size}.Push(gtx.Ops)
	event.Op(gtx.Ops, u)
	area.Pop()
}

func (u *ui) drawProgress(gtx layout.Context, size image.Point) {
	w := size.X / 2
	r := image.Rect(size.X/4, size.Y/2-6, size.X/4+w, size.Y/2+6)
	paint.FillShape(gtx.Ops, colHeader, clip.Rect(r).Op())
	done := r
	done.Max.X = r.Min.X + int(float64(w)*u.job.progress.Fraction())
	paint.FillShape(gtx.Ops, color.NRGBA{R: 0x42, G: 0x85, B: 0xf4, A: 0xff}, clip.Rect(done).Op())
	u.label(gtx, image.Pt(r.Min.X, r.Min.Y-24), "Loading "+u.job.src.Name+"…", colText, 13)
}

func (u *ui) label(gtx layout.Context, at image.Point, s string, c color.NRGBA, sp float32) {
	defer op.Offset(at).Push(gtx.Ops).Pop()
	m := op.Record(gtx.Ops)
	paint.ColorOp{Color: c}.Add(gtx.Ops)
	mat := m.Stop()
	g := gtx
	g.Constraints = layout.Exact(image.Pt(2000, 40))
	g.Constraints.Min = image.Point{}
	widget.Label{MaxLines: 1}.Layout(g, u.shaper, font.Font{}, unit.Sp(sp), s, mat)
}

func (u *ui) handleInput(gtx layout.Context) {
	for {
		ev, ok := gtx.Event(
			key.FocusFilter{Target: u},
			key.Filter{Focus: u, Name: "W"}, key.Filter{Focus: u, Name: "S"},
			key.Filter{Focus: u, Name: "A"}, key.Filter{Focus: u, Name: "D"},
			key.Filter{Focus: u, Name: key.NameEscape},
			pointer.Filter{Target: u, Kinds: pointer.Scroll | pointer.Press,
				ScrollX: pointer.ScrollRange{Min: -1e6, Max: 1e6}, ScrollY: pointer.ScrollRange{Min: -1e6, Max: 1e6}},
		)
		if !ok {
			break
		}
		switch e := ev.(type) {
		case key.Event:
			if e.State != key.Press {
				continue
			}
			switch e.Name {
			case "W":
				u.zoom(0.8, 0.5)
			case "S":
				u.zoom(1.25, 0.5)
			case "A":
				u.pan(-0.1)
			case "D":
				u.pan(0.1)
			case key.NameEscape:
				if u.job != nil {
					u.job.cancel()
				}
			}
		case pointer.Event:
			switch e.Kind {
			case pointer.Press:
				gtx.Execute(key.FocusCmd{Tag: u})
			case pointer.Scroll:
				frac := float64(e.Position.X) / float64(max(gtx.Constraints.Max.X, 1))
				if e.Modifiers.Contain(key.ModShortcut) {
					if e.Scroll.Y > 0 {
						u.zoom(1.2, frac)
					} else if e.Scroll.Y < 0 {
						u.zoom(1/1.2, frac)
					}
				} else if e.Scroll.X != 0 {
					u.pan(float64(e.Scroll.X) / float64(max(gtx.Constraints.Max.X, 1)))
				} else {
					u.view.scrollY = max(0, u.view.scrollY+e.Scroll.Y)
				}
			}
		}
	}
}

func (u *ui) zoom(factor, anchor float64) {
	if u.doc == nil {
		return
	}
	span := u.view.end - u.view.start
	at := u.view.start + span*anchor
	ns := max(span*factor, 1)
	u.view.start = at - ns*anchor
	u.view.end = u.view.start + ns
}

func (u *ui) pan(frac float64) {
	if u.doc == nil {
		return
	}
	d := (u.view.end - u.view.start) * frac
	u.view.start += d
	u.view.end += d
}
