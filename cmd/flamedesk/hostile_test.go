package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"flamedesk/core"
	"flamedesk/core/pipeline"
	"flamedesk/internal/fixtures"
)

// callBomb is a .cpuprofile of about 100 KB whose samples alternate between two stacks 300
// frames deep: 300 calls a sample, 3 million in all, more than its budget lets the tracks hold.
func callBomb(t *testing.T) string {
	const depth, samples = 300, 10000
	path := filepath.Join(t.TempDir(), "bomb.cpuprofile")
	if err := os.WriteFile(path, []byte(fixtures.CallBomb(depth, samples)), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// What the window runs for a file: a bomb ends in the budget's error (the window shows it and
// keeps the previous document), and so does every subcommand, with exit 1 and the reason.
func TestBombsEndInAReason(t *testing.T) {
	path := callBomb(t)
	if _, err := pipeline.Open(context.Background(), pipeline.Source{Path: path, Name: "bomb"}, nil); !errors.Is(err, core.ErrMemoryBudget) {
		t.Fatalf("pipeline.Open: %v, want the memory budget's error", err)
	}
	for _, cmd := range []string{"dump", "stats", "render"} {
		var stdout, stderr bytes.Buffer
		args := []string{cmd, path}
		if cmd == "render" {
			args = append(args, "-o", filepath.Join(t.TempDir(), "out.png"))
		}
		code := run(args, &stdout, &stderr)
		if code != exitInput || !strings.HasPrefix(stderr.String(), "flamedesk: "+path+": ") || !strings.Contains(stderr.String(), "memory") {
			t.Errorf("%s: exit %d, stderr %q", cmd, code, stderr.String())
		}
	}
}
