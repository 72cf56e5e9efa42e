package app

import (
	"bytes"
	"encoding/json"
	"os"

	"gioui.org/layout"

	"flamedesk/internal/winstate"
)

// stateWriter writes internal/winstate's State for the window tests when they ask for it.
type stateWriter struct {
	path string
	last []byte
}

func newStateWriter() *stateWriter {
	if p := os.Getenv(winstate.Env); p != "" {
		return &stateWriter{path: p}
	}
	return nil
}

func (w *stateWriter) write(gtx layout.Context, u *ui, title string) {
	if w == nil {
		return
	}
	s := winstate.State{Title: title, Loading: u.loading, Error: u.banner, MatchIndex: -1, Timing: "sampled"}
	if u.settings.Refined {
		s.Timing = "refined"
		if u.doc != nil && u.doc.timing.busy() {
			s.Timing = "refining"
		}
	}
	if d := u.doc; d != nil {
		s.ViewStart, s.ViewEnd, s.ScrollY = d.view.Start(), d.view.End(), d.view.ScrollY()
		s.ChartX, s.ChartY = u.chart.origin.X, u.chart.origin.Y
		s.ChartW, s.ChartH, s.RulerH = u.chart.size.X, u.chart.size.Y, u.chart.rulerHeight
		if d.selected.Valid() {
			s.Selected = d.model.EntryName(d.selected)
		}
		for _, l := range u.panel.details.lines {
			s.Details = append(s.Details, l.label+"\t"+l.value)
		}
		if d.search != nil {
			s.Matches, s.MatchIndex = d.matchCount(), d.searchIndex
		}
		s.Warnings = d.trace.Warnings.Lines()
		for _, id := range d.model.ShownTracks() {
			t := &d.model.Tracks[id]
			th := d.trace.Threads[t.Thread]
			s.Tracks = append(s.Tracks, winstate.Track{Pid: th.Pid, Tid: th.Tid, RowsY: t.RowsY})
		}
		// A point inside the table as it was laid out, not a copy of the layout's arithmetic.
		tree := u.panel.treeArea.Add(u.panel.origin)
		s.TreeX, s.TreeY = (tree.Min.X+tree.Max.X)/2, (tree.Min.Y+tree.Max.Y)/2
		if r := d.marked(); r != nil {
			s.Marked = r.Len()
		}
		s.Compare = u.panel.compare.state()
		if tp := &u.panel.tree; tp.tree != nil {
			if i := tp.selectedRow(); i >= 0 {
				s.TreeSel = tp.rows[i].name
			}
			f := tp.tree.Functions()
			for i, r := range tp.rows {
				if i == 50 {
					break
				}
				s.TreeRows = append(s.TreeRows, f.Name(tp.tree.Func(r.node)))
			}
			if tp.stack != nil {
				for _, t := range tp.stack.Transforms() {
					s.Crumbs = append(s.Crumbs, t.Label(f))
				}
			}
		}
	}
	b, err := json.Marshal(s)
	if err != nil || bytes.Equal(b, w.last) {
		return
	}
	w.last = b
	tmp := w.path + ".tmp"
	if os.WriteFile(tmp, b, 0o644) == nil {
		_ = os.Rename(tmp, w.path)
	}
}
