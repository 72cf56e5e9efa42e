package cache

import (
	"encoding/binary"
	"os"
	"syscall"
	"unsafe"
)

// pagemap flags (Documentation/admin-guide/mm/pagemap.rst): a page is present, swapped, or a page
// of a file (or of shared memory). A page of a private file mapping that the process wrote to is
// present but anonymous: its own copy, which MADV_DONTNEED would throw away.
const (
	pagePresent = 1 << 63
	pageSwapped = 1 << 62
	pageFile    = 1 << 61
)

// trimResident drops the pages of a mapping that are resident and still the file's own, leaving
// any page the process wrote to (and everything, when /proc/self/pagemap cannot be read). The
// dropped pages stay in the page cache: touching them again is a minor fault, no disk read while
// the system keeps them.
func trimResident(data []byte) {
	if len(data) == 0 {
		return
	}
	f, err := os.Open("/proc/self/pagemap")
	if err != nil {
		return
	}
	defer f.Close()
	page := os.Getpagesize()
	base := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	if base%uintptr(page) != 0 {
		return
	}
	pages := (len(data) + page - 1) / page
	const batch = 8192 // pages per read: 64 KB of entries
	buf := make([]byte, 8*batch)
	run := -1 // the first page of the run of droppable pages being gathered, -1 for none
	flush := func(end int) {
		if run >= 0 {
			syscall.Madvise(data[run*page:min(end*page, len(data))], syscall.MADV_DONTNEED)
			run = -1
		}
	}
	for first := 0; first < pages; first += batch {
		n := min(batch, pages-first)
		off := int64(base/uintptr(page)+uintptr(first)) * 8
		if _, err := f.ReadAt(buf[:8*n], off); err != nil {
			flush(first)
			return
		}
		for i := range n {
			e := binary.LittleEndian.Uint64(buf[8*i:])
			if e&pagePresent != 0 && e&pageFile != 0 && e&pageSwapped == 0 {
				if run < 0 {
					run = first + i
				}
				continue
			}
			flush(first + i)
		}
	}
	flush(pages)
}
