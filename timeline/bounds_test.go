package timeline

import (
	"compress/gzip"
	"encoding/json"
	"os"
	"testing"

	"flamedesk/internal/fixtures"
)

// TestBoundsAsDevTools opens traces on the range DevTools' engine gives them (the reference's
// bounds). devtools-web-dev has a "…::UMA" instant 26 s before the recording, which the engine
// leaves out; counting it would put everything in the last twentieth of the first view.
func TestBoundsAsDevTools(t *testing.T) {
	for _, name := range []string{"devtools-web-dev", "devtools-react-console-timestamp", "devtools-multiple-navigations"} {
		f, err := os.Open(fixtures.Path(t, "conformance", "golden", name+".timelines.json.gz"))
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		var ref struct{ Bounds struct{ Min, Max float64 } }
		err = json.NewDecoder(zr).Decode(&ref)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		m := New(loadFixture(t, "upstream", name+".json.gz"))
		if lo, hi := m.Bounds(); lo != ref.Bounds.Min || hi != ref.Bounds.Max {
			t.Errorf("%s: bounds [%.0f, %.0f], DevTools [%.0f, %.0f]", name, lo, hi, ref.Bounds.Min, ref.Bounds.Max)
		}
	}
}
