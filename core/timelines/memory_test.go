package timelines

import (
	"math/rand/v2"
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
