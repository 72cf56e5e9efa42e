// Command flamedesk is a native flame-chart viewer for Chrome performance traces, .cpuprofile files
// and JS Self-Profiling API profiles. With no subcommand it opens the window; the subcommands dump,
// render, calltree, stats and diff work without one.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"flamedesk/core/load"
)

// started is when the process started, near enough: what --time-to-ready counts from.
var started = time.Now()

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

// Exit codes, shared by every subcommand.
const (
	exitOK    = 0
	exitInput = 1 // the file could not be read or parsed
	exitUsage = 2 // bad flags or arguments
)

const usageText = `flamedesk — a flame-chart viewer for Chrome traces, .cpuprofile and JS Self-Profiling files

Usage:
  flamedesk [--frame-stats] [--frame-log LOG] [--time-to-ready] [--no-cache] [--sourcemaps DIR] [FILE]
                                           open FILE (or the bundled sample) in a window
  flamedesk [--align A] A B                open A in a window with B beside it in the Compare tab
                                           (--align as in diff; default start)
  flamedesk dump [--refine] FILE           print the per-thread tracks as JSON
  flamedesk render FILE -o OUT.png [...]   draw the flame chart into a PNG
  flamedesk calltree FILE [...]            print the call tree (text or JSON)
  flamedesk source FILE FUNCTION [...]     print a function's self time line by line
  flamedesk stats FILE                     print load statistics and timings
  flamedesk diff A B [...]                 compare two profiles function by function
  flamedesk tracks FILE [--format json]    list the tracks as the window shows them
  flamedesk --help | --version

Run "flamedesk SUBCOMMAND --help" for the flags of a subcommand.
A file opened before reopens from a cache of its loaded columns (in the user cache directory,
at most 2 GiB, least recently used files evicted first); --no-cache (window, dump, render) skips it.
Exit status: 0 ok, 1 bad input, 2 usage; diff: 3 when B is slower than --fail-above allows.
`

func main() {
	load.FitMemoryLimit()
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "-h", "-help", "--help", "help":
			fmt.Fprint(stdout, usageText)
			return exitOK
		case "-version", "--version", "version":
			fmt.Fprintf(stdout, "flamedesk %s\n", version)
			return exitOK
		case "dump":
			return runDump(args[1:], stdout, stderr)
		case "render":
			return runRender(args[1:], stdout, stderr)
		case "calltree":
			return runCalltree(args[1:], stdout, stderr)
		case "stats":
			return runStats(args[1:], stdout, stderr)
		case "diff":
			return runDiff(args[1:], stdout, stderr)
		case "source":
			return runSource(args[1:], stdout, stderr)
		case "tracks":
			return runTracks(args[1:], stdout, stderr)
		}
	}
	return runGUI(args, stderr)
}

// inputError prints the conventional "flamedesk: FILE: reason" line and returns exitInput.
func inputError(stderr io.Writer, file string, err error) int {
	fmt.Fprintf(stderr, "flamedesk: %s: %v\n", file, err)
	return exitInput
}

// usageError prints a usage problem and returns exitUsage.
func usageError(stderr io.Writer, format string, args ...any) int {
	fmt.Fprintf(stderr, "flamedesk: "+format+"\n", args...)
	fmt.Fprint(stderr, "Run 'flamedesk --help' for usage.\n")
	return exitUsage
}

// parseFileArgs parses flags that may come before or after the one FILE argument. ok is false
// when the command should end with code (after --help, or on a usage error).
func parseFileArgs(fs *flag.FlagSet, cmd, usage string, args []string, stdout, stderr io.Writer) (files []string, code int, ok bool) {
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Fprint(stdout, usage)
				return nil, exitOK, false
			}
			return nil, usageError(stderr, "%s: %v", cmd, err), false
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(files) != 1 {
		return nil, usageError(stderr, "%s: want exactly one FILE, got %d", cmd, len(files)), false
	}
	return files, exitOK, true
}
