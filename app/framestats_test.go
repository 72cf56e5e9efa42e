package app

import (
	"bufio"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The frame log is what scripts/framebench.sh reads: one line per frame with its start in Unix
// milliseconds, its build time, its interval from the previous frame (-1 after a pause) and its
// layout time.
func TestFrameLogLines(t *testing.T) {
	var log strings.Builder
	f := newFrameStats(nil, &log)
	t0 := time.Unix(1700000000, 0)
	f.add(t0, 5*time.Millisecond, 12*time.Millisecond)
	f.add(t0.Add(20*time.Millisecond), 2*time.Millisecond, 7*time.Millisecond)
	f.add(t0.Add(time.Second), time.Millisecond, 3*time.Millisecond) // after a pause: no interval
	type line struct {
		start                  int64
		build, between, layout float64
	}
	var got []line
	sc := bufio.NewScanner(strings.NewReader(log.String()))
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) != 5 || fields[0] != "frame" {
			t.Fatalf("line %q: want \"frame START BUILD INTERVAL LAYOUT\"", sc.Text())
		}
		start, err1 := strconv.ParseInt(fields[1], 10, 64)
		build, err2 := strconv.ParseFloat(fields[2], 64)
		between, err3 := strconv.ParseFloat(fields[3], 64)
		layout, err4 := strconv.ParseFloat(fields[4], 64)
		if err1 != nil || err2 != nil || err3 != nil || err4 != nil {
			t.Fatalf("line %q does not parse", sc.Text())
		}
		got = append(got, line{start, build, between, layout})
	}
	want := []line{
		{t0.UnixMilli(), 12, 0, 5},
		{t0.UnixMilli() + 20, 7, 20, 2},
		{t0.UnixMilli() + 1000, 3, 0, 1},
	}
	if len(got) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(got), len(want), log.String())
	}
	for i, w := range want {
		g := got[i]
		noInterval := i != 1
		if g.start != w.start || g.build != w.build || g.layout != w.layout || (noInterval && g.between != -1) || (!noInterval && g.between != w.between) {
			t.Errorf("frame %d: got %+v, want %+v (interval negative: %v)", i, g, w, noInterval)
		}
	}
}
