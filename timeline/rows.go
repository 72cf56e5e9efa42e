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
		t.rowsUp, t.Rows = packUp(ct, t.Rows, most), nil
	}
}

// packUp packs each drawn entry's depth-row+1 (0 for one left out), most being the largest, word
// by word in core.Packed's layout: a tenth of the time of setting the values one by one.
func packUp(ct *core.Track, rows []int32, most uint64) core.Packed {
	up := core.NewPacked(len(rows), most)
	b := uint(up.Bits)
	var word uint64
	var fill uint // bits of word in use
	k := 0
	for e, r := range rows {
		var v uint64
		if r >= 0 {
			v = uint64(int32(ct.DepthAt(e))-r) + 1
		}
		word |= v << fill
		if fill+b < 64 {
			fill += b
			continue
		}
		up.Words[k] = word
		k++
		// The bits of v that did not fit; none when it ended the word exactly (a shift by 64
		// gives 0).
		word = v >> (64 - fill)
		fill = fill + b - 64
	}
	if fill > 0 {
		up.Words[k] = word
	}
	return up
}
