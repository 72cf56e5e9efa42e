package app

import (
	"fmt"
	"slices"

	"flamedesk/render"
	"flamedesk/timeline"
)

// summaryLines is the Summary of the selection, as the panel's Summary tab gives it: the time of
// the selected entry, or of the selected range on the selected entry's thread (else the first
// thread shown), by category, largest first.
func summaryLines(d *document) []detailLine {
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
		return nil
	}
	times := render.CategoryTimes(m, track, t0, t1)
	cats := make([]render.Category, 0, len(times))
	for c, v := range times {
		if v > 0 {
			cats = append(cats, render.Category(c))
		}
	}
	slices.SortStableFunc(cats, func(a, b render.Category) int {
		switch {
		case times[a] > times[b]:
			return -1
		case times[a] < times[b]:
			return 1
		}
		return 0
	})
	out := []detailLine{{label: "Summary", value: m.Tracks[track].Title}}
	for _, c := range cats {
		out = append(out, detailLine{label: c.String(), value: fmt.Sprintf("%s (%.1f%%)", formatDuration(times[c]), 100*times[c]/(t1-t0))})
	}
	return out
}
