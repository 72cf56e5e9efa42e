package timelines

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestEdgeKinds compares every list on a trace built to reach the rare corners of each kind (see
// testdata/make_edge_kinds.py) with the DevTools engine's own output for it.
func TestEdgeKinds(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "edge-kinds.timelines.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ref map[string]any
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	tr := loadTrace(t, filepath.Join("testdata", "edge-kinds.json"))
	ours := roundTrip(t, Build(tr))
	if d := diffValue(ref["bounds"], ours["bounds"], "", "bounds"); d != "" {
		t.Errorf("bounds: %s", d)
	}
	for _, l := range comparedLists {
		if msg := compareList(l.key, items(ref, l.name), items(ours, l.name)); msg != "" {
			t.Errorf("%s: %s", l.name, msg)
		}
	}
	if len(items(ref, "interactions")) == 0 || len(items(ref, "frames")) == 0 {
		t.Fatal("the reference lost its content")
	}
}
