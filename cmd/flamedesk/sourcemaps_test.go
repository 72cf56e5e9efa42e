package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

var sourceMapFixtures = filepath.Join("..", "..", "testdata", "sourcemaps")

// declaredAt finds the 1-based line of gen/src/FILE that declares a function or method, from the
// TypeScript itself.
func declaredAt(t *testing.T, file, name string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(sourceMapFixtures, "gen", "src", file))
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, "function "+name+"(") || strings.HasPrefix(strings.TrimSpace(l), name+"(") {
			return i + 1
		}
	}
	t.Fatalf("%s declares no %s", file, name)
	return 0
}

var mappedFunctions = []struct{ name, file string }{
	{"countPrimesBelow", "geometry.ts"},
	{"multiplyMatrices", "geometry.ts"},
	{"countVowelsSlowly", "text.ts"},
	{"buildSentence", "text.ts"},
	{"runWorkloadOnce", "index.ts"},
}

// TestCalltreeJSONOriginalNames: with the maps, calltree's name, url and line are the original
// function's, for the three bundlers; --generated gives the engine's names back.
func TestCalltreeJSONOriginalNames(t *testing.T) {
	for _, b := range []string{"esbuild", "webpack", "rollup", "parcel"} {
		t.Run(b, func(t *testing.T) {
			file := filepath.Join(sourceMapFixtures, "traces", b+".trace.json.gz")
			doc := runCalltreeJSON(t, file, "--sourcemaps", sourceMapFixtures)
			found := map[string]calltreeJSONNode{}
			var walk func([]calltreeJSONNode)
			walk = func(ns []calltreeJSONNode) {
				for _, n := range ns {
					if _, ok := found[n.Name]; !ok {
						found[n.Name] = n
					}
					walk(n.Children)
				}
			}
			walk(doc.Roots)
			for _, f := range mappedFunctions {
				n, ok := found[f.name]
				if !ok {
					t.Errorf("no call node %s", f.name)
					continue
				}
				if path.Base(n.URL) != f.file || n.Line != declaredAt(t, f.file, f.name) {
					t.Errorf("%s at %s:%d, declared at %s:%d", f.name, n.URL, n.Line, f.file, declaredAt(t, f.file, f.name))
				}
			}
			gen := runCalltreeJSON(t, file, "--sourcemaps", sourceMapFixtures, "--generated")
			if gen.Total != doc.Total {
				t.Errorf("total %v with generated names, %v with original ones", gen.Total, doc.Total)
			}
			if bytes.Contains(mustJSON(t, gen), []byte(`"countPrimesBelow"`)) {
				t.Errorf("--generated still names countPrimesBelow")
			}
		})
	}
}

func mustJSON(t *testing.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDumpOriginal: dump keeps the engine's callFrame and adds the original beside it, for each
// bundler's trace and a node profile.
func TestDumpOriginal(t *testing.T) {
	for _, c := range []struct{ file, script string }{
		{"traces/esbuild.trace.json.gz", "/esbuild/bundle.js"},
		{"traces/webpack.trace.json.gz", "/webpack/bundle.js"},
		{"traces/rollup.trace.json.gz", "/rollup/bundle.js"},
		{"traces/parcel.trace.json.gz", "/parcel/index.js"},
		{"profiles/rollup.cpuprofile.gz", "/rollup/bundle.js"},
	} {
		t.Run(c.file, func(t *testing.T) {
			checkDumpOriginal(t, filepath.Join(sourceMapFixtures, filepath.FromSlash(c.file)), c.script)
		})
	}
}

func checkDumpOriginal(t *testing.T, file, script string) {
	var out, errOut bytes.Buffer
	if code := run([]string{"dump", "--sourcemaps", sourceMapFixtures, file}, &out, &errOut); code != exitOK {
		t.Fatalf("dump: exit %d: %s", code, errOut.String())
	}
	var doc struct {
		Threads []struct {
			Entries []struct {
				Kind      string `json:"kind"`
				CallFrame *struct {
					FunctionName string `json:"functionName"`
					URL          string `json:"url"`
				} `json:"callFrame"`
				Original *struct {
					FunctionName string `json:"functionName"`
					URL          string `json:"url"`
					LineNumber   int    `json:"lineNumber"`
				} `json:"original"`
			} `json:"entries"`
		} `json:"threads"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, th := range doc.Threads {
		for _, e := range th.Entries {
			if e.Original == nil {
				continue
			}
			for _, f := range mappedFunctions {
				if e.Original.FunctionName != f.name {
					continue
				}
				seen[f.name]++
				if e.CallFrame == nil || !strings.HasSuffix(e.CallFrame.URL, script) {
					t.Fatalf("callFrame %+v is not the bundle's", e.CallFrame)
				}
				if f.name == "countPrimesBelow" && e.CallFrame.FunctionName == f.name {
					t.Fatalf("callFrame %+v has the original name: the minified bundle's is expected", e.CallFrame)
				}
				if want := declaredAt(t, f.file, f.name); path.Base(e.Original.URL) != f.file || e.Original.LineNumber+1 != want {
					t.Fatalf("original %+v, declared at %s:%d", e.Original, f.file, want)
				}
			}
		}
	}
	for _, f := range mappedFunctions {
		if seen[f.name] == 0 {
			t.Errorf("no entry has %s as its original", f.name)
		}
	}
}

// TestSourceLines: "flamedesk source" puts each line's time beside that line of the TypeScript,
// for a .cpuprofile (positionTicks) and a trace (per-sample lines).
func TestSourceLines(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(sourceMapFixtures, "gen", "src", "geometry.ts"))
	if err != nil {
		t.Fatal(err)
	}
	disk := strings.Split(string(b), "\n")
	decl := declaredAt(t, "geometry.ts", "countPrimesBelow")
	for _, c := range []struct {
		file      string
		fromTicks bool
	}{
		{"profiles/esbuild-plain.cpuprofile.gz", true},
		{"traces/rollup.trace.json.gz", false},
		{"traces/esbuild.trace.json.gz", false},
		{"traces/webpack.trace.json.gz", false},
		{"traces/parcel.trace.json.gz", false},
	} {
		var out, errOut bytes.Buffer
		args := []string{"source", filepath.Join(sourceMapFixtures, c.file), "countPrimesBelow", "--sourcemaps", sourceMapFixtures, "--format", "json"}
		if code := run(args, &out, &errOut); code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errOut.String())
		}
		var doc struct {
			File      string  `json:"file"`
			Original  bool    `json:"original"`
			Total     float64 `json:"total"`
			FromTicks bool    `json:"fromTicks"`
			Lines     []struct {
				Line int     `json:"line"`
				Self float64 `json:"self"`
				Text string  `json:"text"`
			} `json:"lines"`
		}
		if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
			t.Fatalf("%s: %v\n%s", c.file, err, out.String())
		}
		if path.Base(doc.File) != "geometry.ts" || !doc.Original || doc.FromTicks != c.fromTicks || doc.Total <= 0 || len(doc.Lines) == 0 {
			t.Fatalf("%s: %+v", c.file, doc)
		}
		for _, l := range doc.Lines {
			if l.Line <= decl || l.Line > len(disk) || l.Text != strings.TrimRight(disk[l.Line-1], " \t") {
				t.Errorf("%s: line %d %q; geometry.ts has %q there (the function starts on %d)", c.file, l.Line, l.Text, disk[min(max(l.Line-1, 0), len(disk)-1)], decl)
			}
		}
	}
}

// TestFolderNoteOnStderr: a --sourcemaps folder without the trace's map is said on stderr; the
// right folder says nothing.
func TestFolderNoteOnStderr(t *testing.T) {
	file := filepath.Join(sourceMapFixtures, "traces", "rollup.trace.json.gz")
	empty := t.TempDir()
	for _, c := range []struct {
		dir  string
		note bool
	}{{empty, true}, {sourceMapFixtures, false}} {
		var out, errOut bytes.Buffer
		if code := run([]string{"calltree", "--sourcemaps", c.dir, file}, &out, &errOut); code != exitOK {
			t.Fatalf("calltree: exit %d: %s", code, errOut.String())
		}
		got := strings.Contains(errOut.String(), "no source map under "+c.dir+" matched")
		if got != c.note {
			t.Errorf("--sourcemaps %s: stderr %q", c.dir, errOut.String())
		}
	}
}
