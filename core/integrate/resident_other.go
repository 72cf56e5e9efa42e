//go:build !linux

package integrate

// residentBytes is the process's resident memory, unknown (0) where there is no /proc.
func residentBytes() int64 { return 0 }
