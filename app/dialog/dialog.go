// Package dialog owns flamedesk's open-file dialog: it asks the platform's own file chooser for one
// file to open (or one folder, with Options.Folder), and falls back to simpler choosers when the
// preferred one is missing.
//
// Linux (and the BSDs) try, in order, the XDG desktop portal's FileChooser over D-Bus, zenity,
// kdialog, and finally a small file browser drawn with Gio in a window of its own. Windows uses
// GetOpenFileNameW from comdlg32, macOS uses osascript's "choose file". The environment variable
// FLAMEDESK_DIALOG forces one backend, which is how the tests pick the one they drive.
//
// [Open] blocks until the user chooses or cancels, so callers run it on a goroutine of its own and
// never on the goroutine that draws their window.
package dialog

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// ErrCancelled is returned by [Open] when the user dismissed the dialog without choosing a file.
var ErrCancelled = errors.New("dialog: cancelled")

// ErrUnavailable wraps the error of [Open] when no backend could show a dialog at all.
var ErrUnavailable = errors.New("dialog: no file chooser available")

// EnvBackend names the environment variable that forces one backend (see [Backend]).
const EnvBackend = "FLAMEDESK_DIALOG"

// Filter is a named set of shell patterns (such as "*.json.gz") that the dialog offers as one choice
// of which files to show. A pattern of "*" shows every file.
type Filter struct {
	Name     string
	Patterns []string
}

// TraceFilters is the default filter set: the trace and profile formats flamedesk reads, then
// everything. ".gz" alone is there because DevTools and other tools compress under many names.
var TraceFilters = []Filter{
	{Name: "Traces and profiles", Patterns: []string{"*.json", "*.json.gz", "*.cpuprofile", "*.cpuprofile.gz", "*.gz"}},
	{Name: "All files", Patterns: []string{"*"}},
}

// Options describe one open-file dialog.
type Options struct {
	// Title is the dialog's window title; empty means "Open a trace or profile".
	Title string
	// ParentX11 is the X11 window id of the window the dialog belongs to (from app.X11ViewEvent),
	// or 0 if unknown. With it the portal, zenity and kdialog keep the dialog above that window.
	ParentX11 uint64
	// ParentHWND is the Windows handle of the owner window (from app.Win32ViewEvent), or 0.
	ParentHWND uintptr
	// Filters are offered in order, the first one selected; nil means TraceFilters.
	Filters []Filter
	// Dir is the folder the dialog starts in; empty leaves the choice to the backend (the builtin
	// browser then starts in the working directory).
	Dir string
	// Folder asks for a folder instead of a file; Filters are then ignored. On Windows the
	// shell's item dialog picks it (IFileOpenDialog with FOS_PICKFOLDERS).
	Folder bool
}

// Backend names one way of showing the dialog.
type Backend string

// The backends, by the names FLAMEDESK_DIALOG accepts.
const (
	Portal    Backend = "portal"    // XDG desktop portal FileChooser over the D-Bus session bus
	Zenity    Backend = "zenity"    // zenity --file-selection
	KDialog   Backend = "kdialog"   // kdialog --getopenfilename
	Builtin   Backend = "builtin"   // a file browser drawn with Gio in its own window
	Win32     Backend = "win32"     // GetOpenFileNameW from comdlg32
	OSAScript Backend = "osascript" // AppleScript "choose file" through osascript
)

// Backends returns the backends Open would try, in order, for the current platform and
// environment. It fails only when FLAMEDESK_DIALOG names no backend of this platform.
func Backends() ([]Backend, error) {
	return plan(runtime.GOOS, os.Getenv(EnvBackend), hasCommand)
}

// Open shows an open-file dialog and returns the absolute path of the chosen file (or folder, with
// Options.Folder). It returns
// ErrCancelled when the user cancels, ctx.Err() when ctx ends first, and an error wrapping
// ErrUnavailable when no backend could show a dialog. A backend that fails before showing
// anything hands over to the next one; a forced backend (FLAMEDESK_DIALOG) has no successor.
func Open(ctx context.Context, opts Options) (string, error) {
	switch {
	case opts.Folder:
		opts.Filters = nil
		if opts.Title == "" {
			opts.Title = "Choose a folder"
		}
	case opts.Filters == nil:
		opts.Filters = TraceFilters
	}
	if opts.Title == "" {
		opts.Title = "Open a trace or profile"
	}
	chain, err := Backends()
	if err != nil {
		return "", err
	}
	var failures []error
	for _, b := range chain {
		path, err := openWith(ctx, b, opts)
		switch {
		case err == nil && opts.Folder:
			// AppleScript's "choose folder" ends the path with a separator; the others do not.
			return filepath.Clean(path), nil
		case err == nil:
			return path, nil
		case errors.Is(err, ErrCancelled):
			return "", ErrCancelled
		case ctx.Err() != nil:
			return "", ctx.Err()
		}
		failures = append(failures, fmt.Errorf("%s: %w", b, err))
	}
	return "", fmt.Errorf("%w: %w", ErrUnavailable, errors.Join(failures...))
}

// plan is Backends without the environment: goos is runtime.GOOS, forced the value of
// FLAMEDESK_DIALOG, and has reports whether a command is on PATH.
func plan(goos, forced string, has func(string) bool) ([]Backend, error) {
	native := nativeBackends(goos)
	if forced = strings.TrimSpace(forced); forced != "" {
		for _, b := range native {
			if string(b) == forced {
				return []Backend{b}, nil
			}
		}
		names := make([]string, len(native))
		for i, b := range native {
			names[i] = string(b)
		}
		return nil, fmt.Errorf("dialog: %s=%q is not a backend on %s (want one of %s)",
			EnvBackend, forced, goos, strings.Join(names, ", "))
	}
	var chain []Backend
	for _, b := range native {
		if cmd := backendCommand(b); cmd != "" && !has(cmd) {
			continue
		}
		chain = append(chain, b)
	}
	return chain, nil
}

// nativeBackends lists every backend that can work on goos, best first.
func nativeBackends(goos string) []Backend {
	switch goos {
	case "windows":
		return []Backend{Win32}
	case "darwin":
		return []Backend{OSAScript}
	case "android", "ios", "js", "wasip1":
		return nil
	}
	return []Backend{Portal, Zenity, KDialog, Builtin}
}

// backendCommand is the program a backend runs, or "" for backends that need none.
func backendCommand(b Backend) string {
	switch b {
	case Zenity, KDialog, OSAScript:
		return string(b)
	}
	return ""
}

func hasCommand(name string) bool {
	_, err := exec.LookPath(name)
	return err == nil
}

// openWith runs one backend.
func openWith(ctx context.Context, b Backend, opts Options) (string, error) {
	switch b {
	case Portal:
		return openPortal(ctx, opts)
	case Zenity:
		return runChooser(ctx, "zenity", zenityArgs(opts), zenityCancelled)
	case KDialog:
		return runChooser(ctx, "kdialog", kdialogArgs(opts), kdialogCancelled)
	case OSAScript:
		return runChooser(ctx, "osascript", osascriptArgs(opts), osascriptCancelled)
	case Builtin:
		return openBuiltin(ctx, opts)
	case Win32:
		return openWin32(ctx, opts)
	}
	return "", fmt.Errorf("unknown backend %q", b)
}
