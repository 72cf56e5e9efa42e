package integrate

import (
	"context"
	"slices"
	"sync"
	"testing"

	"flamedesk/core"
	"flamedesk/core/load"
	"flamedesk/internal/fixtures"
)

// The benchmarks run on the generated 238 MB trace (700k events, 27.7k ProfileChunks, stacks
// 3,307 deep), stage by stage. The whole load, file to tracks, must stay within 2 s.

var (
	largeOnce  sync.Once
	largeTrace *core.Trace
	largeErr   error
)

func largeFixture(b *testing.B) *core.Trace {
	path := fixtures.Path(b, "fixtures", "generated", "gen-trace-large.json.gz")
	largeOnce.Do(func() {
		largeTrace, largeErr = load.File(context.Background(), path, nil)
	})
	if largeErr != nil {
		b.Fatal(largeErr)
	}
	return largeTrace
}

// BenchmarkLoadLarge is the user-visible number: read, parse, assemble profiles, build tracks.
func BenchmarkLoadLarge(b *testing.B) {
	path := fixtures.Path(b, "fixtures", "generated", "gen-trace-large.json.gz")
	for b.Loop() {
		tr, err := load.File(context.Background(), path, nil)
		if err != nil {
			b.Fatal(err)
		}
		Build(tr)
	}
}

// BenchmarkBuildLarge is this package's whole share of the load.
func BenchmarkBuildLarge(b *testing.B) {
	tr := largeFixture(b)
	b.ResetTimer()
	for b.Loop() {
		Build(tr)
	}
	reportTracks(b, tr)
}

// BenchmarkStageCollect: B/E pairing and grouping events by thread.
func BenchmarkStageCollect(b *testing.B) {
	tr := largeFixture(b)
	b.ResetTimer()
	for b.Loop() {
		traceJobs(tr)
	}
}

// BenchmarkStageSort: sorting every thread's entries.
func BenchmarkStageSort(b *testing.B) {
	tr := largeFixture(b)
	jobs := traceJobs(tr)
	work := make([][]entry, len(jobs))
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		for i := range jobs {
			work[i] = append(work[i][:0], jobs[i].entries...)
		}
		b.StartTimer()
		for i := range work {
			sortEntries(work[i])
		}
	}
}

// BenchmarkStageProfileIndex: the frame-path trie of every profile.
func BenchmarkStageProfileIndex(b *testing.B) {
	tr := largeFixture(b)
	keys := frameKeys(tr)
	b.ResetTimer()
	for b.Loop() {
		for i := range tr.Profiles {
			newProfileIndex(tr, &tr.Profiles[i], keys)
		}
	}
}

// BenchmarkStageSamples: building the ProfileCalls of every profiled thread.
func BenchmarkStageSamples(b *testing.B) {
	tr := largeFixture(b)
	jobs, indexes := preparedJobs(tr)
	b.ResetTimer()
	for b.Loop() {
		for i, j := range jobs {
			if indexes[i] != nil {
				integrateSamples(context.Background(), tr, j.entries, indexes[i], nil, nil)
			}
		}
	}
}

// BenchmarkStageTreify: merging calls into the events and nesting them into tracks.
func BenchmarkStageTreify(b *testing.B) {
	tr := largeFixture(b)
	jobs, indexes := preparedJobs(tr)
	cs := make([]calls, len(jobs))
	for i, j := range jobs {
		if indexes[i] != nil {
			cs[i] = integrateSamples(context.Background(), tr, j.entries, indexes[i], nil, nil)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		for i, j := range jobs {
			var w []string
			// treify lets go of each block of calls it has passed: it gets a list of its own.
			c := cs[i]
			c.blocks = slices.Clone(c.blocks)
			treify(tr, j.thread, j.entries, &c, indexes[i], j.profile, &w)
		}
	}
}

func preparedJobs(tr *core.Trace) ([]job, []*profileIndex) {
	keys := frameKeys(tr)
	jobs := traceJobs(tr)
	indexes := make([]*profileIndex, len(jobs))
	for i := range jobs {
		sortEntries(jobs[i].entries)
		if jobs[i].profile >= 0 {
			indexes[i] = newProfileIndex(tr, &tr.Profiles[jobs[i].profile], keys)
		}
	}
	return jobs, indexes
}

func reportTracks(b *testing.B, tr *core.Trace) {
	entries, calls := 0, 0
	for i := range tr.Tracks {
		entries += tr.Tracks[i].Len()
		for e := range tr.Tracks[i].Len() {
			if tr.Tracks[i].KindAt(e) == core.EntryProfileCall {
				calls++
			}
		}
	}
	b.ReportMetric(float64(entries), "entries")
	b.ReportMetric(float64(calls), "calls")
}

// BenchmarkLoadMedium is BenchmarkLoadLarge on the committed gen-trace-medium-reload (52 MB of
// JSON): the file that the speed goal against the DevTools engine is measured on
// (scripts/speedbench.sh).
func BenchmarkLoadMedium(b *testing.B) {
	path := fixtures.Path(b, "fixtures", "generated", "gen-trace-medium-reload.json.gz")
	for b.Loop() {
		tr, err := load.File(context.Background(), path, nil)
		if err != nil {
			b.Fatal(err)
		}
		Build(tr)
	}
}
