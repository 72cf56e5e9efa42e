package timelines

import (
	"cmp"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/valyala/fastjson"
)

// The reader of the engine's UpdateCounters args reads what fastjson reads wherever it takes
// them on: the engine's own form and others close to it, among random edits of them. It takes
// the engine's form on, and leaves whitespace, escapes, fractions, negative and long numbers,
// other shapes and broken JSON to fastjson.
func TestEngineCountersReadWhatFastjsonReads(t *testing.T) {
	taken := []string{
		`{"data":{"documents":5,"jsEventListeners":0,"jsHeapSizeUsed":973400,"nodes":20}}`,
		`{"data":{"jsHeapSizeUsed":1,"gpuMemoryUsedKB":123456789012345,"other":7}}`,
		`{"data":{"nodes":1,"nodes":2}}`,
		`{"data":{}}`,
		`{"data":{"":0}}`,
	}
	left := []string{
		`{"data": {"nodes":1}}`,
		`{"data":{"nodes":1.5}}`,
		`{"data":{"nodes":-1}}`,
		`{"data":{"nodes":1e3}}`,
		`{"data":{"nodes":01}}`,
		`{"data":{"nodes":1234567890123456}}`,
		`{"data":{"no\u0064es":1}}`,
		`{"data":{"nodes":"1"}}`,
		`{"data":{"nodes":1},"x":1}`,
		`{"data":{"nodes":1}`,
		`{"data":{"nodes":1}}x`,
		`{"data":{"nodes":}}`,
		`{"data":[]}`,
		`{"other":{}}`,
		`[]`,
		``,
	}
	var p fastjson.Parser
	check := func(raw string) bool {
		var vals, want [len(memoryCounters)]float64
		var has, wantHas [len(memoryCounters)]bool
		if !engineCounters([]byte(raw), &vals, &has) {
			return false
		}
		if !parsedCounters(&p, []byte(raw), &want, &wantHas) || vals != want || has != wantHas {
			t.Fatalf("%s: read %v %v, fastjson reads %v %v", raw, vals, has, want, wantHas)
		}
		return true
	}
	for _, raw := range taken {
		if !check(raw) {
			t.Errorf("%s: not read", raw)
		}
	}
	for _, raw := range left {
		if check(raw) {
			t.Errorf("%s: read, not left to fastjson", raw)
		}
	}
	// Random edits of the engine's form: a byte changed, dropped or repeated.
	rng := rand.New(rand.NewPCG(18, 66))
	alphabet := []byte(`{}[]":,.-+e0159 \anodes`)
	base := []byte(taken[0])
	for range 20000 {
		raw := append([]byte(nil), base...)
		for range 1 + rng.IntN(3) {
			k := rng.IntN(len(raw))
			switch rng.IntN(3) {
			case 0:
				raw[k] = alphabet[rng.IntN(len(alphabet))]
			case 1:
				raw = append(raw[:k], raw[k+1:]...)
			default:
				raw = append(raw[:k+1], raw[k:]...)
			}
		}
		check(string(raw))
	}
}

// FuzzEngineCounters: whatever the engine-form reader takes on, it reads as fastjson does, and no
// input makes it panic.
func FuzzEngineCounters(f *testing.F) {
	f.Add([]byte(`{"data":{"documents":5,"jsEventListeners":0,"jsHeapSizeUsed":973400,"nodes":20}}`))
	f.Add([]byte(`{"data":{"nodes":1,"nodes":2}}`))
	f.Add([]byte(`{"data":{"nodes":1234567890123456}}`))
	var p fastjson.Parser
	f.Fuzz(func(t *testing.T, raw []byte) {
		var vals, want [len(memoryCounters)]float64
		var has, wantHas [len(memoryCounters)]bool
		if !engineCounters(raw, &vals, &has) {
			return
		}
		if !parsedCounters(&p, raw, &want, &wantHas) || vals != want || has != wantHas {
			t.Fatalf("%q: read %v %v, fastjson reads %v %v", raw, vals, has, want, wantHas)
		}
	})
}

// The counters of UpdateCounters events mixed with other events that keep args, in two
// processes and out of time order, some without args or without args.data, are the steps that a
// plain reading of the JSON (encoding/json) gives, and the events without data are counted.
func TestMemoryStepsMatchAPlainReading(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 11))
	var events []map[string]any
	for i := range 400 {
		e := map[string]any{"ph": "I", "ts": float64(rng.IntN(1000)), "pid": 1 + rng.IntN(2), "tid": 1, "cat": "x"}
		switch rng.IntN(5) {
		case 0:
			e["name"] = "Other" // args the walk must step over
			e["args"] = map[string]any{"data": map[string]any{"nodes": i}}
		case 1:
			e["name"] = "UpdateCounters" // no args
		case 2:
			e["name"] = "UpdateCounters"
			e["args"] = map[string]any{"other": 1}
		default:
			data := map[string]any{}
			for _, c := range memoryCounters[:2+rng.IntN(len(memoryCounters)-1)] {
				data[c] = rng.IntN(3) * 100
			}
			e["name"] = "UpdateCounters"
			e["args"] = map[string]any{"data": data}
		}
		events = append(events, e)
	}
	raw, err := json.Marshal(map[string]any{"traceEvents": events})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "counters.json")
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	view := readView(loadTrace(t, path))
	got := buildMemory(view)
	_, counts := view.Warnings.Entries()

	// The plain reading: per pid, by ts (file order on ties), a point where a value changes.
	want := map[string]map[string][][2]float64{}
	noData := 0
	for _, pid := range []int{1, 2} {
		var list []map[string]any
		for _, e := range events {
			if e["name"] == "UpdateCounters" && e["pid"] == pid {
				list = append(list, e)
			}
		}
		if len(list) == 0 {
			continue
		}
		slices.SortStableFunc(list, func(a, b map[string]any) int { return cmp.Compare(a["ts"].(float64), b["ts"].(float64)) })
		series := map[string][][2]float64{}
		for _, e := range list {
			args, _ := e["args"].(map[string]any)
			data, ok := args["data"].(map[string]any)
			if !ok {
				noData++
				continue
			}
			for _, c := range memoryCounters {
				v, ok := data[c].(int)
				if !ok {
					continue
				}
				s := series[c]
				if len(s) > 0 && s[len(s)-1][1] == float64(v) {
					continue
				}
				series[c] = append(s, [2]float64{e["ts"].(float64), float64(v)})
			}
		}
		for k, c := range memoryCounters {
			if _, ok := series[c]; !ok && k < 4 {
				series[c] = [][2]float64{}
			}
		}
		want[strconv.Itoa(pid)] = series
	}
	if !reflect.DeepEqual(map[string]map[string][][2]float64(got), want) {
		t.Fatalf("memory steps differ from the plain reading:\n got %v\nwant %v", got, want)
	}
	if noData == 0 || len(counts) != 1 || counts[0] != noData {
		t.Fatalf("warnings count %v events without data, want %d", counts, noData)
	}
}
