package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"flamedesk/internal/fixtures"
)

// calltreeSeedProfile writes the seed's worked example as a .cpuprofile: samples A>B>C>D>E,
// A>B>C>F>G and A>B>H>F, 1 ms apart.
func calltreeSeedProfile(t *testing.T) string {
	t.Helper()
	type frame struct {
		FunctionName string `json:"functionName"`
		ScriptID     string `json:"scriptId"`
		URL          string `json:"url"`
		LineNumber   int    `json:"lineNumber"`
		ColumnNumber int    `json:"columnNumber"`
	}
	type node struct {
		ID        int   `json:"id"`
		CallFrame frame `json:"callFrame"`
		Children  []int `json:"children,omitempty"`
	}
	var nodes []node
	add := func(name string, parent int) int {
		id := len(nodes) + 1
		cf := frame{name, "1", "https://example.com/app.js", 10 * id, 4}
		if parent == 0 {
			cf = frame{name, "0", "", -1, -1}
		} else {
			nodes[parent-1].Children = append(nodes[parent-1].Children, id)
		}
		nodes = append(nodes, node{ID: id, CallFrame: cf})
		return id
	}
	root := add("(root)", 0)
	a := add("A", root)
	b := add("B", a)
	c := add("C", b)
	e := add("E", add("D", c))
	f1 := add("F", c)
	g := add("G", f1)
	f2 := add("F", add("H", b))
	// F is one function (same name, URL and position) wherever it is called from.
	nodes[f2-1].CallFrame = nodes[f1-1].CallFrame
	profile := map[string]any{
		"nodes":      nodes,
		"startTime":  0,
		"endTime":    3000,
		"samples":    []int{e, g, f2},
		"timeDeltas": []int{0, 1000, 1000},
	}
	data, err := json.Marshal(profile)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "seed.cpuprofile")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

type calltreeJSONNode struct {
	Name     string             `json:"name"`
	URL      string             `json:"url"`
	Line     int                `json:"line"`
	Column   int                `json:"column"`
	Total    float64            `json:"total"`
	Self     float64            `json:"self"`
	Samples  int                `json:"samples"`
	Children []calltreeJSONNode `json:"children"`
}

type calltreeJSON struct {
	Units string             `json:"units"`
	Total float64            `json:"total"`
	Roots []calltreeJSONNode `json:"roots"`
}

func runCalltreeJSON(t *testing.T, args ...string) calltreeJSON {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(append([]string{"calltree", "--format", "json"}, args...), &out, &errOut)
	if code != exitOK {
		t.Fatalf("calltree %v: exit %d: %s", args, code, errOut.String())
	}
	var doc calltreeJSON
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("calltree %v: %v\n%s", args, err, out.String())
	}
	return doc
}

// draw renders the JSON tree in the seed's notation "NAME:RUNNING,SELF", two spaces per level.
func (d calltreeJSON) draw() string {
	var b strings.Builder
	var walk func(ns []calltreeJSONNode, depth int)
	walk = func(ns []calltreeJSONNode, depth int) {
		for _, n := range ns {
			fmt.Fprintf(&b, "%s%s:%g,%g\n", strings.Repeat("  ", depth), n.Name, n.Total, n.Self)
			walk(n.Children, depth+1)
		}
	}
	walk(d.Roots, 0)
	return b.String()
}

func picture(s string) string {
	lines := strings.Split(strings.Trim(s, "\n\t "), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimLeft(l, "\t")
	}
	return strings.Join(lines, "\n") + "\n"
}

// The seed's example and each of its pictured transforms, through the command line.
func TestCalltreeSeedThroughCLI(t *testing.T) {
	file := calltreeSeedProfile(t)
	cases := []struct {
		args []string
		want string
	}{
		{nil, `
			A:3,0
			  B:3,0
			    C:2,0
			      D:1,0
			        E:1,1
			      F:1,0
			        G:1,1
			    H:1,0
			      F:1,1`},
		{[]string{"--transform", "merge-call-node:A/B/C"}, `
			A:3,0
			  B:3,0
			    D:1,0
			      E:1,1
			    F:1,0
			      G:1,1
			    H:1,0
			      F:1,1`},
		{[]string{"--transform", "merge-call-node:A/B/C/D/E"}, `
			A:3,0
			  B:3,0
			    C:2,0
			      D:1,1
			      F:1,0
			        G:1,1
			    H:1,0
			      F:1,1`},
		{[]string{"--transform", "prune:A/B/C"}, `
			A:3,0
			  B:3,2
			    H:1,0
			      F:1,1`},
		{[]string{"--transform", "drop-function:C"}, `
			A:1,0
			  B:1,0
			    H:1,0
			      F:1,1`},
		{[]string{"--transform", "focus-subtree:A/B/C"}, `
			C:2,0
			  D:1,0
			    E:1,1
			  F:1,0
			    G:1,1`},
		// Transforms apply in order, each to the tree the previous one left.
		{[]string{"--transform", "merge-call-node:A/B/C", "--transform", "focus-subtree:A/B", "--transform", "drop-function:E"}, `
			B:2,0
			  F:1,0
			    G:1,1
			  H:1,0
			    F:1,1`},
		{[]string{"--invert"}, `
			E:1,1
			  D:1,0
			    C:1,0
			      B:1,0
			        A:1,0
			F:1,1
			  H:1,0
			    B:1,0
			      A:1,0
			G:1,1
			  F:1,0
			    C:1,0
			      B:1,0
			        A:1,0`},
		{[]string{"--transform", "focus-subtree-inverted:G/F", "--invert"}, `
			F:1,1
			  C:1,0
			    B:1,0
			      A:1,0`},
		{[]string{"--top", "1"}, `
			A:3,0
			  B:3,0
			    C:2,0
			      D:1,0
			        E:1,1`},
		{[]string{"--range", "1000:"}, `
			A:2,0
			  B:2,0
			    C:1,0
			      F:1,0
			        G:1,1
			    H:1,0
			      F:1,1`},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			// FILE may come before or after the flags.
			doc := runCalltreeJSON(t, append(c.args, file)...)
			if got := doc.draw(); got != picture(c.want) {
				t.Errorf("got:\n%swant:\n%s", got, picture(c.want))
			}
		})
	}
	doc := runCalltreeJSON(t, file)
	a := doc.Roots[0]
	if doc.Units != "ms" || doc.Total != 3 || a.URL != "https://example.com/app.js" || a.Samples != 3 || a.Line != 21 || a.Column != 5 {
		t.Errorf("root %+v, total %v %s", a, doc.Total, doc.Units)
	}
}

func TestCalltreeText(t *testing.T) {
	file := calltreeSeedProfile(t)
	var out, errOut bytes.Buffer
	if code := run([]string{"calltree", file, "--top", "1", "--transform", "merge-function:B"}, &out, &errOut); code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	text := out.String()
	for _, want := range []string{
		"3 samples, 3.000 ms",
		"transform 1: merge-function:B",
		"       3.000        0.000  100.0%  A (https://example.com/app.js:21:5)\n",
		"       2.000        0.000   66.7%    C (https://example.com/app.js:41:5)\n",
		"       1.000                33.3%    … 1 more\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text output lacks %q:\n%s", want, text)
		}
	}
}

func TestCalltreeErrors(t *testing.T) {
	file := calltreeSeedProfile(t)
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{}, exitUsage, "exactly one FILE"},
		{[]string{file, "--format", "xml"}, exitUsage, "--format"},
		{[]string{file, "--range", "5:1"}, exitUsage, "after the start"},
		{[]string{file, "--thread", "x"}, exitUsage, "PID:TID"},
		{[]string{file, "--thread", "7:7"}, exitUsage, "profiled threads: 1:1"},
		{[]string{file, "--transform", "merge-call-node:A/Q"}, exitUsage, `no function "Q" below A`},
		{[]string{file, "--transform", "fold:A"}, exitUsage, "unknown kind"},
		{[]string{filepath.Join(t.TempDir(), "missing.json")}, exitInput, "missing.json"},
	}
	for _, c := range cases {
		var out, errOut bytes.Buffer
		code := run(append([]string{"calltree"}, c.args...), &out, &errOut)
		if code != c.code || !strings.Contains(errOut.String(), c.msg) {
			t.Errorf("calltree %v: exit %d, %q; want exit %d mentioning %q", c.args, code, errOut.String(), c.code, c.msg)
		}
	}
	var out bytes.Buffer
	if code := run([]string{"calltree", "--help"}, &out, &out); code != exitOK || !strings.Contains(out.String(), "--transform") {
		t.Errorf("--help: exit %d, %q", code, out.String())
	}
}

// On real files the JSON tree adds up: the self times of all nodes give the total, and each
// node's running time is its self time plus its children's.
func TestCalltreeFixtures(t *testing.T) {
	for _, name := range []string{
		"upstream/devtools-node-fibonacci-website.cpuprofile.gz",
		"upstream/devtools-two-workers.json.gz",
		"generated/gen-selfprofile-small.json",
	} {
		t.Run(name, func(t *testing.T) {
			file := fixtures.Path(t, "fixtures", name)
			for _, invert := range []bool{false, true} {
				args := []string{file}
				if invert {
					args = append(args, "--invert")
				}
				doc := runCalltreeJSON(t, args...)
				if len(doc.Roots) == 0 || doc.Total <= 0 {
					t.Fatalf("empty tree: %+v", doc)
				}
				var selfSum float64
				var check func(ns []calltreeJSONNode)
				check = func(ns []calltreeJSONNode) {
					for _, n := range ns {
						selfSum += n.Self
						sum := n.Self
						for _, c := range n.Children {
							sum += c.Total
						}
						if !invert && math.Abs(sum-n.Total) > 1e-6 {
							t.Errorf("%s: running %v ≠ self + children %v", n.Name, n.Total, sum)
						}
						check(n.Children)
					}
				}
				check(doc.Roots)
				if math.Abs(selfSum-doc.Total) > 1e-6*math.Max(1, doc.Total) {
					t.Errorf("invert=%v: Σ self %v ≠ total %v", invert, selfSum, doc.Total)
				}
			}
		})
	}
}

// --range counts from the start of the trace as DevTools bounds it (the ruler's 0), and "@" marks a
// time on the trace's clock: the same window written both ways gives the same tree. devtools-web-dev
// has an instant 26 s before the recording, which must not move the origin.
func TestCalltreeRangeFromTraceStart(t *testing.T) {
	file := fixtures.Path(t, "fixtures", "upstream", "devtools-web-dev.json.gz")
	const boundsMin = 1020034823047 // conformance/golden/devtools-web-dev.timelines.json.gz
	rel := runCalltreeJSON(t, file, "--range", "100000:600000")
	abs := runCalltreeJSON(t, file, "--range", fmt.Sprintf("@%d:@%d", boundsMin+100000, boundsMin+600000))
	if rel.Total == 0 || rel.draw() != abs.draw() {
		t.Errorf("relative range: total %g ms; absolute: %g ms; trees equal: %v", rel.Total, abs.Total, rel.draw() == abs.draw())
	}
	all := runCalltreeJSON(t, file)
	if rel.Total >= all.Total {
		t.Errorf("a 0.5 s window holds %g ms of %g", rel.Total, all.Total)
	}
}
