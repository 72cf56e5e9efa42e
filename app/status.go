package app

import (
	"fmt"
	"image"

	"gioui.org/layout"
	"gioui.org/op"
	"gioui.org/op/clip"
	"gioui.org/op/paint"
	"gioui.org/unit"
	"gioui.org/widget"
	"gioui.org/widget/material"

	"flamedesk/timeline"
)

// layoutList draws a scrolling list of n rows.
func layoutList(gtx layout.Context, u *ui, l *widget.List, n int, row layout.ListElement) layout.Dimensions {
	return material.List(u.th, l).Layout(gtx, n, row)
}

const statusHeight = 24 // dp

// statusBar is the bottom row: load time, counts and warnings. Clicking it lists the warnings.
type statusBar struct {
	click, showHidden widget.Clickable
	warningsShown     bool
	list              widget.List
}

func (s *statusBar) layout(gtx layout.Context, u *ui) layout.Dimensions {
	for s.click.Clicked(gtx) {
		s.warningsShown = !s.warningsShown
	}
	d := u.doc
	hidden := 0
	if d != nil {
		for i := range d.model.Tracks {
			if d.model.Tracks[i].Hidden || d.model.Groups[d.model.Tracks[i].Group].Hidden {
				hidden++
			}
		}
		for s.showHidden.Clicked(gtx) {
			for g := range d.model.Groups {
				d.model.SetGroupHidden(g, false)
			}
			for t := range d.model.Tracks {
				d.model.SetTrackHidden(timeline.TrackID(t), false)
			}
			u.chart.invalidate()
		}
	}
	h := gtx.Dp(statusHeight)
	paint.FillShape(gtx.Ops, u.colors.panel, clip.Rect{Max: image.Pt(gtx.Constraints.Max.X, h)}.Op())
	gtx.Constraints.Min.Y, gtx.Constraints.Max.Y = h, h
	text, warn := "No file", ""
	if d != nil {
		events, samples, threads := d.counts()
		text = fmt.Sprintf("Loaded in %s · %d events · %d samples · %d threads", formatWall(d.loadTime), events, samples, threads)
		if n := d.trace.Warnings.Len(); n > 0 {
			warn = fmt.Sprintf("⚠ %d warnings (click to list)", n)
		}
	}
	if u.loadErr != "" {
		warn = u.loadErr
	}
	return layout.Inset{Left: unit.Dp(8), Right: unit.Dp(8)}.Layout(gtx, func(gtx layout.Context) layout.Dimensions {
		return layout.Flex{Alignment: layout.Middle}.Layout(gtx,
			layout.Flexed(1, func(gtx layout.Context) layout.Dimensions {
				return s.click.Layout(gtx, func(gtx layout.Context) layout.Dimensions {
					return layout.Flex{Alignment: layout.Middle}.Layout(gtx,
						layout.Rigid(func(gtx layout.Context) layout.Dimensions { return u.mutedLabel(gtx, text) }),
						layout.Rigid(layout.Spacer{Width: unit.Dp(16)}.Layout),
						layout.Rigid(func(gtx layout.Context) layout.Dimensions {
							c := u.colors.warn
							if u.loadErr != "" {
								c = u.colors.errText
							}
							return u.drawText(gtx, warn, c)
						}),
					)
				})
			}),
			layout.Rigid(func(gtx layout.Context) layout.Dimensions {
				if hidden == 0 {
					return layout.Dimensions{}
				}
				return u.smallButton(gtx, &s.showHidden, fmt.Sprintf("Show %d hidden tracks", hidden))
			}),
		)
	})
}

// layoutWarnings lists every warning above the status bar while it is open.
func (s *statusBar) layoutWarnings(gtx layout.Context, u *ui) {
	if !s.warningsShown {
		return
	}
	var lines []string
	if u.loadErr != "" {
		lines = append(lines, u.loadErr)
	}
	if u.doc != nil {
		lines = append(lines, u.doc.trace.Warnings.Lines()...)
	}
	if len(lines) == 0 {
		lines = []string{"No warnings: everything in the file was loaded."}
	}
	size := gtx.Constraints.Max
	w := min(size.X-gtx.Dp(20), gtx.Dp(900))
	h := min(size.Y/2, gtx.Dp(22)*len(lines)+gtx.Dp(16))
	r := image.Rect(gtx.Dp(10), size.Y-gtx.Dp(28)-h, gtx.Dp(10)+w, size.Y-gtx.Dp(28))
	defer op.Offset(r.Min).Push(gtx.Ops).Pop()
	paint.FillShape(gtx.Ops, u.colors.panel, clip.Rect{Max: r.Size()}.Op())
	paint.FillShape(gtx.Ops, u.colors.border, clip.Stroke{Path: clip.Rect{Max: r.Size()}.Path(), Width: 1}.Op())
	g := gtx
	g.Constraints = layout.Exact(r.Size())
	s.list.Axis = layout.Vertical
	layout.UniformInset(unit.Dp(8)).Layout(g, func(gtx layout.Context) layout.Dimensions {
		return layoutList(gtx, u, &s.list, len(lines), func(gtx layout.Context, i int) layout.Dimensions {
			return u.label(gtx, lines[i])
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
