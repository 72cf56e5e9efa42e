package timelines

import (
	"testing"

	"flamedesk/internal/fixtures"
)

// BenchmarkBuildLarge builds every list of the large generated trace (loaded once): the cost the
// tracks beside the flame charts add to opening a file. It also reports what the loader keeps for
// them: the raw args arena and the async ids.
func BenchmarkBuildLarge(b *testing.B) {
	tr := loadTrace(b, fixtures.Path(b, "fixtures", "generated", "gen-trace-large.json.gz"))
	b.ReportAllocs()
	for b.Loop() {
		Build(tr)
	}
	b.ReportMetric(float64(len(tr.Events.ArgsArena))/1e6, "args-MB")
	b.ReportMetric(float64(len(tr.Events.AsyncIDs)), "async-ids")
}

// BenchmarkThreadTracksLarge names and orders the large trace's threads, as timeline.New does.
func BenchmarkThreadTracksLarge(b *testing.B) {
	tr := loadTrace(b, fixtures.Path(b, "fixtures", "generated", "gen-trace-large.json.gz"))
	b.ReportAllocs()
	for b.Loop() {
		ThreadTracks(tr, BuildMeta(tr))
	}
}
