package app

import (
	"image"
	"path/filepath"

	"gioui.org/layout"
	"gioui.org/op"
	"gioui.org/op/clip"
	"gioui.org/op/paint"
	"gioui.org/unit"
	"gioui.org/widget"

	"flamedesk/app/recent"
)

const toolbarHeight = 36 // dp

// toolbar is the row at the top: Open, Recent, the file name, the wheel scheme and JS call timing
// switches, search, the theme and help.
type toolbar struct {
	open, recentBtn, wheel, timing, theme, help, cancel widget.Clickable

	recentShown   bool
	recentEntries []recent.Entry
	recentClicks  []widget.Clickable
}

func (t *toolbar) layout(u *ui) layout.Widget {
	return func(gtx layout.Context) layout.Dimensions {
		for t.open.Clicked(gtx) {
			u.dialog.open(u)
		}
		for t.recentBtn.Clicked(gtx) {
			t.recentShown = !t.recentShown
			if t.recentShown {
				t.recentEntries = recent.Load()
				t.recentClicks = make([]widget.Clickable, len(t.recentEntries))
			}
		}
		for t.wheel.Clicked(gtx) {
			u.settings.WheelZooms = !u.settings.WheelZooms
			_ = u.settings.save()
		}
		for t.timing.Clicked(gtx) {
			u.setRefinedTiming(!u.settings.Refined)
		}
		for t.theme.Clicked(gtx) {
			u.settings.Dark = !u.settings.Dark
			_ = u.settings.save()
			u.applyTheme()
		}
		for t.help.Clicked(gtx) {
			u.help.shown = !u.help.shown
		}
		h := gtx.Dp(toolbarHeight)
		paint.FillShape(gtx.Ops, u.colors.panel, clip.Rect{Max: image.Pt(gtx.Constraints.Max.X, h)}.Op())
		gtx.Constraints.Min.Y, gtx.Constraints.Max.Y = h, h
		gap := layout.Rigid(layout.Spacer{Width: unit.Dp(6)}.Layout)
		timing := "JS timing: sampled"
		if u.settings.Refined {
			timing = "JS timing: refined (Lighthouse)"
			if u.timingBusy {
				timing = "JS timing: refining…"
			}
		}
		wheel := "Wheel: scrolls"
		if u.settings.WheelZooms {
			wheel = "Wheel: zooms"
		}
		theme := "Dark"
		if u.settings.Dark {
			theme = "Light"
		}
		name := "no file"
		if u.doc != nil {
			name = u.doc.name
			if u.doc.path != "" {
				name = filepath.Base(u.doc.path)
			}
		}
		return layout.Inset{Left: unit.Dp(6), Right: unit.Dp(6)}.Layout(gtx, func(gtx layout.Context) layout.Dimensions {
			return layout.Flex{Alignment: layout.Middle}.Layout(gtx,
				layout.Rigid(func(gtx layout.Context) layout.Dimensions { return u.smallButton(gtx, &t.open, "Open") }),
				gap,
				layout.Rigid(func(gtx layout.Context) layout.Dimensions { return u.smallButton(gtx, &t.recentBtn, "Recent ▼") }),
				gap,
				layout.Flexed(1, func(gtx layout.Context) layout.Dimensions {
					// Without a minimum height the Flex centres the label like the buttons.
					gtx.Constraints.Min.Y = 0
					return u.label(gtx, name)
				}),
				layout.Rigid(func(gtx layout.Context) layout.Dimensions { return u.smallButton(gtx, &t.wheel, wheel) }),
				gap,
				layout.Rigid(func(gtx layout.Context) layout.Dimensions { return u.smallButton(gtx, &t.timing, timing) }),
				gap,
				layout.Rigid(func(gtx layout.Context) layout.Dimensions { return u.search.layout(gtx, u) }),
				gap,
				layout.Rigid(func(gtx layout.Context) layout.Dimensions { return u.smallButton(gtx, &t.theme, theme) }),
				gap,
				layout.Rigid(func(gtx layout.Context) layout.Dimensions { return u.smallButton(gtx, &t.help, "Help") }),
			)
		})
	}
}

// layoutRecentMenu draws the list of recent files under the Recent button while it is open.
func (t *toolbar) layoutRecentMenu(gtx layout.Context, u *ui) {
	if !t.recentShown {
		return
	}
	for i := range t.recentClicks {
		for t.recentClicks[i].Clicked(gtx) {
			e := t.recentEntries[i]
			t.recentShown = false
			if e.Available {
				u.open(SourceFromPath(e.Path))
			} else {
				u.loadErr = e.Path + " is no longer available"
			}
		}
	}
	if !t.recentShown {
		return
	}
	defer op.Offset(image.Pt(gtx.Dp(70), gtx.Dp(toolbarHeight))).Push(gtx.Ops).Pop()
	m := op.Record(gtx.Ops)
	g := gtx
	g.Constraints.Min = image.Point{}
	g.Constraints.Max.X = gtx.Dp(640)
	dims := layout.UniformInset(unit.Dp(6)).Layout(g, func(gtx layout.Context) layout.Dimensions {
		if len(t.recentEntries) == 0 {
			return u.label(gtx, "No recent files")
		}
		children := make([]layout.FlexChild, len(t.recentEntries))
		for i, e := range t.recentEntries {
			text := e.Path
			if !e.Available {
				text += "  (unavailable)"
			}
			children[i] = layout.Rigid(func(gtx layout.Context) layout.Dimensions {
				return t.recentClicks[i].Layout(gtx, func(gtx layout.Context) layout.Dimensions {
					return layout.UniformInset(unit.Dp(3)).Layout(gtx, func(gtx layout.Context) layout.Dimensions {
						l := u.label
						if !e.Available {
							return u.mutedLabel(gtx, text)
						}
						return l(gtx, text)
					})
				})
			})
		}
		return layout.Flex{Axis: layout.Vertical}.Layout(gtx, children...)
	})
	call := m.Stop()
	paint.FillShape(gtx.Ops, u.colors.panel, clip.Rect{Max: dims.Size}.Op())
	paint.FillShape(gtx.Ops, u.colors.border, clip.Stroke{Path: clip.Rect{Max: dims.Size}.Path(), Width: 1}.Op())
	call.Add(gtx.Ops)
}
