//go:build windowtest

package wintest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"flamedesk/core/pipeline"
	"flamedesk/internal/winstate"
	"flamedesk/timeline"
)

// shownState is what the window writes to its state file.
type shownState = winstate.State

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
	tr, err := pipeline.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// As the window lays it out: the Performance panel's lanes above the threads.
	m := timeline.New(tr)
	m.AddPanelLanes()
	return m
}
