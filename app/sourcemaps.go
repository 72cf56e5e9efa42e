package app

// Source maps in the window: they are applied on the load goroutine, from the trace itself and
// from a folder (--sourcemaps, or the one remembered for the file with mapdirs); the toolbar's
// "Names" switch shows the engine's names again.

import (
	"context"
	"fmt"

	"flamedesk/core"
	"flamedesk/core/sourcemap"
	"flamedesk/internal/mapdirs"
	"flamedesk/timeline"
)

// sourceMapsDir is the folder to search for src's maps: the one named on the command line, else
// the one remembered for the file, else none (maps the trace embeds still apply).
func (u *ui) sourceMapsDir(src Source) string {
	if u.opts.SourceMaps != "" {
		return u.opts.SourceMaps
	}
	if src.Path == "" {
		return ""
	}
	store, err := u.config.file("sourcemaps.json")
	if err != nil {
		return ""
	}
	return mapdirs.Lookup(store, src.Path)
}

// applySourceMaps fills tr.Original; it runs on the load goroutine, before the trace is shared.
func applySourceMaps(tr *core.Trace, dir string) *sourcemap.Set {
	return sourcemap.Apply(tr, sourcemap.Options{Dir: dir})
}

// hasOriginalNames reports whether a source map gave d's frames their original names, which is
// when the "Names" switch means something.
func (d *document) hasOriginalNames() bool {
	return d != nil && d.trace.Original != nil
}

// applyNames shows the names the settings ask for: the chart's labels, the search (run again, as
// its matches were found by name) and the call tree (built again: its functions are by name).
func (u *ui) applyNames() {
	d := u.doc
	if d == nil {
		return
	}
	d.model.GeneratedNames = u.settings.GeneratedNames
	u.chart.invalidate()
	u.panel.details.reset()
	if q := u.searchBox.query; q != "" {
		u.startSearch(q)
	}
	u.panel.tree.renamed()
	u.panel.tree.source.renamed(!u.settings.GeneratedNames)
}

// renamed builds the tree again after the names changed. Functions are told apart by name, so
// the transforms, the expanded rows and the selection, which name functions by id, are dropped.
func (p *treePanel) renamed() {
	if p.doc == nil {
		return
	}
	p.build.Cancel()
	p.stack, p.tree, p.rows = nil, nil, nil
	clear(p.expanded)
	p.selected = nil
	p.rebuild(nil)
}

// namesLabel is the text of the toolbar's names switch.
func namesLabel(s settings) string {
	if s.GeneratedNames {
		return "Names: generated"
	}
	return "Names: original"
}

// generatedLines are the details' lines of where a mapped call runs in the generated script and
// under which name, shown beside its original source; none when no map applies or the engine's
// names are shown anyway.
func generatedLines(d *document, ref timeline.EntryRef) []detailLine {
	m := d.model
	if m.GeneratedNames || !m.EntryMapped(ref) {
		return nil
	}
	f := d.trace.Frames[m.Tracks[ref.Track].Core.FrameAt(int(ref.Entry))]
	// One line, the place first: the details' label column is too narrow for "Generated name".
	name := d.trace.Strings.Get(f.FunctionName)
	if name == "" {
		name = "(anonymous)"
	}
	url := d.trace.Strings.Get(f.URL)
	if url == "" {
		return []detailLine{{label: "Generated", value: name}}
	}
	value := sourcePosition(url, f.Line, f.Column)
	if name != m.EntryName(ref) {
		value += "  " + name
	}
	return []detailLine{{label: "Generated", value: value, full: fmt.Sprintf("%s:%d:%d", url, f.Line+1, f.Column+1)}}
}

// loadMapped is Options.Load followed by the source maps of src, for the second profile of a
// comparison: functions are compared by name, so B must be named as A is. It reads only what
// newUI set, so it may run on any goroutine.
func (u *ui) loadMapped(ctx context.Context, src Source, p *core.Progress) (*core.Trace, error) {
	tr, err := u.opts.Load(ctx, src, p)
	if err != nil {
		return nil, err
	}
	applySourceMaps(tr, u.sourceMapsDir(src))
	return tr, ctx.Err()
}
