package timelines

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"flamedesk/core/load"
)

// A trace of many User Timing measures, each with an id of its own (as performance.measure
// gives them), pairs them without an allocation per key and without copying the 200-byte items
// into new lists: on a generated trace of 1 M measures and 100 K requests the window's lists
// took 5.6-5.9 CPU-s and 1.63-1.67 GB of peak RSS, 3.9 CPU-s and 1.21 GB since, then 0.97 GB.
func TestManyMeasuresBuildInFewAllocations(t *testing.T) {
	const n = 20_000
	var b strings.Builder
	b.WriteString(`{"traceEvents":[{"ph":"M","name":"thread_name","pid":1,"tid":1,"ts":0,"args":{"name":"CrRendererMain"}}`)
	for i := range n {
		ts := 1000 + 7*i
		fmt.Fprintf(&b, `,{"ph":"b","cat":"blink.user_timing","name":"m%d","id2":{"local":"0x%x"},"pid":1,"tid":1,"ts":%d,"args":{}}`, i%100, i, ts)
		fmt.Fprintf(&b, `,{"ph":"e","cat":"blink.user_timing","name":"m%d","id2":{"local":"0x%x"},"pid":1,"tid":1,"ts":%d,"args":{}}`, i%100, i, ts+30)
	}
	b.WriteString(`]}`)
	js := b.String()
	tr, err := load.Reader(context.Background(), strings.NewReader(js), int64(len(js)), nil)
	if err != nil {
		t.Fatal(err)
	}
	var measures int
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	allocs := testing.AllocsPerRun(1, func() {
		tm, _ := buildTimings(tr)
		measures = len(tm.Measures)
	})
	runtime.ReadMemStats(&after)
	if measures != n {
		t.Fatalf("%d measures, want %d", measures, n)
	}
	// AllocsPerRun runs the function twice (a warm-up and the measured run).
	perMeasure := float64(after.TotalAlloc-before.TotalAlloc) / 2 / n
	t.Logf("%.0f allocations, %.0f bytes a measure", allocs, perMeasure)
	// The sort's order, the matches and pairs made to measure, the items (put in engine order in
	// place) and the measures: about 210 allocations and 460 bytes a measure. With the items
	// copied into engine order and the pairs grown by doubling it was 1.0 KB; with a slice per key
	// and the items copied twice more, 20.4 K allocations and 2.5 KB.
	if allocs > 2000 {
		t.Errorf("%.0f allocations for %d measures, want at most 2000", allocs, n)
	}
	if perMeasure > 700 {
		t.Errorf("%.0f bytes allocated a measure, want at most 700", perMeasure)
	}
}
