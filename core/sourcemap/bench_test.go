package sourcemap_test

import (
	"testing"

	"flamedesk/core"
	"flamedesk/core/sourcemap"
)

// BenchmarkApply: finding and applying the map of a bundle (embedded in the trace) and mapping its
// frames, the work added to a load.
func BenchmarkApply(b *testing.B) {
	tr, _ := loadMapped(b, "traces/webpack.trace.json.gz", "")
	b.ResetTimer()
	for b.Loop() {
		tr.Original = nil
		sourcemap.Apply(tr, sourcemap.Options{})
	}
}

// BenchmarkLines: per-line self time of one function over a trace's samples.
func BenchmarkLines(b *testing.B) {
	tr, set := loadMapped(b, "traces/webpack.trace.json.gz", "")
	isFunc := func(f core.FrameID) bool {
		return tr.Strings.Get(tr.Shown(f, true).FunctionName) == "countPrimesBelow"
	}
	for b.Loop() {
		for i := range tr.Profiles {
			sourcemap.Lines(tr, set, &tr.Profiles[i], isFunc, true)
		}
	}
}
