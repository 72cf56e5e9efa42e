// Copies that the Go runtime can stop.
//
// The collector must stop every goroutine, one at a time, to scan its stack, and all of them at
// once twice per cycle. A goroutine inside runtime.memmove cannot be stopped: the runtime's code
// is not a safe point for asynchronous preemption, so the collector signals it again every few
// microseconds and spins until it leaves. A copy of megabytes into fresh memory runs for
// milliseconds, most of it in page faults, so a load that grows its columns by copying them
// spent a third of its CPU in those signals and spins (lighthouse-cpu-profiler-m86 ×100, 5 M
// samples: the read stage took 334 ms with one copy per column, 204 ms in pieces), and every
// goroutine already stopped, the window's included, waited for it.

package background

import "unsafe"

// copyPiece is how many bytes Copy moves between two points where the runtime can stop it: a
// copy of 64 KB into fresh memory takes tens of microseconds.
const copyPiece = 64 << 10

// Copy is the built-in copy for large slices: it copies in pieces, calling a function for each,
// and a Go function's entry is where the runtime stops a goroutine it has asked to stop. Like
// copy, it copies min(len(dst), len(src)) elements and allows dst and src to overlap.
func Copy[T any](dst, src []T) int {
	var zero T
	step := max(copyPiece/max(int(unsafe.Sizeof(zero)), 1), 1)
	n := min(len(dst), len(src))
	if n == 0 {
		return 0
	}
	if uintptr(unsafe.Pointer(&dst[0])) > uintptr(unsafe.Pointer(&src[0])) {
		// dst may overlap src's end: the last piece goes first, as memmove would.
		for j := n; j > 0; j -= step {
			i := max(j-step, 0)
			copyOne(dst[i:j], src[i:j])
		}
		return n
	}
	for i := 0; i < n; i += step {
		j := min(i+step, n)
		copyOne(dst[i:j], src[i:j])
	}
	return n
}

// copyOne is kept out of line so that its entry stays a point where the runtime can stop Copy.
//
//go:noinline
func copyOne[T any](dst, src []T) { copy(dst, src) }
