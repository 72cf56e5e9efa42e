package load

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"flamedesk/core"
	"flamedesk/internal/fixtures"
)

// withModelWorkers runs f with the models built on n goroutines.
func withModelWorkers(n int, f func()) {
	was := modelWorkers
	modelWorkers = func() int { return n }
	defer func() { modelWorkers = was }()
	f()
}

// TestModelsSideBySideAsInTurn loads traces of several profiled threads with their models built
// one after the other and side by side: the models and the warnings must be the same, the
// warnings in the order of the profiles.
func TestModelsSideBySideAsInTurn(t *testing.T) {
	// Three profiled threads, each with samples of an unknown node (a warning per profile),
	// the smallest first so that the largest-first order of the workers differs from the file's.
	var events []string
	for pid := 1; pid <= 3; pid++ {
		nodes := "[" + node(1, "", "(root)") + "," + node(2, "1", fmt.Sprintf("f%d", pid)) + "]"
		samples := strings.Repeat("2,", 10*pid) + strings.Repeat("99,", pid)
		deltas := strings.Repeat("1,", 11*pid)
		events = append(events,
			fmt.Sprintf(`{"ph":"P","name":"Profile","pid":%d,"tid":1,"id":"0x1","ts":1000,"args":{"data":{"startTime":5}}}`, pid),
			fmt.Sprintf(`{"ph":"P","name":"ProfileChunk","pid":%d,"tid":1,"id":"0x1","ts":1001,"args":{"data":{"cpuProfile":{"nodes":%s,"samples":[%s]},"timeDeltas":[%s]}}}`,
				pid, nodes, strings.TrimSuffix(samples, ","), strings.TrimSuffix(deltas, ",")))
	}
	synthetic := "[" + strings.Join(events, ",") + "]"

	type source struct {
		name string
		load func(t *testing.T) *core.Trace
	}
	sources := []source{{"three profiles with warnings", func(t *testing.T) *core.Trace { return mustLoad(t, synthetic) }}}
	for _, f := range []string{"gen-trace-medium-reload.json.gz", "devtools-two-workers.json.gz", "devtools-fenced-frame-fledge.json.gz", "speedscope-chrome66-worker.json"} {
		dir := "upstream"
		if strings.HasPrefix(f, "gen-") {
			dir = "generated"
		}
		sources = append(sources, source{f, func(t *testing.T) *core.Trace {
			tr, err := File(context.Background(), fixtures.Path(t, "fixtures", dir, f), nil)
			if err != nil {
				t.Fatal(err)
			}
			return tr
		}})
	}
	for _, src := range sources {
		t.Run(src.name, func(t *testing.T) {
			var inTurn, sideBySide *core.Trace
			withModelWorkers(1, func() { inTurn = src.load(t) })
			withModelWorkers(3, func() { sideBySide = src.load(t) })
			if len(inTurn.Profiles) < 2 {
				t.Fatalf("%d profiles: nothing to build side by side", len(inTurn.Profiles))
			}
			if !reflect.DeepEqual(inTurn.Profiles, sideBySide.Profiles) {
				t.Error("the models built side by side differ from those built in turn")
			}
			if a, b := inTurn.Warnings.Lines(), sideBySide.Warnings.Lines(); !reflect.DeepEqual(a, b) {
				t.Errorf("warnings in turn %q, side by side %q", a, b)
			}
		})
	}

	tr := mustLoad(t, synthetic)
	var unknown []string
	for _, w := range tr.Warnings.Lines() {
		if strings.Contains(w, "whose node id is not a node") {
			unknown = append(unknown, w)
		}
	}
	if len(unknown) != 3 {
		t.Fatalf("want one unknown-node warning per profile, got %q", tr.Warnings.Lines())
	}
	for i, w := range unknown {
		if want := fmt.Sprintf("(pid %d): %d samples", i+1, i+1); !strings.Contains(w, want) {
			t.Errorf("warning %d is %q, want the one of pid %d (%q)", i, w, i+1, want)
		}
	}
}

// TestModelsSideBySideOverBudget has the models, built side by side, run out of their memory
// budget: the load ends with the budget's error, not a panic on a worker.
func TestModelsSideBySideOverBudget(t *testing.T) {
	raw := inflatedFixture(t, "generated", "gen-trace-medium-reload.json.gz")
	l := newLoader(context.Background(), strings.NewReader(string(raw)), &budget{limit: 1 << 40})
	if err := readAll(l); err != nil {
		t.Fatal(err)
	}
	tr := l.tr
	asm, err := assemble(context.Background(), tr, &tr.Warnings, &budget{limit: 1 << 40})
	if err != nil || len(asm) < 2 {
		t.Fatalf("assemble: %d profiles, %v", len(asm), err)
	}
	withModelWorkers(2, func() {
		err = buildModels(context.Background(), tr, asm, &budget{limit: 1 << 20, why: "test"})
	})
	if !errors.Is(err, ErrMemoryBudget) {
		t.Fatalf("want the memory budget's error, got %v", err)
	}
}

// The models read their sample ids from the chunks in pieces (mapSampleIDs); pieces of a few ids,
// cut inside every record, give the models and warnings of one piece per record.
func TestSampleIDsMappedInPieces(t *testing.T) {
	for _, name := range []string{"generated/gen-trace-small.json.gz", "upstream/devtools-two-workers.json.gz",
		"upstream/devtools-large-profile.cpuprofile.gz", "generated/gen-selfprofile-small.json", "upstream/devtools-mainWasm_profile.json.gz"} {
		t.Run(name, func(t *testing.T) {
			path := fixtures.Path(t, "fixtures", name)
			whole, err := File(context.Background(), path, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer func(p uint32) { samplePiece = p }(samplePiece)
			samplePiece = 7
			cut, err := File(context.Background(), path, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(whole.Profiles) == 0 || len(cut.Profiles) != len(whole.Profiles) {
				t.Fatalf("%d profiles, in pieces %d", len(whole.Profiles), len(cut.Profiles))
			}
			for i := range whole.Profiles {
				if a, b := &whole.Profiles[i], &cut.Profiles[i]; len(a.Samples) < 2*7 || !slices.Equal(a.Samples, b.Samples) {
					t.Errorf("profile %d: %d samples, in pieces %d (equal: %v)", i, len(a.Samples), len(b.Samples), slices.Equal(a.Samples, b.Samples))
				}
			}
			if !slices.Equal(whole.Warnings.Lines(), cut.Warnings.Lines()) {
				t.Errorf("warnings %v, in pieces %v", whole.Warnings.Lines(), cut.Warnings.Lines())
			}
		})
	}
}
