package app

import (
	"fmt"
	"net/url"

	"flamedesk/app/dialog"
)

// openRequest is a document the system asks a running flamedesk to open. On macOS, Finder hands
// a double-clicked file to the app as an "open URLs" event instead of an argument.
type openRequest struct {
	path string
	err  error // the URL named no local file
}

// openRequests is filled by the global event loop on the main goroutine and drained by the UI
// goroutine each frame.
type openRequests chan openRequest

// requestFromURL turns the URL of a system "open this" event into a request.
func requestFromURL(u *url.URL) openRequest {
	if u == nil {
		return openRequest{err: fmt.Errorf("the system asked to open nothing")}
	}
	path, err := dialog.PathFromURI(u.String())
	if err != nil {
		return openRequest{err: fmt.Errorf("cannot open %s: %w", u.Redacted(), err)}
	}
	return openRequest{path: path}
}

// poll opens the newest request; older ones from the same frame would be replaced at once anyway.
func (r openRequests) poll(u *ui) {
	var last openRequest
	got := false
	for drained := false; !drained; {
		select {
		case req := <-r:
			last, got = req, true
		default:
			drained = true
		}
	}
	switch {
	case !got:
	case last.err != nil:
		u.banner = last.err.Error()
	default:
		u.open(SourceFromPath(last.path))
	}
}
