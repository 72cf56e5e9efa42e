package lighthouse

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"flamedesk/internal/fixtures"
)

// goldenEvent is one synthesized event of a Lighthouse reference.
type goldenEvent struct {
	Ph     string  `json:"ph"`
	Ts     float64 `json:"ts"`
	NodeID *int64  `json:"nodeId"`
}

type goldenProfile struct {
	ID            string        `json:"id"`
	Pid           int64         `json:"pid"`
	Tid           int64         `json:"tid"`
	Naive         []goldenEvent `json:"naive"`
	Refined       []goldenEvent `json:"refined"`
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

func loadGolden(tb testing.TB, path string) *goldenFile {
	tb.Helper()
	var g goldenFile
	if err := json.Unmarshal(readMaybeGzip(tb, path), &g); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return &g
}

// fixtureFor finds the trace a reference was made from.
func fixtureFor(tb testing.TB, name string) string {
	tb.Helper()
	for _, dir := range []string{"upstream", "generated"} {
		p := filepath.Join(fixtures.Shared(), "fixtures", dir, name)
		if _, err := os.Stat(p); err == nil {
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

func TestGoldenLighthouse(t *testing.T) {
	for _, path := range fixtures.Glob(t, "conformance/golden/*.lighthouse.json.gz") {
		name := strings.TrimSuffix(filepath.Base(path), ".lighthouse.json.gz")
		t.Run(name, func(t *testing.T) {
			g := loadGolden(t, path)
			rt := loadRawTrace(t, fixtureFor(t, g.Input.File))
			ours := map[string]*Profile{}
			for _, pid := range rt.pids {
				for _, p := range Collect(rt.profiles[pid]) {
					ours[fmt.Sprint(p.Pid, "/", p.ID)] = &p
				}
			}
			for _, ref := range g.Profiles {
				label := fmt.Sprintf("pid %d id %s tid %d", ref.Pid, ref.ID, ref.Tid)
				p := ours[fmt.Sprint(ref.Pid, "/", ref.ID)]
				if p == nil {
					t.Errorf("%s: profile not collected", label)
					continue
				}
				tasks, taskErr := KnownTasks(rt.threads[[2]int64{p.Pid, p.Tid}], rt.traceEnd)
				if ref.KnownTaskList != nil {
					checkTasks(t, label, ref.KnownTaskList, tasks, taskErr, rt)
				} else if ref.KnownTasks == 0 && taskErr == nil {
					t.Errorf("%s: reference has no known tasks, we built %d", label, len(tasks))
				}
				s, err := Synthesize(p)
				if ref.Naive == nil {
					if err == nil {
						t.Errorf("%s: reference failed to synthesize (%v), we did not", label, ref.Errors)
					}
					continue
				}
				if err != nil {
					t.Errorf("%s: %v", label, err)
					continue
				}
				if d := diffEvents(ref.Naive, s, p, s.Naive); d != "" {
					t.Errorf("%s naive: %s", label, d)
				}
				if ref.Refined == nil || taskErr != nil {
					continue
				}
				Refine(s, tasks)
				if d := diffEvents(ref.Refined, s, p, func(i int) float64 { return s.Refined[i] }); d != "" {
					t.Errorf("%s refined: %s", label, d)
				}
			}
		})
	}
}

func checkTasks(t *testing.T, label string, ref [][3]any, tasks []Task, err error, rt *rawTrace) {
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
		if name != rt.strs.Get(got.Name) || start != got.Start || end != got.End {
			t.Errorf("%s: known task #%d: reference %s %.3f..%.3f, ours %s %.3f..%.3f",
				label, i, name, start, end, rt.strs.Get(got.Name), got.Start, got.End)
			return
		}
	}
}
