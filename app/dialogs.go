package app

import (
	"context"
	"errors"
	"path/filepath"

	"flamedesk/app/dialog"
)

// openDialog shows the open-file dialog on its own goroutine, so that the window keeps drawing
// while it is up; a second Ctrl+O while it is up does nothing.
func (u *ui) openDialog() {
	if u.dialog.Busy() {
		return
	}
	opts := dialog.Options{ParentX11: u.x11, ParentHWND: u.hwnd}
	if u.doc != nil && u.doc.path != "" {
		opts.Dir = filepath.Dir(u.doc.path)
	}
	show := u.opts.OpenDialog
	if show == nil {
		show = dialog.Open
	}
	u.mapsFor = ""
	u.dialog.Start(func(ctx context.Context) (string, error) { return show(ctx, opts) })
}

// dialogDone opens the chosen file once the dialog has closed; Cancel changes nothing.
func (u *ui) dialogDone(path string, err error) {
	mapsFor := u.mapsFor
	u.mapsFor = ""
	comparePick := u.comparePick
	u.comparePick = false
	switch {
	case comparePick && err == nil && path != "":
		u.comparePicked(path)
	case errors.Is(err, dialog.ErrCancelled):
	case err != nil && mapsFor != "":
		u.banner = "The folder dialog failed: " + err.Error()
	case mapsFor != "" && path != "":
		u.mapsFolderChosen(mapsFor, path)
	case err != nil:
		u.banner = "The open dialog failed: " + err.Error()
	case path != "":
		u.open(SourceFromPath(path))
	}
}
