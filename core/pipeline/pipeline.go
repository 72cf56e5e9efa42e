// Package pipeline opens a trace the one way every front end does: read and parse the file
// (core/load), then build its tracks (core/integrate), with one progress bar across both and a
// cancel. It sits beside core/load and core/integrate because package core cannot import them.
package pipeline

import (
	"bytes"
	"context"
	"path/filepath"

	"flamedesk/core"
	"flamedesk/core/integrate"
	"flamedesk/core/load"
)

// Source is what to open: a file on disk, or bytes already in memory (the bundled sample).
type Source struct {
	Path string // empty for in-memory data
	Name string // what a title shows
	Data []byte // used when Path is empty
}

// FromPath names a file on disk.
func FromPath(path string) Source { return Source{Path: path, Name: filepath.Base(path)} }

// Shares of the whole progress bar that each stage fills, so that the bar moves once from left
// to right instead of restarting at every stage. Reading is most of a load; what is left after
// building the tracks is for the caller's own last stage (the window lays out its tracks there).
const (
	readShare   = 0.55
	tracksShare = 0.35
	// Done is how far Open has filled the bar when it returns.
	Done = readShare + tracksShare
)

// Open loads src and builds its tracks. p may be nil. Cancelling ctx stops it promptly with
// ctx.Err().
func Open(ctx context.Context, src Source, p *core.Progress) (*core.Trace, error) {
	p.SetPhase(0, readShare)
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
	nextPhase(p, readShare, tracksShare)
	if err := integrate.BuildContext(ctx, tr, p); err != nil {
		return nil, err
	}
	return tr, nil
}

// OpenFile is Open on a file, without progress or cancel: what the command-line tools use.
func OpenFile(path string) (*core.Trace, error) {
	return Open(context.Background(), FromPath(path), nil)
}

// nextPhase moves the bar on to the next stage, its count cleared first so that the bar never
// shows the finished stage's count in the next stage's share.
func nextPhase(p *core.Progress, start, share float64) {
	if p != nil {
		p.Done.Store(0)
		p.SetPhase(start, share)
	}
}

// NextPhase is nextPhase for the stage a caller adds after Open: from Done to the end of the bar.
func NextPhase(p *core.Progress) { nextPhase(p, Done, 1-Done) }
