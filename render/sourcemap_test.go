package render

import (
	"context"
	"path/filepath"
	"testing"

	"flamedesk/core"
	"flamedesk/core/integrate"
	"flamedesk/core/load"
	"flamedesk/core/sourcemap"
	"flamedesk/timeline"
)

// TestLabelsUseOriginalNames draws a call of countPrimesBelow from each bundler's recording, as
// "flamedesk render" does after applying the maps: its bar is labelled with the TypeScript name,
// and with the engine's name under GeneratedNames.
func TestLabelsUseOriginalNames(t *testing.T) {
	const fn = "countPrimesBelow"
	fixtures := filepath.Join("..", "testdata", "sourcemaps")
	for _, c := range []struct {
		file   string
		folder bool
	}{
		{"traces/esbuild.trace.json.gz", false},
		{"traces/webpack.trace.json.gz", false},
		{"traces/rollup.trace.json.gz", true},
		{"traces/parcel.trace.json.gz", true},
		{"profiles/esbuild.cpuprofile.gz", true},
	} {
		t.Run(c.file, func(t *testing.T) {
			tr, err := load.File(context.Background(), filepath.Join(fixtures, filepath.FromSlash(c.file)), nil)
			if err != nil {
				t.Fatal(err)
			}
			integrate.Build(tr)
			opts := sourcemap.Options{}
			if c.folder {
				opts.Dir = fixtures
			}
			sourcemap.Apply(tr, opts)
			m := timeline.New(tr)
			var ref timeline.EntryRef
			widest := -1.0
			for _, r := range m.Search(fn).Matches {
				ct := m.Tracks[r.Track].Core
				if ct.KindAt(int(r.Entry)) != core.EntryProfileCall || tr.Strings.Get(tr.Shown(ct.FrameAt(int(r.Entry)), true).FunctionName) != fn {
					continue
				}
				if d := m.EntryEnd(r) - m.EntryStart(r); d > widest {
					ref, widest = r, d
				}
			}
			if widest < 0 {
				t.Fatalf("no call of %s", fn)
			}
			generated := tr.Strings.Get(tr.Frames[m.Tracks[ref.Track].Core.FrameAt(int(ref.Entry))].FunctionName)
			labels := func() map[string]bool {
				vp := timeline.NewViewport(m.Bounds())
				vp.SetSize(1600, 1000)
				vp.ZoomToEntry(m.EntryStart(ref), m.EntryEnd(ref))
				vp.SetScrollY(max(0, m.RowTop(ref.Track, m.EntryDepth(ref))-200))
				var l DrawList
				NewBuilder(m).Build(&l, vp, &Frame{Width: 1600, Height: 1000, Theme: Light(), Selection: timeline.NoEntry, Hover: noHover})
				out := map[string]bool{}
				for _, tx := range l.Layers[LayerText].Texts {
					out[l.TextString(tx)] = true
				}
				return out
			}
			if got := labels(); !got[fn] {
				t.Errorf("no label %s among %d labels", fn, len(got))
			}
			m.GeneratedNames = true
			got := labels()
			if got[fn] && generated != fn {
				t.Errorf("with generated names a label still says %s", fn)
			}
			if generated != "" && !got[generated] {
				t.Errorf("with generated names no label says %s", generated)
			}
		})
	}
}
