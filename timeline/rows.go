package timeline

import (
	"sync"

	"flamedesk/core"
	"flamedesk/internal/background"
)

// A track whose panel leaves entries out (drawnRows) needs each entry's row, which New first
// builds as 4 bytes an entry: 28 MB for gen-trace-large's main thread, kept for as long as the
// window shows the trace, although only the hit test, the selection and the search read it. An
// entry is drawn on its depth less the entries left out among its ancestors, a number of a few
// bits, so once the levels are built the rows are kept packed at that width instead.

// packRows replaces every track's Rows with rowsUp (Track.packRows); New's layout has packed
// each track as it laid it out already.
func (m *Model) packRows() {
	for i := range m.Tracks {
		m.Tracks[i].packRows()
	}
}

// packRows replaces t's Rows with rowsUp. A row below its entry's depth, which drawnRows never
// makes, leaves the Rows as they are. A track of parallelPlaceEntries entries or more is packed
// in two halves at once: packing the main thread of gen-trace-large otherwise kept one core busy
// after its levels were done.
func (t *Track) packRows() {
	n := len(t.Rows)
	if n == 0 {
		return
	}
	// The halves meet at a multiple of 64 entries, where a word of the packed column begins
	// whatever its width.
	cut := n / 2 &^ 63
	if n < parallelPlaceEntries || background.Workers() < 2 || cut == 0 {
		cut = n
	}
	var most [2]uint64
	var ok [2]bool
	var wg sync.WaitGroup
	inHalves := func(half func(h, lo, hi int)) {
		if cut < n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				background.Lower()
				half(1, cut, n)
			}()
		}
		half(0, 0, cut)
		wg.Wait()
	}
	inHalves(func(h, lo, hi int) { most[h], ok[h] = mostUp(t.Core, t.Rows, lo, hi) })
	if !ok[0] || !ok[1] && cut < n {
		return
	}
	up := core.NewPacked(n, max(most[0], most[1]))
	inHalves(func(_, lo, hi int) { packUp(t.Core, t.Rows, lo, hi, &up) })
	t.rowsUp, t.Rows = up, nil
}

// mostUp is the largest depth-row+1 of the drawn entries lo to hi; ok is false when one is drawn
// below its depth.
func mostUp(ct *core.Track, rows []int32, lo, hi int) (most uint64, ok bool) {
	for e, r := range rows[lo:hi] {
		if r < 0 {
			continue
		}
		d := int32(ct.DepthAt(lo + e))
		if r > d {
			return 0, false
		}
		most = max(most, uint64(d-r)+1)
	}
	return most, true
}

// packUp packs each drawn entry's depth-row+1 (0 for one left out) of entries lo to hi into up,
// word by word in core.Packed's layout: a tenth of the time of setting the values one by one. lo
// must be where a word begins (a multiple of 64 entries).
func packUp(ct *core.Track, rows []int32, lo, hi int, up *core.Packed) {
	b := uint(up.Bits)
	var word uint64
	var fill uint // bits of word in use
	k := lo * int(b) / 64
	for e, r := range rows[lo:hi] {
		var v uint64
		if r >= 0 {
			v = uint64(int32(ct.DepthAt(lo+e))-r) + 1
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
}
