//go:build !unix

package integrate

// processCPU is 0 where the process's CPU time is not at hand: the benchmarks then report 0.
func processCPU() float64 { return 0 }
