package app

import (
	"image"
	"path/filepath"

	"gioui.org/layout"
	"gioui.org/op"
	"gioui.org/unit"
	"gioui.org/widget"

	"flamedesk/app/recent"
)

const toolbarHeight = 36 // dp

// toolbar is the row at the top: Open, Recent, the file name, the wheel scheme and JS call timing
// switches, search, the theme and help.
type toolbar struct {
	open, recentBtn, compare, wheel, timing, names, theme, help widget.Clickable
	// sourceMaps chooses the folder of the open file's source maps (mapsdialog.go).
	sourceMaps widget.Clickable
	// mapsShown caches offersSourceMaps for mapsOf, which scans the trace's frames.
	mapsOf    *document
	mapsShown bool
	// diffColours is shown only while a second profile is open for comparison.
	diffColours widget.Clickable
	memory      widget.Clickable

	recentShown   bool
	recentEntries []recent.Entry
	recentClicks  []widget.Clickable
}

// showRecent opens the recent list with entries.
func (t *toolbar) showRecent(entries []recent.Entry) {
	t.recentShown = true
	t.recentEntries = entries
	t.recentClicks = make([]widget.Clickable, len(entries))
}

func (t *toolbar) closeRecent() { t.recentShown = false }

// recentChanged forgets the list read when it was last opened, so that it is read afresh.
func (t *toolbar) recentChanged() {
	t.recentShown = false
	t.recentEntries = nil
}

// layout draws the toolbar with the search box in it; refining and dialogUp say what the
// background tasks are doing.
func (t *toolbar) layout(gtx layout.Context, e env, dialogUp bool, search layout.Widget) layout.Dimensions {
	s := e.settings
	for t.open.Clicked(gtx) {
		e.emit(openDialog{})
	}
	for t.compare.Clicked(gtx) {
		e.emit(compareDialog{})
	}
	for t.recentBtn.Clicked(gtx) {
		if t.recentShown {
			e.emit(closeOverlays{})
		} else {
			e.emit(toggleRecent{})
		}
	}
	for t.wheel.Clicked(gtx) {
		s.WheelZooms = !s.WheelZooms
		e.emit(changeSettings{settings: s})
	}
	for t.timing.Clicked(gtx) {
		s.Refined = !s.Refined
		e.emit(changeSettings{settings: s})
	}
	for t.sourceMaps.Clicked(gtx) {
		e.emit(chooseMapsFolder{})
	}
	if t.mapsOf != e.doc {
		t.mapsOf, t.mapsShown = e.doc, e.doc.offersSourceMaps()
	}
	for t.names.Clicked(gtx) {
		s.GeneratedNames = !s.GeneratedNames
		e.emit(changeSettings{settings: s})
	}
	for t.theme.Clicked(gtx) {
		s.Dark = !s.Dark
		e.emit(changeSettings{settings: s})
	}
	for t.help.Clicked(gtx) {
		e.emit(toggleHelp{})
	}
	for t.diffColours.Clicked(gtx) {
		e.emit(toggleDiffColours{})
	}
	for t.memory.Clicked(gtx) {
		e.emit(toggleMemory{})
	}
	memory := layout.Rigid(layout.Spacer{}.Layout)
	if e.doc != nil && e.doc.hasMemory() {
		label := "Memory: off"
		if e.doc.memoryShown() {
			label = "Memory: on"
		}
		memory = layout.Rigid(func(gtx layout.Context) layout.Dimensions {
			return layout.Inset{Right: unit.Dp(6)}.Layout(gtx, func(gtx layout.Context) layout.Dimensions {
				return e.th.Button(gtx, &t.memory, label)
			})
		})
	}
	h := gtx.Dp(toolbarHeight)
	// No background: the window is cleared to Panel (ui.frame).
	gtx.Constraints.Min.Y, gtx.Constraints.Max.Y = h, h
	gap := layout.Rigid(layout.Spacer{Width: unit.Dp(6)}.Layout)
	timing := "JS timing: sampled"
	if e.settings.Refined {
		timing = "JS timing: refined (Lighthouse)"
		if e.doc != nil && e.doc.timing.busy() {
			timing = "JS timing: refining…"
		}
	}
	wheel := "Wheel: scrolls"
	if e.settings.WheelZooms {
		wheel = "Wheel: zooms"
	}
	theme := "Dark"
	if e.settings.Dark {
		theme = "Light"
	}
	name := "no file"
	if e.doc != nil {
		name = e.doc.name
		if e.doc.path != "" {
			name = filepath.Base(e.doc.path)
		}
	}
	open := "Open"
	if dialogUp {
		open = "Open…"
	}
	return layout.Inset{Left: unit.Dp(6), Right: unit.Dp(6)}.Layout(gtx, func(gtx layout.Context) layout.Dimensions {
		return layout.Flex{Alignment: layout.Middle}.Layout(gtx,
			layout.Rigid(func(gtx layout.Context) layout.Dimensions { return e.th.Button(gtx, &t.open, open) }),
			gap,
			layout.Rigid(func(gtx layout.Context) layout.Dimensions { return e.th.Button(gtx, &t.recentBtn, "Recent ▼") }),
			gap,
			layout.Rigid(func(gtx layout.Context) layout.Dimensions {
				if e.doc == nil {
					return layout.Dimensions{}
				}
				return layout.Inset{Right: unit.Dp(6)}.Layout(gtx, func(gtx layout.Context) layout.Dimensions {
					return e.th.Button(gtx, &t.compare, "Compare with…")
				})
			}),
			layout.Flexed(1, func(gtx layout.Context) layout.Dimensions {
				// Without a minimum height the Flex centres the label like the buttons.
				gtx.Constraints.Min.Y = 0
				return e.th.Label(gtx, name)
			}),
			layout.Rigid(func(gtx layout.Context) layout.Dimensions {
				if !e.comparing {
					return layout.Dimensions{}
				}
				s := "Diff colours: off"
				if e.diffColours {
					s = "Diff colours: on"
				}
				return layout.Inset{Right: unit.Dp(6)}.Layout(gtx, func(gtx layout.Context) layout.Dimensions {
					return e.th.Button(gtx, &t.diffColours, s)
				})
			}),
			memory,
			layout.Rigid(func(gtx layout.Context) layout.Dimensions { return e.th.Button(gtx, &t.wheel, wheel) }),
			gap,
			layout.Rigid(func(gtx layout.Context) layout.Dimensions { return e.th.Button(gtx, &t.timing, timing) }),
			gap,
			layout.Rigid(func(gtx layout.Context) layout.Dimensions {
				if !t.mapsShown {
					return layout.Dimensions{}
				}
				return layout.Inset{Right: unit.Dp(6)}.Layout(gtx, func(gtx layout.Context) layout.Dimensions {
					return e.th.Button(gtx, &t.sourceMaps, "Source maps…")
				})
			}),
			layout.Rigid(func(gtx layout.Context) layout.Dimensions {
				if !e.doc.hasOriginalNames() {
					return layout.Dimensions{}
				}
				return e.th.Button(gtx, &t.names, namesLabel(e.settings))
			}),
			gap,
			layout.Rigid(search),
			gap,
			layout.Rigid(func(gtx layout.Context) layout.Dimensions { return e.th.Button(gtx, &t.theme, theme) }),
			gap,
			layout.Rigid(func(gtx layout.Context) layout.Dimensions { return e.th.Button(gtx, &t.help, "Help") }),
		)
	})
}

// layoutRecentMenu draws the list of recent files under the Recent button while it is open.
func (t *toolbar) layoutRecentMenu(gtx layout.Context, e env) {
	if !t.recentShown {
		return
	}
	for i := range t.recentClicks {
		for t.recentClicks[i].Clicked(gtx) {
			e.emit(openRecent{entry: t.recentEntries[i]})
		}
	}
	defer op.Offset(image.Pt(gtx.Dp(70), gtx.Dp(toolbarHeight))).Push(gtx.Ops).Pop()
	g := gtx
	g.Constraints.Max.X = gtx.Dp(640)
	e.th.Card(g, func(gtx layout.Context) layout.Dimensions {
		return layout.UniformInset(unit.Dp(6)).Layout(gtx, func(gtx layout.Context) layout.Dimensions {
			if len(t.recentEntries) == 0 {
				return e.th.Label(gtx, "No recent files")
			}
			children := make([]layout.FlexChild, len(t.recentEntries))
			for i, en := range t.recentEntries {
				text := en.Path
				if en.Compare != "" {
					text += "  compared with " + filepath.Base(en.Compare)
				}
				if !en.Available {
					text += "  (unavailable)"
				}
				children[i] = layout.Rigid(func(gtx layout.Context) layout.Dimensions {
					return t.recentClicks[i].Layout(gtx, func(gtx layout.Context) layout.Dimensions {
						return layout.UniformInset(unit.Dp(3)).Layout(gtx, func(gtx layout.Context) layout.Dimensions {
							if !en.Available {
								return e.th.MutedLabel(gtx, text)
							}
							return e.th.Label(gtx, text)
						})
					})
				})
			}
			return layout.Flex{Axis: layout.Vertical}.Layout(gtx, children...)
		})
	})
}
