package timelines

// rows places items on the rows of a track the way the panel's appenders do
// (AppenderUtils.getEventLevel): items are placed in the appender's order, each on the first row
// whose last item ended at or before its start; that row then ends where the item ends. An
// instant, or an item without a duration, is 0 long.
type rows []float64

// place returns the row of an item from ts lasting dur µs and records its end.
func (r *rows) place(ts, dur float64) int {
	if !(dur == dur) { // NaN: the engine's `dur || 0`
		dur = 0
	}
	level := 0
	for level < len(*r) && ts < (*r)[level] {
		level++
	}
	end := ts + dur
	if level == len(*r) {
		*r = append(*r, end)
	} else {
		(*r)[level] = end
	}
	return level
}
