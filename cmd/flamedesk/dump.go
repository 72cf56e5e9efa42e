package main

import (
	"flag"
	"fmt"
	"io"

	"flamedesk/cmd/flamedesk/internal/dump"
)

const dumpUsage = `Usage: flamedesk dump [--refine] [--no-cache] [--sourcemaps DIR] FILE

Prints every thread's track as JSON (format "flamedesk-dump/1"): the tree of trace events and
JS calls in pre-order, with ts and dur in µs on the trace's clock and depth 0 for roots, then the
profiles, for a trace the "timelines" (bounds, navigations, network, Timings, interactions, layout
shifts, frames, screenshots, animations, memory), and the load warnings. DevTools' own output has
the same entries; see shared/conformance/README.md for the fields.

  --refine     also write, per profile, Lighthouse's synthetic B/E events (naive and refined)
  --no-cache   neither read nor write the cache of files opened before

A JS call that a source map covers gets an "original" object beside its callFrame (functionName,
url, lineNumber, columnNumber of the original source); callFrame stays as the engine wrote it.
` + sourceMapsUsage

func runDump(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("dump", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	refine := fs.Bool("refine", false, "")
	sourceMaps := addSourceMapsFlag(fs)
	noCache := fs.Bool("no-cache", false, "")
	files, code, ok := parseFileArgs(fs, "dump", dumpUsage, args, stdout, stderr)
	if !ok {
		return code
	}
	file := files[0]
	opts, wait := firstOpenOptions(*noCache)
	defer wait()
	tr, err := opts.OpenFile(file)
	if err != nil {
		return inputError(stderr, file, err)
	}
	applySourceMaps(tr, *sourceMaps)
	if err := dump.Write(stdout, tr, dump.Options{File: file, Refine: *refine}); err != nil {
		fmt.Fprintf(stderr, "flamedesk: dump: %v\n", err)
		return exitInput
	}
	return exitOK
}
