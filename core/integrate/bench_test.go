package integrate

import (
	"context"
	"runtime/debug"
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
	cpu := 0.0
	for b.Loop() {
		c0 := processCPU()
		Build(tr)
		cpu += processCPU() - c0
	}
	reportTracks(b, tr)
	b.ReportMetric(cpu*1e3/float64(b.N), "cpu-ms/op")
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
			work[i] = jobs[i].entries(tr)
		}
		b.StartTimer()
		for i := range work {
			sortEntries(&tr.Events, work[i])
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
	jobs, entries, indexes := preparedJobs(tr)
	b.ResetTimer()
	for b.Loop() {
		for i := range jobs {
			if indexes[i] != nil {
				integrateSamples(context.Background(), tr, entries[i], indexes[i], nil, nil)
			}
		}
	}
}

// BenchmarkStageTreify: merging calls into the events and nesting them into tracks.
func BenchmarkStageTreify(b *testing.B) {
	tr := largeFixture(b)
	jobs, entries, indexes := preparedJobs(tr)
	cs := make([]calls, len(jobs))
	sorted := make([][]int32, len(jobs))
	for i := range jobs {
		if indexes[i] != nil {
			cs[i] = integrateSamples(context.Background(), tr, entries[i], indexes[i], nil, nil)
		}
		for _, e := range entries[i] {
			sorted[i] = append(sorted[i], e.ev)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		for i, j := range jobs {
			var w []string
			// treify lets go of each block of calls it has passed: it gets a list of its own.
			c := cs[i]
			c.blocks = slices.Clone(c.blocks)
			var p *core.ProfileModel
			if indexes[i] != nil {
				p = indexes[i].p
			}
			traceIDs := 0
			for _, e := range entries[i] {
				if e.flags&flagTraceID != 0 {
					traceIDs++
				}
			}
			treify(tr, j.thread, sorted[i], traceIDs, []calls{c}, p, j.profile, &w)
		}
	}
}

func preparedJobs(tr *core.Trace) ([]job, [][]entry, []*profileIndex) {
	keys := frameKeys(tr)
	jobs := traceJobs(tr)
	entries := make([][]entry, len(jobs))
	indexes := make([]*profileIndex, len(jobs))
	for i := range jobs {
		entries[i] = jobs[i].entries(tr)
		sortEntries(&tr.Events, entries[i])
		if jobs[i].profile >= 0 {
			indexes[i] = newProfileIndex(tr, &tr.Profiles[jobs[i].profile], keys)
		}
	}
	return jobs, entries, indexes
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

var (
	mediumOnce  sync.Once
	mediumTrace *core.Trace
	mediumErr   error
)

// BenchmarkBuildMedium is this package's share of the load of gen-trace-medium-reload: the part
// of scripts/speedbench.sh's time after the read.
func BenchmarkBuildMedium(b *testing.B) {
	path := fixtures.Path(b, "fixtures", "generated", "gen-trace-medium-reload.json.gz")
	mediumOnce.Do(func() {
		mediumTrace, mediumErr = load.File(context.Background(), path, nil)
	})
	if mediumErr != nil {
		b.Fatal(mediumErr)
	}
	benchmarkBuildFresh(b, mediumTrace)
}

// BenchmarkBuildLargeProfile is this package's share of the load of the largest committed
// .cpuprofile (46 MB of JSON, 1.4 M calls from 50 K samples, 258 deep): the walk over a bare
// profile's samples, which a trace's threads never take.
func BenchmarkBuildLargeProfile(b *testing.B) {
	path := fixtures.Path(b, "fixtures", "upstream", "devtools-large-profile.cpuprofile.gz")
	tr, err := load.File(context.Background(), path, nil)
	if err != nil {
		b.Fatal(err)
	}
	benchmarkBuildFresh(b, tr)
}

// benchmarkBuildFresh times Build on tr, each round in fresh memory as a load's is, and reports
// its CPU time and what it built.
func benchmarkBuildFresh(b *testing.B, tr *core.Trace) {
	b.ResetTimer()
	cpu := 0.0
	for b.Loop() {
		// A load builds the tracks in fresh memory, whose pages the kernel maps on first touch:
		// the memory of the previous round goes back to the system first.
		b.StopTimer()
		tr.Tracks = nil
		debug.FreeOSMemory()
		b.StartTimer()
		c0 := processCPU()
		Build(tr)
		cpu += processCPU() - c0
	}
	reportTracks(b, tr)
	b.ReportMetric(cpu*1e3/float64(b.N), "cpu-ms/op")
}
