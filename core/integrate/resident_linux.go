//go:build linux

package integrate

import (
	"bytes"
	"os"
	"strconv"
)

// residentBytes is the process's resident memory (RSS) in bytes, 0 when unknown.
func residentBytes() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	// statm holds sizes in pages: total, resident, shared…
	f := bytes.Fields(b)
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseInt(string(f[1]), 10, 64)
	if err != nil || pages < 0 {
		return 0
	}
	return pages * int64(os.Getpagesize())
}
