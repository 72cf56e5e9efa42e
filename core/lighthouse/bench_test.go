package lighthouse

import (
	"testing"

	"flamedesk/internal/fixtures"
)

// refineAllRaw runs every Lighthouse step on every profiled thread of rt, as FromTrace does.
func refineAllRaw(rt *rawTrace) (events int) {
	cache := map[[2]int64][]Task{}
	for _, pid := range rt.pids {
		for _, p := range Collect(rt.profiles[pid]) {
			key := [2]int64{p.Pid, p.Tid}
			tasks, ok := cache[key]
			if !ok {
				tasks, _ = KnownTasks(rt.threads[key], rt.traceEnd)
				cache[key] = tasks
			}
			s, err := Synthesize(&p)
			if err != nil {
				continue
			}
			if len(tasks) > 0 {
				Refine(s, tasks)
			}
			events += s.Len()
		}
	}
	return events
}

// BenchmarkRefineLargeRaw times collection, known tasks, synthesis and refinement of all threads
// of the 238 MB generated trace (Lighthouse needs 97 s for its refinement of it). The file is read
// outside the timer.
func BenchmarkRefineLargeRaw(b *testing.B) {
	rt := loadRawTrace(b, fixtures.Path(b, "fixtures", "generated", "gen-trace-large.json.gz"))
	b.ResetTimer()
	for b.Loop() {
		n := refineAllRaw(rt)
		b.ReportMetric(float64(n), "events")
	}
}
