// Package pipeline opens a trace the one way every front end does: read and parse the file
// (core/load), then build its tracks (core/integrate), with one progress bar across both and a
// cancel. It sits beside core/load and core/integrate because package core cannot import them.
package pipeline

import (
	"bytes"
	"context"
	"path/filepath"

	"flamedesk/core"
	"flamedesk/core/cache"
	"flamedesk/core/integrate"
	"flamedesk/core/load"
	"flamedesk/internal/background"
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

// Open loads src and builds its tracks, without a cache. p may be nil. Cancelling ctx stops it
// promptly with ctx.Err().
func Open(ctx context.Context, src Source, p *core.Progress) (*core.Trace, error) {
	return Options{}.Open(ctx, src, p)
}

// Options are how Open works; the zero value opens without a cache.
type Options struct {
	// Cache, when its Path is set, is where a file opened before is reopened from (see core/cache):
	// a hit skips reading and building tracks; after a miss the loaded trace is written there.
	Cache cache.Dir
	// Background writes the cache on another goroutine, so that the caller is not kept waiting
	// (the window); otherwise Open returns once it is written (a command that exits right after).
	Background bool
	// Defer, when set, is handed the cache write instead of Open doing it, to run when it suits
	// the caller: the window once the loaded chart is on screen (the write would take cores from
	// laying out the tracks and drawing them), a command after its output. The write reads only
	// a snapshot taken before Open returns, so it may run on any goroutine.
	Defer func(write func())
	// Written, when set, is called after a cache write that succeeded with the trace Open
	// returned and the same trace read back from the file just written (cache.Dir.Load, as a
	// reopen would): the window moves its trace onto the file's mapping (cache.Adopt). It is
	// called on the writer's goroutine; a write or read-back that fails calls nothing.
	Written func(loaded, reopened *core.Trace)
}

// WithUserCache returns Options that use the user's cache directory (cache.DefaultDir, bounded
// by cache.DefaultMaxBytes), or no cache when there is none or noCache is set. The cache is
// written synchronously; set Background for a caller that keeps running.
func WithUserCache(noCache bool) Options {
	if noCache {
		return Options{}
	}
	dir, err := cache.DefaultDir()
	if err != nil {
		return Options{}
	}
	return Options{Cache: cache.Dir{Path: dir}}
}

// Open loads src and builds its tracks, from o.Cache when it holds them. p may be nil.
// Cancelling ctx stops it promptly with ctx.Err().
func (o Options) Open(ctx context.Context, src Source, p *core.Progress) (*core.Trace, error) {
	var key cache.Key
	cached := src.Path != "" && o.Cache.Path != ""
	if cached {
		var err error
		if key, err = cache.KeyOf(src.Path); err != nil {
			cached = false
		} else if tr, err := o.Cache.Load(key); err == nil {
			if p != nil {
				p.SetPhase(0, Done)
				p.Total.Store(1)
				p.Done.Store(1)
			}
			p.SetStage(stageCache)
			return tr, nil
		}
	}
	tr, err := open(ctx, src, p)
	if err != nil {
		return nil, err
	}
	if cached {
		// Frozen before anyone else holds the trace, since the layers above add warnings to it.
		// A failure to write only costs the next open its speed.
		snap := cache.Snapshot(tr)
		store := func() {
			if o.Cache.StoreSnapshot(key, snap) != nil || o.Written == nil {
				return
			}
			if back, err := o.Cache.Load(key); err == nil {
				o.Written(tr, back)
			}
		}
		write := func() {
			if o.Defer != nil {
				o.Defer(store)
			} else if o.Background {
				go func() {
					background.Lower()
					store()
				}()
			} else {
				p.SetStage("writing the cache")
				store()
			}
		}
		if p != nil && p.Late != nil {
			// The file holds every track: it is written once the late ones are in.
			p.Late = &lateThenWrite{LateTracks: p.Late, snap: snap, write: write}
		} else {
			write()
		}
	}
	return tr, nil
}

// lateThenWrite is late tracks whose Install completes the trace's snapshot for the cache and
// starts its write.
type lateThenWrite struct {
	core.LateTracks
	snap  *cache.Snap
	write func()
}

func (l *lateThenWrite) Install() {
	l.LateTracks.Install()
	l.snap.AddLate(l.LateTracks.Warnings())
	write := l.write
	// The snapshot holds the trace's columns: once written, the window moves the trace onto the
	// file (Options.Written), and a snapshot kept here would keep the heap copy alive.
	l.snap, l.write = nil, nil
	write()
}

func open(ctx context.Context, src Source, p *core.Progress) (*core.Trace, error) {
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

// OpenFile is o.Open on a file, without progress or cancel.
func (o Options) OpenFile(path string) (*core.Trace, error) {
	return o.Open(context.Background(), FromPath(path), nil)
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

// StageCache is the stage a cache hit ends on.
const StageCache = "reading the cache"

const stageCache = StageCache
