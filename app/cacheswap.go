package app

import (
	"time"

	"flamedesk/core/cache"
)

// After a first load the window holds the trace's columns on its heap (about 200 MB for the
// 238 MB gen-trace-large), and a moment later the cache file written from them holds the same
// columns. Once the write is done, the writer reads the file back as a reopen would (mapped,
// checksum and columns checked, on its own goroutine), and the window moves its trace onto that
// mapping in one frame: cache.Adopt swaps the column slices in place, so the model, the search,
// the call tree and the selection, which point at the trace's tracks or index its columns, see
// the same values at other addresses. The heap copy is then garbage, returned to the system by
// the release that follows. A mapped column is resident only where something reads it, and its
// pages are clean: the system can reclaim them under pressure and read them back from the file.
//
// Nothing may read the trace while its slices change, so the swap waits for every background
// job that reads it (a search, a call tree, the refinement, the comparison's tables, a
// screenshot's decoding) to have returned, cancelled ones included. It is given up when the
// document was replaced, or when it shows the refined timing, whose model keeps a copy of the
// trace's header (the swap would leave the heap copy alive through it for nothing).

// swapRetry is how soon the window looks again at a swap that waited for background work, in
// case nothing else wakes it.
const swapRetry = 250 * time.Millisecond

// pollCacheSwap takes the trace read back after a cache write and moves the document onto it
// when nothing reads the trace; called on the UI goroutine once per frame.
func (u *ui) pollCacheSwap() {
	if r := u.opts.Later.takeReopened(); r != nil {
		if u.swapPending != nil {
			u.swapPending.drop()
		}
		u.swapPending = r
	}
	r := u.swapPending
	if r == nil {
		return
	}
	d := u.doc
	if d == nil || d.trace != r.loaded || d.timing.refined != nil {
		u.swapPending = nil
		r.drop()
		return
	}
	if u.traceReaders() {
		if u.swapRetry == nil {
			u.swapRetry = time.AfterFunc(swapRetry, u.host.Invalidate)
		} else {
			u.swapRetry.Reset(swapRetry)
		}
		return
	}
	u.swapPending = nil
	if err := cache.Adopt(d.trace, r.reopened); err != nil {
		r.drop()
		return
	}
	d.swapped = true
	// The chart keeps what it drew; the values are the same, only their addresses changed.
	u.heap.release()
}

// traceReaders reports whether background work may be reading the open document's trace.
func (u *ui) traceReaders() bool {
	d := u.doc
	if u.load.Running() || u.rest.Running() || u.search.Running() || d.timing.refine.Running() {
		return true
	}
	tp := &u.panel.tree
	if tp.build.Running() || tp.source.build.Running() || tp.source.run.Running() {
		return true
	}
	c := &u.panel.compare
	if c.load.Running() || c.build.Running() || c.aligning.Running() || c.search.Running() {
		return true
	}
	if f := d.film; f != nil {
		f.mu.Lock()
		decoding := len(f.pending) > 0
		f.mu.Unlock()
		if decoding {
			return true
		}
	}
	return false
}

// drop gives up a read-back trace: its mapping's pages go back to the system.
func (r *cacheReopen) drop() { cache.Release(r.reopened) }
