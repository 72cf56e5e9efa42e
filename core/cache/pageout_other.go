//go:build !linux

package cache

// pageOut does nothing where the system has no MADV_PAGEOUT: the clean pages of a mapping are
// reclaimed under memory pressure anyway.
func pageOut([]byte) {}

// dropResident does nothing where MADV_DONTNEED may discard more than residency (its meaning
// differs between systems); the pages are reclaimed under pressure anyway.
func dropResident([]byte) {}
