package app

import (
	"context"
	"testing"

	"flamedesk/core"
	"flamedesk/core/calltree"
)

// Choosing a function in the call tree marks its calls in the chart once a background walk has
// found them: the frame that takes the choice only starts that walk (on gen-trace-large it takes
// about 90 ms). A later choice replaces one still being found, and choosing none clears the mark.
func TestCallTreeHighlightIsFoundInTheBackground(t *testing.T) {
	h := newHarness(t, SourceFromPath(fixture(t, "generated", "gen-trace-medium-reload.json.gz")))
	h.idle()
	d, p := h.u.doc, &h.u.panel.tree
	if d == nil || p.tree == nil || len(p.rows) < 3 {
		t.Fatalf("no document, call tree or rows to choose from")
	}
	funcs := p.tree.Functions()
	// The calls each of two functions has in the chart, as a walk on the model finds them.
	want := func(fn calltree.FuncID) int {
		hit := make([]bool, len(d.trace.Frames))
		for i := range hit {
			hit[i] = funcs.FrameIs(core.FrameID(i), fn)
		}
		r, err := d.model.MarkFrames(context.Background(), funcs.Name(fn), hit)
		if err != nil {
			t.Fatal(err)
		}
		return r.Len()
	}
	// Two functions of other names, each with calls in the chart.
	first, second := calltree.NoFunc, calltree.NoFunc
	for _, r := range p.rows {
		fn := p.tree.Func(r.node)
		switch {
		case fn == calltree.NoFunc || want(fn) == 0:
		case first == calltree.NoFunc:
			first = fn
		case funcs.Name(fn) != funcs.Name(first):
			second = fn
		}
		if second != calltree.NoFunc {
			break
		}
	}
	if second == calltree.NoFunc {
		t.Fatal("no two functions with calls among the call tree's rows")
	}

	h.u.emit(highlightFunc{funcs: funcs, fn: first})
	h.u.emit(highlightFunc{funcs: funcs, fn: second})
	h.frame()
	if d.highlight != nil {
		t.Fatal("the frame that took the choice marked the calls itself")
	}
	h.idle()
	if d.highlight == nil || d.highlight.Query != funcs.Name(second) || d.highlight.Len() != want(second) {
		t.Fatalf("marked %v, want the %d calls of %q", d.highlight, want(second), funcs.Name(second))
	}
	if d.marked() != d.highlight {
		t.Fatal("the chart does not show the highlight")
	}

	h.u.emit(highlightFunc{funcs: funcs, fn: calltree.NoFunc})
	h.frame()
	if d.highlight != nil {
		t.Fatal("choosing no function left the calls marked")
	}
}
