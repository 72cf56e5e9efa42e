package sourcemap_test

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"flamedesk/core"
	"flamedesk/core/integrate"
	"flamedesk/core/load"
	"flamedesk/core/sourcemap"
)

// positionTicksOf sums a .cpuprofile's positionTicks per line over the nodes of one function,
// reading the file with encoding/json (independently of core/load).
func positionTicksOf(t *testing.T, file, function string) map[int32]int {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var p struct {
		Nodes []struct {
			CallFrame struct {
				FunctionName string `json:"functionName"`
			} `json:"callFrame"`
			PositionTicks []struct{ Line, Ticks int } `json:"positionTicks"`
		} `json:"nodes"`
	}
	if err := json.NewDecoder(zr).Decode(&p); err != nil {
		t.Fatal(err)
	}
	out := map[int32]int{}
	for _, n := range p.Nodes {
		if n.CallFrame.FunctionName == function {
			for _, pt := range n.PositionTicks {
				out[int32(pt.Line)] += pt.Ticks
			}
		}
	}
	return out
}

// profileWith writes a .cpuprofile whose one function, f at app.js:1:10, takes every sample.
func profileWith(t testing.TB, dir string) string {
	p := filepath.Join(dir, "app.cpuprofile")
	const text = `{"nodes":[{"id":1,"callFrame":{"functionName":"(root)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1},"children":[2]},` +
		`{"id":2,"callFrame":{"functionName":"f","scriptId":"3","url":"http://localhost/app.js","lineNumber":0,"columnNumber":10},"positionTicks":[{"line":1,"ticks":3}]}],` +
		`"startTime":0,"endTime":400,"samples":[2,2,2],"timeDeltas":[100,100,100]}`
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func applyWithMap(t testing.TB, mapText []byte, opts sourcemap.Options) *core.Trace {
	dir := t.TempDir()
	prof := profileWith(t, dir)
	maps := filepath.Join(dir, "maps")
	if err := os.MkdirAll(maps, 0o755); err != nil {
		t.Fatal(err)
	}
	if mapText != nil {
		if err := os.WriteFile(filepath.Join(maps, "app.js.map"), mapText, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tr, err := load.File(context.Background(), prof, nil)
	if err != nil {
		t.Fatal(err)
	}
	integrate.Build(tr)
	opts.Dir = maps
	sourcemap.Apply(tr, opts)
	return tr
}

// A good map first, so that the bad ones are known to fail for their badness: "f" at column 10
// maps to a.ts line 3 with the name realName.
const goodMap = `{"version":3,"sources":["a.ts"],"names":["realName"],"mappings":"UAEEA"}`

func TestGoodSyntheticMap(t *testing.T) {
	for _, m := range []string{
		goodMap,
		// The same map as the one section of an index map.
		`{"version":3,"sections":[{"offset":{"line":0,"column":0},"map":` + goodMap + `}]}`,
	} {
		tr := applyWithMap(t, []byte(m), sourcemap.Options{})
		f := findFrame(t, tr, "f")
		o := tr.Shown(f, true)
		if !tr.IsMapped(f) || tr.Strings.Get(o.FunctionName) != "realName" || tr.Strings.Get(o.URL) != "a.ts" || o.Line != 2 || o.Column != 2 {
			t.Errorf("%s: f maps to %q %q %d:%d (warnings %v)", m, tr.Strings.Get(o.FunctionName), tr.Strings.Get(o.URL), o.Line, o.Column, tr.Warnings.Lines())
		}
	}
}

func findFrame(t testing.TB, tr *core.Trace, name string) core.FrameID {
	for i, cf := range tr.Frames {
		if tr.Strings.Get(cf.FunctionName) == name {
			return core.FrameID(i)
		}
	}
	t.Fatalf("no frame %s", name)
	return 0
}

// TestBadMaps: each bad map is one counted warning, and the frames keep the engine's names.
func TestBadMaps(t *testing.T) {
	for _, c := range []struct {
		name, text, warning string
	}{
		{"invalid JSON", `{"version":3,"sources":["a.ts"],`, "source maps not usable"},
		{"not a v3 map", `{"version":2,"sources":["a.ts"],"mappings":"AAAA"}`, "source maps not usable"},
		{"VLQ garbage", `{"version":3,"sources":["a.ts"],"names":[],"mappings":"!!*#,@@"}`, "source maps not usable"},
		// Source index 5 of a one-source map: a lookup past the end of "sources".
		{"source past the end", `{"version":3,"sources":["a.ts"],"names":[],"mappings":"UKAA"}`, "does not cover"},
		// Name index 7 of an empty "names", original line -4.
		{"name past the end", `{"version":3,"sources":["a.ts"],"names":[],"mappings":"UAHAO"}`, "does not cover"},
		{"empty mappings", `{"version":3,"sources":["a.ts"],"names":[],"mappings":""}`, "source maps not usable"},
		// Mappings only for generated line 5, past the end of the one-line script.
		{"mappings past the end of the script", `{"version":3,"sources":["a.ts"],"names":["realName"],"mappings":";;;;UAEEA"}`, "does not cover"},
		// A VLQ digit with its continuation bit set and nothing after it.
		{"truncated VLQ", `{"version":3,"sources":["a.ts"],"names":["realName"],"mappings":"UAEEg"}`, "source maps not usable"},
		{"mappings not a string", `{"version":3,"sources":["a.ts"],"names":[],"mappings":42}`, "source maps not usable"},
		{"sources not a list", `{"version":3,"sources":"a.ts","names":[],"mappings":"UAEE"}`, "source maps not usable"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := applyWithMap(t, []byte(c.text), sourcemap.Options{})
			checkUnmapped(t, tr, c.warning)
		})
	}
}

func checkUnmapped(t *testing.T, tr *core.Trace, warning string) {
	t.Helper()
	f := findFrame(t, tr, "f")
	if tr.IsMapped(f) && tr.Strings.Get(tr.Shown(f, true).FunctionName) == "" {
		t.Errorf("f mapped to an empty name")
	}
	if tr.IsMapped(f) && warning != "" {
		t.Errorf("f mapped to %q despite a bad map", tr.Strings.Get(tr.Shown(f, true).FunctionName))
	}
	if tr.Strings.Get(tr.Shown(f, false).FunctionName) != "f" {
		t.Errorf("the generated name changed")
	}
	found := false
	for _, l := range tr.Warnings.Lines() {
		found = found || strings.Contains(l, warning)
	}
	if !found {
		t.Errorf("no warning %q in %v", warning, tr.Warnings.Lines())
	}
}

// TestHugeMap: a 1 GB map file (sparse, so it costs no disk) is skipped by its size, unread.
func TestHugeMap(t *testing.T) {
	dir := t.TempDir()
	prof := profileWith(t, dir)
	big, err := os.Create(filepath.Join(dir, "app.js.map"))
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(1 << 30); err != nil {
		t.Skipf("cannot make a sparse file here: %v", err)
	}
	big.Close()
	tr, err := load.File(context.Background(), prof, nil)
	if err != nil {
		t.Fatal(err)
	}
	integrate.Build(tr)
	sourcemap.Apply(tr, sourcemap.Options{Dir: dir})
	checkUnmapped(t, tr, "source maps over 128 MB skipped (app.js.map: 1024 MB)")
}

// TestFolderNote: a folder with no map for the profile's script is a counted warning naming the
// folder, so that the command line says it too; a folder whose map applies says nothing.
func TestFolderNote(t *testing.T) {
	tr := applyWithMap(t, nil, sourcemap.Options{})
	found := false
	for _, l := range tr.Warnings.Lines() {
		found = found || (strings.Contains(l, "no source map under ") && strings.Contains(l, "matched the one script"))
	}
	if !found {
		t.Errorf("no note about the folder in %v", tr.Warnings.Lines())
	}
	tr = applyWithMap(t, []byte(goodMap), sourcemap.Options{})
	for _, l := range tr.Warnings.Lines() {
		if strings.Contains(l, "no source map under") {
			t.Errorf("a note %q though the folder's map applied", l)
		}
	}
}

func FuzzMap(f *testing.F) {
	f.Add([]byte(goodMap))
	f.Add([]byte(`{"version":3,"sources":["a.ts"],"names":[],"mappings":"UKAA"}`))
	f.Add([]byte(`{"version":3,"sections":[{"offset":{"line":0,"column":0},"map":` + goodMap + `}]}`))
	if b, err := os.ReadFile(filepath.Join(fixtures, "out", "esbuild", "bundle.js.map")); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		tr := applyWithMap(t, b, sourcemap.Options{MaxMapBytes: 1 << 20})
		fr := findFrame(t, tr, "f")
		if tr.Strings.Get(tr.Shown(fr, false).FunctionName) != "f" {
			t.Fatal("the generated name changed")
		}
		lt := sourcemap.Lines(tr, nil, &tr.Profiles[0], func(core.FrameID) bool { return true }, true)
		_ = lt
	})
}
