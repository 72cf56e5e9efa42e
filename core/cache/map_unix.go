//go:build unix

package cache

import (
	"os"
	"syscall"
)

// readCacheFile maps a cache file privately (copy-on-write) instead of reading it: the trace's
// columns are then the page cache's own pages, with no buffer to zero and no copy, which is most
// of a reopen's time otherwise. The mapping is never unmapped, since nothing tells when the last
// column cast from it is gone; its pages are clean and the system reclaims them under pressure.
// Cache files are only ever replaced by rename, never truncated, so the mapping stays valid.
func readCacheFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Size() == 0 || int64(int(fi.Size())) != fi.Size() {
		return readAligned(path)
	}
	return syscall.Mmap(int(f.Fd()), 0, int(fi.Size()), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE)
}
