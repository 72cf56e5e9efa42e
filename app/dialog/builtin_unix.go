//go:build (linux && !android) || freebsd || openbsd

package dialog

import (
	"context"
	"image"
	"image/color"

	"gioui.org/app"
	"gioui.org/font"
	"gioui.org/font/gofont"
	"gioui.org/io/key"
	"gioui.org/io/system"
	"gioui.org/layout"
	"gioui.org/op"
	"gioui.org/op/clip"
	"gioui.org/op/paint"
	"gioui.org/text"
	"gioui.org/unit"
	"gioui.org/widget"
	"gioui.org/widget/material"
)

// openBuiltin shows the builtin browser in a window of its own and waits for it. It needs the
// caller's program to run app.Main (as every Gio program does); it never touches the caller's
// window, so that window keeps drawing while this one is up.
func openBuiltin(ctx context.Context, opts Options) (string, error) {
	w := new(app.Window)
	w.Option(app.Title(opts.Title), app.Size(unit.Dp(720), unit.Dp(540)))
	// A frame notices the cancelled ctx and closes the window from the event loop, the one place
	// where Perform is safe at any time.
	stop := context.AfterFunc(ctx, w.Invalidate)
	defer stop()

	ui := newBrowserUI(opts)
	var ops op.Ops
	var chosen string
	closing := false
	for {
		switch e := w.Event().(type) {
		case app.DestroyEvent:
			switch {
			case ctx.Err() != nil:
				return "", ctx.Err()
			case chosen != "":
				return chosen, nil
			case e.Err != nil:
				return "", e.Err // no display: not a cancel, so the caller may try elsewhere
			}
			return "", ErrCancelled
		case app.FrameEvent:
			gtx := app.NewContext(&ops, e)
			path, done := ui.layout(gtx)
			e.Frame(gtx.Ops)
			if closing {
				continue
			}
			if ctx.Err() != nil || done {
				closing, chosen = true, path
				w.Perform(system.ActionClose)
			}
		}
	}
}

// browserUI draws a browser and turns input into browser calls.
type browserUI struct {
	b        *browser
	theme    *material.Theme
	path     widget.Editor
	list     widget.List
	rows     []widget.Clickable
	upBtn    widget.Clickable
	filter   widget.Clickable
	cancel   widget.Clickable
	open     widget.Clickable
	focused  bool
	rowsOfIn string // the folder rows was made for
}

func newBrowserUI(opts Options) *browserUI {
	th := material.NewTheme()
	th.Shaper = text.NewShaper(text.NoSystemFonts(), text.WithCollection(gofont.Collection()))
	th.TextSize = 14
	ui := &browserUI{b: newBrowser(opts.Dir, opts.Filters, opts.Folder), theme: th}
	ui.path.SingleLine = true
	ui.path.Submit = true
	ui.list.Axis = layout.Vertical
	return ui
}

var (
	colorSelected = color.NRGBA{R: 0x3f, G: 0x51, B: 0xb5, A: 0x40}
	colorProblem  = color.NRGBA{R: 0xb0, G: 0x10, B: 0x10, A: 0xff}
	colorFolder   = color.NRGBA{R: 0x20, G: 0x40, B: 0x90, A: 0xff}
	colorRule     = color.NRGBA{A: 0x30}
)

// layout draws one frame and returns the chosen path once the user has chosen (done, with a path)
// or cancelled (done, with "").
func (ui *browserUI) layout(gtx layout.Context) (string, bool) {
	if !ui.focused {
		// Typing a path works straight away, without clicking into the field first.
		gtx.Execute(key.FocusCmd{Tag: &ui.path})
		ui.focused = true
	}
	if path, done := ui.update(gtx); done {
		return path, true
	}
	if ui.rowsOfIn != ui.b.dir || len(ui.rows) != len(ui.b.entries) {
		ui.rows = make([]widget.Clickable, len(ui.b.entries))
		ui.rowsOfIn = ui.b.dir
		ui.list.Position = layout.Position{}
	}

	th := ui.theme
	paint.Fill(gtx.Ops, th.Palette.Bg)
	inset := layout.UniformInset(unit.Dp(8))
	inset.Layout(gtx, func(gtx layout.Context) layout.Dimensions {
		return layout.Flex{Axis: layout.Vertical}.Layout(gtx,
			layout.Rigid(func(gtx layout.Context) layout.Dimensions {
				return layout.Flex{Alignment: layout.Middle}.Layout(gtx,
					layout.Rigid(material.Button(th, &ui.upBtn, "Up").Layout),
					layout.Flexed(1, func(gtx layout.Context) layout.Dimensions {
						l := material.Label(th, th.TextSize, ui.b.dir)
						l.MaxLines = 1
						return layout.Inset{Left: unit.Dp(8)}.Layout(gtx, l.Layout)
					}),
				)
			}),
			layout.Rigid(layout.Spacer{Height: unit.Dp(6)}.Layout),
			layout.Rigid(func(gtx layout.Context) layout.Dimensions {
				return widget.Border{Color: colorRule, Width: unit.Dp(1), CornerRadius: unit.Dp(2)}.Layout(gtx,
					func(gtx layout.Context) layout.Dimensions {
						return layout.UniformInset(unit.Dp(5)).Layout(gtx,
							material.Editor(th, &ui.path, "Type a path or a name and press Enter").Layout)
					})
			}),
			layout.Rigid(layout.Spacer{Height: unit.Dp(6)}.Layout),
			layout.Flexed(1, ui.layoutEntries),
			layout.Rigid(func(gtx layout.Context) layout.Dimensions {
				if ui.b.problem == "" {
					return layout.Dimensions{}
				}
				l := material.Label(th, th.TextSize, ui.b.problem)
				l.Color = colorProblem
				return layout.Inset{Top: unit.Dp(4)}.Layout(gtx, l.Layout)
			}),
			layout.Rigid(layout.Spacer{Height: unit.Dp(6)}.Layout),
			layout.Rigid(func(gtx layout.Context) layout.Dimensions {
				showFilter, openLabel := layout.Rigid(material.Button(th, &ui.filter, "Show: "+ui.b.filter().Name).Layout), "Open"
				if ui.b.folders {
					showFilter, openLabel = layout.Rigid(layout.Spacer{}.Layout), "Choose this folder"
				}
				return layout.Flex{Alignment: layout.Middle}.Layout(gtx,
					showFilter,
					layout.Flexed(1, layout.Spacer{}.Layout),
					layout.Rigid(material.Button(th, &ui.cancel, "Cancel").Layout),
					layout.Rigid(layout.Spacer{Width: unit.Dp(8)}.Layout),
					layout.Rigid(material.Button(th, &ui.open, openLabel).Layout),
				)
			}),
		)
	})
	return "", false
}

// update applies the input gathered since the last frame.
func (ui *browserUI) update(gtx layout.Context) (string, bool) {
	for {
		ev, ok := gtx.Event(key.Filter{Name: key.NameEscape})
		if !ok {
			break
		}
		if e, ok := ev.(key.Event); ok && e.State == key.Press {
			return "", true
		}
	}
	if ui.cancel.Clicked(gtx) {
		return "", true
	}
	for {
		ev, ok := ui.path.Update(gtx)
		if !ok {
			break
		}
		if s, ok := ev.(widget.SubmitEvent); ok {
			if p := ui.submit(s.Text); p != "" {
				return p, true
			}
		}
	}
	if ui.open.Clicked(gtx) {
		if ui.b.folders {
			// A typed folder is entered first, so the button then chooses it.
			if typed := ui.path.Text(); typed != "" {
				ui.submit(typed)
			}
			return ui.b.chooseFolder(), true
		}
		if p := ui.submit(ui.path.Text()); p != "" {
			return p, true
		}
	}
	if ui.upBtn.Clicked(gtx) {
		ui.b.up()
	}
	if ui.filter.Clicked(gtx) {
		ui.b.nextFilter()
	}
	for i := range ui.rows {
		for {
			c, ok := ui.rows[i].Update(gtx)
			if !ok {
				break
			}
			if i >= len(ui.b.entries) {
				continue
			}
			if c.NumClicks >= 2 {
				if p := ui.b.activate(i); p != "" {
					return p, true
				}
				ui.path.SetText("")
				continue
			}
			ui.b.selected = i
			if !ui.b.entries[i].dir {
				ui.path.SetText(ui.b.entries[i].name)
			}
		}
	}
	return "", false
}

// submit gives the typed text to the browser, clearing the field when it led into a folder.
func (ui *browserUI) submit(typed string) string {
	before := ui.b.dir
	p := ui.b.submit(typed)
	if p == "" && ui.b.dir != before {
		ui.path.SetText("")
	}
	return p
}

func (ui *browserUI) layoutEntries(gtx layout.Context) layout.Dimensions {
	th := ui.theme
	if len(ui.b.entries) == 0 {
		l := material.Label(th, th.TextSize, "No folders or matching files here.")
		l.Color.A = 0x99
		return layout.Inset{Top: unit.Dp(6)}.Layout(gtx, l.Layout)
	}
	return material.List(th, &ui.list).Layout(gtx, len(ui.b.entries), func(gtx layout.Context, i int) layout.Dimensions {
		if i >= len(ui.rows) {
			return layout.Dimensions{}
		}
		e := ui.b.entries[i]
		return ui.rows[i].Layout(gtx, func(gtx layout.Context) layout.Dimensions {
			m := op.Record(gtx.Ops)
			name := e.name
			l := material.Label(th, th.TextSize, name)
			l.MaxLines = 1
			if e.dir {
				l.Text += "/"
				l.Color = colorFolder
				l.Font.Weight = font.Bold
			}
			gtx.Constraints.Min.X = gtx.Constraints.Max.X
			dims := layout.Inset{Top: unit.Dp(3), Bottom: unit.Dp(3), Left: unit.Dp(4)}.Layout(gtx, l.Layout)
			call := m.Stop()
			if i == ui.b.selected || ui.rows[i].Hovered() {
				c := colorSelected
				if i != ui.b.selected {
					c.A /= 2
				}
				paint.FillShape(gtx.Ops, c, clip.Rect(image.Rectangle{Max: dims.Size}).Op())
			}
			call.Add(gtx.Ops)
			return dims
		})
	})
}
