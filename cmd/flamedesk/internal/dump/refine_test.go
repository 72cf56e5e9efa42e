package dump_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"math"
	"os"
	"testing"

	"flamedesk/cmd/flamedesk/internal/dump"
	"flamedesk/core/integrate"
	"flamedesk/core/load"
	"flamedesk/internal/fixtures"
)

type dumpedEvent struct {
	Ph           string   `json:"ph"`
	Ts           *float64 `json:"ts"`
	NodeID       int64    `json:"nodeId"`
	FunctionName *string  `json:"functionName"`
}

type dumpedProfile struct {
	ID      string        `json:"id"`
	Pid     int64         `json:"pid"`
	Tid     int64         `json:"tid"`
	Naive   []dumpedEvent `json:"naive"`
	Refined []dumpedEvent `json:"refined"`
}

// TestDumpRefine checks `flamedesk dump --refine` end to end on references that cover a main
// thread with workers and several processes: the lighthouse list must hold every reference
// profile with the same events, as compare_refined.py checks it.
func TestDumpRefine(t *testing.T) {
	for _, name := range []string{"devtools-two-workers", "devtools-fenced-frame-fledge", "gen-trace-small", "speedscope-chrome141-no-arg-data"} {
		t.Run(name, func(t *testing.T) {
			var ref struct {
				Input    struct{ File string }
				Profiles []dumpedProfile
			}
			if err := json.Unmarshal(gunzip(t, fixtures.Path(t, "conformance", "golden", name+".lighthouse.json.gz")), &ref); err != nil {
				t.Fatal(err)
			}
			var path string
			for _, dir := range []string{"upstream", "generated"} {
				if p := fixtures.Find("fixtures", dir, ref.Input.File); p != "" {
					path = p
				}
			}
			tr, err := load.File(context.Background(), path, nil)
			if err != nil {
				t.Fatal(err)
			}
			integrate.Build(tr)
			var out bytes.Buffer
			if err := dump.Write(&out, tr, dump.Options{File: path, Refine: true}); err != nil {
				t.Fatal(err)
			}
			var got struct {
				Lighthouse []dumpedProfile `json:"lighthouse"`
			}
			if err := json.Unmarshal(out.Bytes(), &got); err != nil {
				t.Fatalf("dump is not JSON: %v", err)
			}
			ours := map[[2]any]dumpedProfile{}
			for _, p := range got.Lighthouse {
				ours[[2]any{p.Pid, p.ID}] = p
			}
			for _, r := range ref.Profiles {
				p, ok := ours[[2]any{r.Pid, r.ID}]
				if !ok {
					t.Errorf("pid %d id %s missing", r.Pid, r.ID)
					continue
				}
				if p.Tid != r.Tid {
					t.Errorf("pid %d id %s: tid %d, reference %d", r.Pid, r.ID, p.Tid, r.Tid)
				}
				compareDumped(t, r.ID+" naive", r.Naive, p.Naive)
				if r.Refined != nil {
					compareDumped(t, r.ID+" refined", r.Refined, p.Refined)
				}
			}
		})
	}
}

func compareDumped(t *testing.T, label string, ref, got []dumpedEvent) {
	t.Helper()
	if len(ref) != len(got) {
		t.Errorf("%s: %d events, reference %d", label, len(got), len(ref))
		return
	}
	for i := range ref {
		a, b := ref[i], got[i]
		if a.Ph != b.Ph || a.NodeID != b.NodeID || b.Ts == nil || math.Abs(*a.Ts-*b.Ts) > 0.01 || b.FunctionName == nil {
			t.Errorf("%s: event #%d: reference %+v, dumped %+v", label, i, a, b)
			return
		}
	}
}

func gunzip(tb testing.TB, path string) []byte {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		tb.Fatal(err)
	}
	return data
}
