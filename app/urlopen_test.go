package app

import (
	"net/url"
	"os"
	"strings"
	"testing"

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
