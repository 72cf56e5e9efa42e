//go:build unix

package cache

import (
	"os"
	"syscall"
)

// readCacheFile maps a cache file privately (copy-on-write) instead of reading it: the trace's
// columns are then the page cache's own pages, with no buffer to zero and no copy, which is most
// of a reopen's time otherwise. The mapping of a decoded trace is never unmapped, since nothing
// tells when the last column cast from it is gone; its pages are clean, the system reclaims them
// under pressure, and Release returns them once the trace is no longer shown. unmap undoes the
// mapping of a file that did not decode, whose pages nothing refers to (mapped is false for a
// file read instead). Cache files are only ever replaced by rename, never truncated, so the
// mapping stays valid.
func readCacheFile(path string) (data []byte, mapped bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, false, err
	}
	if fi.Size() == 0 || int64(int(fi.Size())) != fi.Size() {
		data, err := readAligned(path)
		return data, false, err
	}
	data, err = syscall.Mmap(int(f.Fd()), 0, int(fi.Size()), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE)
	return data, err == nil, err
}

// unmap undoes readCacheFile's mapping.
func unmap(data []byte) { syscall.Munmap(data) }
