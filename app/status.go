package app

import (
	"fmt"
	"image"

	"gioui.org/layout"
	"gioui.org/op"
	"gioui.org/unit"
	"gioui.org/widget"
)

const statusHeight = 24 // dp

// statusBar is the bottom row: load time, counts and warnings. Clicking it lists the warnings.
type statusBar struct {
	click, showHidden widget.Clickable
	warningsShown     bool
	list              widget.List
}

// layout draws the status bar; failed says a failed open is on show in the banner.
func (s *statusBar) layout(gtx layout.Context, e env, failed bool) layout.Dimensions {
	for s.click.Clicked(gtx) {
		s.warningsShown = !s.warningsShown
	}
	d := e.doc
	hidden := 0
	if d != nil {
		hidden = d.hiddenTracks()
		for s.showHidden.Clicked(gtx) {
			e.emit(showHiddenTracks{})
		}
	}
	h := gtx.Dp(statusHeight)
	// No background: the window is cleared to Panel (ui.frame).
	gtx.Constraints.Min.Y, gtx.Constraints.Max.Y = h, h
	text, warn := "No file", ""
	if d != nil {
		events, samples, threads := d.counts()
		text = fmt.Sprintf("Loaded in %s · %s · %s · %s", formatWall(d.loadTime),
			plural(events, "event", "events"), plural(samples, "sample", "samples"), plural(threads, "thread", "threads"))
		if n := d.trace.Warnings.Len(); n > 0 {
			warn = "⚠ " + plural(n, "warning", "warnings") + " (click to list)"
		}
	}
	if failed {
		warn = "The last open failed (see above)"
	}
	return layout.Inset{Left: unit.Dp(8), Right: unit.Dp(8)}.Layout(gtx, func(gtx layout.Context) layout.Dimensions {
		return layout.Flex{Alignment: layout.Middle}.Layout(gtx,
			layout.Flexed(1, func(gtx layout.Context) layout.Dimensions {
				return s.click.Layout(gtx, func(gtx layout.Context) layout.Dimensions {
					return layout.Flex{Alignment: layout.Middle}.Layout(gtx,
						layout.Rigid(func(gtx layout.Context) layout.Dimensions { return e.th.MutedLabel(gtx, text) }),
						layout.Rigid(layout.Spacer{Width: unit.Dp(16)}.Layout),
						layout.Rigid(func(gtx layout.Context) layout.Dimensions {
							return e.th.DrawText(gtx, warn, e.th.Warn)
						}),
					)
				})
			}),
			layout.Rigid(func(gtx layout.Context) layout.Dimensions {
				if hidden == 0 {
					return layout.Dimensions{}
				}
				return e.th.Button(gtx, &s.showHidden, "Show "+plural(hidden, "hidden track", "hidden tracks"))
			}),
		)
	})
}

// layoutWarnings lists every warning above the status bar while it is open.
func (s *statusBar) layoutWarnings(gtx layout.Context, e env) {
	if !s.warningsShown {
		return
	}
	var lines []string
	if e.doc != nil {
		lines = append(lines, e.doc.trace.Warnings.Lines()...)
	}
	if len(lines) == 0 {
		lines = []string{"No warnings: everything in the file was loaded."}
	}
	size := gtx.Constraints.Max
	w := min(size.X-gtx.Dp(20), gtx.Dp(900))
	h := min(size.Y/2, gtx.Dp(22)*len(lines)+gtx.Dp(16))
	r := image.Rect(gtx.Dp(10), size.Y-gtx.Dp(28)-h, gtx.Dp(10)+w, size.Y-gtx.Dp(28))
	defer op.Offset(r.Min).Push(gtx.Ops).Pop()
	e.th.Box(gtx.Ops, image.Rectangle{Max: r.Size()}, 1)
	g := gtx
	g.Constraints = layout.Exact(r.Size())
	s.list.Axis = layout.Vertical
	layout.UniformInset(unit.Dp(8)).Layout(g, func(gtx layout.Context) layout.Dimensions {
		return e.th.List(gtx, &s.list, len(lines), func(gtx layout.Context, i int) layout.Dimensions {
			return e.th.Label(gtx, lines[i])
		})
	})
}

func formatWall(d interface{ Seconds() float64 }) string {
	s := d.Seconds()
	if s < 1 {
		return fmt.Sprintf("%.0f ms", s*1000)
	}
	return fmt.Sprintf("%.2f s", s)
}
