package app

import (
	"context"
	"errors"
	"net/url"
	"os"
	"strings"
	"testing"

	gioapp "gioui.org/app"

	"flamedesk/core"
	"flamedesk/internal/fixtures"
)

func TestRequestFromURL(t *testing.T) {
	fixture := fixtures.Path(t, "fixtures", "generated", "gen-cpuprofile-prettier-format.cpuprofile")
	for _, tc := range []struct {
		url, path, errPart string
	}{
		// Finder sends percent-encoded file URLs.
		{url: (&url.URL{Scheme: "file", Path: fixture}).String(), path: fixture},
		{url: "file:///tmp/My%20Trace%20%231.json.gz", path: "/tmp/My Trace #1.json.gz"},
		{url: "file://localhost/tmp/a.cpuprofile", path: "/tmp/a.cpuprofile"},
		{url: "https://example.com/trace.json", errPart: "https://example.com/trace.json"},
		{url: "file://otherhost/tmp/a.cpuprofile", errPart: "another host"},
	} {
		u, err := url.Parse(tc.url)
		if err != nil {
			t.Fatal(err)
		}
		req := requestFromURL(u)
		if tc.errPart != "" {
			if req.err == nil || !strings.Contains(req.err.Error(), tc.errPart) {
				t.Errorf("%s: error %v, want one naming %q", tc.url, req.err, tc.errPart)
			}
			continue
		}
		if req.err != nil || req.path != tc.path {
			t.Errorf("%s: got %q, %v; want %q", tc.url, req.path, req.err, tc.path)
		}
	}
	if req := requestFromURL(&url.URL{Scheme: "file", Path: fixture}); req.err != nil {
		t.Fatal(req.err)
	} else if _, err := os.Stat(req.path); err != nil {
		t.Fatalf("the fixture's URL gave a path that does not open: %v", err)
	}
	if req := requestFromURL(nil); req.err == nil {
		t.Error("a nil URL was accepted")
	}
}

// Several requests queued between two frames open only the newest; a refused one shows its
// message and keeps the open document.
func TestOpenRequestsPoll(t *testing.T) {
	loaded := make(chan string, 4)
	load := func(ctx context.Context, src Source, p *core.Progress) (*core.Trace, error) {
		loaded <- src.Path
		return nil, errors.New("stub")
	}
	u := &ui{win: new(gioapp.Window), opts: Options{Load: load}, requests: make(openRequests, 8)}
	u.requests.poll(u)
	if u.job != nil {
		t.Fatal("an empty queue started a load")
	}
	u.requests <- openRequest{path: "/tmp/first.json"}
	u.requests <- openRequest{path: "/tmp/second.cpuprofile"}
	u.requests.poll(u)
	if u.job == nil || u.job.src.Path != "/tmp/second.cpuprofile" || u.job.src.Name != "second.cpuprofile" {
		t.Fatalf("job = %+v, want the newest request", u.job)
	}
	if got := <-loaded; got != "/tmp/second.cpuprofile" {
		t.Fatalf("loaded %q", got)
	}
	job := u.job
	u.requests <- openRequest{err: errors.New("cannot open https://x/: not a file URI")}
	u.requests.poll(u)
	if u.job != job || !strings.Contains(u.loadErr, "not a file URI") {
		t.Fatalf("refused request: job changed=%v, loadErr=%q", u.job != job, u.loadErr)
	}
}
