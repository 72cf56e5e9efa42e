package cache

import "syscall"

// madvPageout is Linux's MADV_PAGEOUT (5.4 and later; older kernels refuse it, which changes
// nothing): reclaim the range's pages now. Clean pages of a file mapping are dropped and read
// back from the file if touched again; pages the process wrote stay, so it is safe whoever still
// reads the columns.
const madvPageout = 21

func pageOut(data []byte) { syscall.Madvise(data, madvPageout) }

// dropResident unmaps the range's pages from the process without touching the page cache: a
// mapping read whole to check its checksum then counts only what is read again, each page faulted
// back from the page cache (no disk read while the system keeps it) when something touches it.
// Only for a mapping nothing wrote to: a private mapping's written pages would be lost.
func dropResident(data []byte) { syscall.Madvise(data, syscall.MADV_DONTNEED) }
