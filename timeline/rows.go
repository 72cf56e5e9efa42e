package timeline

import "flamedesk/core"

// A track whose panel leaves entries out (drawnRows) needs each entry's row, which New first
// builds as 4 bytes an entry: 28 MB for gen-trace-large's main thread, kept for as long as the
// window shows the trace, although only the hit test, the selection and the search read it. An
// entry is drawn on its depth less the entries left out among its ancestors, a number of a few
// bits, so once the levels are built the rows are kept packed at that width instead.

// packRows replaces every track's Rows with rowsUp. A row below its entry's depth, which
// drawnRows never makes, leaves that track's Rows as they are.
func (m *Model) packRows() {
	for i := range m.Tracks {
		t := &m.Tracks[i]
		if len(t.Rows) == 0 {
			continue
		}
		ct := t.Core
		most, ok := uint64(0), true
		for e, r := range t.Rows {
			if r < 0 {
				continue
			}
			d := int32(ct.DepthAt(e))
			if r > d {
				ok = false
				break
			}
			most = max(most, uint64(d-r)+1)
		}
		if !ok {
			continue
		}
		up := core.NewPacked(len(t.Rows), most)
		for e, r := range t.Rows {
			if r >= 0 {
				up.Set(e, uint64(int32(ct.DepthAt(e))-r)+1)
			}
		}
		t.rowsUp, t.Rows = up, nil
	}
}
