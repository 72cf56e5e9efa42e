package app

import (
	"fmt"
	"image"

	"gioui.org/io/key"
	"gioui.org/layout"
	"gioui.org/unit"
	"gioui.org/widget"
	"gioui.org/widget/material"

	"flamedesk/app/theme"
	"flamedesk/timeline"
)

// searchBox is the toolbar's search field. The search itself is a background task of the window
// (startSearch), so that typing never waits for a large trace to be scanned.
type searchBox struct {
	editor     widget.Editor
	prev, next widget.Clickable
	query      string // the query the current result or pending search is for
}

func (s *searchBox) init() {
	s.editor.SingleLine = true
	s.editor.Submit = true
}

func (s *searchBox) reset() {
	s.query = ""
	s.editor.SetText("")
}

// selectAll selects the query, so that typing replaces it (Ctrl+F).
func (s *searchBox) selectAll() { s.editor.SetCaret(s.editor.Len(), 0) }

func (s *searchBox) layout(gtx layout.Context, e env) layout.Dimensions {
	// Shift+Enter goes to the previous match; the editor itself only submits plain Enter. Esc
	// clears the search, as in DevTools, and gives the keys back to the chart.
	for {
		ev, ok := gtx.Event(key.Filter{Focus: &s.editor, Name: key.NameReturn, Required: key.ModShift},
			key.Filter{Focus: &s.editor, Name: key.NameEnter, Required: key.ModShift},
			key.Filter{Focus: &s.editor, Name: key.NameEscape})
		if !ok {
			break
		}
		if ke, ok := ev.(key.Event); ok && ke.State == key.Press {
			if ke.Name == key.NameEscape {
				s.editor.SetText("")
				s.query = ""
				e.emit(searchFor{query: ""})
				e.emit(focus{})
			} else {
				e.emit(searchStep{dir: -1})
			}
		}
	}
	for {
		ev, ok := s.editor.Update(gtx)
		if !ok {
			break
		}
		switch ev.(type) {
		case widget.ChangeEvent:
			if q := s.editor.Text(); q != s.query {
				s.query = q
				e.emit(searchFor{query: q})
			}
		case widget.SubmitEvent:
			e.emit(searchStep{dir: 1})
		}
	}
	for s.prev.Clicked(gtx) {
		e.emit(searchStep{dir: -1})
	}
	for s.next.Clicked(gtx) {
		e.emit(searchStep{dir: 1})
	}
	count := ""
	if d := e.doc; d != nil && d.search != nil {
		count = searchCount(d)
	}
	return layout.Flex{Alignment: layout.Middle}.Layout(gtx,
		layout.Rigid(func(gtx layout.Context) layout.Dimensions { return s.layoutField(gtx, e) }),
		layout.Rigid(layout.Spacer{Width: unit.Dp(4)}.Layout),
		layout.Rigid(func(gtx layout.Context) layout.Dimensions { return e.th.MutedLabel(gtx, count) }),
		layout.Rigid(layout.Spacer{Width: unit.Dp(4)}.Layout),
		layout.Rigid(func(gtx layout.Context) layout.Dimensions { return e.th.Button(gtx, &s.prev, "◄") }),
		layout.Rigid(func(gtx layout.Context) layout.Dimensions { return e.th.Button(gtx, &s.next, "►") }),
	)
}

// searchHint is what the empty search field shows.
const searchHint = "Search (Ctrl+F)"

// layoutField draws the field: a square border, the editor, and while it is empty the hint. The
// field is in every frame (the toolbar is replayed, not cached as pixels), so it draws no path: a
// rounded border and the editor's own hint (shaped text, glyph outlines) were paths that a
// software GL rasterised anew in each frame, about 0.8 ms of one at 1600x1000 under llvmpipe
// (headless, 200 frames turn about), where the border's rectangles and a cached bitmap hint cost
// under 0.3.
func (s *searchBox) layoutField(gtx layout.Context, e env) layout.Dimensions {
	gtx.Constraints.Min.X = gtx.Dp(180)
	gtx.Constraints.Max.X = gtx.Dp(180)
	dims := layout.Inset{Top: unit.Dp(5), Bottom: unit.Dp(5), Left: unit.Dp(7), Right: unit.Dp(7)}.Layout(gtx,
		func(gtx layout.Context) layout.Dimensions {
			return layout.Stack{}.Layout(gtx,
				// The hint goes first, so that the caret is drawn over it.
				layout.Expanded(func(gtx layout.Context) layout.Dimensions {
					if s.editor.Len() > 0 {
						return layout.Dimensions{}
					}
					return e.th.DrawText(gtx, searchHint, e.th.Muted)
				}),
				layout.Stacked(func(gtx layout.Context) layout.Dimensions {
					ed := material.Editor(e.th.Material, &s.editor, "")
					// The hint's size, so that typing does not change the text's size.
					ed.TextSize = theme.TextSize
					ed.Color = e.th.Colors.Text
					return ed.Layout(gtx)
				}),
			)
		})
	theme.Outline(gtx.Ops, image.Rectangle{Max: dims.Size}, gtx.Dp(1), e.th.Border)
	return dims
}

// searchCount is the search's match count, entries and lane items together, or while stepping
// through them, the current one.
func searchCount(d *document) string {
	n := d.matchCount()
	if d.searchIndex < 0 || d.searchIndex >= n {
		return plural(n, "match", "matches")
	}
	return fmt.Sprintf("%d / %d", d.searchIndex+1, n)
}

// searchFound is what a background search finds: the matching entries and lane items.
type searchFound struct {
	entries *timeline.SearchResult
	lanes   []timeline.LaneRef
}
