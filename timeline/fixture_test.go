package timeline

import (
	"path/filepath"
	"testing"

	"flamedesk/core"
	"flamedesk/core/pipeline"
	"flamedesk/internal/fixtures"
)

// loadFixture reads a fixture (its path below fixtures/, in testdata or the corpus) and builds
// its tracks, as the window's loader does.
func loadFixture(tb testing.TB, elems ...string) *core.Trace {
	tb.Helper()
	tr, err := pipeline.OpenFile(fixtures.Path(tb, append([]string{"fixtures"}, elems...)...))
	if err != nil {
		tb.Fatal(err)
	}
	return tr
}

// eachDevToolsTrace calls fn with the name and tracks of each committed DevTools trace (upstream
// and generated fixtures), leaving the large one out when skipLarge is set.
func eachDevToolsTrace(t *testing.T, skipLarge bool, fn func(name string, tr *core.Trace)) {
	t.Helper()
	paths := fixtures.Glob(t, "fixtures/upstream/*")
	paths = append(paths, fixtures.Glob(t, "fixtures/generated/gen-*")...)
	for _, p := range paths {
		name := filepath.Base(p)
		if name == "gen-trace-large.json.gz" && skipLarge {
			continue
		}
		tr, err := pipeline.OpenFile(p)
		if err != nil || tr.Kind != core.InputTrace {
			continue
		}
		fn(name, tr)
	}
}
