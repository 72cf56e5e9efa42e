//go:build !linux

package timeline

// adviseHugePages does nothing outside Linux (see hugepages_linux.go).
func adviseHugePages[T any](s []T) {}
