// Package editor builds the command that opens a source file at a line, for the window's "Open in
// editor": the user's $VISUAL or $EDITOR with the line in the form that editor takes, else the
// desktop's default handler for the file. It only builds the command; the caller runs it (off the
// UI goroutine), so the rules here are testable without starting anything.
package editor

import (
	"path/filepath"
	"strconv"
	"strings"
)

// Command is a program and its arguments.
type Command struct {
	Args []string
	// Terminal is true for an editor that runs inside a terminal (vi, nano, emacs -nw...): a
	// window started from a desktop menu has none, so the caller should start one around it.
	Terminal bool
	// Line is false when the command cannot place the cursor (the desktop's handler).
	Line bool
}

// For returns the command that opens file at a 1-based line (0 or less: no line). getenv reads the
// environment (os.Getenv); goos is runtime.GOOS.
func For(file string, line int, getenv func(string) string, goos string) Command {
	for _, v := range []string{"VISUAL", "EDITOR"} {
		if fields := strings.Fields(getenv(v)); len(fields) > 0 {
			return editorCommand(fields, file, line)
		}
	}
	switch goos {
	case "darwin":
		return Command{Args: []string{"open", file}}
	case "windows":
		return Command{Args: []string{"rundll32", "url.dll,FileProtocolHandler", file}}
	}
	return Command{Args: []string{"xdg-open", file}}
}

// editorCommand places the line the way each family of editors expects it.
func editorCommand(fields []string, file string, line int) Command {
	name := strings.ToLower(filepath.Base(fields[0]))
	name = strings.TrimSuffix(name, ".exe")
	args := append([]string(nil), fields...)
	c := Command{Line: line > 0}
	n := strconv.Itoa(line)
	switch {
	case line <= 0:
		args = append(args, file)
	case name == "code" || name == "code-insiders" || name == "codium" || name == "cursor" || name == "windsurf":
		args = append(args, "-g", file+":"+n)
	case name == "subl" || name == "sublime_text" || name == "zed" || name == "mate":
		args = append(args, file+":"+n)
	case strings.HasPrefix(name, "idea") || name == "goland" || name == "webstorm" || name == "pycharm" || name == "clion":
		args = append(args, "--line", n, file)
	case name == "kate":
		args = append(args, "--line", n, file)
	default:
		// vi, vim, nvim, nano, emacs, emacsclient, micro, kak, hx, gedit, joe, ne...: "+LINE FILE".
		args = append(args, "+"+n, file)
	}
	c.Args = args
	c.Terminal = inTerminal(name, fields[1:])
	return c
}

// inTerminal tells the editors that need a terminal to draw in.
func inTerminal(name string, flags []string) bool {
	switch name {
	case "vi", "vim", "nvim", "nano", "pico", "micro", "kak", "hx", "helix", "joe", "ne", "ed", "mg", "jed":
		return true
	case "emacs", "emacsclient":
		for _, f := range flags {
			if f == "-nw" || f == "-t" || f == "--tty" {
				return true
			}
		}
	}
	return false
}
