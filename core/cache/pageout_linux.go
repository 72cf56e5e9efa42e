package cache

import "syscall"

// madvPageout is Linux's MADV_PAGEOUT (5.4 and later; older kernels refuse it, which changes
// nothing): reclaim the range's pages now. Clean pages of a file mapping are dropped and read
// back from the file if touched again; pages the process wrote stay, so it is safe whoever still
// reads the columns.
const madvPageout = 21

func pageOut(data []byte) { syscall.Madvise(data, madvPageout) }
