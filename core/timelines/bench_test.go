package timelines

import (
	"testing"

	"flamedesk/internal/fixtures"
)

// BenchmarkBuildLarge builds every list of the large generated trace (loaded once): the cost the
// tracks beside the flame charts add to opening a file.
func BenchmarkBuildLarge(b *testing.B) {
	tr := loadTrace(b, fixtures.Path(b, "fixtures", "generated", "gen-trace-large.json.gz"))
	b.ReportAllocs()
	for b.Loop() {
		Build(tr)
	}
}

// BenchmarkThreadTracksLarge names and orders the large trace's threads, as timeline.New does.
func BenchmarkThreadTracksLarge(b *testing.B) {
	tr := loadTrace(b, fixtures.Path(b, "fixtures", "generated", "gen-trace-large.json.gz"))
	b.ReportAllocs()
	for b.Loop() {
		ThreadTracks(tr, BuildMeta(tr))
	}
}
