package app

import (
	"image"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"gioui.org/widget"

	"flamedesk/core"
	"flamedesk/core/calltree"
	"flamedesk/core/pipeline"
	"flamedesk/core/sourcemap"
	"flamedesk/timeline"
)

// bundledCases are the bundled recordings of testdata/sourcemaps, each with where its map is
// found: the trace itself, a data: URL, or the folder.
var bundledCases = []struct {
	file      string
	folder    bool
	fromTicks bool
}{
	{"traces/esbuild.trace.json.gz", false, false}, // the bundle's text and its data: URL
	{"traces/webpack.trace.json.gz", false, false}, // metadata.sourceMaps
	{"traces/rollup.trace.json.gz", true, false},   // the folder; no sourcesContent
	{"traces/parcel.trace.json.gz", true, false},   // the folder, by the script's own name
	{"profiles/esbuild-plain.cpuprofile.gz", true, true},
}

// openBundled opens one of bundledCases in a window, with the fixtures' folder when it needs it.
func openBundled(t *testing.T, file string, folder bool) *harness {
	opts := Options{Source: SourceFromPath(filepath.Join(sourceMapFixtures, filepath.FromSlash(file))), Load: pipeline.Open}
	if folder {
		opts.SourceMaps = sourceMapFixtures
	}
	h := newHarnessWith(t, opts)
	if h.u.doc == nil || h.u.doc.trace.Original == nil {
		t.Fatalf("%s: no source map applied", file)
	}
	return h
}

// selectCallOf brings a call of the function with this original name into view and clicks it.
func (h *harness) selectCallOf(name string) timeline.EntryRef {
	h.t.Helper()
	d := h.u.doc
	var best timeline.EntryRef
	bestDur := -1.0
	for _, ref := range d.model.Search(name).Matches {
		ct := d.model.Tracks[ref.Track].Core
		if ct.KindAt(int(ref.Entry)) != core.EntryProfileCall || d.trace.Strings.Get(d.trace.Shown(ct.FrameAt(int(ref.Entry)), true).FunctionName) != name {
			continue
		}
		if dur := d.model.EntryEnd(ref) - d.model.EntryStart(ref); dur > bestDur {
			best, bestDur = ref, dur
		}
	}
	if bestDur < 0 {
		h.t.Fatalf("no call of %s", name)
	}
	h.u.reveal(best)
	h.idle()
	h.click(h.entryPoint(best), 0)
	h.idle()
	if d.selected != best {
		h.t.Fatalf("a click on %s selected %+v", name, d.selected)
	}
	return best
}

// openSourceTab clicks the bottom panel's Source tab.
func (h *harness) openSourceTab() {
	h.t.Helper()
	tp := &h.u.panel.tree
	// The pointer moves to the panel and rests before it clicks, as a person's would.
	h.move(h.u.panel.origin.Add(h.u.panel.treeArea.Min))
	h.wait(300 * time.Millisecond)
	h.click(h.u.panel.origin.Add(h.u.panel.treeArea.Min).Add(tp.sourceTab), 0)
	h.idle()
	if !tp.showSource {
		h.t.Fatalf("a click at the Source tab (%v in the panel) did not open it", tp.sourceTab)
	}
}

// expectedLines is what "flamedesk source FILE countPrimesBelow" computes: the function by its
// name in the profile's function table, its lines from core/sourcemap, the text annotated.
func expectedLines(t *testing.T, d *document, profile int, name string) (sourcemap.LineTimes, []sourcemap.SourceLine) {
	t.Helper()
	tr := d.trace
	p := &tr.Profiles[profile]
	funcs := calltree.NewFunctionsNamed(tr, p, true)
	fn := calltree.NoFunc
	for f := calltree.FuncID(0); int(f) < funcs.Len(); f++ {
		if funcs.Name(f) == name && !funcs.IsResource(f) {
			fn = f
			break
		}
	}
	if fn == calltree.NoFunc {
		t.Fatalf("no function %s in profile %d", name, profile)
	}
	isFunc := func(f core.FrameID) bool { return funcs.OfFrame(f) == fn }
	lt := sourcemap.Lines(tr, d.maps, p, isFunc, true)
	for _, f := range p.NodeFrame {
		if f != core.NoFrame && isFunc(f) {
			if src, ok := d.maps.SourceOf(f, true); ok {
				lines, _ := sourcemap.Annotate(src.Text, lt)
				return lt, lines
			}
			break
		}
	}
	return lt, nil
}

// TestSourceViewOfBundledFunctions selects countPrimesBelow in the chart of each bundler's
// recording and opens the Source tab: the TypeScript file, each line's self time as core/sourcemap
// counts it, the hottest line (the inner loop's) scrolled into view; the details name the
// function where gen/src declares it.
func TestSourceViewOfBundledFunctions(t *testing.T) {
	const fn, file = "countPrimesBelow", "geometry.ts"
	decl := declaredLine(t, file, fn)
	disk := readFixtureLines(t, file)
	for _, c := range bundledCases {
		t.Run(c.file, func(t *testing.T) {
			h := openBundled(t, c.file, c.folder)
			d := h.u.doc
			ref := h.selectCallOf(fn)

			// The details: the original name, file and line.
			lines := h.u.panel.details.lines
			wantSource := file + ":" + strconv.Itoa(decl) + ":"
			if len(lines) == 0 || lines[0].value != fn {
				t.Fatalf("details %+v, want %s first", lines, fn)
			}
			if src := detailValue(lines, "Source"); !strings.HasPrefix(src, wantSource) {
				t.Errorf("details place %s at %q, want %s…", fn, src, wantSource)
			}

			h.openSourceTab()
			v := &h.u.panel.tree.source
			s := v.shown
			if s == nil {
				t.Fatal("the Source tab shows nothing for the selected call")
			}
			if s.title != fn || path.Base(s.lt.File) != file || !s.lt.Original || s.lt.FromTicks != c.fromTicks {
				t.Fatalf("the Source tab shows %s in %s (original %v, from ticks %v), want %s in %s", s.title, s.lt.File, s.lt.Original, s.lt.FromTicks, fn, file)
			}
			if s.lines == nil {
				t.Fatalf("no source text: %s", s.reason)
			}
			if len(s.lines) != len(disk) {
				t.Fatalf("%d lines shown, %s has %d", len(s.lines), file, len(disk))
			}
			profile := int(d.model.Tracks[ref.Track].Core.Profile)
			wantLT, wantLines := expectedLines(t, d, profile, fn)
			if s.lt.Total != wantLT.Total || len(wantLines) != len(s.lines) {
				t.Fatalf("self %v µs over %d lines, core/sourcemap counts %v µs over %d", s.lt.Total, len(s.lines), wantLT.Total, len(wantLines))
			}
			hottest, hot := 0, 0.0
			for i, l := range s.lines {
				if l.Text != displayLine(disk[i]) {
					t.Fatalf("line %d shows %q, %s has %q", i+1, l.Text, file, disk[i])
				}
				if l.Self != wantLines[i].Self || l.Samples != wantLines[i].Samples {
					t.Errorf("line %d: %v µs (%v samples), core/sourcemap says %v µs (%v)", i+1, l.Self, l.Samples, wantLines[i].Self, wantLines[i].Samples)
				}
				if l.Self > 0 && (i+1 < decl || i+1 > decl+20) {
					t.Errorf("line %d has time but is not in %s (declared on %d)", i+1, fn, decl)
				}
				if l.Self > hot {
					hottest, hot = i+1, l.Self
				}
			}
			if hottest == 0 || s.hottest != hottest || !strings.Contains(disk[hottest-1], "divisor") {
				t.Errorf("hottest line %d (shown as %d), not the inner loop's", hottest, s.hottest)
			}
			if s.funcLine != decl {
				t.Errorf("the function's line is %d, declared on %d", s.funcLine, decl)
			}
			pos := v.list.Position
			if hottest-1 < pos.First || hottest-1 >= pos.First+pos.Count {
				t.Errorf("the hottest line %d is not on screen (rows %d to %d)", hottest, pos.First+1, pos.First+pos.Count)
			}
		})
	}
}

// readFixtureLines reads gen/src/FILE line by line.
func readFixtureLines(t *testing.T, file string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(sourceMapFixtures, "gen", "src", file))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

func detailValue(lines []detailLine, label string) string {
	for _, l := range lines {
		if l.label == label {
			return l.value
		}
	}
	return ""
}

// fakeEditor sets $VISUAL to a script that writes its arguments, one a line, to the file it
// returns.
func fakeEditor(t *testing.T) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake editor is a shell script")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "args")
	script := filepath.Join(dir, "fake-editor")
	text := "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > " + out + ".tmp && mv " + out + ".tmp " + out + "\n"
	if err := os.WriteFile(script, []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("VISUAL", script)
	t.Setenv("EDITOR", "")
	return out
}

// editorArgs waits for the fake editor's arguments.
func editorArgs(t *testing.T, out string) []string {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		b, err := os.ReadFile(out)
		if err == nil {
			return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		}
		if time.Now().After(deadline) {
			t.Fatal("the editor was not started")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestOpenInEditor: the Source tab's "Open in editor" runs $VISUAL +LINE FILE on the file on disk
// at the hottest line (rollup's map has no sourcesContent, so the TypeScript is read from disk),
// and a click on a line opens that line instead; a source only the map carries (webpack's
// sourcesContent) is opened as a copy with the same text; the details' button opens the
// function's own line.
func TestOpenInEditor(t *testing.T) {
	const fn, file = "countPrimesBelow", "geometry.ts"
	decl := declaredLine(t, file, fn)
	want, err := os.ReadFile(filepath.Join(sourceMapFixtures, "gen", "src", file))
	if err != nil {
		t.Fatal(err)
	}
	out := fakeEditor(t)

	h := openBundled(t, "traces/rollup.trace.json.gz", true)
	h.selectCallOf(fn)
	h.openSourceTab()
	v := &h.u.panel.tree.source
	if v.shown == nil || v.shown.hottest == 0 || v.shown.onDisk == "" {
		t.Fatalf("the Source tab has no hottest line or no file on disk: %+v", v.shown)
	}
	view := h.u.panel.origin.Add(h.u.panel.treeArea.Min).Add(image.Pt(0, v.top))
	editorButton := view.Add(v.editorAt)
	h.click(editorButton, 0)
	h.idle()
	args := editorArgs(t, out)
	checkEditorArgs(t, args, v.shown.hottest, string(want))
	if got, _ := filepath.Abs(args[1]); got != mustAbs(t, v.shown.onDisk) {
		t.Errorf("the editor opened %s, not the file on disk %s", args[1], v.shown.onDisk)
	}
	if !strings.Contains(v.message, "line "+strconv.Itoa(v.shown.hottest)) {
		t.Errorf("the note after opening is %q", v.message)
	}

	// A click on the declaration's line, then the button: that line.
	os.Remove(out)
	pos := v.list.Position
	if decl-1 < pos.First || decl-1 >= pos.First+pos.Count {
		t.Fatalf("the declaration's line %d is not on screen (rows %d to %d)", decl, pos.First+1, pos.First+pos.Count)
	}
	h.click(view.Add(image.Pt(300, v.headerH+(decl-1-pos.First)*18+9-pos.Offset)), 0)
	h.idle()
	if v.line != decl {
		t.Fatalf("a click on line %d chose line %d", decl, v.line)
	}
	h.click(editorButton, 0)
	h.idle()
	checkEditorArgs(t, editorArgs(t, out), decl, string(want))

	// webpack's map carries the TypeScript: no file on disk without the folder, so a copy.
	os.Remove(out)
	w := openBundled(t, "traces/webpack.trace.json.gz", false)
	w.selectCallOf(fn)
	// The details' own button: the function's line.
	w.click(w.detailsButton(&w.u.panel.details.openEditor), 0)
	if w.u.panel.tree.source.run.Busy() {
		w.idle()
	}
	w.idle()
	args = editorArgs(t, out)
	checkEditorArgs(t, args, decl, string(want))
	if !strings.HasPrefix(mustAbs(t, args[1]), mustAbs(t, os.TempDir())) {
		t.Errorf("the copy is at %s, not in the temporary folder", args[1])
	}
	os.RemoveAll(filepath.Dir(args[1]))
}

func mustAbs(t *testing.T, p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	if r, err := filepath.EvalSymlinks(a); err == nil {
		return r
	}
	return a
}

// checkEditorArgs: "+LINE FILE", and FILE holds the source.
func checkEditorArgs(t *testing.T, args []string, line int, text string) {
	t.Helper()
	if len(args) != 2 || args[0] != "+"+strconv.Itoa(line) {
		t.Fatalf("the editor got %q, want +%d FILE", args, line)
	}
	b, err := os.ReadFile(args[1])
	if err != nil || string(b) != text {
		t.Errorf("the editor's file %s (%v) does not hold the source", args[1], err)
	}
}

// detailsButton finds a button of the details' last line by moving the pointer along it until
// the button says it is hovered.
func (h *harness) detailsButton(c *widget.Clickable) image.Point {
	h.t.Helper()
	p := &h.u.panel
	i := len(p.details.lines) - 1
	if i < 0 || !p.details.lines[i].sourceButtons || i >= len(p.details.lineY) {
		h.t.Fatalf("the details end with no buttons: %+v", p.details.lines)
	}
	for x := 8; x < 500; x += 12 {
		at := p.origin.Add(image.Pt(x, 4+p.details.lineY[i]+14))
		h.move(at)
		if c.Hovered() {
			return at
		}
	}
	h.t.Fatal("no such button in the details")
	return image.Point{}
}

// TestSourceViewSaysWhyNoSource: rollup's map, alone in a folder, has no sourcesContent and the
// TypeScript is nowhere under the folder: the Source tab says so, and still lists the lines
// with their times.
func TestSourceViewSaysWhyNoSource(t *testing.T) {
	dir := t.TempDir()
	b, err := os.ReadFile(filepath.Join(sourceMapFixtures, "out", "rollup", "bundle.js.map"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bundle.js.map"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	h := newHarnessWith(t, Options{Source: SourceFromPath(filepath.Join(sourceMapFixtures, "traces", "rollup.trace.json.gz")),
		Load: pipeline.Open, SourceMaps: dir})
	if h.u.doc.trace.Original == nil {
		t.Fatal("the map in the folder was not applied")
	}
	// Without the TypeScript, terser's anonymous functions get no names back: runWorkloadOnce
	// keeps its own in the map's names.
	h.selectCallOf("runWorkloadOnce")
	h.openSourceTab()
	s := h.u.panel.tree.source.shown
	if s == nil || s.lines != nil {
		t.Fatalf("the Source tab shows %+v, want no text", s)
	}
	for _, want := range []string{"no sourcesContent", "index.ts", "not found under " + dir} {
		if !strings.Contains(s.reason, want) {
			t.Errorf("the reason %q does not say %q", s.reason, want)
		}
	}
	if len(s.lt.Lines) == 0 || s.hottest == 0 {
		t.Errorf("no lines with time listed without the text")
	}
	// Open in editor has nothing to open, and says why over the chart.
	v := &h.u.panel.tree.source
	h.click(h.u.panel.origin.Add(h.u.panel.treeArea.Min).Add(image.Pt(0, v.top)).Add(v.editorAt), 0)
	h.idle()
	if !strings.HasPrefix(h.u.banner, "Open in editor: no source") || !strings.Contains(h.u.banner, "no sourcesContent") {
		t.Errorf("after Open in editor the banner is %q", h.u.banner)
	}
}

// TestFolderThatMatchesNothing: a source map folder with no map for the trace's scripts says so
// over the chart, and the status bar does not call it a failed open.
func TestFolderThatMatchesNothing(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "other.js.map"), []byte(`{"version":3,"sources":["x.ts"],"names":[],"mappings":"AAAA"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	h := newHarnessWith(t, Options{Source: SourceFromPath(filepath.Join(sourceMapFixtures, "traces", "rollup.trace.json.gz")),
		Load: pipeline.Open, SourceMaps: dir})
	if h.u.doc == nil || h.u.doc.trace.Original != nil {
		t.Fatal("the file did not open, or a map applied")
	}
	if !strings.Contains(h.u.banner, "no source map under "+dir+" matched") {
		t.Errorf("banner %q", h.u.banner)
	}
	if h.u.banner == "" || h.u.banner != h.u.bannerNote {
		t.Errorf("the note is shown as a failed open")
	}
}

// TestCompareFollowsNames: the Compare tab names functions as the toolbar's switch says.
func TestCompareFollowsNames(t *testing.T) {
	trace := SourceFromPath(filepath.Join(sourceMapFixtures, "traces", "webpack.trace.json.gz"))
	h := newHarnessWith(t, Options{Source: trace, Compare: trace, Load: pipeline.Open})
	names := func() map[string]bool {
		c := &h.u.panel.compare
		if c.diff == nil {
			t.Fatalf("no comparison: %s", c.message)
		}
		out := map[string]bool{}
		for i := range c.diff.Rows {
			out[c.diff.Describe(&c.diff.Rows[i])] = true
		}
		return out
	}
	has := func(m map[string]bool, fn string) bool {
		for n := range m {
			if strings.HasPrefix(n, fn) {
				return true
			}
		}
		return false
	}
	if !has(names(), "countPrimesBelow") {
		t.Fatal("the comparison does not name countPrimesBelow with original names")
	}
	p, ok := h.namesSwitchPoint()
	if !ok {
		t.Fatal("no names switch")
	}
	h.click(p, 0)
	h.idle()
	if has(names(), "countPrimesBelow") {
		t.Error("with generated names the comparison still names countPrimesBelow")
	}
}
