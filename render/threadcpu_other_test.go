//go:build !linux

package render

import "time"

// threadCPU is unavailable here; the benchmark then reports wall-clock times only.
func threadCPU() time.Duration { return 0 }
