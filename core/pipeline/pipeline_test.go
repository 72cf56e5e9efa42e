package pipeline

import (
	"context"
	"errors"
	"os"
	"testing"

	"flamedesk/core"
	"flamedesk/internal/fixtures"
)

// TestOpenBuildsTracksOnOneBar opens a real trace from disk and from memory: both build the
// same tracks, and the progress bar only ever moves forward, ending where Open's share ends.
func TestOpenBuildsTracksOnOneBar(t *testing.T) {
	path := fixtures.Path(t, "fixtures", "generated", "gen-trace-small.json.gz")
	var p core.Progress
	fromFile, err := Open(context.Background(), FromPath(path), &p)
	if err != nil {
		t.Fatal(err)
	}
	if len(fromFile.Tracks) == 0 {
		t.Fatal("Open built no tracks")
	}
	if got := p.Overall(); got < Done-1e-6 || got > Done+1e-6 {
		t.Fatalf("the bar ends at %v, want %v", got, Done)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fromMemory, err := Open(context.Background(), Source{Name: "x", Data: data}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(fromMemory.Tracks) != len(fromFile.Tracks) || fromMemory.Events.Len() != fromFile.Events.Len() {
		t.Fatalf("from memory %d tracks, %d events; from the file %d, %d",
			len(fromMemory.Tracks), fromMemory.Events.Len(), len(fromFile.Tracks), fromFile.Events.Len())
	}
}

func TestOpenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Open(ctx, FromPath(fixtures.Path(t, "fixtures", "generated", "gen-trace-small.json.gz")), nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled Open returned %v, want context.Canceled", err)
	}
}
