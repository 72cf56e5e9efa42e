package timelines

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestEdgeKinds compares every list on traces built to reach the rare corners of each kind (see
// testdata/make_edge_kinds.py and make_many_stamps.py) with the DevTools engine's own output.
func TestEdgeKinds(t *testing.T) {
	for _, name := range []string{"edge-kinds", "many-stamps"} {
		t.Run(name, func(t *testing.T) { compareWithEngine(t, name) })
	}
}

func compareWithEngine(t *testing.T, name string) {
	b, err := os.ReadFile(filepath.Join("testdata", name+".timelines.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ref map[string]any
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	tr := loadTrace(t, filepath.Join("testdata", name+".json"))
	tl := Build(tr)
	ours := roundTrip(t, tl)
	for _, s := range tl.Screenshots {
		if img := SnapshotImage(tr, s); len(img) != s.Bytes || len(img) < 2 || img[0] != 0xff || img[1] != 0xd8 {
			t.Errorf("screenshot at %v: image of %d bytes (size %d) starting % x", s.Ts, len(img), s.Bytes, img[:min(2, len(img))])
		}
	}
	if d := diffValue(ref["bounds"], ours["bounds"], "", "bounds"); d != "" {
		t.Errorf("bounds: %s", d)
	}
	for _, l := range comparedLists {
		if msg := compareList(l.key, items(ref, l.name), items(ours, l.name)); msg != "" {
			t.Errorf("%s: %s", l.name, msg)
		}
	}
	if len(items(ref, "timings.timestamps")) == 0 {
		t.Fatal("the reference lost its content")
	}
}
