package timelines

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"flamedesk/core"
	"flamedesk/core/integrate"
	"flamedesk/core/load"
)

// hostileTrace holds one broken event of each kind beside a valid one, so that what can be
// built is built and the rest is counted.
const hostileTrace = `[
{"name":"thread_name","ph":"M","pid":2,"tid":11,"ts":0,"args":{"name":"CrRendererMain"}},
{"name":"RunTask","ph":"X","pid":2,"tid":11,"ts":1000,"dur":10,"cat":"disabled-by-default-devtools.timeline","args":{}},
{"name":"ok","ph":"b","pid":2,"tid":11,"ts":2000,"cat":"blink.user_timing","id":"0x1","args":{}},
{"name":"ok","ph":"e","pid":2,"tid":11,"ts":2500,"cat":"blink.user_timing","id":"0x1","args":{}},
{"name":"open","ph":"b","pid":2,"tid":11,"ts":2100,"cat":"blink.user_timing","id":"0x2","args":{}},
{"name":"orphan","ph":"e","pid":2,"tid":11,"ts":2200,"cat":"blink.console","id":"0x3","args":{}},
{"name":"backwards","ph":"b","pid":2,"tid":11,"ts":3000,"cat":"blink.user_timing","id":"0x4","args":{}},
{"name":"backwards","ph":"e","pid":2,"tid":11,"ts":2900,"cat":"blink.user_timing","id":"0x4","args":{}},
{"name":"m","ph":"R","pid":2,"tid":11,"ts":2000,"cat":"blink.user_timing","args":{"data":{"detail":"{\"devtools\":\"not an object\"}"}}},
{"name":"m2","ph":"R","pid":2,"tid":11,"ts":2000,"cat":"blink.user_timing","args":{"data":{"detail":7}}},
{"name":"TimeStamp","ph":"I","pid":2,"tid":11,"ts":2600,"args":{"data":{"message":{"an":"object"},"start":[1],"end":true,"track":5}}},
{"name":"TimeStamp","ph":"I","pid":2,"tid":11,"ts":2700,"args":{"data":"text"}},
{"name":"Screenshot","ph":"O","pid":1,"tid":1,"ts":1500,"args":{"snapshot":"!!not base64!!","source_id":1}},
{"name":"Screenshot","ph":"O","pid":1,"tid":1,"ts":1600,"args":{"snapshot":12,"source_id":1}},
{"name":"Screenshot","ph":"O","pid":1,"tid":1,"ts":1700,"args":{"snapshot":"QUJD","source_id":1}},
{"name":"UpdateCounters","ph":"I","pid":2,"tid":11,"ts":1800,"args":{"data":"text"}},
{"name":"UpdateCounters","ph":"I","pid":2,"tid":11,"ts":1900,"args":{"data":{"nodes":"12","documents":1e999,"jsHeapSizeUsed":5}}},
{"name":"EventTiming","ph":"b","pid":2,"tid":11,"ts":4000,"id":"0x9","args":{"data":{"type":"click","interactionId":3,"duration":16,"timeStamp":4}}},
{"name":"EventTiming","ph":"e","pid":2,"tid":11,"ts":4100,"id":"0x9","args":{}},
{"name":"EventTiming","ph":"b","pid":2,"tid":11,"ts":4200,"id":"0xa","args":{"data":{"type":"click","interactionId":4,"duration":16,"timeStamp":4.2,"processingStart":1e306,"processingEnd":4.3}}},
{"name":"EventTiming","ph":"e","pid":2,"tid":11,"ts":4300,"id":"0xa","args":{}},
{"name":"EventTiming","ph":"b","pid":2,"tid":11,"ts":4400,"args":{"data":[1,2]}},
{"name":"LayoutShift","ph":"I","pid":2,"tid":11,"ts":5000,"args":{"data":5}},
{"name":"LayoutShift","ph":"I","pid":2,"tid":11,"ts":5100,"args":{"data":{"weighted_score_delta":"big"}}},
{"name":"LayoutShift","ph":"I","pid":2,"tid":11,"ts":5200,"args":{"data":{"weighted_score_delta":0.5}}},
{"name":"Animation","ph":"e","pid":2,"tid":11,"ts":6000,"cat":"devtools.timeline","id":"0x5","args":{}},
{"name":"Animation","ph":"b","pid":2,"tid":11,"ts":6100,"cat":"devtools.timeline","id2":{"global":"g"},"args":{"data":"x"}},
{"name":"Animation","ph":"n","pid":2,"tid":11,"ts":6200,"cat":"devtools.timeline","id2":{"global":"g"},"args":{}},
{"name":"SetLayerTreeId","ph":"I","pid":2,"tid":11,"ts":7000,"args":{}},
{"name":"BeginFrame","ph":"I","pid":2,"tid":12,"ts":7100,"args":{"layerTreeId":null,"frameSeqId":{"x":1}}},
{"name":"DrawFrame","ph":"I","pid":2,"tid":12,"ts":7200,"args":{"layerTreeId":null,"frameSeqId":{"x":1}}}
]`

func buildString(t *testing.T, src string) (*core.Trace, *Timelines) {
	t.Helper()
	tr, err := load.Reader(context.Background(), strings.NewReader(src), int64(len(src)), nil)
	if err != nil {
		t.Fatal(err)
	}
	integrate.Build(tr)
	tl := Build(tr)
	if _, err := json.Marshal(tl); err != nil {
		t.Fatalf("the timelines cannot be written: %v", err)
	}
	return tr, tl
}

func TestHostileKinds(t *testing.T) {
	tr, tl := buildString(t, hostileTrace)
	for _, want := range []string{
		// "open" never ends, "orphan" never began, and "backwards" ends before it begins: sorted by
		// time, its end comes first and finds nothing open.
		"4 × performance.measure or console.time events without their other half",
		"Animation events without their other half",
		"2 × screenshots whose args.snapshot is missing or not base64",
		"UpdateCounters events without args.data",
		"EventTiming pairs without type, interactionId, timeStamp or processing times",
		"LayoutShift events without args.data",
		"User Timing details whose devtools payload is not valid",
		"SetLayerTreeId events without args.data",
	} {
		found := false
		for _, w := range tr.Warnings.Lines() {
			found = found || strings.Contains(w, want)
		}
		if !found {
			t.Errorf("no warning %q in %q", want, tr.Warnings.Lines())
		}
	}
	// What is valid is still built.
	if got := fmt.Sprint(len(tl.Timings.Measures), len(tl.Timings.Marks), len(tl.Screenshots), len(tl.Interactions),
		len(tl.LayoutShifts.Shifts), len(tl.Animations)); got != "1 2 3 1 2 1" {
		t.Errorf("measures, marks, screenshots, interactions, shifts, animations: %s, want 1 2 3 1 2 1", got)
	}
	if m := tl.Timings.Measures[0]; m.Name != "ok" || m.Dur != 500 {
		t.Errorf("measure %+v", m)
	}
	if s := tl.Screenshots[2]; s.Bytes != 3 || string(SnapshotImage(tr, s)) != "ABC" { // "QUJD" is "ABC"
		t.Errorf("screenshot bytes %d, image %q, want 3, ABC", s.Bytes, SnapshotImage(tr, s))
	}
	if img := SnapshotImage(tr, tl.Screenshots[0]); len(img) != tl.Screenshots[0].Bytes {
		t.Errorf("the image of a damaged snapshot is %d bytes, its size says %d", len(img), tl.Screenshots[0].Bytes)
	}
	heap := tl.Memory["2"]["jsHeapSizeUsed"]
	if len(heap) != 1 || heap[0][1] != 5 || len(tl.Memory["2"]["nodes"]) != 0 || len(tl.Memory["2"]["documents"]) != 0 {
		t.Errorf("memory %v", tl.Memory)
	}
	if a := tl.Animations[0]; a.Name != "Animation" || a.Dur != 0 {
		t.Errorf("animation %+v", a)
	}
}
