package app

import (
	"context"
	"errors"
	"sync"

	"flamedesk/app/dialog"
	"flamedesk/app/recent"
)

// dialogState runs the open-file dialog on its own goroutine, so that the window keeps drawing
// while the dialog is up, and hands the chosen path back to the UI goroutine.
type dialogState struct {
	mu      sync.Mutex
	pending bool
	done    bool
	path    string
	err     error
}

func (d *dialogState) open(u *ui) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.pending {
		return
	}
	d.pending, d.done = true, false
	opts := dialog.Options{ParentX11: u.x11, ParentHWND: u.hwnd}
	if u.doc != nil && u.doc.path != "" {
		opts.Dir = dirOf(u.doc.path)
	}
	invalidate := u.win.Invalidate
	go func() {
		path, err := dialog.Open(context.Background(), opts)
		d.mu.Lock()
		d.done, d.path, d.err = true, path, err
		d.mu.Unlock()
		invalidate()
	}()
}

// poll opens the chosen file once the dialog has closed; Cancel changes nothing.
func (d *dialogState) poll(u *ui) {
	d.mu.Lock()
	if !d.pending || !d.done {
		d.mu.Unlock()
		return
	}
	d.pending = false
	path, err := d.path, d.err
	d.mu.Unlock()
	switch {
	case errors.Is(err, dialog.ErrCancelled):
	case err != nil:
		u.loadErr = "Open dialog failed: " + err.Error()
	case path != "":
		u.open(SourceFromPath(path))
	}
}

// rememberRecent adds a successfully opened file to the recent list; failing to write it only
// costs the history, so the error is not shown.
func rememberRecent(path string) { _ = recent.Add(path) }
