package app

import (
	"flamedesk/timeline"
)

// setRefinedTiming switches the ProfileCall bars between DevTools' sampled timing and Lighthouse's
// refinement to task edges, and remembers the choice.
func (u *ui) setRefinedTiming(on bool) {
	u.settings.Refined = on
	_ = u.settings.save()
	u.chart.invalidate()
}

// refinedLines describes where a refined call's boundaries could lie.
func refinedLines(u *ui, d *document, ref timeline.EntryRef) []detailLine {
	return nil
}
