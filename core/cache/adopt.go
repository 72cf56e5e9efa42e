package cache

import (
	"errors"
	"fmt"

	"flamedesk/core"
)

// A window that loaded a file from its JSON holds the trace's columns on its heap, hundreds of MB
// for a large trace, while the cache file it just wrote holds the same columns. Adopt moves the
// open trace onto that file: its columns then alias the mapping, whose pages are resident only
// where something reads them and which the system can reclaim under pressure, and the heap copy
// becomes garbage. The trace keeps its identity (its address, and those of its tracks and
// profiles, which the layers above point at), so nothing above it needs to know.

// Adopt makes dst, the trace a cache file was written from, use the columns of src, the same
// trace read back from that file by Load. What the layers above may have added to dst since the
// file was written stays dst's own: its string table (interned strings), its warnings and its
// source-map columns (Original). It fails, changing nothing, when src does not have dst's shape.
//
// dst is written in place: the caller must make sure nothing reads it meanwhile.
func Adopt(dst, src *core.Trace) error {
	if dst == src {
		return errors.New("cache: a trace cannot adopt itself")
	}
	if err := sameShape(dst, src); err != nil {
		return fmt.Errorf("cache: the trace read back differs from the open one: %w", err)
	}
	dst.Frames = src.Frames
	dst.Threads = src.Threads
	dst.Events = src.Events
	// Element by element, so that pointers to dst's tracks and profiles stay valid.
	copy(dst.Profiles, src.Profiles)
	copy(dst.Tracks, src.Tracks)
	dst.Chunks = src.Chunks
	dst.Metadata = src.Metadata

	// dst now owns src's mapping: Release(dst) hands its pages back.
	mappings.Lock()
	if data, ok := mappings.of[src]; ok {
		delete(mappings.of, src)
		mappings.of[dst] = data
	}
	mappings.Unlock()
	return nil
}

// sameShape checks that src has dst's tables at dst's lengths: it was read back from the file
// dst was written to, so anything else means the file was replaced meanwhile.
func sameShape(dst, src *core.Trace) error {
	for _, c := range []struct {
		what     string
		dst, src int
	}{
		{"frames", len(dst.Frames), len(src.Frames)},
		{"threads", len(dst.Threads), len(src.Threads)},
		{"events", dst.Events.Len(), src.Events.Len()},
		{"profiles", len(dst.Profiles), len(src.Profiles)},
		{"tracks", len(dst.Tracks), len(src.Tracks)},
	} {
		if c.dst != c.src {
			return fmt.Errorf("%d %s, not %d", c.src, c.what, c.dst)
		}
	}
	for i := range dst.Tracks {
		if a, b := &dst.Tracks[i], &src.Tracks[i]; a.Thread != b.Thread || a.Len() != b.Len() {
			return fmt.Errorf("track %d differs", i)
		}
	}
	if dst.MinTs != src.MinTs || dst.MaxTs != src.MaxTs || dst.Kind != src.Kind {
		return errors.New("bounds or kind differ")
	}
	return nil
}
