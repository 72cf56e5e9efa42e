//go:build unix

package integrate

import "syscall"

// processCPU is the CPU time the process has used so far, user plus system, in seconds: the
// benchmarks report it next to the wall time, which on a shared machine says little.
func processCPU() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
