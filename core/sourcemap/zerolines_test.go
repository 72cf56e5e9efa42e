package sourcemap_test

import (
	"context"
	"reflect"
	"testing"

	"flamedesk/core"
	"flamedesk/core/load"
	"flamedesk/core/sourcemap"
	fx "flamedesk/internal/fixtures"
)

// TestZeroLinesFlagReadsAsZeros loads a trace whose chunks have no lines, which the model keeps as
// SampleLinesZero rather than a zero per sample, and checks that every function's line times are
// what explicit zeros give.
func TestZeroLinesFlagReadsAsZeros(t *testing.T) {
	tr, err := load.File(context.Background(), fx.Path(t, "fixtures", "upstream", "firefox-profiler-chrome-trace-issue-5429.json.gz"), nil)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for i := range tr.Profiles {
		p := &tr.Profiles[i]
		if !p.SampleLinesZero || p.SampleLine.Len() != 0 || p.SampleColumn.Len() != 0 {
			t.Fatalf("profile %d: zero-lines flag %v, %d lines, %d columns: want the flag alone",
				i, p.SampleLinesZero, p.SampleLine.Len(), p.SampleColumn.Len())
		}
		zeros := *p
		zeros.SampleLinesZero = false
		zeros.SampleLine = core.SamplePositions{Wide: make([]int32, len(p.Samples))}
		zeros.SampleColumn = core.SamplePositions{Wide: make([]int32, len(p.Samples))}
		for _, f := range p.NodeFrame {
			if f == core.NoFrame {
				continue
			}
			isFunc := func(g core.FrameID) bool { return g == f }
			got := sourcemap.Lines(tr, nil, p, isFunc, false)
			want := sourcemap.Lines(tr, nil, &zeros, isFunc, false)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("frame %d: %+v, with zeros %+v", f, got, want)
			}
			if got.FromTicks {
				t.Fatalf("frame %d: read as positionTicks, not as per-sample lines", f)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no function checked")
	}
}
