package app

import (
	"fmt"
	"io"
	"slices"
	"time"
)

// frameStats collects the time each frame took to build and present, and prints p50/p95/p99 every
// few seconds of activity. An idle window draws no frames and so prints nothing.
type frameStats struct {
	out     io.Writer
	samples []time.Duration
	last    time.Time
	every   time.Duration
	scratch []time.Duration
}

func newFrameStats(out io.Writer) *frameStats {
	return &frameStats{out: out, every: 3 * time.Second, last: time.Now()}
}

// add records one frame's duration and prints a summary when one is due.
func (f *frameStats) add(d time.Duration) {
	if f == nil {
		return
	}
	f.samples = append(f.samples, d)
	if time.Since(f.last) < f.every || len(f.samples) < 10 {
		return
	}
	p50, p95, p99 := f.percentiles()
	fmt.Fprintf(f.out, "frames: n=%d p50=%.1fms p95=%.1fms p99=%.1fms\n", len(f.samples),
		ms(p50), ms(p95), ms(p99))
	f.samples = f.samples[:0]
	f.last = time.Now()
}

func (f *frameStats) percentiles() (p50, p95, p99 time.Duration) {
	f.scratch = append(f.scratch[:0], f.samples...)
	slices.Sort(f.scratch)
	at := func(p float64) time.Duration { return f.scratch[min(len(f.scratch)-1, int(p*float64(len(f.scratch))))] }
	return at(0.50), at(0.95), at(0.99)
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
