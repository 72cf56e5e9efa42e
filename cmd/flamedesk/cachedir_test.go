package main

import (
	"bytes"
	"os"
	"testing"

	"flamedesk/core/pipeline"
	"flamedesk/internal/fixtures"
)

// TestMain points the user cache directory at a temporary one, so that the subcommands the tests
// run (which cache the files they open) never touch the real one.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "flamedesk-cache-test-")
	if err != nil {
		panic(err)
	}
	for _, v := range []string{"XDG_CACHE_HOME", "HOME", "LocalAppData"} {
		os.Setenv(v, dir)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// TestDumpFromTheCacheIsTheSame dumps a file three times: without the cache (which then stays
// empty), filling it, and from it; the three outputs are equal.
func TestDumpFromTheCacheIsTheSame(t *testing.T) {
	cacheDir := pipeline.WithUserCache(false).Cache.Path
	if cacheDir == "" {
		t.Skip("no user cache directory")
	}
	file := fixtures.Path(t, "fixtures", "upstream", "devtools-two-workers.json.gz")
	os.RemoveAll(cacheDir)
	var outs []string
	for i, args := range [][]string{{"--no-cache", file}, {file}, {file}} {
		var stdout, stderr bytes.Buffer
		if code := runDump(args, &stdout, &stderr); code != exitOK {
			t.Fatalf("dump %q: exit %d: %s", args, code, stderr.String())
		}
		outs = append(outs, stdout.String())
		entries, _ := os.ReadDir(cacheDir)
		if want := min(i, 1); len(entries) != want {
			t.Fatalf("after dump %q the cache holds %d files, want %d", args, len(entries), want)
		}
	}
	if outs[1] != outs[0] || outs[2] != outs[0] {
		t.Fatal("the dump of a cached file differs from the dump of the file")
	}
}
