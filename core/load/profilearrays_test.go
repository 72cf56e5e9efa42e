package load

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// A .cpuprofile holds every sample and delta in two arrays. They are read straight into the
// narrow arenas, at 2 bytes a value, not first into a slice of 8-byte values that grows by copying.
// The bound is on the whole load's allocations per sample: about 24 bytes, where the scratch
// slices made it 52.
func TestProfileArraysReadInPlace(t *testing.T) {
	const n = 1 << 20
	var b bytes.Buffer
	b.WriteString(`{"nodes":[{"id":1,"callFrame":{"functionName":"(root)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1},"children":[2,3]},` +
		`{"id":2,"callFrame":{"functionName":"a","scriptId":"1","url":"a.js","lineNumber":1,"columnNumber":2}},` +
		`{"id":3,"callFrame":{"functionName":"b","scriptId":"1","url":"a.js","lineNumber":5,"columnNumber":2}}],` +
		`"startTime":1000,"endTime":999999999,"samples":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		switch {
		case i == n/2:
			b.WriteString("2.5") // not a node id: the slow path, counted
		default:
			fmt.Fprint(&b, 2+i/100%2)
		}
	}
	b.WriteString(`],"timeDeltas":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		if i == n/3 {
			b.WriteString("null") // not a number: counted, read as 0
		} else {
			fmt.Fprint(&b, 100+i%7)
		}
	}
	b.WriteString(`]}`)
	data := b.Bytes()

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	tr, err := loadBytes(data)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Profiles) != 1 || len(tr.Profiles[0].Samples) != n {
		t.Fatalf("want one profile of %d samples, got %d profiles", n, len(tr.Profiles))
	}
	perSample := float64(after.TotalAlloc-before.TotalAlloc) / n
	t.Logf("%.1f bytes allocated a sample", perSample)
	if perSample > 40 {
		t.Errorf("the load allocated %.1f bytes a sample, want at most 40", perSample)
	}
	var sawID, sawDelta bool
	for _, w := range tr.Warnings.Lines() {
		sawID = sawID || strings.Contains(w, "sample")
		sawDelta = sawDelta || strings.Contains(w, "delta")
	}
	if !sawID || !sawDelta {
		t.Errorf("the bad sample id and the bad delta are not both warned of: %q", tr.Warnings.Lines())
	}
}
