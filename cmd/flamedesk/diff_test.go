package main

import (
	"bytes"
	"encoding/json"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"flamedesk/render"
)

// diffFile names a recorded comparison fixture (testdata/diff/gen/gen.mjs made them).
func diffFile(name string) string { return filepath.Join("..", "..", "testdata", "diff", name) }

type diffJSON struct {
	Units string `json:"units"`
	Align struct {
		Method string      `json:"method"`
		Offset json.Number `json:"offset"`
	} `json:"align"`
	A, B struct {
		File    string      `json:"file"`
		Total   json.Number `json:"total"`
		Samples int         `json:"samples"`
	}
	Functions []struct {
		Name     string      `json:"name"`
		URL      string      `json:"url"`
		Line     int         `json:"line"`
		Column   int         `json:"column"`
		SelfA    json.Number `json:"selfA"`
		SelfB    json.Number `json:"selfB"`
		RunningA json.Number `json:"runningA"`
		RunningB json.Number `json:"runningB"`
	} `json:"functions"`
}

// ns reads an exact ms decimal printed with six places back into integer ns.
func ns(t *testing.T, n json.Number) int64 {
	t.Helper()
	whole, frac, ok := strings.Cut(n.String(), ".")
	if !ok || len(frac) != 6 {
		t.Fatalf("%q is not ms with six decimals", n)
	}
	v, err := strconv.ParseInt(whole+frac, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func runDiffJSON(t *testing.T, args ...string) diffJSON {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(append([]string{"diff", "--format", "json"}, args...), &out, &errb); code != exitOK {
		t.Fatalf("diff %v: exit %d: %s", args, code, errb.String())
	}
	var d diffJSON
	dec := json.NewDecoder(&out)
	dec.UseNumber()
	if err := dec.Decode(&d); err != nil {
		t.Fatal(err)
	}
	if d.Units != "ms" {
		t.Errorf("units %q", d.Units)
	}
	return d
}

// checkJSONSums checks Σ selfB − Σ selfA = totalB − totalA, exactly, on the printed numbers.
func checkJSONSums(t *testing.T, d diffJSON) {
	t.Helper()
	var a, b int64
	for _, f := range d.Functions {
		a += ns(t, f.SelfA)
		b += ns(t, f.SelfB)
	}
	ta, tb := ns(t, d.A.Total), ns(t, d.B.Total)
	if b-a != tb-ta || a != ta || b != tb {
		t.Errorf("Σ self %d → %d ns, totals %d → %d ns", a, b, ta, tb)
	}
}

func TestDiffCommandSlowedFunctionLeads(t *testing.T) {
	for _, pair := range [][2]string{
		{"trace-a.json.gz", "trace-slow.json.gz"},
		{"node-a.cpuprofile.gz", "node-slow.cpuprofile.gz"},
		{"page-a.cpuprofile.gz", "trace-slow.json.gz"}, // a .cpuprofile against a trace
	} {
		d := runDiffJSON(t, diffFile(pair[0]), diffFile(pair[1]))
		if len(d.Functions) == 0 || d.Functions[0].Name != "hashStrings" {
			t.Fatalf("%v: first function %+v, want hashStrings", pair, d.Functions)
		}
		if f := d.Functions[0]; ns(t, f.SelfB) < 2*ns(t, f.SelfA) || f.Line == 0 || f.URL == "" {
			t.Errorf("%v: hashStrings %+v", pair, f)
		}
		checkJSONSums(t, d)
	}
}

func TestDiffCommandAgainstItself(t *testing.T) {
	d := runDiffJSON(t, diffFile("trace-a.json.gz"), diffFile("trace-a.json.gz"), "--idle")
	if d.A.Total != d.B.Total || d.A.Samples != d.B.Samples || len(d.Functions) < 10 {
		t.Errorf("totals %s (%d) and %s (%d), %d functions", d.A.Total, d.A.Samples, d.B.Total, d.B.Samples, len(d.Functions))
	}
	for _, f := range d.Functions {
		if f.SelfA != f.SelfB || f.RunningA != f.RunningB {
			t.Errorf("%s differs from itself: %+v", f.Name, f)
		}
	}
	checkJSONSums(t, d)
}

// Aligned on the work-start mark, everything of runWork is at 0 ms or later on both sides.
func TestDiffCommandRange(t *testing.T) {
	a, b := diffFile("trace-a.json.gz"), diffFile("trace-slow.json.gz")
	full := runDiffJSON(t, a, b)
	after := runDiffJSON(t, a, b, "--align", "mark:work-start", "--range", "0,")
	before := runDiffJSON(t, a, b, "--align", "mark:work-start", "--range", ",0")
	running := func(d diffJSON, name string) (json.Number, json.Number, bool) {
		for _, f := range d.Functions {
			if f.Name == name {
				return f.RunningA, f.RunningB, true
			}
		}
		return "", "", false
	}
	fa, fb, _ := running(full, "runWork")
	aa, ab, ok := running(after, "runWork")
	if !ok || aa != fa || ab != fb {
		t.Errorf("runWork after the mark: %s, %s; want %s, %s", aa, ab, fa, fb)
	}
	if _, _, ok := running(before, "runWork"); ok {
		t.Error("runWork has time before the mark")
	}
	if after.Align.Method != "mark:work-start" {
		t.Errorf("align %+v", after.Align)
	}
	if ns(t, after.A.Total)+ns(t, before.A.Total) != ns(t, full.A.Total) {
		t.Errorf("the halves of A add up to %d + %d ns, want %d", ns(t, after.A.Total), ns(t, before.A.Total), ns(t, full.A.Total))
	}
	checkJSONSums(t, after)
	checkJSONSums(t, before)
}

func TestDiffCommandExitCodes(t *testing.T) {
	a, slow, node := diffFile("trace-a.json.gz"), diffFile("trace-slow.json.gz"), diffFile("node-a.cpuprofile.gz")
	cases := []struct {
		args []string
		want int
	}{
		{[]string{a, slow}, exitOK},
		{[]string{a, slow, "--fail-above", "10"}, exitRegression}, // the total grew by more than 10 %
		{[]string{a, slow, "--fail-above", "1000"}, exitOK},       // … but not by ten times
		{[]string{slow, a, "--fail-above", "0"}, exitOK},          // B faster: never a regression
		{[]string{a, a, "--fail-above", "0"}, exitOK},             // equal is not above
		{[]string{a, slow, "--fail-above", "100", "--function", "hashStrings"}, exitRegression},
		{[]string{a, slow, "--fail-above", "100", "--function", "hashStrings@http://flamedesk.test/page.html:17:21"}, exitRegression},
		{[]string{a, slow, "--fail-above", "5000", "--function", "hashStrings"}, exitOK},
		{[]string{a, slow, "--fail-above", "10", "--function", "noSuchFunction"}, exitUsage},
		{[]string{a, slow, "--function", "hashStrings"}, exitUsage}, // --function needs --fail-above
		{[]string{a}, exitUsage},
		{[]string{a, slow, "--align", "sideways"}, exitUsage},
		{[]string{a, slow, "--range", "5,1"}, exitUsage},
		{[]string{a, slow, "--sort", "colour"}, exitUsage},
		{[]string{a, slow, "--thread", "CrBrowserMain-nope"}, exitUsage},
		{[]string{a, slow, "--thread", "CrRendererMain"}, exitOK},
		{[]string{a, node, "--align", "navigation"}, exitInput}, // a .cpuprofile has no navigation
		{[]string{a, diffFile("missing.json")}, exitInput},
		{[]string{a, slow, "--transform", "focus-function:runWork", "--top", "3", "--sort", "running-b"}, exitOK},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		if code := run(append([]string{"diff"}, c.args...), &out, &errb); code != c.want {
			t.Errorf("diff %v: exit %d, want %d; stderr: %s", c.args, code, c.want, errb.String())
		}
	}
}

func TestDiffCommandText(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"diff", "--top", "3", diffFile("node-a.cpuprofile.gz"), diffFile("node-slow.cpuprofile.gz")}, &out, &errb); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	lines := strings.Split(out.String(), "\n")
	header := -1
	for i, l := range lines {
		if strings.Contains(l, "Δ self") {
			header = i
		}
	}
	if header < 0 || header+4 >= len(lines) || !strings.Contains(lines[header+1], "hashStrings (file:///gen/work.js:") {
		t.Fatalf("no table led by hashStrings:\n%s", out.String())
	}
	if !strings.HasPrefix(lines[header+4], "… ") || !strings.Contains(out.String(), "(idle) left out") {
		t.Errorf("--top 3 or the idle note missing:\n%s", out.String())
	}
}

// --tree prints the merged call tree: its roots hold each side's total (top-down in running
// time, bottom-up in self time), exactly.
func TestDiffCommandTree(t *testing.T) {
	type node struct {
		Name     string      `json:"name"`
		SelfA    json.Number `json:"selfA"`
		SelfB    json.Number `json:"selfB"`
		RunningA json.Number `json:"runningA"`
		RunningB json.Number `json:"runningB"`
		Children []node      `json:"children"`
	}
	for _, invert := range []bool{false, true} {
		args := []string{"diff", "--format", "json", "--tree", diffFile("node-a.cpuprofile.gz"), diffFile("node-slow.cpuprofile.gz")}
		if invert {
			args = append(args, "--invert")
		}
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errb.String())
		}
		var d struct {
			A, B struct {
				Total json.Number `json:"total"`
			}
			Tree []node `json:"tree"`
		}
		dec := json.NewDecoder(&out)
		dec.UseNumber()
		if err := dec.Decode(&d); err != nil {
			t.Fatal(err)
		}
		var a, b int64
		for _, r := range d.Tree {
			if invert {
				a, b = a+ns(t, r.SelfA), b+ns(t, r.SelfB)
			} else {
				a, b = a+ns(t, r.RunningA), b+ns(t, r.RunningB)
			}
		}
		if a != ns(t, d.A.Total) || b != ns(t, d.B.Total) {
			t.Errorf("invert %v: roots hold %d and %d ns of %s and %s ms", invert, a, b, d.A.Total, d.B.Total)
		}
		if invert && (len(d.Tree) == 0 || d.Tree[0].Name != "hashStrings" || len(d.Tree[0].Children) == 0 || d.Tree[0].Children[0].Name != "runWork") {
			t.Errorf("bottom-up: the first root is not hashStrings called by runWork")
		}
	}
	var out, errb bytes.Buffer
	if code := run([]string{"diff", "--invert", diffFile("node-a.cpuprofile.gz"), diffFile("node-slow.cpuprofile.gz")}, &out, &errb); code != exitUsage {
		t.Errorf("--invert without --tree: exit %d", code)
	}
}

// --png draws B's thread in diff colours: the slowed function's bars are the full red.
func TestDiffCommandPNG(t *testing.T) {
	out := filepath.Join(t.TempDir(), "diff.png")
	var stdout, stderr bytes.Buffer
	args := []string{"diff", diffFile("trace-a.json.gz"), diffFile("trace-slow.json.gz"), "--align", "mark:work-start", "--range", "0,", "--png", out}
	if code := run(args, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	red := render.Light().DiffLevelColor(render.DiffLevels)
	n := 0
	bounds := img.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			if c := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA); c == red {
				n++
			}
		}
	}
	if bounds.Dx() != 1600 || bounds.Dy() != 1000 || n < 5000 {
		t.Errorf("%v image with %d pixels of the full red", bounds, n)
	}
	if code := run(append(args, "--theme", "sepia"), &stdout, &stderr); code != exitUsage {
		t.Errorf("--theme sepia: exit %d", code)
	}
}

// parseMsRange never panics, and what it accepts is an ordered pair without NaN.
func FuzzParseMsRange(f *testing.F) {
	for _, s := range []string{"0,500", ",0", "0,", "-20.5,1e3", "5,1", ",", "a,b", "1e400,2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := parseMsRange(s)
		if err == nil && !(r[0] < r[1]) {
			t.Errorf("%q accepted as %v", s, r)
		}
	})
}
