package app

import (
	"fmt"
	"math"
	"sync"

	"gioui.org/io/key"
	"gioui.org/layout"
	"gioui.org/unit"
	"gioui.org/widget"
	"gioui.org/widget/material"

	"flamedesk/timeline"
)

// searchBox is the toolbar's search field. A search runs on its own goroutine (the model's result
// is immutable), so typing never waits for a large trace to be scanned.
type searchBox struct {
	editor     widget.Editor
	prev, next widget.Clickable
	query      string // the query the current result or pending search is for

	mu      sync.Mutex
	gen     int // bumped per query; a finished search for an older query is dropped
	result  *timeline.SearchResult
	arrived bool
}

func (s *searchBox) init() {
	s.editor.SingleLine = true
	s.editor.Submit = true
}

func (s *searchBox) reset() {
	s.mu.Lock()
	s.gen++
	s.result, s.arrived = nil, false
	s.mu.Unlock()
	s.query = ""
	s.editor.SetText("")
}

func (s *searchBox) focus(gtx layout.Context) {
	gtx.Execute(key.FocusCmd{Tag: &s.editor})
	s.editor.SetCaret(s.editor.Len(), 0)
}

// start runs a search for q on the current document.
func (s *searchBox) start(u *ui, q string) {
	s.query = q
	s.mu.Lock()
	s.gen++
	gen := s.gen
	s.mu.Unlock()
	d := u.doc
	if d == nil {
		return
	}
	model, invalidate := d.model, u.win.Invalidate
	go func() {
		r := model.Search(q)
		s.mu.Lock()
		if gen == s.gen {
			s.result, s.arrived = r, true
		}
		s.mu.Unlock()
		invalidate()
	}()
}

// poll installs a finished search into the document.
func (s *searchBox) poll(u *ui) {
	s.mu.Lock()
	r, ok := s.result, s.arrived
	s.arrived = false
	s.mu.Unlock()
	if !ok || u.doc == nil {
		return
	}
	if r != nil && r.Query == "" {
		r = nil
	}
	u.doc.search = r
	u.doc.searchIndex = -1
	u.chart.invalidate()
}

// step moves to the next (dir 1) or previous (dir -1) match and reveals it.
func (s *searchBox) step(u *ui, dir int) {
	d := u.doc
	if d == nil || d.search == nil || d.search.Len() == 0 {
		return
	}
	r := d.search
	switch {
	case d.searchIndex < 0:
		// Start at the first match at or after the left edge of the view, as DevTools does.
		d.searchIndex = r.FirstAfter(d.model, d.view.Start())
		if dir < 0 {
			d.searchIndex = r.Prev(d.searchIndex)
		}
	case dir > 0:
		d.searchIndex = r.Next(d.searchIndex)
	default:
		d.searchIndex = r.Prev(d.searchIndex)
	}
	u.reveal(r.Matches[d.searchIndex])
}

// reveal selects an entry and brings it into view: panned to the middle when it fits, zoomed to it
// when it is too wide or too narrow to see, and scrolled to its row.
func (u *ui) reveal(ref timeline.EntryRef) {
	d := u.doc
	d.selectEntry(ref)
	start, end := d.model.EntryStart(ref), d.model.EntryEnd(ref)
	vp := d.view
	w := vp.DurToPx(end - start)
	if w < 2 || end-start > vp.Span() {
		vp.ZoomToEntry(start, end)
	} else if start < vp.Start() || end > vp.End() {
		mid := (start + end) / 2
		vp.Navigate(timeline.View{Start: mid - vp.Origin() - vp.Span()/2, Span: vp.Span()})
	}
	top := d.model.RowTop(ref.Track, d.model.EntryDepth(ref))
	if top < vp.ScrollY() || top+d.model.Style.RowHeight > vp.ScrollY()+vp.Height() {
		vp.SetScrollY(math.Max(0, top-vp.Height()/3))
	}
	u.panel.selectionChanged(u)
	u.chart.invalidate()
}

func (s *searchBox) layout(gtx layout.Context, u *ui) layout.Dimensions {
	// Shift+Enter goes to the previous match; the editor itself only submits plain Enter.
	for {
		ev, ok := gtx.Event(key.Filter{Focus: &s.editor, Name: key.NameReturn, Required: key.ModShift},
			key.Filter{Focus: &s.editor, Name: key.NameEnter, Required: key.ModShift},
			key.Filter{Focus: &s.editor, Name: key.NameEscape})
		if !ok {
			break
		}
		if e, ok := ev.(key.Event); ok && e.State == key.Press {
			if e.Name == key.NameEscape {
				gtx.Execute(key.FocusCmd{Tag: u})
			} else {
				s.step(u, -1)
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
				s.start(u, q)
			}
		case widget.SubmitEvent:
			s.step(u, 1)
		}
	}
	for s.prev.Clicked(gtx) {
		s.step(u, -1)
	}
	for s.next.Clicked(gtx) {
		s.step(u, 1)
	}
	count := ""
	if d := u.doc; d != nil && d.search != nil {
		if d.searchIndex >= 0 {
			count = fmt.Sprintf("%d / %d", d.searchIndex+1, d.search.Len())
		} else {
			count = fmt.Sprintf("%d matches", d.search.Len())
		}
	}
	return layout.Flex{Alignment: layout.Middle}.Layout(gtx,
		layout.Rigid(func(gtx layout.Context) layout.Dimensions {
			gtx.Constraints.Min.X = gtx.Dp(180)
			gtx.Constraints.Max.X = gtx.Dp(180)
			return widget.Border{Color: u.colors.border, Width: unit.Dp(1), CornerRadius: unit.Dp(3)}.Layout(gtx,
				func(gtx layout.Context) layout.Dimensions {
					return layout.Inset{Top: unit.Dp(4), Bottom: unit.Dp(4), Left: unit.Dp(6), Right: unit.Dp(6)}.Layout(gtx,
						func(gtx layout.Context) layout.Dimensions {
							e := material.Editor(u.th, &s.editor, "Search (Ctrl+F)")
							e.TextSize = unit.Sp(12)
							e.Color = u.colors.text
							e.HintColor = u.colors.muted
							return e.Layout(gtx)
						})
				})
		}),
		layout.Rigid(layout.Spacer{Width: unit.Dp(4)}.Layout),
		layout.Rigid(func(gtx layout.Context) layout.Dimensions { return u.mutedLabel(gtx, count) }),
		layout.Rigid(layout.Spacer{Width: unit.Dp(4)}.Layout),
		layout.Rigid(func(gtx layout.Context) layout.Dimensions { return u.smallButton(gtx, &s.prev, "◄") }),
		layout.Rigid(func(gtx layout.Context) layout.Dimensions { return u.smallButton(gtx, &s.next, "►") }),
	)
}
