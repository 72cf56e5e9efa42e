package timelines

import (
	"testing"

	"flamedesk/internal/fixtures"
)

// BenchmarkBuildLarge measures Build on gen-trace-large (670k events, 66k memory counters): the
// work the timelines add after a load, from the columns and the kept args alone.
func BenchmarkBuildLarge(b *testing.B) {
	tr := loadTrace(b, fixtures.Path(b, "fixtures", "generated", "gen-trace-large.json.gz"))
	b.ResetTimer()
	b.ReportAllocs()
	for range b.N {
		Build(tr)
	}
	b.ReportMetric(float64(len(tr.Events.ArgsArena))/1e6, "args-MB")
	b.ReportMetric(float64(len(tr.Events.AsyncIDs)), "async-ids")
}
