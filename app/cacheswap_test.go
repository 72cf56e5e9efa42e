package app

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
	"unsafe"

	"gioui.org/io/key"

	"flamedesk/core/cache"
	"flamedesk/core/pipeline"
	"flamedesk/timeline"
)

// newCachingHarness opens path in a window that writes its cache to dir, as the window of
// `flamedesk FILE` does (cmd/flamedesk/gui.go), and returns it once the file is shown.
func newCachingHarness(t *testing.T, path, dir string) *harness {
	later := new(Later)
	opts := pipeline.Options{Cache: cache.Dir{Path: dir}, Defer: later.Add, Written: later.Written}
	h := newHarnessWith(t, Options{Source: SourceFromPath(path), Load: opts.Open, Later: later})
	h.u.state = &stateWriter{path: filepath.Join(t.TempDir(), "state.json")}
	return h
}

// shown is what the window shows: the chart's draw list and the test state (view, selection,
// details, search, warnings, tracks, call tree rows), each laid out anew.
func (h *harness) shown() (drawList, state string) {
	h.t.Helper()
	h.u.chart.invalidate()
	h.u.state.last = nil
	h.frame()
	b, err := os.ReadFile(h.u.state.path)
	if err != nil {
		h.t.Fatal(err)
	}
	return fmt.Sprintf("%+v", h.u.chart.list), string(b)
}

// runLater runs the work the window defers until a loaded chart is shown (the cache write and its
// read-back), as the window's loop does after a frame, then frames until it is done.
func (h *harness) runLater(done func() bool) {
	h.t.Helper()
	released := make(chan struct{}, 1)
	h.u.opts.Later.start(func() { released <- struct{}{} })
	select {
	case <-released:
	case <-time.After(60 * time.Second):
		h.t.Fatal("the cache write did not end")
	}
	deadline := time.Now().Add(10 * time.Second)
	for h.frame(); !done(); h.frame() {
		if time.Now().After(deadline) {
			h.t.Fatal("the document was not moved onto its cache file")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestDocumentMovedOntoItsCacheFileShowsTheSame: after the cache write the window's trace uses the
// file's mapped columns instead of its heap copy, and the chart, the selection, its details, the
// search and the call tree are exactly what they were.
func TestDocumentMovedOntoItsCacheFileShowsTheSame(t *testing.T) {
	h := newCachingHarness(t, fixture(t, "generated", "gen-trace-medium-reload.json.gz"), t.TempDir())
	d := h.u.doc
	ref := h.visibleEntry(func(r timeline.EntryRef) bool { return d.model.EntryName(r) != "" })
	if !ref.Valid() {
		t.Fatal("no named entry on screen")
	}
	h.click(h.entryPoint(ref), 0)
	h.press("F", key.ModShortcut)
	h.typeText(d.model.EntryName(ref))
	h.press(key.NameReturn, 0)
	h.idle()
	if d.search == nil || d.search.Len() == 0 || !d.selected.Valid() || h.u.panel.tree.tree == nil {
		t.Fatal("no search, selection or call tree to compare")
	}
	wantList, wantState := h.shown()
	heapTs := unsafe.SliceData(d.trace.Events.Ts)

	h.runLater(func() bool { return d.swapped })
	if h.u.doc != d {
		t.Fatal("the swap replaced the document")
	}
	if unsafe.SliceData(d.trace.Events.Ts) == heapTs {
		t.Fatal("the event columns are still the loaded ones")
	}
	gotList, gotState := h.shown()
	if gotState != wantState {
		t.Errorf("the window's state changed with the swap:\n got %s\nwant %s", gotState, wantState)
	}
	if gotList != wantList {
		t.Errorf("the chart draws otherwise after the swap (%d vs %d bytes of draw list)", len(gotList), len(wantList))
	}
	// The search and the call tree run again on the mapped columns find the same.
	matches := d.search.Len()
	h.u.startSearch(d.search.Query)
	h.idle()
	if d.search.Len() != matches {
		t.Errorf("a search after the swap finds %d entries, before %d", d.search.Len(), matches)
	}
}

// TestNoSwapWithoutACacheFile: when the cache write fails, the document keeps its loaded trace and
// nothing is waiting to be swapped.
func TestNoSwapWithoutACacheFile(t *testing.T) {
	// A cache directory under a regular file cannot be created.
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	h := newCachingHarness(t, fixture(t, "generated", "gen-trace-small.json.gz"), filepath.Join(blocker, "cache"))
	d := h.u.doc
	heapTs := unsafe.SliceData(d.trace.Events.Ts)
	_, wantState := h.shown()
	written := false
	h.runLater(func() bool { written = true; return true })
	h.frame()
	if !written || d.swapped || h.u.swapPending != nil || unsafe.SliceData(d.trace.Events.Ts) != heapTs {
		t.Fatal("the document was swapped although no cache file was written")
	}
	if _, gotState := h.shown(); gotState != wantState {
		t.Errorf("the window's state changed:\n got %s\nwant %s", gotState, wantState)
	}
}
