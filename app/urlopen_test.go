package app

import (
	"errors"
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

// Several requests queued between two frames open only the newest; a refused one shows its
// message and keeps the open document.
func TestOpenRequestsPoll(t *testing.T) {
	stub := newStubLoadNow()
	h := newHarnessWith(t, Options{Source: SourceFromPath(fixture(t, "generated", smallTrace)), Load: stub.load})
	<-stub.started // the first file
	doc := h.u.doc
	h.u.requests = make(openRequests, 8)
	h.frame()
	if h.u.loading {
		t.Fatal("an empty queue started a load")
	}
	first := fixture(t, "upstream", "devtools-basic.cpuprofile.gz")
	second := fixture(t, "generated", "gen-selfprofile-small.json")
	h.u.requests <- openRequest{path: first}
	h.u.requests <- openRequest{path: second}
	h.idle()
	if got := <-stub.started; got.Path != second || got.Name != "gen-selfprofile-small.json" {
		t.Fatalf("loaded %+v, want the newest request", got)
	}
	if len(stub.started) != 0 || h.u.doc == doc || h.u.doc.path != second {
		t.Fatal("an older request was opened too, or the newest was not")
	}
	doc = h.u.doc
	h.u.requests <- openRequest{err: errors.New("cannot open https://x/: not a file URI")}
	h.idle()
	if h.u.doc != doc || !strings.Contains(h.u.banner, "not a file URI") {
		t.Fatalf("refused request: document changed=%v, banner=%q", h.u.doc != doc, h.u.banner)
	}
}
