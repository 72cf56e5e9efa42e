package timelines

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"flamedesk/core"
	"flamedesk/core/integrate"
	"flamedesk/core/load"
	"flamedesk/internal/fixtures"
)

// comparedLists are the lists of the references that the conformance test compares, with the key
// compare_timelines.py sorts each by. A list joins here once it is built; "bounds" is compared as
// one object.
var comparedLists = []struct {
	name string
	key  func(item map[string]any) []any
}{
	{"navigations", func(i map[string]any) []any { return []any{i["ts"], i["navigationId"]} }},
	{"timings.pageLoad", func(i map[string]any) []any { return []any{i["ts"], i["kind"]} }},
	{"network", func(i map[string]any) []any { return []any{i["ts"], i["requestId"]} }},
	{"webSockets", func(i map[string]any) []any { return []any{i["ts"], fmt.Sprint(i["identifier"])} }},
	{"screenshots", func(i map[string]any) []any { return []any{i["ts"]} }},
	{"frames", func(i map[string]any) []any { return []any{i["ts"]} }},
	{"interactions", func(i map[string]any) []any {
		return []any{i["ts"], negDur(i), i["interactionId"], i["type"]}
	}},
	{"layoutShifts.shifts", func(i map[string]any) []any { return []any{i["ts"], i["score"]} }},
	{"layoutShifts.clusters", func(i map[string]any) []any { return []any{i["ts"]} }},
	{"timings.marks", func(i map[string]any) []any { return []any{i["ts"], i["name"]} }},
	{"timings.measures", func(i map[string]any) []any { return []any{i["ts"], negDur(i), i["name"]} }},
	{"timings.consoleTimings", func(i map[string]any) []any { return []any{i["ts"], negDur(i), i["name"]} }},
	{"timings.timestamps", func(i map[string]any) []any { return []any{i["ts"], i["name"]} }},
	{"timings.extensionMarkers", func(i map[string]any) []any { return []any{i["ts"], i["name"]} }},
	{"extension", func(i map[string]any) []any {
		return []any{i["groupIndex"], i["trackIndex"], i["ts"], negDur(i), i["name"]}
	}},
	{"animations", func(i map[string]any) []any { return []any{i["ts"], negDur(i), i["name"]} }},
	{"memory", func(i map[string]any) []any { return []any{pidNumber(i), i["counter"], i["index"]} }},
}

// timeFields are compared within the tolerance; other numbers within 1e-9 relative.
var timeFields = map[string]bool{}

func init() {
	for _, f := range strings.Fields(`ts dur min max range end start sendTs sendStartTime downloadStart
		finishTime queueing stalled dnsLookup initialConnection ssl proxyNegotiation requestSent waiting
		serverResponseTime download redirectionDuration networkDuration processingDuration totalTime
		processingStart processingEnd inputDelay mainThreadHandling presentationDelay worstShiftTs
		sinceNavigation`) {
		timeFields[f] = true
	}
}

// toleranceUs is compare_timelines.py's default bound on times.
const toleranceUs = 0.01

// TestConformance builds the timelines of every trace that has a DevTools reference
// (conformance/golden/NAME.timelines.json.gz) and compares them list by list, as
// compare_timelines.py does.
func TestConformance(t *testing.T) {
	refs := fixtures.Glob(t, "conformance/golden/*.timelines.json.gz")
	for _, refPath := range refs {
		name := strings.TrimSuffix(filepath.Base(refPath), ".timelines.json.gz")
		t.Run(name, func(t *testing.T) {
			ref := readJSON(t, refPath)
			tr := loadTrace(t, traceNamed(t, name))
			ours := roundTrip(t, Build(tr))
			if d := diffValue(ref["bounds"], ours["bounds"], "", "bounds"); d != "" {
				t.Errorf("bounds: %s", d)
			}
			for _, l := range comparedLists {
				if msg := compareList(l.key, items(ref, l.name), items(ours, l.name)); msg != "" {
					t.Errorf("%s: %s", l.name, msg)
				}
			}
		})
	}
}

// traceNamed finds the one fixture whose name is stem plus an extension.
func traceNamed(t *testing.T, stem string) string {
	t.Helper()
	var found []string
	for _, dir := range []string{"upstream", "generated"} {
		m, _ := filepath.Glob(filepath.Join(fixtures.Shared(), "fixtures", dir, stem+".*"))
		found = append(found, m...)
	}
	if len(found) != 1 {
		t.Fatalf("want one fixture named %s.*, found %q", stem, found)
	}
	return found[0]
}

func loadTrace(t testing.TB, path string) *core.Trace {
	t.Helper()
	tr, err := load.File(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	integrate.Build(tr)
	return tr
}

func readJSON(t *testing.T, path string) map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.NewDecoder(zr).Decode(&v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return v
}

// roundTrip gives our timelines the shape the reference is read into.
func roundTrip(t *testing.T, tl *Timelines) map[string]any {
	t.Helper()
	b, err := json.Marshal(tl)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// items returns the list at a dotted path ("timings.marks"), flattening "extension" (one item per
// entry with its group and track) and "memory" (one item per point) as compare_timelines.py does.
func items(doc map[string]any, path string) []map[string]any {
	switch path {
	case "extension":
		var out []map[string]any
		groups, _ := doc["extension"].([]any)
		for gi, g := range groups {
			gm, _ := g.(map[string]any)
			tracks, _ := gm["tracks"].([]any)
			for ti, tk := range tracks {
				tm, _ := tk.(map[string]any)
				entries, _ := tm["entries"].([]any)
				for _, e := range entries {
					item := map[string]any{"group": gm["name"], "groupIndex": float64(gi),
						"isTrackGroup": gm["isTrackGroup"], "track": tm["name"], "trackIndex": float64(ti)}
					em, _ := e.(map[string]any)
					for k, v := range em {
						item[k] = v
					}
					out = append(out, item)
				}
			}
		}
		return out
	case "memory":
		var out []map[string]any
		mem, _ := doc["memory"].(map[string]any)
		for pid, series := range mem {
			sm, _ := series.(map[string]any)
			for counter, points := range sm {
				pl, _ := points.([]any)
				for k, p := range pl {
					pt, _ := p.([]any)
					if len(pt) != 2 {
						continue
					}
					out = append(out, map[string]any{"pid": pid, "counter": counter, "index": float64(k), "ts": pt[0], "value": pt[1]})
				}
			}
		}
		return out
	}
	var cur any = doc
	for _, part := range strings.Split(path, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[part]
	}
	list, _ := cur.([]any)
	out := make([]map[string]any, 0, len(list))
	for _, x := range list {
		m, _ := x.(map[string]any)
		out = append(out, m)
	}
	return out
}

// compareList sorts both sides by key and then canonical JSON, walks them in step and describes
// the differences ("" when equal): the counts and the first few items missing, extra or unequal.
func compareList(key func(map[string]any) []any, ref, ours []map[string]any) string {
	if len(ref) == 0 {
		if len(ours) == 0 {
			return ""
		}
		return fmt.Sprintf("the reference has none, ours has %d; first: %s", len(ours), brief(ours[0]))
	}
	sortItems(key, ref)
	sortItems(key, ours)
	var diffs []string
	i, j := 0, 0
	for i < len(ref) || j < len(ours) {
		c := 0
		switch {
		case j >= len(ours):
			c = -1
		case i >= len(ref):
			c = 1
		default:
			c = compareKeys(key(ref[i]), key(ours[j]), toleranceUs)
		}
		switch {
		case c < 0:
			diffs = append(diffs, fmt.Sprintf("missing #%d %s", i, brief(ref[i])))
			i++
		case c > 0:
			diffs = append(diffs, fmt.Sprintf("extra   %s", brief(ours[j])))
			j++
		default:
			if d := diffValue(ref[i], ours[j], "", ""); d != "" {
				diffs = append(diffs, fmt.Sprintf("differ  #%d %s: %s", i, brief(ref[i]), d))
			}
			i++
			j++
		}
	}
	if len(diffs) == 0 {
		return ""
	}
	return fmt.Sprintf("ref %d items, ours %d, %d differences:\n\t%s", len(ref), len(ours), len(diffs),
		strings.Join(diffs[:min(len(diffs), 5)], "\n\t"))
}

func sortItems(key func(map[string]any) []any, list []map[string]any) {
	canon := make([]string, len(list))
	keys := make([][]any, len(list))
	for i, it := range list {
		canon[i] = canonical(it)
		keys[i] = key(it)
	}
	idx := make([]int, len(list))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		if c := compareKeys(keys[idx[a]], keys[idx[b]], 0); c != 0 {
			return c < 0
		}
		return canon[idx[a]] < canon[idx[b]]
	})
	sorted := make([]map[string]any, len(list))
	for i, k := range idx {
		sorted[i] = list[k]
	}
	copy(list, sorted)
}

// compareKeys orders two sort keys: null first, numbers (equal within tol) before strings.
func compareKeys(a, b []any, tol float64) int {
	for k := range min(len(a), len(b)) {
		x, y := a[k], b[k]
		xf, xn := x.(float64)
		yf, yn := y.(float64)
		switch {
		case xn && yn:
			if math.Abs(xf-yf) <= tol {
				continue
			}
			if xf < yf {
				return -1
			}
			return 1
		case x == nil && y == nil:
			continue
		case x == nil:
			return -1
		case y == nil:
			return 1
		case xn:
			return -1
		case yn:
			return 1
		}
		xs, ys := fmt.Sprint(x), fmt.Sprint(y)
		if xs != ys {
			if xs < ys {
				return -1
			}
			return 1
		}
	}
	return 0
}

// canonical is the item's JSON with numbers rounded to 0.01, the tie-breaker of the sort.
func canonical(v any) string {
	var round func(any) any
	round = func(x any) any {
		switch x := x.(type) {
		case float64:
			return math.RoundToEven(x*100) / 100
		case map[string]any:
			m := make(map[string]any, len(x))
			for k, y := range x {
				m[k] = round(y)
			}
			return m
		case []any:
			l := make([]any, len(x))
			for i, y := range x {
				l[i] = round(y)
			}
			return l
		}
		return x
	}
	b, _ := json.Marshal(round(v))
	return string(b)
}

// diffValue describes the first difference between a reference value and ours, "" when every
// field the reference has is in ours and equal (a reference null matches null or absent).
func diffValue(ref, ours any, field, path string) string {
	where := path
	if where == "" {
		where = "value"
	}
	if ref == nil {
		if ours == nil {
			return ""
		}
		return fmt.Sprintf("%s: ref null, ours %v", where, ours)
	}
	if ours == nil {
		return fmt.Sprintf("%s: missing (ref %v)", where, ref)
	}
	switch r := ref.(type) {
	case map[string]any:
		o, ok := ours.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: ref object, ours %v", where, ours)
		}
		for _, k := range sortedKeys(r) {
			sub := k
			if path != "" {
				sub = path + "." + k
			}
			if d := diffValue(r[k], o[k], k, sub); d != "" {
				return d
			}
		}
		return ""
	case []any:
		o, ok := ours.([]any)
		if !ok {
			return fmt.Sprintf("%s: ref list, ours %v", where, ours)
		}
		if len(r) != len(o) {
			return fmt.Sprintf("%s: ref %d items, ours %d", where, len(r), len(o))
		}
		for i := range r {
			if d := diffValue(r[i], o[i], field, fmt.Sprintf("%s[%d]", where, i)); d != "" {
				return d
			}
		}
		return ""
	case float64:
		o, ok := ours.(float64)
		if !ok {
			return fmt.Sprintf("%s: ref %v, ours %v", where, ref, ours)
		}
		if timeFields[field] {
			if math.Abs(r-o) <= toleranceUs {
				return ""
			}
		} else if math.Abs(r-o) <= 1e-9*max(1, math.Abs(r), math.Abs(o)) {
			return ""
		}
		return fmt.Sprintf("%s: ref %v, ours %v", where, r, o)
	}
	if ref != ours {
		return fmt.Sprintf("%s: ref %v, ours %v", where, ref, ours)
	}
	return ""
}

// brief names an item in a message by its identifying fields.
func brief(item map[string]any) string {
	var parts []string
	for _, k := range []string{"name", "kind", "type", "requestId", "group", "track", "counter", "pid", "ts", "dur"} {
		if v, ok := item[k]; ok {
			parts = append(parts, fmt.Sprintf("%s=%v", k, v))
		}
	}
	s := strings.Join(parts, " ")
	if len(s) > 200 {
		s = s[:200]
	}
	return s
}

// negDur is -(dur || 0), the sort keys' "longer first".
func negDur(item map[string]any) any {
	d, _ := item["dur"].(float64)
	return -d
}

// pidNumber is a memory item's pid as a number, as compare_timelines.py sorts it.
func pidNumber(item map[string]any) any {
	s, _ := item["pid"].(string)
	n, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return s
	}
	return n
}
