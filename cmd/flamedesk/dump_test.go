package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"flamedesk/internal/fixtures"
)

// dumpOf runs "flamedesk dump" and decodes what it printed.
func dumpOf(t *testing.T, args ...string) map[string]any {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run(append([]string{"dump"}, args...), &stdout, &stderr); code != exitOK {
		t.Fatalf("dump %v: exit %d: %s", args, code, stderr.String())
	}
	var d map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &d); err != nil {
		t.Fatalf("dump output is not JSON: %v", err)
	}
	return d
}

func TestDumpTrace(t *testing.T) {
	f := fixtures.Path(t, "fixtures", "generated", "gen-trace-small.json.gz")
	d := dumpOf(t, f)
	if d["format"] != "flamedesk-dump/1" {
		t.Errorf("format %v", d["format"])
	}
	in := d["input"].(map[string]any)
	if in["file"] != "gen-trace-small.json.gz" || in["kind"] != "trace" {
		t.Errorf("input %v", in)
	}
	if _, ok := d["lighthouse"]; ok {
		t.Errorf("lighthouse written without --refine")
	}
	threads := d["threads"].([]any)
	var main map[string]any
	for _, th := range threads {
		m := th.(map[string]any)
		if m["name"] == "CrRendererMain" {
			main = m
		}
	}
	if main == nil {
		t.Fatalf("no CrRendererMain among %d threads", len(threads))
	}
	calls := 0
	for _, e := range main["entries"].([]any) {
		if e.(map[string]any)["kind"] == "profileCall" {
			calls++
		}
	}
	// The DevTools reference for this file has 25805 ProfileCalls on the main thread.
	if calls != 25805 {
		t.Errorf("main thread: %d ProfileCalls, want 25805", calls)
	}
	if len(d["profiles"].([]any)) != 2 {
		t.Errorf("profiles %v", d["profiles"])
	}
	// Flags may follow the file; --refine is accepted.
	dumpOf(t, f, "--refine")
}

func TestDumpCPUProfile(t *testing.T) {
	d := dumpOf(t, fixtures.Path(t, "fixtures", "upstream", "devtools-basic.cpuprofile.gz"))
	threads := d["threads"].([]any)
	if len(threads) != 1 {
		t.Fatalf("%d threads, want 1", len(threads))
	}
	th := threads[0].(map[string]any)
	if th["pid"] != 1.0 || th["tid"] != 1.0 || d["input"].(map[string]any)["kind"] != "cpuprofile" {
		t.Errorf("thread %v %v, input %v", th["pid"], th["tid"], d["input"])
	}
}

func TestDumpAndStatsErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"dump"}, exitUsage, "want exactly one FILE"},
		{[]string{"dump", "a", "b"}, exitUsage, "want exactly one FILE"},
		{[]string{"dump", "--bogus", "a"}, exitUsage, "bogus"},
		{[]string{"dump", "/nonexistent/x.json"}, exitInput, "/nonexistent/x.json"},
		{[]string{"dump", "--help"}, exitOK, "Usage: flamedesk dump"},
		{[]string{"stats"}, exitUsage, "want exactly one FILE"},
		{[]string{"stats", "/nonexistent/x.json"}, exitInput, "/nonexistent/x.json"},
		{[]string{"stats", "-h"}, exitOK, "Usage: flamedesk stats"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(c.args, &stdout, &stderr)
		if code != c.code || !strings.Contains(stdout.String()+stderr.String(), c.out) {
			t.Errorf("%v: exit %d, output %q; want exit %d mentioning %q", c.args, code, stdout.String()+stderr.String(), c.code, c.out)
		}
	}
}

func TestStats(t *testing.T) {
	var stdout, stderr bytes.Buffer
	f := fixtures.Path(t, "fixtures", "upstream", "devtools-two-workers.json.gz")
	if code := run([]string{"stats", f}, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{"events", "threads", "profiles", "samples", "ProfileCalls", "warnings",
		"stage: read", "stage: tracks: ProfileCalls and trees", "time: total"} {
		if !strings.Contains(out, want) {
			t.Errorf("stats output lacks %q:\n%s", want, out)
		}
	}
}
