package app

// The toolbar's "Source maps…" button: the user chooses the folder that holds the open file's
// maps; it is remembered for the file (mapdirs) and the file is loaded again, which looks the
// folder up and applies the maps.

import (
	"context"
	"time"

	"flamedesk/app/dialog"
	"flamedesk/internal/mapdirs"
)

// chooseMapsFolder shows the folder dialog for the open file's source maps.
type chooseMapsFolder struct{}

func (chooseMapsFolder) isAction() {}

// offersSourceMaps reports whether the "Source maps…" button is shown for d: a file on disk
// (the folder is remembered by its path) with JS frames that name a script, the only frames a
// map can rename.
func (d *document) offersSourceMaps() bool {
	if d == nil || d.path == "" {
		return false
	}
	for _, f := range d.trace.Frames {
		if f.URL != 0 { // StrID 0 is the empty string
			return true
		}
	}
	return false
}

// chooseSourceMaps shows the folder dialog on the dialog's goroutine, as Ctrl+O does; the open
// dialog and this one never show at once.
func (u *ui) chooseSourceMaps() {
	d := u.doc
	if u.dialog.Busy() || !d.offersSourceMaps() {
		return
	}
	opts := dialog.Options{ParentX11: u.x11, ParentHWND: u.hwnd, Folder: true,
		Title: "Choose the folder with the source maps"}
	if dir := u.sourceMapsDir(SourceFromPath(d.path)); dir != "" {
		opts.Dir = dir
	}
	show := u.opts.OpenDialog
	if show == nil {
		show = dialog.Open
	}
	u.mapsFor = d.path
	u.dialog.Start(func(ctx context.Context) (string, error) { return show(ctx, opts) })
}

// mapsFolderChosen remembers folder for the file and loads the file again with it.
func (u *ui) mapsFolderChosen(file, folder string) {
	store, err := u.config.file("sourcemaps.json")
	if err == nil {
		err = mapdirs.Remember(store, file, folder, time.Now())
	}
	if err != nil {
		u.banner = "Could not remember the source maps folder: " + err.Error()
		return
	}
	// The folder chosen in the window replaces the one given on the command line, which would
	// otherwise win over the remembered one.
	u.opts.SourceMaps = ""
	u.open(SourceFromPath(file))
}
