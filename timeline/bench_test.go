package timeline

import (
	"testing"
)

// BenchmarkLargeTrace measures, on gen-trace-large, what the window does once per trace (New)
// and once per query (Search), to show which of them it must run off the UI goroutine:
//
//	go test -run '^$' -bench LargeTrace -benchtime 3x ./timeline/
func BenchmarkLargeTrace(b *testing.B) {
	tr := loadFixture(b, "generated", "gen-trace-large.json.gz")
	b.Run("New", func(b *testing.B) {
		for b.Loop() {
			New(tr)
		}
	})
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
