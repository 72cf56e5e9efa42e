package load

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"

	"flamedesk/internal/fixtures"
)

// Each fuzz target is seeded with real files of its format (small ones, or the head of a larger
// one) and a few hand-made edge cases. The reader detects the format from the content, so every
// target can wander into the others' code; what differs is where it starts. Inputs that found
// bugs are kept under testdata/fuzz/<Target>/ and replayed by `go test`.

func fuzzLoad(t *testing.T, data []byte) {
	tr, err := Reader(context.Background(), bytes.NewReader(data), int64(len(data)), nil)
	if err != nil {
		return // a clear error is a fine answer to bad input; a panic or a broken model is not
	}
	if err := checkTrace(tr); err != nil {
		t.Fatalf("invariants: %v", err)
	}
}

func FuzzTrace(f *testing.F) {
	traceSeeds(f)
	f.Fuzz(fuzzLoad)
}

// traceSeeds adds FuzzTrace's seeds.
func traceSeeds(f *testing.F) {
	// Small seeds keep the fuzzer fast: it minimizes every input that finds new coverage.
	f.Add(fixtures.ReadHead(f, 6<<10, "fixtures", "upstream", "speedscope-chrome141-no-arg-data.json"))
	f.Add(fixtures.ReadHead(f, 4<<10, "fixtures", "upstream", "firefox-profiler-chrome-trace-issue-5429.json.gz"))
	f.Add(fixtures.ReadHead(f, 4<<10, "fixtures", "generated", "gen-trace-small.json.gz"))
	f.Add(fixtures.ReadHead(f, 4<<10, "fixtures", "upstream", "speedscope-chrome65-simple-timeline.json"))
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(fixtures.ReadHead(f, 2<<10, "fixtures", "upstream", "devtools-two-workers.json.gz"))
	zw.Close()
	f.Add(gz.Bytes())
	f.Add([]byte(profileTrace(`[{"id":1,"callFrame":{"functionName":"(root)"}},{"id":2,"parent":1,"callFrame":{"functionName":"(program)"}},{"id":3,"parent":1,"callFrame":{"functionName":"f","url":"u","lineNumber":1}}]`,
		`[3,2,3,3]`, `[1,-2,3,1]`)))
	f.Add([]byte(`{"metadata":{},"traceEvents":[{"ph":"B","name":"a","pid":1,"tid":2,"ts":1},{"ph":"E","pid":1,"tid":2,"ts":3},`))
	f.Add([]byte(`[{"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"main"}},{"ph":"I","name":"x","ts":1,"args":{"beginData":{"sampleTraceId":5}}}]`))
	hostileSeeds(f)
	// Async ids in each form: id, id2.global and id2.local, and a Screenshot's id.
	f.Add([]byte(`[{"ph":"b","name":"m","cat":"blink.user_timing","ts":1,"id":"0x1","args":{"detail":"{}"}},` +
		`{"ph":"e","name":"m","cat":"blink.console","ts":2,"id2":{"global":7,"local":"0x2"}},{"ph":"n","name":"m","ts":2,"id2":{"local":"0x3"}},` +
		`{"ph":"O","name":"Screenshot","ts":3,"id":null,"args":{"snapshot":"QUJD"}}]`))
	// A screenshot long enough to be kept decoded (keepSnapshot), after a member to skip.
	f.Add([]byte(screenshotTrace(`{"frame":{"a":[1,"}"]},"snapshot":"` + strings.Repeat("QUJD", minSnapshotText/4) + `","source_id":"0x2"}`)))
}

func FuzzCPUProfile(f *testing.F) {
	f.Add(fixtures.ReadHead(f, 0, "fixtures", "upstream", "speedscope-node10-example.cpuprofile"))
	f.Add(fixtures.ReadHead(f, 4<<10, "fixtures", "upstream", "devtools-basic.cpuprofile.gz"))
	f.Add(fixtures.ReadHead(f, 4<<10, "fixtures", "generated", "gen-cpuprofile-prettier-format.cpuprofile"))
	f.Add([]byte(`{"nodes":[{"id":1,"callFrame":{"functionName":"(root)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1},"hitCount":0,"children":[2,3]},` +
		`{"id":2,"callFrame":{"functionName":"(garbage collector)","scriptId":"0"},"hitCount":1},` +
		`{"id":3,"callFrame":{"functionName":"f","scriptId":5,"url":"file.js","lineNumber":3,"columnNumber":4},"hitCount":2,"positionTicks":[{"line":4,"ticks":2}]}],` +
		`"startTime":100,"endTime":200,"samples":[3,2,3],"timeDeltas":[10,10,10]}`))
	f.Add([]byte(`{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"}},{"id":2,"parent":1,"callFrame":{"functionName":"a"}},{"id":3,"parent":2,"callFrame":{"functionName":"b"}}],"samples":[3,2],"timeDeltas":[1,1],"startTime":0,"endTime":2}`))
	hostileSeeds(f)
	f.Fuzz(fuzzLoad)
}

func FuzzSelfProfile(f *testing.F) {
	// The head of a real self-profile, cut down to a few dozen entries of each member.
	var full map[string][]json.RawMessage
	if err := json.Unmarshal(fixtures.ReadHead(f, 0, "fixtures", "generated", "gen-selfprofile-small.json"), &full); err != nil {
		f.Fatal(err)
	}
	for k, v := range full {
		full[k] = v[:min(len(v), 12)]
	}
	small, _ := json.Marshal(full)
	f.Add(small)
	f.Add([]byte(`{"frames":[{"name":"Profiler"},{"name":"f","resourceId":0,"line":3,"column":7}],"resources":["https://x/a.js"],` +
		`"samples":[{"timestamp":10.5,"stackId":1},{"timestamp":11},{"timestamp":9,"stackId":0}],"stacks":[{"frameId":1},{"frameId":0,"parentId":0}]}`))
	f.Add([]byte(`{"resources":[],"frames":[],"stacks":[{"frameId":0,"parentId":0}],"samples":[{"timestamp":1,"stackId":0}]}`))
	hostileSeeds(f)
	f.Fuzz(fuzzLoad)
}
