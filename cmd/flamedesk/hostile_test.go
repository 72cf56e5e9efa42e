package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"flamedesk/core"
	"flamedesk/core/pipeline"
)

// callBomb is a .cpuprofile of about 100 KB whose samples alternate between two stacks 300
// frames deep: 300 calls a sample, 3 million in all, more than its budget lets the tracks hold.
func callBomb(t *testing.T) string {
	const depth, samples = 300, 10000
	var b strings.Builder
	fmt.Fprintf(&b, `{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"},"children":[2,%d]}`, depth+2)
	for branch, base := range []int{2, depth + 2} {
		for i := range depth {
			fmt.Fprintf(&b, `,{"id":%d,"callFrame":{"functionName":"f%d_%d"}`, base+i, branch, i)
			if i < depth-1 {
				fmt.Fprintf(&b, `,"children":[%d]`, base+i+1)
			}
			b.WriteString(`}`)
		}
	}
	b.WriteString(`],"startTime":0,"endTime":1,"samples":[`)
	for i := range samples {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprint(&b, depth+1+(i%2)*depth)
	}
	b.WriteString(`],"timeDeltas":[` + strings.TrimSuffix(strings.Repeat("1,", samples), ",") + `]}`)
	path := filepath.Join(t.TempDir(), "bomb.cpuprofile")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
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
