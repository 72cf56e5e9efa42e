package dialog

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// runChooser runs an external chooser program that prints the chosen path on stdout. cancelled
// tells a user's cancel apart from a failure by the exit code and stderr.
func runChooser(ctx context.Context, name string, args []string, cancelled func(code int, stderr string) bool) (string, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// Helpers the chooser starts may hold its pipes open after it was killed; don't wait on them.
	cmd.WaitDelay = 2 * time.Second
	err := cmd.Run()
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		if cancelled(exit.ExitCode(), stderr.String()) {
			return "", ErrCancelled
		}
		return "", fmt.Errorf("%s exited with status %d: %s", name, exit.ExitCode(), lastLine(stderr.String()))
	}
	if err != nil {
		return "", err
	}
	path := strings.TrimSuffix(strings.TrimSuffix(stdout.String(), "\n"), "\r")
	if path == "" {
		return "", fmt.Errorf("%s chose nothing but reported success", name)
	}
	return path, nil
}

// lastLine keeps the last non-empty line of a chooser's stderr, which is where GTK, Qt and
// AppleScript put the message that explains the failure; the lines before are usually warnings.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// zenityArgs builds the zenity command line. zenity exits with 1 on cancel.
func zenityArgs(opts Options) []string {
	args := []string{"--file-selection", "--title=" + opts.Title}
	if opts.Folder {
		args = append(args, "--directory")
	}
	for _, f := range opts.Filters {
		// zenity splits "NAME | PATTERN PATTERN" at the last '|'; keep the name free of it.
		args = append(args, "--file-filter="+strings.ReplaceAll(f.Name, "|", "/")+" | "+strings.Join(f.Patterns, " "))
	}
	if opts.Dir != "" {
		// A trailing slash makes zenity open the folder instead of preselecting a file of that name.
		args = append(args, "--filename="+strings.TrimSuffix(opts.Dir, "/")+"/")
	}
	if opts.ParentX11 != 0 {
		args = append(args, "--modal", "--attach="+strconv.FormatUint(opts.ParentX11, 10))
	}
	return args
}

func zenityCancelled(code int, _ string) bool { return code == 1 }

// kdialogArgs builds the kdialog command line. The filter argument is KDE's "PATTERNS|NAME" list,
// one filter a line. kdialog exits with 1 on cancel.
func kdialogArgs(opts Options) []string {
	args := []string{"--title", opts.Title}
	if opts.ParentX11 != 0 {
		args = append(args, "--attach", strconv.FormatUint(opts.ParentX11, 10))
	}
	dir := opts.Dir
	if dir == "" {
		dir = "."
	}
	if opts.Folder {
		return append(args, "--getexistingdirectory", dir)
	}
	var filters []string
	for _, f := range opts.Filters {
		filters = append(filters, strings.Join(f.Patterns, " ")+"|"+strings.ReplaceAll(f.Name, "|", "/"))
	}
	return append(args, "--getopenfilename", dir, strings.Join(filters, "\n"))
}

func kdialogCancelled(code int, _ string) bool { return code == 1 }

// osascriptArgs builds an AppleScript "choose file" call. AppleScript's chooser filters by
// extension only and cannot switch filters, so it gets the first filter's extensions.
func osascriptArgs(opts Options) []string {
	var script strings.Builder
	verb := "choose file"
	if opts.Folder {
		verb = "choose folder"
	}
	script.WriteString("POSIX path of (" + verb + " with prompt " + appleScriptString(opts.Title))
	if len(opts.Filters) > 0 && !opts.Folder {
		if exts := opts.Filters[0].extensions(); len(exts) > 0 {
			quoted := make([]string, len(exts))
			for i, e := range exts {
				quoted[i] = appleScriptString(e)
			}
			script.WriteString(" of type {" + strings.Join(quoted, ", ") + "}")
		}
	}
	if opts.Dir != "" {
		script.WriteString(" default location (POSIX file " + appleScriptString(opts.Dir) + ")")
	}
	script.WriteString(")")
	return []string{"-e", script.String()}
}

// osascriptCancelled recognises AppleScript's "User canceled" error, number -128.
func osascriptCancelled(code int, stderr string) bool {
	return code == 1 && strings.Contains(stderr, "(-128)")
}

// appleScriptString quotes s as an AppleScript string literal.
func appleScriptString(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	s = strings.ReplaceAll(s, `"`, `\"`)
	return `"` + s + `"`
}
