//go:build !unix

package main

// watchHeapProfileSignal does nothing where there is no SIGUSR1.
func watchHeapProfileSignal() {}
