package lighthouse

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"flamedesk/core"
	"flamedesk/core/load"
	"flamedesk/internal/fixtures"
)

// goldenEvent is one synthesized event of a Lighthouse reference.
type goldenEvent struct {
	Ph     string  `json:"ph"`
	Ts     float64 `json:"ts"`
	NodeID *int64  `json:"nodeId"` // nil when the reference has null
}

type goldenProfile struct {
	ID            string        `json:"id"`
	Pid           int64         `json:"pid"`
	Tid           int64         `json:"tid"`
	Naive         []goldenEvent `json:"naive"`   // nil when the reference has null
	Refined       []goldenEvent `json:"refined"` // nil when the reference has null
	KnownTaskList [][3]any      `json:"knownTaskList"`
	KnownTasks    int           `json:"knownTasks"`
	Errors        []string      `json:"errors"`
}

type goldenFile struct {
	Input struct {
		File string `json:"file"`
	} `json:"input"`
	Profiles []goldenProfile `json:"profiles"`
}

// readGzip reads a gzipped file whole into a buffer sized from the gzip trailer: the references
// are large, and growing a buffer step by step costs more than the decoding.
func readGzip(tb testing.TB, path string) []byte {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	size := 0
	if n := len(data); n >= 4 {
		size = int(uint32(data[n-4]) | uint32(data[n-3])<<8 | uint32(data[n-2])<<16 | uint32(data[n-1])<<24)
	}
	out := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
	if _, err := out.ReadFrom(zr); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return out.Bytes()
}

// loadGolden reads the fields of a *.lighthouse.json.gz reference that the tests compare.
func loadGolden(tb testing.TB, path string) *goldenFile {
	tb.Helper()
	var g goldenFile
	if err := json.Unmarshal(readGzip(tb, path), &g); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return &g
}

// fixtureFor finds the trace a reference was made from.
func fixtureFor(tb testing.TB, name string) string {
	tb.Helper()
	for _, dir := range []string{"upstream", "generated"} {
		if p := fixtures.Find("fixtures", dir, name); p != "" {
			return p
		}
	}
	tb.Fatalf("no fixture named %s", name)
	return ""
}

const tolUs = 0.01

// diffEvents describes the first difference between a reference event list and ours, or "".
func diffEvents(ref []goldenEvent, s *Synthetic, p *Profile, ts func(int) float64) string {
	for i := 0; i < min(len(ref), s.Len()); i++ {
		r := ref[i]
		id := p.Nodes[s.Node[i]].ID
		if r.Ph != string(s.Ph[i]) || r.NodeID == nil || *r.NodeID != id || math.Abs(r.Ts-ts(i)) > tolUs {
			nodeID := "null"
			if r.NodeID != nil {
				nodeID = fmt.Sprint(*r.NodeID)
			}
			return fmt.Sprintf("event #%d: reference %s node %s ts %.3f, ours %c node %d ts %.3f (range %v..%v)",
				i, r.Ph, nodeID, r.Ts, s.Ph[i], id, ts(i), s.Earliest(i), s.Latest(i))
		}
	}
	if len(ref) != s.Len() {
		return fmt.Sprintf("%d events, reference has %d", s.Len(), len(ref))
	}
	return ""
}

// loadTrace reads a fixture through the real loader.
func loadTrace(tb testing.TB, path string) *core.Trace {
	tb.Helper()
	tr, err := load.File(context.Background(), path, nil)
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return tr
}

// TestGoldenLighthouse checks every Lighthouse reference: the known tasks of each profiled thread
// on their own, then the naive and refined events of each profile.
func TestGoldenLighthouse(t *testing.T) {
	for _, path := range fixtures.Glob(t, "conformance/golden/*.lighthouse.json.gz") {
		name := strings.TrimSuffix(filepath.Base(path), ".lighthouse.json.gz")
		t.Run(name, func(t *testing.T) {
			g := loadGolden(t, path)
			tr := loadTrace(t, fixtureFor(t, g.Input.File))
			ours := map[string]*Result{}
			results := FromTrace(tr)
			for i := range results {
				r := &results[i]
				ours[fmt.Sprint(r.Profile.Pid, "/", r.Profile.ID)] = r
			}
			for _, ref := range g.Profiles {
				label := fmt.Sprintf("pid %d id %s tid %d", ref.Pid, ref.ID, ref.Tid)
				r := ours[fmt.Sprint(ref.Pid, "/", ref.ID)]
				if r == nil {
					t.Errorf("%s: profile not collected", label)
					continue
				}
				if r.Profile.Tid != ref.Tid {
					t.Errorf("%s: profile on tid %d", label, r.Profile.Tid)
				}
				if ref.KnownTaskList != nil {
					checkTasks(t, label, ref.KnownTaskList, r.Tasks, r.TasksErr, tr)
				} else if ref.KnownTasks == 0 && r.TasksErr == nil {
					t.Errorf("%s: reference has no known tasks, we built %d", label, len(r.Tasks))
				}
				if ref.Naive == nil {
					if r.Err == nil {
						t.Errorf("%s: reference failed to synthesize (%v), we did not", label, ref.Errors)
					}
					continue
				}
				if r.Err != nil {
					t.Errorf("%s: %v", label, r.Err)
					continue
				}
				s := r.Events
				if d := diffEvents(ref.Naive, s, &r.Profile, s.Naive); d != "" {
					t.Errorf("%s naive: %s", label, d)
				}
				if ref.Refined == nil {
					continue
				}
				if !r.Refined() {
					t.Errorf("%s: not refined (%v)", label, r.TasksErr)
					continue
				}
				if d := diffEvents(ref.Refined, s, &r.Profile, func(i int) float64 { return s.Refined[i] }); d != "" {
					t.Errorf("%s refined: %s", label, d)
				}
			}
			if len(results) != len(g.Profiles) {
				t.Errorf("%d profiles, reference has %d", len(results), len(g.Profiles))
			}
		})
	}
}

func checkTasks(t *testing.T, label string, ref [][3]any, tasks []Task, err error, tr *core.Trace) {
	t.Helper()
	if err != nil {
		t.Errorf("%s: reference has %d known tasks, we failed: %v", label, len(ref), err)
		return
	}
	if len(ref) != len(tasks) {
		t.Errorf("%s: %d known tasks, reference has %d", label, len(tasks), len(ref))
	}
	for i := 0; i < min(len(ref), len(tasks)); i++ {
		name, _ := ref[i][0].(string)
		start, _ := ref[i][1].(float64)
		end, _ := ref[i][2].(float64)
		got := tasks[i]
		if name != tr.Strings.Get(got.Name) || start != got.Start || end != got.End {
			t.Errorf("%s: known task #%d: reference %s %.3f..%.3f, ours %s %.3f..%.3f",
				label, i, name, start, end, tr.Strings.Get(got.Name), got.Start, got.End)
			return
		}
	}
}
