package main

import (
	"context"
	"errors"

	"flamedesk/app"
	"flamedesk/core"
)

// openTrace loads a source and builds its tracks; it is what the window runs on its loading goroutine.
func openTrace(ctx context.Context, src app.Source, p *core.Progress) (*core.Trace, error) {
	return nil, errors.New("the loader is not built yet")
}
