//go:build !unix

package cache

// readCacheFile reads a cache file into memory (see map_unix.go for systems that map it).
func readCacheFile(path string) ([]byte, error) { return readAligned(path) }
