package timeline

import (
	"testing"

	"flamedesk/core"
	"flamedesk/core/pipeline"
	"flamedesk/core/timelines"
	"flamedesk/internal/fixtures"
)

// TestPackedRowsAreTheDrawnRows: on a real trace whose panel leaves entries out, every entry's Row
// (and Drawn) read from the packed column is what drawnRows placed it on, and the packed column
// is smaller than the rows it replaced.
func TestPackedRowsAreTheDrawnRows(t *testing.T) {
	tr, err := pipeline.OpenFile(fixtures.Path(t, "fixtures", "generated", "gen-trace-medium-reload.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	m := NewWithPanelLanes(tr)
	vis := timelines.NewVisibility(tr, false)
	packed := 0
	for ti := range m.Tracks {
		track := &m.Tracks[ti]
		want := drawnRows(tr, track.Core, vis)
		if want == nil {
			continue
		}
		if track.Rows != nil || track.rowsUp.N != len(want) {
			t.Fatalf("track %d kept %d rows unpacked, packed %d", ti, len(track.Rows), track.rowsUp.N)
		}
		if 8*len(track.rowsUp.Words) >= 4*len(want) {
			t.Errorf("track %d: %d bytes packed for %d rows", ti, 8*len(track.rowsUp.Words), len(want))
		}
		for e, r := range want {
			if got := track.Row(int32(e)); got != int(r) || track.Drawn(int32(e)) != (r >= 0) {
				t.Fatalf("track %d entry %d: row %d, drawnRows put it on %d", ti, e, got, r)
			}
		}
		packed++
	}
	if packed == 0 {
		t.Fatal("no track leaves entries out: nothing was checked")
	}
}

// TestRowsBelowTheirDepthStayUnpacked: rows that do not fit the packed form are kept as they are,
// also when the track is packed in two halves and the row is in the second.
func TestRowsBelowTheirDepthStayUnpacked(t *testing.T) {
	ct := &core.Track{Depth: []uint16{0, 1}}
	m := &Model{Tracks: []Track{{Core: ct, Rows: []int32{0, 5}}}}
	m.packRows()
	if tk := &m.Tracks[0]; tk.Rows == nil || tk.Row(1) != 5 {
		t.Fatal("a row below its depth was packed")
	}
	inHalves(t)
	n := 1000
	ct = &core.Track{Depth: make([]uint16, n)}
	rows := make([]int32, n)
	rows[n-1] = 5
	m = &Model{Tracks: []Track{{Core: ct, Rows: rows}}}
	m.packRows()
	if tk := &m.Tracks[0]; tk.Rows == nil || tk.Row(int32(n-1)) != 5 {
		t.Fatal("a row below its depth in the second half was packed")
	}
}

// inHalves has packRows (and placeLevels) take two goroutines for tracks of 500 entries on, for
// the rest of the test.
func inHalves(t *testing.T) {
	placeOnTwoFrom(t, 500)
}

// TestPackUpWritesWhatSetWould: values of every width that does not divide 64, crossing words,
// are read back as written, packed at once and in two halves.
func TestPackUpWritesWhatSetWould(t *testing.T) {
	for _, halves := range []bool{false, true} {
		if halves {
			inHalves(t)
		}
		for _, most := range []int32{2, 4, 6, 12, 100, 3000} {
			n := 1000 + int(most)
			depth := make([]uint16, n)
			rows := make([]int32, n)
			for e := range n {
				depth[e] = uint16((e * 7919) % int(most))
				switch {
				case e%5 == 0:
					rows[e] = -1
				default:
					rows[e] = int32(depth[e]) - int32((e*31)%int(depth[e]+1))
				}
			}
			ct := &core.Track{Depth: depth}
			m := &Model{Tracks: []Track{{Core: ct, Rows: rows}}}
			m.packRows()
			tk := &m.Tracks[0]
			if tk.Rows != nil {
				t.Fatalf("most %d: not packed", most)
			}
			for e, r := range rows {
				if got := tk.Row(int32(e)); got != int(r) {
					t.Fatalf("halves %v, most %d (%d bits), entry %d: row %d, want %d", halves, most, tk.rowsUp.Bits, e, got, r)
				}
			}
		}
	}
}
