package timeline

import (
	"context"
	"testing"

	"flamedesk/core"
	"flamedesk/core/integrate"
	"flamedesk/core/load"
	"flamedesk/internal/fixtures"
)

// loadFixture reads a generated fixture and builds its tracks, as the window's loader does.
func loadFixture(tb testing.TB, name string) *core.Trace {
	tb.Helper()
	tr, err := load.File(context.Background(), fixtures.Path(tb, "fixtures", "generated", name), nil)
	if err != nil {
		tb.Fatal(err)
	}
	integrate.Build(tr)
	return tr
}
