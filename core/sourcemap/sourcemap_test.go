package sourcemap_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"flamedesk/core"
	"flamedesk/core/integrate"
	"flamedesk/core/load"
	"flamedesk/core/sourcemap"
)

// fixtures is testdata/sourcemaps of the repository (see its README.md).
var fixtures = filepath.Join("..", "..", "testdata", "sourcemaps")

// decl is where gen/src declares a function, read from the TypeScript itself.
type decl struct {
	file      string // base name, e.g. "geometry.ts"
	line, end int    // 1-based: the declaration's line and the line of its closing brace
}

var declRE = regexp.MustCompile(`^(\s*)(?:export\s+)?(?:function\s+(\w+)\s*\(|(?:static\s+)?(\w+)\([^)]*\)\s*(?::\s*\w+\s*)?\{)`)

// declarations reads every function and method declaration of gen/src/*.ts with the line range of
// its body (up to the first closing brace at the declaration's indentation).
func declarations(t *testing.T) map[string]decl {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(fixtures, "gen", "src", "*.ts"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no sources under %s: %v", fixtures, err)
	}
	out := map[string]decl{}
	for _, f := range files {
		lines := readLines(t, f)
		for i, l := range lines {
			m := declRE.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			name := m[2] + m[3]
			if name == "if" || name == "for" || name == "while" {
				continue
			}
			end := i
			for j := i + 1; j < len(lines); j++ {
				if lines[j] == m[1]+"}" {
					end = j
					break
				}
			}
			out[name] = decl{file: filepath.Base(f), line: i + 1, end: end + 1}
		}
	}
	return out
}

func readLines(t *testing.T, p string) []string {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}

func loadMapped(t testing.TB, rel, dir string) (*core.Trace, *sourcemap.Set) {
	t.Helper()
	tr, err := load.File(context.Background(), filepath.Join(fixtures, rel), nil)
	if err != nil {
		t.Fatal(err)
	}
	integrate.Build(tr)
	return tr, sourcemap.Apply(tr, sourcemap.Options{Dir: dir})
}

// The functions every recording sampled (the workload runs them for 1.5 s).
var sampled = []string{"runWorkloadOnce", "countPrimesBelow", "countVowelsSlowly", "buildSentence", "multiplyMatrices"}

var bundled = []struct {
	file     string
	dir      string
	origin   sourcemap.Origin
	minified bool
}{
	// The esbuild trace carries the bundle's text, whose sourceMappingURL is a data: URL.
	{"traces/esbuild.trace.json.gz", "", sourcemap.FromDataURL, true},
	// The webpack trace has its map in metadata.sourceMaps, as DevTools saves it.
	{"traces/webpack.trace.json.gz", "", sourcemap.FromMetadata, true},
	// The rollup trace names bundle.js.map; it is found in the folder.
	{"traces/rollup.trace.json.gz", fixtures, sourcemap.FromFolder, true},
	// parcel names its script index.js after the entry, and its sources src/*.ts.
	{"traces/parcel.trace.json.gz", fixtures, sourcemap.FromFolder, true},
	{"profiles/parcel.cpuprofile.gz", fixtures, sourcemap.FromFolder, true},
	{"profiles/esbuild.cpuprofile.gz", fixtures, sourcemap.FromFolder, true},
	{"profiles/webpack.cpuprofile.gz", fixtures, sourcemap.FromFolder, true},
	{"profiles/rollup.cpuprofile.gz", fixtures, sourcemap.FromFolder, true},
	{"profiles/esbuild-plain.cpuprofile.gz", fixtures, sourcemap.FromFolder, false},
}

// TestBundlesMapToDeclarations checks every mapped frame of three bundlers' output, in Chromium
// traces and node profiles, against where the TypeScript declares the function.
func TestBundlesMapToDeclarations(t *testing.T) {
	decls := declarations(t)
	for _, name := range sampled {
		if _, ok := decls[name]; !ok {
			t.Fatalf("gen/src declares no %s (declarations found: %v)", name, decls)
		}
	}
	for _, c := range bundled {
		t.Run(c.file, func(t *testing.T) {
			tr, set := loadMapped(t, c.file, c.dir)
			if len(set.Maps) != 1 {
				t.Fatalf("%d maps applied, want 1 (the bundle's); warnings %v", len(set.Maps), tr.Warnings.Lines())
			}
			if m := set.Maps[0]; m.Origin != c.origin || !(strings.HasSuffix(m.ScriptURL, "/bundle.js") || strings.HasSuffix(m.ScriptURL, "/parcel/index.js")) {
				t.Fatalf("map of %s from %v, want the bundle's from %v", m.ScriptURL, m.Origin, c.origin)
			}
			seen := map[string]bool{}
			for f := range tr.Frames {
				id := core.FrameID(f)
				if !tr.IsMapped(id) {
					continue
				}
				o := tr.Shown(id, true)
				name := tr.Strings.Get(o.FunctionName)
				d, ok := decls[name]
				if !ok {
					continue // anonymous arrows, the class's constructor under its minified name...
				}
				seen[name] = true
				file := path.Base(tr.Strings.Get(o.URL))
				if file != d.file || int(o.Line)+1 != d.line {
					t.Errorf("%s (generated %q at %d:%d) mapped to %s:%d, declared at %s:%d",
						name, tr.Strings.Get(tr.Frames[f].FunctionName), tr.Frames[f].Line, tr.Frames[f].Column,
						file, o.Line+1, d.file, d.line)
				}
				gen := tr.Strings.Get(tr.Frames[f].FunctionName)
				if c.minified && name == "countPrimesBelow" && gen == name {
					t.Errorf("the minified bundle kept the name %q: the fixture no longer tests renaming", gen)
				}
			}
			for _, name := range sampled {
				if !seen[name] {
					t.Errorf("no frame maps to %s", name)
				}
			}
		})
	}
}

// TestLinesOfHotLoop checks per-line self time of countPrimesBelow: in a trace every sample has its
// line and column, in a .cpuprofile the lines come from positionTicks. The lines must lie in the
// function's body, add up to its self time, and the hottest must be the inner loop's.
func TestLinesOfHotLoop(t *testing.T) {
	decls := declarations(t)
	d := decls["countPrimesBelow"]
	src := readLines(t, filepath.Join(fixtures, "gen", "src", d.file))
	for _, c := range []struct {
		file      string
		fromTicks bool
	}{
		{"traces/webpack.trace.json.gz", false},
		{"traces/esbuild.trace.json.gz", false},
		{"profiles/esbuild-plain.cpuprofile.gz", true},
	} {
		t.Run(c.file, func(t *testing.T) {
			tr, set := loadMapped(t, c.file, fixtures)
			isFunc := func(f core.FrameID) bool {
				return tr.Strings.Get(tr.Shown(f, true).FunctionName) == "countPrimesBelow"
			}
			var lt sourcemap.LineTimes
			for i := range tr.Profiles {
				if l := sourcemap.Lines(tr, set, &tr.Profiles[i], isFunc, true); l.Total > 0 {
					lt = l
				}
			}
			if lt.Total == 0 || !lt.Original || lt.FromTicks != c.fromTicks {
				t.Fatalf("lines %+v", lt)
			}
			if path.Base(lt.File) != d.file {
				t.Errorf("lines in %s, want %s", lt.File, d.file)
			}
			sum := lt.Elsewhere
			hot := sourcemap.LineTime{}
			for _, l := range lt.Lines {
				sum += l.Self
				if int(l.Line) < d.line || int(l.Line) > d.end {
					t.Errorf("line %d outside countPrimesBelow (%d-%d)", l.Line, d.line, d.end)
				}
				if l.Self > hot.Self {
					hot = l
				}
			}
			if diff := sum - lt.Total; diff > 1e-6*lt.Total || diff < -1e-6*lt.Total {
				t.Errorf("lines add up to %.3f µs, self time is %.3f µs", sum, lt.Total)
			}
			if lt.Elsewhere > lt.Total/10 {
				t.Errorf("%.0f of %.0f µs on no line of the function", lt.Elsewhere, lt.Total)
			}
			if hot.Line < 1 || !strings.Contains(src[hot.Line-1], "divisor") {
				t.Errorf("hottest line %d (%q) is not the inner loop's", hot.Line, src[max(hot.Line-1, 0)])
			}
		})
	}
}

// TestLinesGeneratedMatchPositionTicks checks the generated lines of a .cpuprofile against the
// positionTicks node wrote, summed straight from the file.
func TestLinesGeneratedMatchPositionTicks(t *testing.T) {
	tr, set := loadMapped(t, "profiles/esbuild-plain.cpuprofile.gz", fixtures)
	want := positionTicksOf(t, filepath.Join(fixtures, "profiles", "esbuild-plain.cpuprofile.gz"), "countVowelsSlowly")
	if len(want) == 0 {
		t.Fatal("the profile has no positionTicks for countVowelsSlowly")
	}
	isFunc := func(f core.FrameID) bool { return tr.Strings.Get(tr.Frames[f].FunctionName) == "countVowelsSlowly" }
	lt := sourcemap.Lines(tr, set, &tr.Profiles[0], isFunc, false)
	got := map[int32]float64{}
	for _, l := range lt.Lines {
		got[l.Line] = l.Samples
	}
	if len(got) != len(want) {
		t.Errorf("lines %v, positionTicks %v", got, want)
	}
	for line, ticks := range want {
		if got[line] != float64(ticks) {
			t.Errorf("line %d: %v samples, positionTicks say %d", line, got[line], ticks)
		}
	}
}

// TestSourceText checks the source view's text: from sourcesContent (webpack), from disk beside a
// map without sourcesContent (rollup), and the generated script from the trace (esbuild).
func TestSourceText(t *testing.T) {
	disk, err := os.ReadFile(filepath.Join(fixtures, "gen", "src", "geometry.ts"))
	if err != nil {
		t.Fatal(err)
	}
	frameNamed := func(tr *core.Trace, name string) core.FrameID {
		for f := range tr.Frames {
			if tr.Strings.Get(tr.Shown(core.FrameID(f), true).FunctionName) == name {
				return core.FrameID(f)
			}
		}
		t.Fatalf("no frame %s", name)
		return 0
	}
	for _, c := range []struct {
		file, dir string
		wantPath  bool
	}{
		{"traces/webpack.trace.json.gz", "", false},
		// webpack://project/./src/geometry.ts is found on disk under the folder as src/geometry.ts.
		{"traces/webpack.trace.json.gz", fixtures, true},
		{"traces/rollup.trace.json.gz", fixtures, true},
	} {
		tr, set := loadMapped(t, c.file, c.dir)
		src, ok := set.SourceOf(frameNamed(tr, "countPrimesBelow"), true)
		if !ok || src.Text != string(disk) {
			t.Errorf("%s: source of countPrimesBelow (%v) is not gen/src/geometry.ts", c.file, ok)
		}
		if got := src.Path != ""; got != c.wantPath {
			t.Errorf("%s: path %q", c.file, src.Path)
		} else if got {
			if b, err := os.ReadFile(src.Path); err != nil || string(b) != string(disk) {
				t.Errorf("%s: path %s is not geometry.ts", c.file, src.Path)
			}
		}
	}
	tr, set := loadMapped(t, "traces/esbuild.trace.json.gz", "")
	bundle, err := os.ReadFile(filepath.Join(fixtures, "out", "esbuild", "bundle.js"))
	if err != nil {
		t.Fatal(err)
	}
	src, ok := set.SourceOf(frameNamed(tr, "countPrimesBelow"), false)
	if !ok || strings.TrimSpace(src.Text) != strings.TrimSpace(string(bundle)) {
		t.Errorf("generated source from the trace (%v, %d bytes) is not out/esbuild/bundle.js (%d bytes)", ok, len(src.Text), len(bundle))
	}
}

// TestScriptOnDisk: a node profile names its script by a file:// URL; when the script is on this
// disk, its sourceMappingURL leads to the map beside it, with no folder named.
func TestScriptOnDisk(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"bundle.js", "bundle.js.map"} {
		b, err := os.ReadFile(filepath.Join(fixtures, "out", "esbuild-plain", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	zr, err := os.Open(filepath.Join(fixtures, "profiles", "esbuild-plain.cpuprofile.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	gz, err := gzip.NewReader(zr)
	if err != nil {
		t.Fatal(err)
	}
	text, err := io.ReadAll(gz)
	if err != nil {
		t.Fatal(err)
	}
	here := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(dir, "bundle.js"))}).String()
	text = bytes.ReplaceAll(text, []byte("file:///project/out/esbuild-plain/bundle.js"), []byte(here))
	prof := filepath.Join(dir, "app.cpuprofile")
	if err := os.WriteFile(prof, text, 0o644); err != nil {
		t.Fatal(err)
	}
	tr, err := load.File(context.Background(), prof, nil)
	if err != nil {
		t.Fatal(err)
	}
	integrate.Build(tr)
	set := sourcemap.Apply(tr, sourcemap.Options{})
	if len(set.Maps) != 1 || set.Maps[0].Origin != sourcemap.FromScriptFile {
		t.Fatalf("maps %+v, warnings %v", set.Maps, tr.Warnings.Lines())
	}
	d := declarations(t)["countPrimesBelow"]
	for f := range tr.Frames {
		o := tr.Shown(core.FrameID(f), true)
		if tr.Strings.Get(o.FunctionName) == "countPrimesBelow" {
			if path.Base(tr.Strings.Get(o.URL)) != d.file || int(o.Line)+1 != d.line {
				t.Errorf("countPrimesBelow at %s:%d, declared at %s:%d", tr.Strings.Get(o.URL), o.Line+1, d.file, d.line)
			}
			return
		}
	}
	t.Error("no frame maps to countPrimesBelow")
}

// TestAnnotate: the source view of countPrimesBelow puts each line's time beside the text of that
// line of geometry.ts, and nothing is lost.
func TestAnnotate(t *testing.T) {
	tr, set := loadMapped(t, "profiles/esbuild-plain.cpuprofile.gz", fixtures)
	var fn core.FrameID
	for f := range tr.Frames {
		if tr.Strings.Get(tr.Frames[f].FunctionName) == "countPrimesBelow" {
			fn = core.FrameID(f)
		}
	}
	src, ok := set.SourceOf(fn, true)
	if !ok {
		t.Fatal("no source for countPrimesBelow")
	}
	lt := sourcemap.Lines(tr, set, &tr.Profiles[0], func(f core.FrameID) bool { return f == fn }, true)
	lines, missing := sourcemap.Annotate(src.Text, lt)
	disk := readLines(t, filepath.Join(fixtures, "gen", "src", "geometry.ts"))
	if len(lines) != len(disk) || missing != 0 {
		t.Fatalf("%d lines (%v µs missing), geometry.ts has %d", len(lines), missing, len(disk))
	}
	sum := 0.0
	for i, l := range lines {
		if l.Text != disk[i] {
			t.Fatalf("line %d: %q, file has %q", i+1, l.Text, disk[i])
		}
		sum += l.Self
	}
	if d := sum + lt.Elsewhere - lt.Total; d > 1e-6 || d < -1e-6 || sum == 0 {
		t.Errorf("annotated %.3f + elsewhere %.3f != total %.3f", sum, lt.Elsewhere, lt.Total)
	}
}
