package load

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The regression files of the second round of hostile input live in testdata/hostile, small and
// made by hostileFiles (bombs too big to commit are made by bomb_test.go). Rewrite them with
//
//	FLAMEDESK_WRITE_HOSTILE=1 go test -run TestHostileFiles ./core/load
//
// Each has the outcome it must have: an error naming the reason, or a load with a counted
// warning. The fuzz targets start from them too (see hostileSeeds).

type hostileFile struct {
	name string
	make func() []byte
	// Exactly one of err and warn: a substring of the load's error, or of one of its warnings.
	err, warn string
	events    int // trace events the load keeps (-1: not checked)
}

var hostileFiles = []hostileFile{
	{name: "two-documents.json", make: func() []byte { return []byte(oneEvent + oneEvent) },
		warn: "a second JSON document after the end of the JSON", events: 1},
	{name: "two-objects.json", make: func() []byte {
		return []byte(`{"traceEvents":` + oneEvent + "}\n" + `{"traceEvents":` + oneEvent + "}\n")
	}, warn: "a second JSON document", events: 1},
	{name: "trailing-text.json", make: func() []byte { return []byte(oneEvent + "\n// the end\n") },
		warn: "text after the end of the JSON", events: 1},
	{name: "gzip-long-name.json.gz", make: func() []byte { return gzipMember(oneEvent, strings.Repeat("n", 4096), strings.Repeat("c", 4096), nil) },
		events: 1},
	{name: "gzip-bad-crc.json.gz", make: func() []byte { bad := uint32(1); return gzipMember(oneEvent, "", "", &bad) },
		warn: "gzip checksum mismatch", events: 1},
	{name: "inf-end.json", make: func() []byte {
		return []byte(`[{"ph":"X","name":"A","pid":1,"tid":1,"ts":1000,"dur":500},
{"ph":"X","name":"B","pid":1,"tid":1,"ts":2000,"dur":1e308}]`)
	}, warn: "events ending beyond 9007199254740992 µs (2^53) given dur 0", events: 2},
	{name: "far-ts.json", make: func() []byte {
		return []byte(`[{"ph":"X","name":"A","pid":1,"tid":1,"ts":1000,"dur":500},
{"ph":"X","name":"far","pid":1,"tid":1,"ts":1e300,"dur":1}]`)
	}, warn: "events whose ts is beyond ±9007199254740992 µs", events: 1},
	{name: "mixed-clocks.json", make: func() []byte {
		return []byte(`[{"ph":"X","name":"boot","pid":1,"tid":1,"ts":1000,"dur":500},
{"ph":"X","name":"epoch","pid":1,"tid":1,"ts":1700000000000000,"dur":500}]`)
	}, events: 2},
	{name: "overflow-deltas.cpuprofile", make: func() []byte {
		return []byte(`{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"},"children":[2,3]},{"id":2,"callFrame":{"functionName":"f"}},{"id":3,"callFrame":{"functionName":"g"}}],
"startTime":0,"endTime":1000,"samples":[2,3,2,3,2,3],"timeDeltas":[1,1,1e308,1e308,1,1]}`)
	}, warn: "sample times beyond ±9007199254740992 µs", events: 0},
	{name: "far-start.cpuprofile", make: func() []byte {
		return []byte(`{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"}}],"startTime":1e300,"endTime":1e301,"samples":[],"timeDeltas":[]}`)
	}, warn: "start or end time beyond ±9007199254740992 µs (2^53) clamped", events: 0},
	{name: "unknown-sample-id.cpuprofile", make: func() []byte {
		return []byte(`{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"},"children":[2]},{"id":2,"callFrame":{"functionName":"f"}}],
"startTime":0,"endTime":6,"samples":[2,2,77,2,2],"timeDeltas":[1,1,1,1,1]}`)
	}, warn: "1 samples whose node id is not a node of the profile", events: 0},
	{name: "legacy-no-timestamps.cpuprofile", make: func() []byte {
		return []byte(`{"head":{"functionName":"(root)","url":"","lineNumber":0,"id":1,"scriptId":0,"children":[
{"functionName":"main","url":"a.js","lineNumber":1,"id":2,"scriptId":1,"children":[]}]},"startTime":1000.0,"endTime":1000.004,"samples":[2,2,1,2]}`)
	}, warn: "has no timestamps: its 4 samples are spread evenly", events: 0},
	{name: "selfprofile-holes.json", make: func() []byte {
		return []byte(`{"resources":[],"frames":[{"name":"f"}],"stacks":[{"frameId":0}],
"samples":[{"timestamp":1,"stackId":0},{"timestamp":2,"stackId":5},{"timestamp":3,"stackId":0}]}`)
	}, warn: "self-profile samples whose stackId is unknown (shown as gaps)", events: 0},
}

func TestHostileFiles(t *testing.T) {
	dir := filepath.Join("testdata", "hostile")
	if os.Getenv("FLAMEDESK_WRITE_HOSTILE") != "" {
		os.MkdirAll(dir, 0o755)
		for _, h := range hostileFiles {
			if err := os.WriteFile(filepath.Join(dir, h.name), h.make(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, h := range hostileFiles {
		t.Run(h.name, func(t *testing.T) {
			path := filepath.Join(dir, h.name)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(b, h.make()) {
				t.Fatalf("%s differs from what hostileFiles makes: rewrite it", path)
			}
			tr, err := File(context.Background(), path, nil)
			switch {
			case h.err != "":
				if err == nil || !strings.Contains(err.Error(), h.err) {
					t.Fatalf("got error %v, want one containing %q", err, h.err)
				}
				return
			case err != nil:
				t.Fatal(err)
			}
			if err := checkTrace(tr); err != nil {
				t.Fatalf("invariants: %v", err)
			}
			if h.warn != "" {
				wantWarning(t, tr, h.warn)
			} else if tr.Warnings.Len() != 0 {
				t.Errorf("warnings %q", tr.Warnings.Lines())
			}
			if h.events >= 0 && tr.Events.Len() != h.events {
				t.Errorf("%d events, want %d", tr.Events.Len(), h.events)
			}
		})
	}
}

// hostileSeeds adds the regression files to a fuzz target's corpus.
func hostileSeeds(f *testing.F) {
	for _, h := range hostileFiles {
		f.Add(h.make())
	}
}
