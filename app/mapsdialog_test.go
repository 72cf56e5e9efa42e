package app

import (
	"context"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"flamedesk/app/dialog"
	"flamedesk/core"
	"flamedesk/core/pipeline"
	"flamedesk/internal/mapdirs"
	"flamedesk/timeline"
)

// sourceMapsButtonPoint finds the toolbar's "Source maps…" button by hovering along the toolbar;
// ok is false when it is not shown.
func (h *harness) sourceMapsButtonPoint() (image.Point, bool) {
	for x := 2; x < h.size.X; x += 6 {
		p := image.Pt(x, toolbarHeight/2)
		h.move(p)
		if h.u.toolbar.sourceMaps.Hovered() {
			return p, true
		}
	}
	return image.Point{}, false
}

// TestSourceMapsFolderFromTheToolbar opens the rollup trace, whose map only a folder provides:
// the toolbar's "Source maps…" asks for a folder, the window remembers it for the file in its
// config directory and loads the file again, and the chart then names the TypeScript function
// declared in gen/src.
func TestSourceMapsFolderFromTheToolbar(t *testing.T) {
	const fn, file = "countPrimesBelow", "geometry.ts"
	declaredLine(t, file, fn) // the name comes from the TypeScript source, not from our output
	trace := filepath.Join(sourceMapFixtures, "traces", "rollup.trace.json.gz")
	folder, err := filepath.Abs(sourceMapFixtures)
	if err != nil {
		t.Fatal(err)
	}
	var asked []dialog.Options
	config := t.TempDir()
	h := newHarnessWith(t, Options{Source: SourceFromPath(trace), Load: pipeline.Open, ConfigDir: config,
		OpenDialog: func(_ context.Context, opts dialog.Options) (string, error) {
			asked = append(asked, opts)
			return folder, nil
		}})
	before := h.u.doc
	if before == nil || before.trace.Original != nil {
		t.Fatal("the rollup trace should open without its map: the test would prove nothing")
	}
	p, ok := h.sourceMapsButtonPoint()
	if !ok {
		t.Fatal("no Source maps… button for a trace with JS frames")
	}
	h.click(p, 0)
	h.idle()
	if len(asked) != 1 || !asked[0].Folder {
		t.Fatalf("the dialog was asked %+v, want one folder choice", asked)
	}
	store := filepath.Join(config, "sourcemaps.json")
	if got := mapdirs.Lookup(store, trace); got != folder {
		t.Errorf("mapdirs remembers %q for the trace, want %q", got, folder)
	}
	d := h.u.doc
	if d == before || d == nil || d.trace.Original == nil || d.maps == nil || len(d.maps.Maps) != 1 {
		t.Fatal("the file was not loaded again with the chosen folder's map")
	}
	ref := h.visibleEntry(func(ref timeline.EntryRef) bool {
		ct := d.model.Tracks[ref.Track].Core
		return ct.KindAt(int(ref.Entry)) == core.EntryProfileCall &&
			d.trace.Strings.Get(d.trace.Shown(ct.FrameAt(int(ref.Entry)), true).FunctionName) == fn
	})
	if !ref.Valid() {
		t.Fatalf("no call of %s on screen after the folder was chosen", fn)
	}
	generated := d.trace.Strings.Get(d.trace.Frames[d.model.Tracks[ref.Track].Core.FrameAt(int(ref.Entry))].FunctionName)
	if generated == fn {
		t.Fatalf("the bundle kept the name %q: the fixture no longer tests renaming", fn)
	}
	h.move(h.entryPoint(ref))
	h.frame()
	if tip := strings.Join(tooltipLines(d, d.hover), "\n"); !strings.Contains(tip, fn) || !strings.Contains(tip, file) {
		t.Errorf("the chart's tooltip is %q, want %s from %s", tip, fn, file)
	}
}

// TestNoSourceMapsButtonWithoutJSFrames: a trace of tasks only, with no JS frame for a map to
// rename, offers no folder; the rollup trace, whose frames name bundle.js, does.
func TestNoSourceMapsButtonWithoutJSFrames(t *testing.T) {
	tasks := filepath.Join(t.TempDir(), "tasks.json")
	events := `{"traceEvents":[` +
		`{"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"CrRendererMain"}},` +
		`{"ph":"X","name":"RunTask","cat":"devtools.timeline","ts":1000,"dur":500,"pid":1,"tid":1}]}`
	if err := os.WriteFile(tasks, []byte(events), 0o644); err != nil {
		t.Fatal(err)
	}
	h := newHarnessWith(t, Options{Source: SourceFromPath(tasks), Load: pipeline.Open})
	if h.u.doc == nil {
		t.Fatalf("the tasks-only trace did not open: %s", h.u.banner)
	}
	if _, ok := h.sourceMapsButtonPoint(); ok {
		t.Error("the Source maps… button shows for a trace without JS frames")
	}
	withJS := newHarnessWith(t, Options{Source: SourceFromPath(filepath.Join(sourceMapFixtures, "traces", "rollup.trace.json.gz")),
		Load: pipeline.Open})
	if _, ok := withJS.sourceMapsButtonPoint(); !ok {
		t.Error("no Source maps… button for the rollup trace")
	}
}
