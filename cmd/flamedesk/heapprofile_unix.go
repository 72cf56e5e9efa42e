//go:build unix

package main

import (
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"strings"
	"syscall"
)

// heapProfileEnv names a file that the window writes a heap profile to (inuse and alloc space,
// after a collection) each time the process receives SIGUSR1: how scripts/membench.sh finds
// what the window keeps after a minute of navigation. Each profile is written to PATH.N.
const heapProfileEnv = "FLAMEDESK_HEAPPROFILE"

// watchHeapProfileSignal starts the SIGUSR1 handler when FLAMEDESK_HEAPPROFILE is set.
func watchHeapProfileSignal() {
	path := os.Getenv(heapProfileEnv)
	if path == "" {
		return
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGUSR1)
	go func() {
		for n := 1; ; n++ {
			<-sig
			runtime.GC()
			f, err := os.Create(fmt.Sprintf("%s.%d", path, n))
			if err != nil {
				fmt.Fprintf(os.Stderr, "flamedesk: %s: %v\n", heapProfileEnv, err)
				continue
			}
			if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
				fmt.Fprintf(os.Stderr, "flamedesk: %s: %v\n", heapProfileEnv, err)
			}
			f.Close()
			writeMemoryClasses(fmt.Sprintf("%s.%d.txt", path, n))
		}
	}()
}

// writeMemoryClasses writes the runtime's memory classes, one "name bytes" a line: what of the
// RSS is Go's (heap objects, free heap not yet returned, stacks, metadata) and, by difference,
// what is not (Mesa, fonts, the binary).
func writeMemoryClasses(path string) {
	var samples []metrics.Sample
	for _, d := range metrics.All() {
		if strings.HasPrefix(d.Name, "/memory/classes/") || d.Name == "/gc/heap/live:bytes" || d.Name == "/gc/cycles/total:gc-cycles" || strings.HasPrefix(d.Name, "/cpu/classes/") {
			samples = append(samples, metrics.Sample{Name: d.Name})
		}
	}
	metrics.Read(samples)
	var b strings.Builder
	for _, s := range samples {
		switch s.Value.Kind() {
		case metrics.KindUint64:
			fmt.Fprintf(&b, "%s %d\n", s.Name, s.Value.Uint64())
		case metrics.KindFloat64:
			fmt.Fprintf(&b, "%s %.3f\n", s.Name, s.Value.Float64())
		}
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		fmt.Fprintf(os.Stderr, "flamedesk: %s: %v\n", heapProfileEnv, err)
	}
}
