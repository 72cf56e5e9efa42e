package timeline

import (
	"testing"

	"flamedesk/core"
	"flamedesk/core/timelines"
)

// The walk that stops at subtrees below the first rows finds exactly the drawn entries that the
// whole drawn rows put on those rows, in entry order, and bounds the track's row count from
// above, exactly when more rows were asked for than it has. On every thread of every committed
// DevTools trace, walked whole and in two halves at once.
func TestTopRowsAreTheDrawnRows(t *testing.T) {
	checked, skipped := 0, 0
	eachDevToolsTrace(t, testing.Short(), func(name string, tr *core.Trace) {
		vis := timelines.NewVisibility(tr, false)
		for ti := range tr.Tracks {
			ct := &tr.Tracks[ti]
			rows := drawnRows(tr, ct, vis)
			rowOf := func(e int) int {
				if rows == nil {
					return int(ct.DepthAt(e))
				}
				return int(rows[e])
			}
			count := 0
			for e := range ct.Len() {
				count = max(count, rowOf(e)+1)
			}
			for _, c := range []struct{ firstRows, split int }{{1, 1 << 30}, {3, 1 << 30}, {28, 1 << 30}, {1000, 1 << 30}, {3, 1000}, {28, 1000}} {
				firstRows := c.firstRows
				was := parallelPlaceEntries
				parallelPlaceEntries = c.split // from a thousand entries on, in two halves at once
				top, ok := walkTopRows(tr, ct, vis, firstRows)
				parallelPlaceEntries = was
				if !ok {
					t.Fatalf("%s track %d: a track built by core/integrate was not walked", name, ti)
				}
				var found []uint64
				for _, part := range top.found {
					found = append(found, part...)
				}
				k := 0
				for e := range ct.Len() {
					if r := rowOf(e); r >= 0 && r < firstRows {
						if k >= len(found) || found[k] != uint64(e)<<32|uint64(r) {
							t.Fatalf("%s track %d, %d rows: entry %d on row %d is not the walk's next", name, ti, firstRows, e, r)
						}
						k++
					}
				}
				if k != len(found) {
					t.Fatalf("%s track %d, %d rows: the walk found %d entries, the rows hold %d", name, ti, firstRows, len(found), k)
				}
				if top.count < count || firstRows > count && top.count != count {
					t.Fatalf("%s track %d, %d rows: bound %d for %d rows", name, ti, firstRows, top.count, count)
				}
				if top.count > count {
					skipped++
				}
				checked++
			}
		}
	})
	if checked == 0 || skipped == 0 {
		t.Fatalf("%d walks checked, %d with a bound above the count: nothing was skipped", checked, skipped)
	}
}

// Depths that are not a pre-order walk's (a child two below the entry before it) are not walked:
// the subtrees the walk would skip are not where the depths say, nor is the bound.
func TestTopRowsRefuseDepthsOutOfPreOrder(t *testing.T) {
	threads := []synthThread{{pid: 1, tid: 1, name: "CrRendererMain", pname: "Renderer"}}
	for _, c := range []struct {
		name   string
		depths []uint16
		ok     bool
	}{
		{"pre-order", []uint16{0, 1, 2, 1, 0, 1}, true},
		{"a jump of two", []uint16{0, 2, 1}, false},
		{"a first entry below the top", []uint16{1, 0}, false},
		{"a jump inside a skipped subtree", []uint16{0, 1, 3, 0}, false},
	} {
		var entries []synthEntry
		for k, d := range c.depths {
			entries = append(entries, synthEntry{start: float64(k * 10), dur: 5, depth: d, name: "f", profile: true})
		}
		tr := synthTrace(threads, [][]synthEntry{entries})
		if _, ok := walkTopRows(tr, &tr.Tracks[0], timelines.NewVisibility(tr, false), 1); ok != c.ok {
			t.Errorf("%s: walked %v, want %v", c.name, ok, c.ok)
		}
	}
}
