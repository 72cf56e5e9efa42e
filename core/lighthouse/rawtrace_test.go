package lighthouse

import (
	"bytes"
	"compress/gzip"
	"io"
	"math"
	"os"
	"testing"

	"github.com/valyala/fastjson"

	"flamedesk/core"
)

// rawTrace is a test-only reading of a trace file straight from its JSON, independent of core/load,
// so that this package's Lighthouse steps can be checked against the references on their own.
type rawTrace struct {
	strs     *core.Strings
	threads  map[[2]int64][]ThreadEvent
	profiles map[int64][]ProfileEvent // per pid, file order
	pids     []int64                  // pids with profile events, first-seen order
	traceEnd float64
}

func readMaybeGzip(tb testing.TB, path string) []byte {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	if len(data) > 2 && data[0] == 0x1f && data[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			tb.Fatal(err)
		}
		if data, err = io.ReadAll(zr); err != nil {
			tb.Fatal(err)
		}
	}
	return data
}

func loadRawTrace(tb testing.TB, path string) *rawTrace {
	tb.Helper()
	v, err := fastjson.ParseBytes(readMaybeGzip(tb, path))
	if err != nil {
		tb.Fatal(err)
	}
	list := v.GetArray()
	if list == nil {
		list = v.GetArray("traceEvents")
	}
	rt := &rawTrace{
		strs:     core.NewStrings(),
		threads:  map[[2]int64][]ThreadEvent{},
		profiles: map[int64][]ProfileEvent{},
		traceEnd: math.Inf(-1),
	}
	num := func(x *fastjson.Value, keys ...string) (float64, bool) {
		y := x.Get(keys...)
		if y == nil || y.Type() != fastjson.TypeNumber {
			return math.NaN(), false
		}
		return y.GetFloat64(), true
	}
	for _, e := range list {
		ts, _ := num(e, "ts")
		dur, _ := num(e, "dur")
		rt.traceEnd = math.Max(rt.traceEnd, ts+orZero(dur))
		pid, _ := num(e, "pid")
		tid, _ := num(e, "tid")
		name := string(e.GetStringBytes("name"))
		ph := e.GetStringBytes("ph")
		key := [2]int64{int64(pid), int64(tid)}
		if name == "Profile" || name == "ProfileChunk" {
			pe := ProfileEvent{Chunk: name == "ProfileChunk", Pid: key[0], Tid: key[1], Ts: ts}
			if id := e.Get("id"); id != nil && id.Type() == fastjson.TypeString {
				pe.ID, pe.IDString = string(id.GetStringBytes()), true
			}
			pe.StartTime, _ = num(e, "args", "data", "startTime")
			cp := e.Get("args", "data", "cpuProfile")
			if cp != nil {
				for _, n := range cp.GetArray("nodes") {
					id, _ := num(n, "id")
					node := Node{ID: int64(id), Frame: core.NoFrame,
						FunctionName: rt.strs.InternBytes(n.GetStringBytes("callFrame", "functionName"))}
					if parent, ok := num(n, "parent"); ok {
						node.Parent, node.HasParent = int64(parent), true
					}
					if u := n.Get("callFrame", "url"); u != nil {
						node.URL, node.HasURL = rt.strs.InternBytes(u.GetStringBytes()), true
					}
					pe.Nodes = append(pe.Nodes, node)
				}
				for _, s := range cp.GetArray("samples") {
					pe.Samples = append(pe.Samples, int64(s.GetFloat64()))
				}
			}
			deltas := e.Get("args", "data", "timeDeltas")
			if deltas == nil || deltas.Type() == fastjson.TypeNull {
				if cp != nil {
					deltas = cp.Get("timeDeltas")
				}
			}
			if deltas != nil {
				for _, d := range deltas.GetArray() {
					pe.TimeDeltas = append(pe.TimeDeltas, d.GetFloat64())
				}
			}
			if _, ok := rt.profiles[key[0]]; !ok {
				rt.pids = append(rt.pids, key[0])
			}
			rt.profiles[key[0]] = append(rt.profiles[key[0]], pe)
		}
		var phase byte
		if len(ph) > 0 {
			phase = ph[0]
		}
		rt.threads[key] = append(rt.threads[key], ThreadEvent{Ph: phase, Name: rt.strs.Intern(name), Ts: ts, Dur: dur})
	}
	return rt
}
