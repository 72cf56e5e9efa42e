package app

import (
	"fmt"
	"image"
	"slices"

	"gioui.org/layout"
	"gioui.org/op/clip"
	"gioui.org/op/paint"
	"gioui.org/unit"

	"flamedesk/render"
	"flamedesk/timeline"
)

// summary is the Summary of the selection, as the bottom panel's Summary tab shows it: the time
// of the selected entry, or of the selected range on the selected entry's thread (else the first
// thread shown), by category, largest first.
type summary struct {
	title  string
	t0, t1 float64
	times  [render.NumCategories]float64
	cats   []render.Category // those with time, largest first
}

// summaryKey is what the Summary depends on; the category times are computed again only when
// it changes (they walk the whole track).
type summaryKey struct {
	doc        *document
	model      *timeline.Model
	sel        timeline.EntryRef
	merged     bool
	rangeStart float64
	rangeEnd   float64
}

// summaryView is the Summary tab. rows and bars are the category rows and their bars' rectangles
// as laid out in the last frame, for tests.
type summaryView struct {
	key   summaryKey
	sum   summary
	ok    bool
	valid bool
	rows  []render.Category
	bars  []image.Rectangle
}

func computeSummary(d *document) (summary, bool) {
	m := d.model
	track := timeline.TrackID(-1)
	var t0, t1 float64
	switch {
	case d.selected.Valid() && !d.selectedIsMerge && !d.hasRange():
		track, t0, t1 = d.selected.Track, m.EntryStart(d.selected), m.EntryEnd(d.selected)
	case d.hasRange():
		t0, t1 = d.rangeStart, d.rangeEnd
		if d.selected.Valid() {
			track = d.selected.Track
		} else if shown := m.ShownTracks(); len(shown) > 0 {
			track = shown[0]
		}
	}
	if track < 0 || !(t1 > t0) {
		return summary{}, false
	}
	s := summary{title: m.Tracks[track].Title, t0: t0, t1: t1, times: render.CategoryTimes(m, track, t0, t1)}
	for c, v := range s.times {
		if v > 0 {
			s.cats = append(s.cats, render.Category(c))
		}
	}
	slices.SortStableFunc(s.cats, func(a, b render.Category) int {
		switch {
		case s.times[a] > s.times[b]:
			return -1
		case s.times[a] < s.times[b]:
			return 1
		}
		return 0
	})
	return s, true
}

func (v *summaryView) layout(gtx layout.Context, e env) layout.Dimensions {
	d := e.doc
	k := summaryKey{doc: d, model: d.model, sel: d.selected, merged: d.selectedIsMerge, rangeStart: d.rangeStart, rangeEnd: d.rangeEnd}
	if !v.valid || k != v.key {
		v.key, v.valid = k, true
		v.sum, v.ok = computeSummary(d)
	}
	v.rows, v.bars = v.rows[:0], v.bars[:0]
	var children []layout.FlexChild
	text := func(s string, muted bool) {
		children = append(children, layout.Rigid(func(gtx layout.Context) layout.Dimensions {
			return layout.Inset{Bottom: unit.Dp(4)}.Layout(gtx, func(gtx layout.Context) layout.Dimensions {
				if muted {
					return e.th.MutedLabel(gtx, s)
				}
				return e.th.Label(gtx, s)
			})
		}))
	}
	// A network request, interaction or layout shift is summed up by its details.
	if d.hasLaneSelected {
		for _, l := range laneDetails(d) {
			if l.label != "" {
				text(l.label+": "+l.value, false)
			} else {
				text(l.value, false)
			}
		}
	}
	if !v.ok {
		if !d.hasLaneSelected {
			text("Select a bar or shift+drag a time range to see its time by category.", true)
		}
	} else {
		s := v.sum
		text(fmt.Sprintf("%s · %s", s.title, formatDuration(s.t1-s.t0)), false)
		for _, c := range s.cats {
			children = append(children, layout.Rigid(func(gtx layout.Context) layout.Dimensions {
				return v.layoutRow(gtx, e, c)
			}))
		}
	}
	return layout.Inset{Top: unit.Dp(6), Left: unit.Dp(8), Right: unit.Dp(8)}.Layout(gtx, func(gtx layout.Context) layout.Dimensions {
		return layout.Flex{Axis: layout.Vertical}.Layout(gtx, children...)
	})
}

// layoutRow is one category: its name, time and share of the whole, and a bar as long as that
// share, in the category's chart colour. bars holds the bars' sizes (their widths are the shares).
func (v *summaryView) layoutRow(gtx layout.Context, e env, c render.Category) layout.Dimensions {
	s := v.sum
	whole := s.t1 - s.t0
	share := s.times[c] / whole
	nameW, valueW := gtx.Dp(100), gtx.Dp(140)
	return layout.Inset{Bottom: unit.Dp(3)}.Layout(gtx, func(gtx layout.Context) layout.Dimensions {
		return layout.Flex{Alignment: layout.Middle}.Layout(gtx,
			layout.Rigid(func(gtx layout.Context) layout.Dimensions {
				gtx.Constraints = layout.Exact(image.Pt(nameW, gtx.Constraints.Max.Y))
				gtx.Constraints.Min.Y = 0
				return e.th.Label(gtx, c.String())
			}),
			layout.Rigid(func(gtx layout.Context) layout.Dimensions {
				gtx.Constraints = layout.Exact(image.Pt(valueW, gtx.Constraints.Max.Y))
				gtx.Constraints.Min.Y = 0
				return e.th.Label(gtx, fmt.Sprintf("%s (%.1f%%)", formatDuration(s.times[c]), 100*share))
			}),
			layout.Flexed(1, func(gtx layout.Context) layout.Dimensions {
				h := gtx.Dp(10)
				w := max(int(share*float64(gtx.Constraints.Max.X)+0.5), 1)
				paint.FillShape(gtx.Ops, e.th.Chart.Categories[c], clip.Rect{Max: image.Pt(w, h)}.Op())
				v.rows = append(v.rows, c)
				v.bars = append(v.bars, image.Rect(0, 0, w, h))
				return layout.Dimensions{Size: image.Pt(gtx.Constraints.Max.X, h)}
			}),
		)
	})
}
