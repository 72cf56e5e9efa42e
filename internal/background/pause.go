// Pausing background work while the window renders a frame.
//
// Under a software GL the driver's threads render each frame on the same cores as the background
// work. A load beside them slows that rendering by a third to a half even when its threads run at
// the lowest priority: priorities divide the cores' time, not their caches and memory bandwidth,
// which a load that streams hundreds of megabytes takes over. (On a 2-core VM, gen-trace-large's
// load made a frame's rendering take 18-26 ms instead of 12-14; busy loops at nice 19 added 3 ms.)
// So the window pauses background work while it renders, and the work gives way at its next Yield.

package background

import (
	"sync/atomic"
	"time"
)

// maxPause bounds one wait in Yield, so that a frame that never ends (a driver that hangs) never
// stops background work: it then goes on at its usual pace.
const maxPause = 100 * time.Millisecond

// resumed is closed by Resume; nil when nothing is paused.
var resumed atomic.Pointer[chan struct{}]

// Pause holds background work at its next Yield until Resume. The window calls it just before
// rendering a frame. Without Enable (the command-line tools) it does nothing.
func Pause() {
	if enabled.Load() {
		pause()
	}
}

// pause is Pause without the check; a pause already on is kept, so that its waiters are released
// by the next Resume.
func pause() {
	c := make(chan struct{})
	resumed.CompareAndSwap(nil, &c)
}

// Resume lets the work held by Pause go on.
func Resume() {
	if c := resumed.Swap(nil); c != nil {
		close(*c)
	}
}

// Yield waits while the window renders a frame (Pause), at most maxPause; otherwise it returns at
// once, after one atomic load. Background loops call it every fraction of a millisecond of work,
// at points where they hold nothing that the window's goroutine may wait for.
func Yield() {
	c := resumed.Load()
	if c == nil {
		return
	}
	t := time.NewTimer(maxPause)
	select {
	case <-*c:
	case <-t.C:
	}
	t.Stop()
}

// YieldEvery is Yield at step i of a loop once every 16 K steps: for loops over events, nodes or
// samples, whose steps take nanoseconds, a Yield is then a fraction of a millisecond from the
// next, and the other steps cost a masked compare. Loops over millions of them without it ran
// for tens of ms beside a frame's rendering while a second file loaded.
func YieldEvery(i int) {
	if i&0x3fff == 0x3fff {
		Yield()
	}
}
