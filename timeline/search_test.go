package timeline

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestSearchIsCaseInsensitiveOverNamesAndURLs(t *testing.T) {
	threads := []synthThread{{pid: 1, tid: 1, name: "CrRendererMain", pname: "Renderer"}, {pid: 1, tid: 2, name: "W", pname: "Renderer"}}
	m := New(synthTrace(threads, [][]synthEntry{
		{
			{start: 100, dur: 50, name: "FunctionCall"},
			{start: 110, dur: 10, depth: 1, name: "handleClick", profile: true, url: "https://x.test/App.js"},
			{start: 200, dur: 10, name: "Layout"},
			{start: 300, dur: 10, name: "", profile: true, url: "https://cdn.test/vendor.js"},
		},
		{
			{start: 150, dur: 20, name: "HANDLEclick2", profile: true},
			{start: 250, dur: 20, name: "Paint"},
		},
	}))
	names := func(r *SearchResult) string {
		var out []string
		for _, e := range r.Matches {
			out = append(out, m.EntryName(e))
		}
		return strings.Join(out, ",")
	}
	for _, c := range []struct{ q, want string }{
		{"handleclick", "handleClick,HANDLEclick2"},
		{"APP.JS", "handleClick"},
		{"vendor", "(anonymous)"},
		{"anonym", "(anonymous)"},
		{"a", "Function call,handleClick,HANDLEclick2,Layout,Paint,(anonymous)"}, // time order across tracks
		// Events match by their trace name and by their title.
		{"functioncall", "Function call"},
		{"function call", "Function call"},
		{"zzz", ""},
		{"", ""},
	} {
		r := m.Search(c.q)
		if got := names(r); got != c.want {
			t.Errorf("search %q: %s, want %s", c.q, got, c.want)
		}
		for ti := range m.Tracks {
			for e := 0; e < m.Tracks[ti].Core.Len(); e++ {
				ref := EntryRef{Track: TrackID(ti), Entry: int32(e)}
				in := false
				for _, x := range r.Matches {
					in = in || x == ref
				}
				if r.Contains(ref) != in {
					t.Errorf("search %q: Contains(%v) = %v", c.q, ref, !in)
				}
			}
		}
	}
	if (*SearchResult)(nil).Contains(EntryRef{0, 0}) || (*SearchResult)(nil).Len() != 0 {
		t.Error("a nil result matches something")
	}
}

func TestSearchUnicodeQuery(t *testing.T) {
	m := New(synthTrace([]synthThread{{pid: 1, tid: 1, name: "main"}}, [][]synthEntry{{
		{start: 0, dur: 5, name: "Ünïcode", profile: true},
		{start: 10, dur: 5, name: "plain", profile: true},
	}}))
	if r := m.Search("üNÏ"); r.Len() != 1 || m.EntryName(r.Matches[0]) != "Ünïcode" {
		t.Fatalf("unicode search found %d", r.Len())
	}
}

func TestSearchNextPrevAndMergedHighlight(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	budget := 20000
	m := New(synthTrace([]synthThread{{pid: 1, tid: 1, name: "main"}}, [][]synthEntry{randomTree(rng, 5e9, 1e6, 8, &budget)}))
	r := m.Search("PAINT")
	if r.Len() < 10 {
		t.Fatalf("only %d matches", r.Len())
	}
	for i := 1; i < r.Len(); i++ {
		if m.EntryStart(r.Matches[i]) < m.EntryStart(r.Matches[i-1]) {
			t.Fatalf("matches out of time order at %d", i)
		}
	}
	if r.Next(r.Len()-1) != 0 || r.Prev(0) != r.Len()-1 || r.Next(3) != 4 || r.Prev(4) != 3 || r.Next(-1) != 0 {
		t.Error("next/prev do not wrap")
	}
	mid := m.EntryStart(r.Matches[r.Len()/2])
	i := r.FirstAfter(m, mid)
	if m.EntryStart(r.Matches[i]) <= mid || m.EntryStart(r.Matches[i-1]) > mid {
		t.Errorf("FirstAfter(%f) = %d", mid, i)
	}
	if r.FirstAfter(m, 1e300) != 0 {
		t.Error("FirstAfter past the end does not wrap")
	}
	// AnyIn agrees with a scan of the span's entries at several zooms.
	lo, hi := m.Bounds()
	tk := &m.Tracks[0]
	for _, w := range []float64{(hi - lo) / 100, (hi - lo) / 1e4, 0} {
		for li := range tk.Levels {
			lv := &tk.Levels[li]
			it := lv.Spans(tk.Core, lo, hi, w)
			for {
				s, ok := it.Next()
				if !ok {
					break
				}
				want := false
				for p := s.First; p <= s.Last; p++ {
					want = want || r.Contains(EntryRef{Track: 0, Entry: lv.Entries[p]})
				}
				if r.AnyIn(0, li, s) != want {
					t.Fatalf("AnyIn(level %d, %+v) = %v", li, s, !want)
				}
			}
		}
	}
}

func TestSearchTiesGoInTrackOrder(t *testing.T) {
	// Three tracks with matches at the same instants, of different sizes, so that the merge
	// meets them in an order other than the tracks'.
	threads := []synthThread{{pid: 1, tid: 1, name: "A"}, {pid: 1, tid: 2, name: "B"}, {pid: 1, tid: 3, name: "C"}}
	var entries [][]synthEntry
	for ti, n := range []int{5, 1, 3} {
		var es []synthEntry
		for i := 0; i < n; i++ {
			es = append(es, synthEntry{start: float64(100 * i), dur: 10, name: fmt.Sprintf("match%d", ti)})
		}
		entries = append(entries, es)
	}
	m := New(synthTrace(threads, entries))
	r := m.Search("match")
	for i := 1; i < r.Len(); i++ {
		a, b := r.Matches[i-1], r.Matches[i]
		if sa, sb := m.EntryStart(a), m.EntryStart(b); sa > sb || (sa == sb && a.Track > b.Track) {
			t.Fatalf("matches %d and %d out of order: %v at %g, %v at %g", i-1, i, a, sa, b, sb)
		}
	}
	if r.Len() != 9 {
		t.Fatalf("%d matches, want 9", r.Len())
	}
}

func TestSearchContextStopsWhenCancelled(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	budget := 5000
	m := New(synthTrace([]synthThread{{pid: 1, tid: 1, name: "main"}}, [][]synthEntry{randomTree(rng, 5e9, 1e6, 8, &budget)}))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if r, err := m.SearchContext(ctx, "paint"); err == nil || r != nil {
		t.Fatalf("a cancelled search returned %v, %v", r, err)
	}
	r, err := m.SearchContext(context.Background(), "paint")
	if err != nil || r.Len() == 0 || r.Len() != m.Search("paint").Len() {
		t.Fatalf("SearchContext found %d (%v), Search %d", r.Len(), err, m.Search("paint").Len())
	}
}
