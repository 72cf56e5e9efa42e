package app

import (
	"fmt"
	"io"
	"slices"
	"time"
)

// frameStats measures frames and prints p50/p95/p99 every few seconds of activity. It keeps two
// series: the frame time proper, the interval between consecutive frames while the window is
// animating (which includes the GPU work and the buffer swap), and the build time, from the frame
// event to handing the ops to Gio. An idle window draws no frames and so prints nothing.
type frameStats struct {
	out io.Writer
	// log, when set, gets one line per frame (Options.FrameLog).
	log       io.Writer
	intervals []time.Duration
	builds    []time.Duration
	last      time.Time
	lastFrame time.Time
	every     time.Duration
	scratch   []time.Duration
}

// continuous is the longest gap between two frames that still counts as one animation.
const continuous = 250 * time.Millisecond

func newFrameStats(out, log io.Writer) *frameStats {
	return &frameStats{out: out, log: log, every: 3 * time.Second, last: time.Now()}
}

// add records one frame that began at began, was laid out after layout (the ops built, before
// Gio renders them) and handed over after build.
func (f *frameStats) add(began time.Time, layout, build time.Duration) {
	if f == nil {
		return
	}
	interval := time.Duration(-1)
	if !f.lastFrame.IsZero() {
		if gap := began.Sub(f.lastFrame); gap < continuous {
			f.intervals = append(f.intervals, gap)
			interval = gap
		}
	}
	f.lastFrame = began
	f.builds = append(f.builds, build)
	if f.log != nil {
		// Milliseconds since the Unix epoch, so that a script can match frames with what it did
		// at the time (scripts/framebench.sh). The layout time last: build minus layout is what
		// Gio and the GL driver took to render the ops and present them.
		between := -1.0
		if interval >= 0 {
			between = ms(interval)
		}
		fmt.Fprintf(f.log, "frame %d %.3f %.3f %.3f\n", began.UnixMilli(), ms(build), between, ms(layout))
	}
	if f.out == nil {
		return
	}
	if time.Since(f.last) < f.every || len(f.intervals) < 10 {
		return
	}
	i50, i95, i99 := f.percentiles(f.intervals)
	b50, b95, b99 := f.percentiles(f.builds)
	fmt.Fprintf(f.out, "frames: n=%d frame p50=%.1fms p95=%.1fms p99=%.1fms | build p50=%.1fms p95=%.1fms p99=%.1fms\n",
		len(f.intervals), ms(i50), ms(i95), ms(i99), ms(b50), ms(b95), ms(b99))
	f.intervals, f.builds = f.intervals[:0], f.builds[:0]
	f.last = time.Now()
}

func (f *frameStats) percentiles(s []time.Duration) (p50, p95, p99 time.Duration) {
	if len(s) == 0 {
		return 0, 0, 0
	}
	f.scratch = append(f.scratch[:0], s...)
	slices.Sort(f.scratch)
	at := func(p float64) time.Duration { return f.scratch[min(len(f.scratch)-1, int(p*float64(len(f.scratch))))] }
	return at(0.50), at(0.95), at(0.99)
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
