package timeline

import (
	"syscall"
	"unsafe"
)

// adviseHugePages asks Linux to back the slice's memory with huge pages when it is first
// touched. Levels and rows are large, fresh, and written once in full: with 4 KiB pages each
// page costs a fault (tens of µs in a virtual machine, where most of the time of building the
// levels of a large trace went), with 2 MiB pages one fault maps 512 of them. The advice is a
// hint: where the kernel has transparent huge pages off, or the range holds no whole 2 MiB
// page, nothing changes.
func adviseHugePages[T any](s []T) {
	const huge = 2 << 20
	var zero T
	size := uintptr(len(s)) * unsafe.Sizeof(zero)
	if size < 2*huge {
		return
	}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
	lo := (start + huge - 1) &^ (huge - 1)
	hi := (start + size) &^ (huge - 1)
	if hi <= lo {
		return
	}
	_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, lo, hi-lo, 14 /* MADV_HUGEPAGE */)
}
