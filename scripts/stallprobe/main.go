// Command stallprobe measures how late the machine wakes a sleeping process, to run beside a
// benchmark: it sleeps 2 ms at a time and, for each wake-up more than 5 ms late, appends
// "stall UNIX_MS LATE_MS" to OUT, until it is killed or the process that started it ends. A frame that took long while the probe,
// which does no work, was held up as long was slowed by the machine, not by the window: on this
// project's VM the whole guest stalls for 10-30 ms at a time while its kernel hands freed memory
// back to the host (free page reporting, after a process or the page cache let go of GBs).
// scripts/framebench.sh runs it and prints the longest stall of each scenario.
//
//	stallprobe OUT
package main

import (
	"fmt"
	"os"
	"time"
)

const (
	nap    = 2 * time.Millisecond
	report = 5 * time.Millisecond
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: stallprobe OUT")
		os.Exit(2)
	}
	out, err := os.OpenFile(os.Args[1], os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, "stallprobe:", err)
		os.Exit(1)
	}
	// A benchmark killed outright cannot kill its probe: the probe then outlives it by one nap.
	parent := os.Getppid()
	for os.Getppid() == parent {
		slept := time.Now()
		time.Sleep(nap)
		if late := time.Since(slept) - nap; late > report {
			// Unbuffered: the probe is killed at the end, and a line is rare.
			fmt.Fprintf(out, "stall %d %.1f\n", slept.UnixMilli(), float64(late)/float64(time.Millisecond))
		}
	}
}
