//go:build windowtest

package wintest

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"flamedesk/core/integrate"
	"flamedesk/core/load"
	"flamedesk/timeline"
)

// shownState mirrors what the window writes to FLAMEDESK_STATE_FILE (app/teststate.go).
type shownState struct {
	Title      string   `json:"title"`
	Loading    bool     `json:"loading"`
	Error      string   `json:"error"`
	ViewStart  float64  `json:"viewStart"`
	ViewEnd    float64  `json:"viewEnd"`
	ScrollY    float64  `json:"scrollY"`
	ChartX     int      `json:"chartX"`
	ChartY     int      `json:"chartY"`
	ChartW     int      `json:"chartW"`
	ChartH     int      `json:"chartH"`
	RulerH     int      `json:"rulerH"`
	Selected   string   `json:"selected"`
	Details    []string `json:"details"`
	Matches    int      `json:"matches"`
	MatchIndex int      `json:"matchIndex"`
	Warnings   []string `json:"warnings"`
	TreeRows   []string `json:"treeRows"`
	Crumbs     []string `json:"crumbs"`
	Timing     string   `json:"timing"`
	TreeX      int      `json:"treeX"`
	TreeY      int      `json:"treeY"`
	TreeSel    string   `json:"treeSel"`
	Marked     int      `json:"marked"`
	Tracks     []struct {
		Pid   int64   `json:"pid"`
		Tid   int64   `json:"tid"`
		RowsY float64 `json:"rowsY"`
	} `json:"tracks"`
}

func stateFile(t *testing.T) string { return filepath.Join(t.TempDir(), "state.json") }

func readState(t *testing.T, path string) shownState {
	t.Helper()
	var s shownState
	b, err := os.ReadFile(path)
	if err != nil {
		return s
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("state file: %v", err)
	}
	return s
}

// waitState polls the state file until ok accepts it.
func waitState(t *testing.T, path string, what string, ok func(shownState) bool) shownState {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	var s shownState
	for time.Now().Before(deadline) {
		s = readState(t, path)
		if ok(s) {
			return s
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("window never showed %s; last state: %+v", what, s)
	return s
}

// loadModel loads a fixture the way the window does, to know where its bars must be.
func loadModel(t *testing.T, path string) *timeline.Model {
	t.Helper()
	tr, err := load.File(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	integrate.Build(tr)
	return timeline.New(tr)
}
