package integrate

import (
	"context"
	"runtime"
	"testing"

	"flamedesk/core"
	"flamedesk/core/load"
	"flamedesk/internal/fixtures"
)

// A page's iframes and workers are profiled like its main thread but are mostly idle: their
// threads make a few ProfileCalls each. Each took a whole block of calls (131072 of them, 0.9 MB)
// nonetheless; on the committed fenced-frames trace, with 6 profiled threads that make 34 calls
// between them, the build allocated 5.75 MB, 1.03 MB once the first block started small.
func TestQuietThreadsAllocateLittle(t *testing.T) {
	tr, err := load.File(context.Background(), fixtures.Path(t, "fixtures", "upstream", "devtools-fenced-frame-fledge.json.gz"), nil)
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if err := BuildContext(context.Background(), tr, nil); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	calls, entries := 0, 0
	for i := range tr.Tracks {
		t := &tr.Tracks[i]
		entries += t.Len()
		for e := range t.Len() {
			if t.KindAt(e) == core.EntryProfileCall {
				calls++
			}
		}
	}
	allocated := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d profiles, %d ProfileCalls, %d entries: %.2f MB allocated", len(tr.Profiles), calls, entries, float64(allocated)/(1<<20))
	// About 100 bytes an entry (the tracks, the threads' sorted events, the profiles' indexes);
	// a whole block per profiled thread made it 530.
	if perEntry := float64(allocated) / float64(entries); calls > 100 || perEntry > 200 {
		t.Errorf("%.0f bytes allocated an entry, want at most 200 (with %d ProfileCalls, want few)", perEntry, calls)
	}
}
