package integrate

import (
	"context"
	"errors"
	"strings"
	"testing"

	"flamedesk/core"
	"flamedesk/core/load"
	"flamedesk/internal/fixtures"
)

// Hostile profiles through the real loader: what DevTools loses in silence is kept or counted.

func loadJSONAndBuild(t *testing.T, js string) *core.Trace {
	t.Helper()
	tr, err := load.Reader(context.Background(), strings.NewReader(js), int64(len(js)), nil)
	if err != nil {
		t.Fatal(err)
	}
	Build(tr)
	return tr
}

func wantWarningLine(t *testing.T, tr *core.Trace, sub string) {
	t.Helper()
	for _, w := range tr.Warnings.Lines() {
		if strings.Contains(w, sub) {
			return
		}
	}
	t.Errorf("no warning containing %q; warnings: %q", sub, tr.Warnings.Lines())
}

const mainWorkNodes = `"nodes":[{"id":1,"callFrame":{"functionName":"(root)","scriptId":"0","url":""},"children":[2]},
{"id":2,"callFrame":{"functionName":"main","scriptId":"1","url":"a.js"},"children":[3]},
{"id":3,"callFrame":{"functionName":"work","scriptId":"1","url":"a.js"}}]`

// One unknown sample id: DevTools drops every sample after it (the chart of a real profile went
// from 205,507 entries to 701). The samples after it are kept; the hole is a gap and a warning.
func TestUnknownSampleIDKeepsTheRest(t *testing.T) {
	// Samples at 1..5 ms: main, work, hole, work, main; the end extrapolates to 6 ms.
	tr := loadJSONAndBuild(t, `{`+mainWorkNodes+`,"startTime":0,"endTime":6000,
"samples":[2,3,99,3,2],"timeDeltas":[1000,1000,1000,1000,1000]}`)
	wantRows(t, tr, 0, []row{
		pcall("main", 1000, 2000, 0), pcall("work", 2000, 1000, 1),
		pcall("main", 4000, 2000, 0), pcall("work", 4000, 1000, 1),
	})
	wantWarningLine(t, tr, "1 samples whose node id is not a node of the profile")
}

// A legacy Node profile (head form, times in seconds) without timestamps: its samples are spread
// evenly over startTime..endTime instead of dropped.
func TestLegacyProfileWithoutTimestamps(t *testing.T) {
	tr := loadJSONAndBuild(t, `{"head":{"functionName":"(root)","url":"","lineNumber":0,"id":1,"scriptId":0,"children":[
 {"functionName":"main","url":"a.js","lineNumber":1,"id":2,"scriptId":1,"children":[
  {"functionName":"work","url":"a.js","lineNumber":5,"id":3,"scriptId":1,"children":[]}]},
 {"functionName":"(program)","url":"","lineNumber":0,"id":4,"scriptId":0,"children":[]}]},
"startTime":1000.0,"endTime":1000.006,"samples":[2,3,3,2,2,4]}`)
	// Six samples over 6 ms, one per ms from 1000 s.
	const t0 = 1e9
	wantRows(t, tr, 0, []row{
		pcall("main", t0, 5000, 0), pcall("work", t0+1000, 2000, 1), pcall("(program)", t0+5000, 1000, 0),
	})
	wantWarningLine(t, tr, "has no timestamps: its 6 samples are spread evenly")
}

// A self-profile whose samples name stacks it does not have: the rest is kept.
func TestSelfProfileHolesKeepTheRest(t *testing.T) {
	tr := loadJSONAndBuild(t, `{"resources":["a.js"],"frames":[{"name":"main","resourceId":0},{"name":"work","resourceId":0}],
"stacks":[{"frameId":0},{"frameId":1,"parentId":0}],
"samples":[{"timestamp":1,"stackId":0},{"timestamp":2,"stackId":1},{"timestamp":3,"stackId":7},{"timestamp":4,"stackId":1},{"timestamp":5,"stackId":0}]}`)
	wantRows(t, tr, 0, []row{
		pcall("main", 1000, 2000, 0), pcall("work", 2000, 1000, 1),
		pcall("main", 4000, 2000, 0), pcall("work", 4000, 1000, 1),
	})
	wantWarningLine(t, tr, "self-profile samples whose stackId is unknown (shown as gaps)")
}

// Unmatched E events and entries left out of the tree are dropped as DevTools drops them, and
// counted.
func TestDroppedEventsAreCounted(t *testing.T) {
	var b strings.Builder
	b.WriteString(`[`)
	for range 1000 {
		b.WriteString(`{"ph":"E","name":"lone","pid":1,"tid":1,"ts":1},`)
	}
	b.WriteString(`{"ph":"B","name":"a","pid":1,"tid":1,"ts":10},{"ph":"E","name":"b","pid":1,"tid":1,"ts":20},
{"ph":"B","name":"open","pid":1,"tid":1,"ts":30},
{"ph":"X","name":"parent","pid":1,"tid":2,"ts":100,"dur":50},{"ph":"X","name":"overhang","pid":1,"tid":2,"ts":120,"dur":100}]`)
	tr := loadJSONAndBuild(t, b.String())
	wantWarningLine(t, tr, "1000 × E events without an open B skipped")
	wantWarningLine(t, tr, "E events whose name or category differ from the B they close skipped")
	wantWarningLine(t, tr, "B events without an E (dur 0)")
	wantWarningLine(t, tr, "entries that end after their parent left out of the tree")
}

// A profile of a few hundred KB whose samples alternate between two stacks 300 frames deep makes
// 300 calls a sample, 6 million in all: more than its budget allows. The build ends with the
// budget's error, soon, instead of running out of memory.
func TestCallBombEndsInBudgetError(t *testing.T) {
	const depth, samples = 300, 20000
	tr, _ := loadCallBomb(t, depth, samples)
	if tr.Stats.MemoryBudget <= 0 || tr.Stats.MemoryBudget/entryBytes >= depth*samples {
		t.Skipf("the budget (%d MB) would hold the calls", tr.Stats.MemoryBudget>>20)
	}
	err := BuildContext(context.Background(), tr, nil)
	if !errors.Is(err, core.ErrMemoryBudget) {
		t.Fatalf("got %v, want the memory budget's error", err)
	}
	if len(tr.Tracks) != 0 {
		t.Errorf("%d tracks after a failed build", len(tr.Tracks))
	}
}

// loadCallBomb loads fixtures.CallBomb(depth, samples), a profile whose samples alternate between
// two stacks depth frames deep, and returns it with the size of its JSON.
func loadCallBomb(t *testing.T, depth, samples int) (*core.Trace, int) {
	t.Helper()
	js := fixtures.CallBomb(depth, samples)
	tr, err := load.Reader(context.Background(), strings.NewReader(js), int64(len(js)), nil)
	if err != nil {
		t.Fatal(err)
	}
	return tr, len(js)
}
