package timeline

import (
	"context"
	"testing"

	"flamedesk/core"
	"flamedesk/core/integrate"
	"flamedesk/core/load"
	"flamedesk/internal/fixtures"
)

// loadFixture reads a fixture (its path below fixtures/, in testdata or the corpus) and builds
// its tracks, as the window's loader does.
func loadFixture(tb testing.TB, elems ...string) *core.Trace {
	tb.Helper()
	tr, err := load.File(context.Background(), fixtures.Path(tb, append([]string{"fixtures"}, elems...)...), nil)
	if err != nil {
		tb.Fatal(err)
	}
	integrate.Build(tr)
	return tr
}
