package timeline

import (
	"context"
	"runtime"
	"syscall"
	"testing"
	"time"

	"flamedesk/core"
	"flamedesk/core/integrate"
	"flamedesk/core/load"
	"flamedesk/core/timelines"
	"flamedesk/internal/fixtures"
)

// BenchmarkLargeTrace measures, on gen-trace-large, what the window does once per trace (New)
// and once per query (Search), to show which of them it must run off the UI goroutine:
//
//	go test -run '^$' -bench LargeTrace -benchtime 3x ./timeline/
func BenchmarkLargeTrace(b *testing.B) {
	tr := loadFixture(b, "generated", "gen-trace-large.json.gz")
	b.Run("New", func(b *testing.B) {
		before := usage()
		for b.Loop() {
			New(tr)
		}
		reportUsage(b, before)
	})
	// What the window builds: the levels and the lanes, one after the other or side by side.
	b.Run("NewThenAddPanelLanes", func(b *testing.B) {
		before := usage()
		for b.Loop() {
			New(tr).AddPanelLanes()
		}
		reportUsage(b, before)
	})
	b.Run("NewWithPanelLanes", func(b *testing.B) {
		before := usage()
		for b.Loop() {
			NewWithPanelLanes(tr)
		}
		reportUsage(b, before)
	})
	// The levels alone, every track on one goroutine, against the previous build (levels_test.go).
	for _, c := range []struct {
		name  string
		build func(*core.Track, []int32)
	}{
		{"Levels", func(ct *core.Track, rows []int32) { buildLevelsOnRows(ct, rows) }},
		{"LevelsReference", func(ct *core.Track, rows []int32) { referenceLevels(ct, rows) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			n := 0
			before := usage()
			for b.Loop() {
				n = 0
				for i := range tr.Tracks {
					c.build(&tr.Tracks[i], nil)
					n += tr.Tracks[i].Len()
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entry")
			reportUsage(b, before)
		})
	}
	// The largest track (the main thread), the one left to lay out after core/integrate in the
	// window: its drawn rows, its levels on them and its packed rows, each on one goroutine or
	// two.
	largest := &tr.Tracks[0]
	for i := range tr.Tracks {
		if tr.Tracks[i].Len() > largest.Len() {
			largest = &tr.Tracks[i]
		}
	}
	vis := timelines.NewVisibility(tr, false)
	rows := drawnRows(tr, largest, vis)
	for _, parallel := range []bool{false, true} {
		suffix := "/OneGoroutine"
		if parallel {
			suffix = "/TwoGoroutines"
		}
		b.Run("LargestRows"+suffix, func(b *testing.B) {
			before := usage()
			for b.Loop() {
				drawnRowsOn(tr, largest, vis, parallel)
			}
			reportPerEntry(b, before, largest.Len())
		})
		if !parallel {
			// What the window does instead of its drawn rows before the model (deferLazily): the
			// walk to the first rows a 464 px view can show, and the first 4 of them placed.
			b.Run("LargestTopRows", func(b *testing.B) {
				before := usage()
				for b.Loop() {
					var l laidOut
					l.deferLazily(tr, largest, vis, viewRows(464))
					t := Track{Core: largest, Levels: l.levels, pending: l.pending}
					t.placeTop(4)
				}
				reportPerEntry(b, before, largest.Len())
			})
		}
		b.Run("LargestPack"+suffix, func(b *testing.B) {
			if !parallel {
				was := parallelPlaceEntries
				parallelPlaceEntries = largest.Len() + 1
				defer func() { parallelPlaceEntries = was }()
			}
			before := usage()
			for b.Loop() {
				t := Track{Core: largest, Rows: rows}
				t.packRows()
			}
			reportPerEntry(b, before, largest.Len())
		})
		b.Run("LargestLevels"+suffix, func(b *testing.B) {
			before := usage()
			for b.Loop() {
				buildLevelsOn(largest, rows, parallel)
			}
			reportPerEntry(b, before, largest.Len())
		})
	}
	m := New(tr)
	for _, q := range []string{"parse", "run", "a", "zzzz-nothing"} {
		b.Run("Search/"+q, func(b *testing.B) {
			var r *SearchResult
			for b.Loop() {
				r = m.Search(q)
			}
			b.ReportMetric(float64(r.Len()), "matches")
		})
	}
}

// BenchmarkTracksThenModel measures what the window's loader does after reading gen-trace-large:
// build the tracks (core/integrate), then the display model, either after the build or with each
// track laid out as the build finishes it (Prelayout):
//
//	go test -run '^$' -bench TracksThenModel -benchtime 3x -count 3 ./timeline/
//
// On a machine busy with other work its wall time says little: the prelayout only uses a core
// that the build leaves idle.
func BenchmarkTracksThenModel(b *testing.B) {
	tr, err := load.File(context.Background(), fixtures.Path(b, "fixtures", "generated", "gen-trace-large.json.gz"), nil)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.Run("After", func(b *testing.B) {
		before := usage()
		for b.Loop() {
			if err := integrate.BuildContext(ctx, tr, nil); err != nil {
				b.Fatal(err)
			}
			runtime.GC() // as the window's loader does between the two
			if _, err := NewWithPanelLanesContext(ctx, tr, nil); err != nil {
				b.Fatal(err)
			}
		}
		reportUsage(b, before)
	})
	b.Run("Prelayout", func(b *testing.B) {
		before := usage()
		for b.Loop() {
			pl := NewPrelayout(ctx)
			p := new(core.Progress)
			pl.Hook(p)
			if err := integrate.BuildContext(ctx, tr, p); err != nil {
				b.Fatal(err)
			}
			runtime.GC()
			if _, err := pl.Model(ctx, tr, nil, 0); err != nil {
				b.Fatal(err)
			}
		}
		reportUsage(b, before)
	})
	// As the window does: the large tracks' rows only counted ahead, the panel's lists started as
	// the build ends, no collection, the model built for a first view of 464 px (the chart of a
	// 1400×900 window) and the rest placed after it. after-build-ms is the wait from the build's
	// end to the model, the window's share of the time to ready.
	b.Run("FirstView", func(b *testing.B) {
		before := usage()
		var wait time.Duration
		for b.Loop() {
			pl := NewPrelayout(ctx)
			pl.DeferRows(func() float64 { return 464 })
			p := new(core.Progress)
			pl.Hook(p)
			if err := integrate.BuildContext(ctx, tr, p); err != nil {
				b.Fatal(err)
			}
			built := time.Now()
			pl.StartLists(tr)
			m, err := pl.Model(ctx, tr, nil, 464)
			if err != nil {
				b.Fatal(err)
			}
			wait += time.Since(built)
			b.StopTimer()
			if err := m.PlaceRest(ctx); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		b.ReportMetric(float64(wait.Milliseconds())/float64(b.N), "after-build-ms")
		reportUsage(b, before)
	})
}

// usage is the process's CPU time and page faults so far: on a machine shared with other work,
// CPU time varies less than the wall clock, and page faults (fresh memory touched) not at all.
func usage() syscall.Rusage {
	var u syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &u)
	return u
}

// reportPerEntry is reportUsage with the CPU time per entry of a track of n entries.
func reportPerEntry(b *testing.B, before syscall.Rusage, n int) {
	after := usage()
	cpu := after.Utime.Nano() + after.Stime.Nano() - before.Utime.Nano() - before.Stime.Nano()
	b.ReportMetric(float64(cpu)/float64(b.N)/float64(n), "cpu-ns/entry")
	reportUsage(b, before)
}

// reportUsage reports the CPU time and page faults per op since before.
func reportUsage(b *testing.B, before syscall.Rusage) {
	after := usage()
	cpu := time.Duration(after.Utime.Nano() + after.Stime.Nano() - before.Utime.Nano() - before.Stime.Nano())
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(after.Minflt-before.Minflt)/float64(b.N), "faults/op")
}
