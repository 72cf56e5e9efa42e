package timeline

import (
	"context"
	"testing"

	"flamedesk/core/integrate"
	"flamedesk/core/load"
	"flamedesk/internal/fixtures"
)

// BenchmarkLargeTrace measures, on gen-trace-large, what the window does once per trace (New)
// and once per query (Search), to show which of them it must run off the UI goroutine:
//
//	go test -run '^$' -bench LargeTrace -benchtime 3x ./timeline/
func BenchmarkLargeTrace(b *testing.B) {
	tr, err := load.File(context.Background(), fixtures.Path(b, "fixtures", "generated", "gen-trace-large.json.gz"), nil)
	if err != nil {
		b.Fatal(err)
	}
	integrate.Build(tr)
	b.Run("New", func(b *testing.B) {
		for b.Loop() {
			New(tr)
		}
	})
	m := New(tr)
	for _, q := range []string{"parse", "a", "zzzz-nothing"} {
		b.Run("Search/"+q, func(b *testing.B) {
			var r *SearchResult
			for b.Loop() {
				r = m.Search(q)
			}
			b.ReportMetric(float64(r.Len()), "matches")
		})
	}
}
