package main

import (
	"bytes"
	"context"

	"flamedesk/app"
	"flamedesk/core"
	"flamedesk/core/integrate"
	"flamedesk/core/load"
)

// openTrace loads a source and builds its tracks; it is what the window runs on its loading goroutine.
func openTrace(ctx context.Context, src app.Source, p *core.Progress) (*core.Trace, error) {
	var tr *core.Trace
	var err error
	if src.Path != "" {
		tr, err = load.File(ctx, src.Path, p)
	} else {
		tr, err = load.Reader(ctx, bytes.NewReader(src.Data), int64(len(src.Data)), p)
	}
	if err != nil {
		return nil, err
	}
	if err := integrate.BuildContext(ctx, tr, p); err != nil {
		return nil, err
	}
	return tr, nil
}
