package timeline

import (
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
