//go:build !linux

package load

// physicalMemory is unknown here: the default stands in for it.
func physicalMemory() int64 { return 0 }

// processLimits are not read here; GOMEMLIMIT still applies.
func processLimits() []processLimit { return nil }
