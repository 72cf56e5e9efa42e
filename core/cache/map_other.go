//go:build !unix

package cache

// readCacheFile reads a cache file into memory (see map_unix.go for systems that map it).
func readCacheFile(path string) ([]byte, bool, error) {
	data, err := readAligned(path)
	return data, false, err
}

func unmap([]byte) {}
