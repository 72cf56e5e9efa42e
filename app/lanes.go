package app

import (
	"flamedesk/render"
	"flamedesk/timeline"
)

// The lanes above the threads (network, frames, timings… see timeline.Lane) are drawn by the
// chart like its tracks; the memory graph among them is off until the toolbar turns it on.

// memoryLane is the index of the document's memory lane, -1 without one.
func (d *document) memoryLane() int {
	for i := range d.model.Lanes {
		if d.model.Lanes[i].Kind == timeline.LaneMemory {
			return i
		}
	}
	return -1
}

func (d *document) hasMemory() bool { return d.memoryLane() >= 0 }

func (d *document) memoryShown() bool {
	i := d.memoryLane()
	return i >= 0 && !d.model.Lanes[i].Hidden
}

// toggleMemory shows the memory graph, or hides it again.
func (d *document) toggleMemory() {
	if i := d.memoryLane(); i >= 0 {
		d.model.SetLaneHidden(i, !d.model.Lanes[i].Hidden)
	}
}

// laneDetails describes the selected lane item in the details panel: what its tooltip says, and
// when it starts.
func laneDetails(d *document) []detailLine {
	m := d.model
	lines := laneTooltip(d, d.laneSelected)
	if len(lines) == 0 {
		return nil
	}
	l := &m.Lanes[d.laneSelected.Lane]
	out := []detailLine{{label: render.Drawable(l.Title()), value: lines[0], full: lines[0]}}
	out = append(out, detailLine{label: "Start", value: formatDuration(l.Start[d.laneSelected.Item] - d.view.Origin())})
	for _, s := range lines[1:] {
		out = append(out, detailLine{value: s})
	}
	return out
}

// laneTooltip is what the panel says about a lane item, in symbols the fonts can draw.
func laneTooltip(d *document, r timeline.LaneRef) []string {
	lines := d.model.LaneTooltip(r)
	for i, s := range lines {
		lines[i] = render.Drawable(s)
	}
	return lines
}
