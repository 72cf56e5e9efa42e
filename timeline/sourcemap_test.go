package timeline

import (
	"context"
	"path/filepath"
	"testing"

	"flamedesk/core/integrate"
	"flamedesk/core/load"
	"flamedesk/core/sourcemap"
)

// TestOriginalNames: on a minified bundle's trace with its map, labels, locations and search use
// the original names, and GeneratedNames switches back to the engine's.
func TestOriginalNames(t *testing.T) {
	tr, err := load.File(context.Background(), filepath.Join("..", "testdata", "sourcemaps", "traces", "webpack.trace.json.gz"), nil)
	if err != nil {
		t.Fatal(err)
	}
	integrate.Build(tr)
	sourcemap.Apply(tr, sourcemap.Options{})
	m := New(tr)

	// The minified bundle calls countPrimesBelow through an anonymous function expression.
	res := m.Search("countPrimesBelow")
	if len(res.Matches) == 0 {
		t.Fatal("search finds no countPrimesBelow")
	}
	r := res.Matches[0]
	if got := m.EntryName(r); got != "countPrimesBelow" {
		t.Errorf("label %q", got)
	}
	if got := m.EntryLocation(r); got != "geometry.ts:27" {
		t.Errorf("location %q, want geometry.ts:27 (where gen/src/geometry.ts declares it)", got)
	}
	if !m.EntryMapped(r) || m.EntryURL(r) != "src/geometry.ts" {
		t.Errorf("mapped %v, url %q", m.EntryMapped(r), m.EntryURL(r))
	}
	if n := len(m.Search("bundle.js").Matches); n < len(res.Matches) {
		t.Errorf("the script URL finds %d entries, fewer than the %d calls of one function in it", n, len(res.Matches))
	}

	m.GeneratedNames = true
	if got := m.EntryName(r); got != anonymous {
		t.Errorf("generated label %q, want %q", got, anonymous)
	}
	if f, _ := m.EntryFrame(r); tr.Strings.Get(f.URL) != "http://127.0.0.1:8765/webpack/bundle.js" || f.Line != 0 {
		t.Errorf("generated frame %+v", f)
	}
	if got := m.EntryLocation(r); got != "bundle.js:1" {
		t.Errorf("generated location %q", got)
	}
	if n := len(m.Search("countPrimesBelow").Matches); n != 0 {
		t.Errorf("generated names: search still finds %d countPrimesBelow", n)
	}
}
