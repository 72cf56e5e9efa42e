package load

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"flamedesk/core"
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

// narrowArray takes most values through appendHalf, inlined, and the others through pushNarrow:
// the arenas must come out as pushNarrow alone makes them, escapes, widening and all.
func TestNarrowArrayAsPushNarrow(t *testing.T) {
	var ids, deltas []string
	for i := range 5 * widenCheck {
		id, delta := fmt.Sprint(2+i%50), fmt.Sprint(90+i%40)
		switch {
		case i%1000 == 7:
			id, delta = "70000", "70000" // outside the halved window: an escape
		case i%1500 == 11:
			// Outside int32, though its low 32 bits (100) would fit the window.
			id, delta = "4294967396", "4294967396"
		case i%900 == 13:
			delta = "12.5" // not an integer: the scanner's general path
		case i >= widenCheck && i < 2*widenCheck && i%2 == 0:
			// Half the ids of the second stretch escape: the check at its end widens them,
			// though the value before that check fits (and so goes by appendHalf). By the end
			// there are too few escapes for any later check to widen them.
			id = "100000"
		}
		ids, deltas = append(ids, id), append(deltas, delta)
	}
	read := func(array []string, f func(*loader) (bool, error)) *loader {
		t.Helper()
		l := newLoader(context.Background(), strings.NewReader("["+strings.Join(array, ",")+"]"), nil)
		if ok, err := f(l); !ok || err != nil {
			t.Fatalf("read %v, %v", ok, err)
		}
		return l
	}
	gotIDs := read(ids, func(l *loader) (bool, error) { return l.sampleArray(new(core.Span)) }).ch.SampleIDs
	gotDeltas := read(deltas, func(l *loader) (bool, error) { return l.deltaArray(new(core.Span)) }).ch.Deltas
	var wantIDs core.Narrow[int64]
	var wantDeltas core.Narrow[float64]
	for i := range ids {
		id, _ := strconv.ParseInt(ids[i], 10, 64)
		pushNarrow(nil, &wantIDs, id, core.NarrowInt)
		d, _ := strconv.ParseFloat(deltas[i], 64)
		pushNarrow(nil, &wantDeltas, d, core.NarrowFloat)
	}
	if wantIDs.Small == nil || wantDeltas.Small != nil || len(wantDeltas.Wide) == 0 {
		t.Fatal("the ids do not widen, or the deltas have no escapes: the test no longer covers both forms")
	}
	if !sameNarrow(gotIDs, wantIDs) {
		t.Error("the ids differ from pushNarrow's")
	}
	if !sameNarrow(gotDeltas, wantDeltas) {
		t.Error("the deltas differ from pushNarrow's")
	}
}

// sameNarrow compares two arenas' forms and values, not their spare room.
func sameNarrow[T int64 | float64](a, b core.Narrow[T]) bool {
	return slices.Equal(a.Half, b.Half) && a.HalfBias == b.HalfBias && slices.Equal(a.Small, b.Small) &&
		slices.Equal(a.Wide, b.Wide) && slices.Equal(a.WideAt, b.WideAt)
}
