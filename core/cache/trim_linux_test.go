package cache

import (
	"encoding/binary"
	"os"
	"reflect"
	"testing"
	"unsafe"
)

// residentFilePages counts data's pages that are resident and the file's own, and those the
// process wrote to (resident, anonymous).
func residentFilePages(t *testing.T, data []byte) (file, written int) {
	t.Helper()
	f, err := os.Open("/proc/self/pagemap")
	if err != nil {
		t.Skip("no /proc/self/pagemap:", err)
	}
	defer f.Close()
	page := os.Getpagesize()
	first := int64(uintptr(unsafe.Pointer(unsafe.SliceData(data))) / uintptr(page))
	n := (len(data) + page - 1) / page
	buf := make([]byte, 8*n)
	if _, err := f.ReadAt(buf, first*8); err != nil {
		t.Skip("pagemap unreadable:", err)
	}
	for i := range n {
		e := binary.LittleEndian.Uint64(buf[8*i:])
		switch {
		case e&pagePresent == 0:
		case e&pageFile != 0:
			file++
		default:
			written++
		}
	}
	return file, written
}

// TestTrimDropsReadPagesAndKeepsWrittenOnes: the pages of a mapped cache file that were read go
// from the process, a page written to stays with what was written, and the trace reads the same.
func TestTrimDropsReadPagesAndKeepsWrittenOnes(t *testing.T) {
	dir, key, _ := storedCopy(t, "gen-trace-small.json.gz")
	want, err := dir.Load(key)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := dir.Load(key)
	if err != nil {
		t.Fatal(err)
	}
	defer Release(tr)
	mappings.Lock()
	data := mappings.of[tr]
	mappings.Unlock()
	if data == nil {
		t.Skip("the cache file was read, not mapped")
	}
	var sum byte // every page read
	for i := 0; i < len(data); i += 512 {
		sum += data[i]
	}
	last := len(data) - 1
	was := data[last]
	data[last] ^= 0x5a // in the trailer, which nothing reads after the load
	if file, written := residentFilePages(t, data); file == 0 || written != 1 {
		t.Fatalf("before the trim: %d pages read, %d written; want some and 1", file, written)
	}
	Trim()
	if file, written := residentFilePages(t, data); file != 0 || written != 1 {
		t.Fatalf("after the trim: %d pages read still resident, %d written; want 0 and 1", file, written)
	}
	if data[last] != was^0x5a {
		t.Fatal("the trim lost what was written to the mapping")
	}
	if err := same(reflect.ValueOf(want).Elem(), reflect.ValueOf(tr).Elem(), "Trace"); err != nil {
		t.Fatal(err)
	}
	t.Logf("sum of one byte a 512: %d", sum)
}
