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

// TestRowsBelowTheirDepthStayUnpacked: rows that do not fit the packed form are kept as they are.
func TestRowsBelowTheirDepthStayUnpacked(t *testing.T) {
	ct := &core.Track{Depth: []uint16{0, 1}}
	m := &Model{Tracks: []Track{{Core: ct, Rows: []int32{0, 5}}}}
	m.packRows()
	if tk := &m.Tracks[0]; tk.Rows == nil || tk.Row(1) != 5 {
		t.Fatal("a row below its depth was packed")
	}
}
