package app

import (
	"context"

	"flamedesk/core"
	"flamedesk/core/pipeline"
)

// Source is what to open: a file on disk, or bytes already in memory (the bundled sample).
type Source = pipeline.Source

// SourceFromPath names a file on disk.
func SourceFromPath(path string) Source { return pipeline.FromPath(path) }

// LoadFunc turns a Source into a Trace with its Tracks built (pipeline.Open). It runs off the UI
// goroutine, must return promptly with ctx.Err() once ctx is cancelled, and reports progress
// through p.
type LoadFunc func(ctx context.Context, src Source, p *core.Progress) (*core.Trace, error)
