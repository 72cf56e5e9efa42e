package calltree

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"flamedesk/core"
	"flamedesk/core/load"
	"flamedesk/internal/fixtures"
)

// fixtureFiles lists every trace and profile of the shared fixtures.
func fixtureFiles(tb testing.TB) []string {
	var files []string
	for _, dir := range []string{"upstream", "generated"} {
		for _, f := range fixtures.Glob(tb, "fixtures/"+dir+"/*") {
			if !strings.HasSuffix(f, ".md") {
				files = append(files, f)
			}
		}
	}
	if len(files) == 0 {
		tb.Fatal("no fixtures found")
	}
	return files
}

// sampledTime is the profile's sampled time computed straight from its columns: the weights of
// the samples that have a node, each the distance to the next timestamp.
func sampledTime(p *core.ProfileModel) (time.Duration, int) {
	var d time.Duration
	n := 0
	for i, node := range p.Samples {
		if node < 0 || int(node) >= len(p.NodeParent) {
			continue
		}
		d += time.Duration(math.Round(p.Timestamps[i+1]*1000) - math.Round(p.Timestamps[i]*1000))
		n++
	}
	return d, n
}

// Σ self equals the sampled time on every profile of every fixture, in both views and after each
// kind of transform.
func TestFixturesSelfTimeAddsUp(t *testing.T) {
	checked := 0
	defer func() {
		// 38 profiles load from testdata today, 50 with the corpus; far fewer means the loader
		// or the glob broke, not that the sums hold.
		want := 30
		if fixtures.Corpus() != "" {
			want = 40
		}
		if !testing.Short() && checked < want {
			t.Errorf("only %d profiles checked, want at least %d", checked, want)
		}
	}()
	for _, file := range fixtureFiles(t) {
		name := filepath.Base(file)
		t.Run(name, func(t *testing.T) {
			if testing.Short() && strings.Contains(name, "large") {
				t.Skip("large fixture")
			}
			tr, err := load.File(context.Background(), file, nil)
			if err != nil {
				t.Skipf("does not load: %v", err) // the loader's own tests judge this
			}
			for i := range tr.Profiles {
				p := &tr.Profiles[i]
				src, err := NewSource(tr, p, AllTime)
				if err != nil {
					if len(p.Samples) == 0 {
						continue
					}
					t.Fatalf("%s: %v", ProfileLabel(tr, i), err)
				}
				checked++
				want, n := sampledTime(p)
				s := NewStack(src)
				tree := s.Tree(View{})
				if tree.Total() != want || tree.Samples() != n {
					t.Errorf("%s: total %v over %d samples, want %v over %d", ProfileLabel(tr, i), tree.Total(), tree.Samples(), want, n)
				}
				checkSums(t, ProfileLabel(tr, i), tree)
				inv := s.Tree(View{Inverted: true})
				var roots time.Duration
				for _, r := range inv.Roots() {
					roots += inv.Self(r)
					if inv.Self(r) != inv.Running(r) {
						t.Errorf("%s: bottom-up root self %v ≠ running %v", ProfileLabel(tr, i), inv.Self(r), inv.Running(r))
					}
				}
				if roots != want {
					t.Errorf("%s: bottom-up roots add up to %v, want %v", ProfileLabel(tr, i), roots, want)
				}
				for _, tf := range sampleTransforms(tree) {
					pushed, err := s.Push(tf)
					if err != nil {
						t.Fatal(err)
					}
					after := pushed.Tree(View{})
					if after.Total() > want {
						t.Errorf("%s after %s: total grew to %v", ProfileLabel(tr, i), tf.Spec(src.Functions()), after.Total())
					}
					checkSums(t, ProfileLabel(tr, i)+" after "+tf.Spec(src.Functions()), after)
				}
			}
		})
	}
}

// checkSums checks Σ self = total and running = self + Σ children's running on every node.
func checkSums(t *testing.T, what string, tree *Tree) {
	t.Helper()
	var self time.Duration
	bad := 0
	tree.Walk(func(n NodeID) bool {
		self += tree.Self(n)
		sum := tree.Self(n)
		for _, c := range tree.Children(n) {
			sum += tree.Running(c)
		}
		if sum != tree.Running(n) && bad < 3 {
			bad++
			t.Errorf("%s: %s running %v ≠ self + children %v", what, tree.Functions().PathString(tree.Path(n)), tree.Running(n), sum)
		}
		return true
	})
	if self != tree.Total() {
		t.Errorf("%s: Σ self %v ≠ total %v", what, self, tree.Total())
	}
}

// sampleTransforms makes one transform of each kind at the middle of the heaviest path.
func sampleTransforms(tree *Tree) []Transform {
	var path []NodeID
	for n := tree.Roots(); len(n) > 0; n = tree.Children(n[0]) {
		path = append(path, n[0])
	}
	if len(path) == 0 {
		return nil
	}
	mid := path[len(path)/2]
	fn := tree.Func(mid)
	out := []Transform{
		{Kind: FocusSubtree, Path: tree.Path(mid)},
		{Kind: FocusFunction, Func: fn},
		{Kind: MergeCallNode, Path: tree.Path(mid)},
		{Kind: MergeFunction, Func: fn},
		{Kind: Prune, Path: tree.Path(mid)},
		{Kind: DropFunction, Func: fn},
		{Kind: CollapseRecursion, Func: fn},
	}
	if res := tree.Functions().ResourceOf(fn); res != NoFunc {
		out = append(out, Transform{Kind: CollapseResource, Func: res})
	}
	return out
}

// The default profile: the only one of a .cpuprofile, the busiest CrRendererMain of a trace.
func TestDefaultProfile(t *testing.T) {
	cases := map[string]string{
		"upstream/devtools-node-fibonacci-website.cpuprofile.gz": "",
		"upstream/devtools-two-workers.json.gz":                  "CrRendererMain",
		"generated/gen-trace-small.json.gz":                      "CrRendererMain",
	}
	for name, want := range cases {
		tr, err := load.File(context.Background(), fixtures.Path(t, "fixtures", name), nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		i := DefaultProfile(tr)
		if i < 0 {
			t.Fatalf("%s: no default profile", name)
		}
		if want == "" {
			if len(tr.Profiles) != 1 {
				t.Errorf("%s: %d profiles, want 1", name, len(tr.Profiles))
			}
			continue
		}
		got := tr.Strings.Get(tr.Threads[tr.Profiles[i].Thread].Name)
		if got != want {
			t.Errorf("%s: default thread %q, want %q", name, got, want)
		}
		for j, p := range tr.Profiles {
			if tr.Strings.Get(tr.Threads[p.Thread].Name) == want && len(p.Samples) > len(tr.Profiles[i].Samples) {
				t.Errorf("%s: profile %d has more samples than the chosen %d", name, j, i)
			}
		}
	}
}

var (
	largeOnce  sync.Once
	largeTrace *core.Trace
	largeErr   error
)

// largestProfile loads gen-trace-large once and returns it with its profile of the most nodes.
func largestProfile(b *testing.B) (*core.Trace, int) {
	largeOnce.Do(func() {
		largeTrace, largeErr = load.File(context.Background(), fixtures.Path(b, "fixtures", "generated", "gen-trace-large.json.gz"), nil)
	})
	if largeErr != nil {
		b.Fatal(largeErr)
	}
	best := 0
	for i, p := range largeTrace.Profiles {
		if len(p.NodeParent) > len(largeTrace.Profiles[best].NodeParent) {
			best = i
		}
	}
	p := &largeTrace.Profiles[best]
	b.Logf("%s: %d nodes, %d samples, depth %d", ProfileLabel(largeTrace, best), len(p.NodeParent), len(p.Samples), maxDepth(p))
	return largeTrace, best
}

// Goal: ≤ 150 ms on the largest thread of gen-trace-large.
func BenchmarkBuildLarge(b *testing.B) {
	tr, i := largestProfile(b)
	benchBuild(b, tr, i)
}

// Goal: ≤ 50 ms per transform.
func BenchmarkTransformLarge(b *testing.B) {
	tr, i := largestProfile(b)
	benchTransforms(b, tr, i)
}
