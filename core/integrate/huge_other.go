//go:build !linux

package integrate

// adviseHuge is a no-op where transparent huge pages are not available through madvise.
func adviseHuge[T any](s []T) {}
