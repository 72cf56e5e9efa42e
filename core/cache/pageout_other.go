//go:build !linux

package cache

// pageOut does nothing where the system has no MADV_PAGEOUT: the clean pages of a mapping are
// reclaimed under memory pressure anyway.
func pageOut([]byte) {}
