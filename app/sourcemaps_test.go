package app

import (
	"bufio"
	"image"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"gioui.org/io/key"

	"flamedesk/core"
	"flamedesk/core/pipeline"
	"flamedesk/internal/mapdirs"
	"flamedesk/timeline"
)

// sourceMapFixtures is testdata/sourcemaps of the repository: a TypeScript program bundled and
// profiled (see its README.md).
var sourceMapFixtures = filepath.Join("..", "testdata", "sourcemaps")

// declaredLine is the 1-based line of gen/src/file that declares function name, read from the
// TypeScript itself.
func declaredLine(t *testing.T, file, name string) int {
	t.Helper()
	f, err := os.Open(filepath.Join(sourceMapFixtures, "gen", "src", file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if strings.Contains(sc.Text(), "function "+name+"(") {
			return n
		}
	}
	t.Fatalf("%s declares no function %s", file, name)
	return 0
}

// namesSwitchPoint finds the toolbar's names switch by moving the pointer along the toolbar until
// the switch says it is hovered; ok is false when it is not shown.
func (h *harness) namesSwitchPoint() (image.Point, bool) {
	for x := 2; x < h.size.X; x += 24 {
		p := image.Pt(x, toolbarHeight/2)
		h.move(p)
		if h.u.toolbar.names.Hovered() {
			return p, true
		}
	}
	return image.Point{}, false
}

// TestOriginalNamesFromAnEmbeddedMap opens the webpack trace, whose source map DevTools embedded
// in the trace: the chart's tooltip, the details and the call tree name the TypeScript function
// and its file; the toolbar's switch brings back the minified name, and is remembered.
func TestOriginalNamesFromAnEmbeddedMap(t *testing.T) {
	const fn, file = "countPrimesBelow", "geometry.ts"
	line := declaredLine(t, file, fn)
	h := newHarnessWith(t, Options{Source: SourceFromPath(filepath.Join(sourceMapFixtures, "traces", "webpack.trace.json.gz")),
		Load: pipeline.Open})
	d := h.u.doc
	if d == nil || d.trace.Original == nil || d.maps == nil || len(d.maps.Maps) != 1 {
		t.Fatalf("no source map applied at load (doc %v)", d != nil)
	}
	ref := h.visibleEntry(func(ref timeline.EntryRef) bool {
		ct := d.model.Tracks[ref.Track].Core
		return ct.KindAt(int(ref.Entry)) == core.EntryProfileCall &&
			d.trace.Strings.Get(d.trace.Shown(ct.FrameAt(int(ref.Entry)), true).FunctionName) == fn
	})
	if !ref.Valid() {
		t.Fatalf("no call of %s on screen", fn)
	}
	generated := d.trace.Strings.Get(d.trace.Frames[d.model.Tracks[ref.Track].Core.FrameAt(int(ref.Entry))].FunctionName)
	if generated == "" {
		generated = "(anonymous)" // webpack's terser made the function an anonymous one
	}
	if generated == fn {
		t.Fatalf("the minified bundle kept the name %q: the fixture no longer tests renaming", fn)
	}

	at := h.entryPoint(ref)
	h.move(at)
	tip := strings.Join(tooltipLines(d, d.hover), "\n")
	if !strings.Contains(tip, fn) || !strings.Contains(tip, file) || strings.Contains(tip, generated) {
		t.Errorf("tooltip %q, want %s from %s", tip, fn, file)
	}
	h.click(at, 0)
	h.idle()
	lines := h.u.panel.details.lines
	wantSource := file + ":" + strconv.Itoa(line) + ":"
	var source, gen string
	for _, l := range lines {
		switch l.label {
		case "Source":
			source = l.value
		case "Generated":
			gen = l.value
		}
	}
	if len(lines) == 0 || lines[0].value != fn || !strings.HasPrefix(source, wantSource) {
		t.Fatalf("details %+v, want %s at %s…", lines, fn, wantSource)
	}
	if !strings.HasPrefix(gen, "bundle.js:") || !strings.HasSuffix(gen, "  "+generated) {
		t.Errorf("details show the generated place %q, want bundle.js:… and the name %s", gen, generated)
	}
	if !treeNames(h, fn) {
		t.Errorf("the call tree has no row %s", fn)
	}

	h.press("F", key.ModShortcut)
	h.typeText(fn)
	h.idle()
	if r := d.search; r == nil || !r.Contains(ref) {
		t.Fatalf("searching for %s does not find its call", fn)
	}

	p, ok := h.namesSwitchPoint()
	if !ok {
		t.Fatal("no names switch in the toolbar")
	}
	h.click(p, 0)
	h.idle()
	if !h.u.settings.GeneratedNames || !h.u.config.loadSettings().GeneratedNames {
		t.Fatal("the switch did not store the generated names in the settings")
	}
	h.move(at)
	tip = strings.Join(tooltipLines(d, d.hover), "\n")
	if !strings.Contains(tip, generated) || strings.Contains(tip, fn) || !strings.Contains(tip, "bundle.js") {
		t.Errorf("with generated names the tooltip is %q, want %s in bundle.js", tip, generated)
	}
	if r := d.search; r == nil || r.Query != fn || r.Contains(ref) {
		t.Errorf("with generated names the search for %s was not run again by the engine's names", fn)
	}
	if treeNames(h, fn) {
		t.Errorf("with generated names the call tree still names %s", fn)
	}
	if l := h.u.panel.details.lines; len(l) == 0 || l[0].value != generated {
		t.Errorf("with generated names the details are %+v, want %s first", l, generated)
	}
}

// TestNoNamesSwitchWithoutAMap: a trace that no map applies to has no names switch.
func TestNoNamesSwitchWithoutAMap(t *testing.T) {
	h := newHarness(t, SourceFromPath(fixture(t, "generated", smallTrace)))
	if h.u.doc.trace.Original != nil {
		t.Skip("a source map applied to the small trace")
	}
	if _, ok := h.namesSwitchPoint(); ok {
		t.Error("the names switch shows though no map applied")
	}
}

// treeNames reports whether a row of the call tree names fn.
func treeNames(h *harness, fn string) bool {
	for _, r := range h.u.panel.tree.rows {
		if r.name == fn || strings.HasPrefix(r.name, fn+" ") {
			return true
		}
	}
	return false
}

// TestRememberedFolderApplies: the rollup trace names its map without carrying it; the folder
// remembered for the file (mapdirs, in the window's config directory) is searched at load.
func TestRememberedFolderApplies(t *testing.T) {
	trace := filepath.Join(sourceMapFixtures, "traces", "rollup.trace.json.gz")
	config := t.TempDir()
	store := filepath.Join(config, "sourcemaps.json")
	if err := mapdirs.Remember(store, trace, sourceMapFixtures, time.Now()); err != nil {
		t.Fatal(err)
	}
	h := newHarnessWith(t, Options{Source: SourceFromPath(trace), Load: pipeline.Open, ConfigDir: config})
	if d := h.u.doc; d == nil || d.trace.Original == nil || len(d.maps.Maps) != 1 {
		t.Fatal("the remembered folder's map was not applied")
	}
	if _, ok := h.namesSwitchPoint(); !ok {
		t.Error("no names switch though a map applied")
	}

	plain := newHarnessWith(t, Options{Source: SourceFromPath(trace), Load: pipeline.Open})
	if plain.u.doc.trace.Original != nil {
		t.Error("a map applied to the rollup trace without its folder: the test proves nothing")
	}
}

// TestComparedProfileIsMappedToo: with A and B both the webpack trace, B gets its embedded map
// as A does, so that their functions, compared by name, meet.
func TestComparedProfileIsMappedToo(t *testing.T) {
	trace := SourceFromPath(filepath.Join(sourceMapFixtures, "traces", "webpack.trace.json.gz"))
	h := newHarnessWith(t, Options{Source: trace, Compare: trace, Load: pipeline.Open})
	b := h.u.panel.compare.traceB
	if b == nil {
		t.Fatal("the compared profile did not load")
	}
	if b.Original == nil {
		t.Fatal("no source map applied to the compared profile")
	}
}
