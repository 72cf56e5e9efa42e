package main

import (
	"flag"
	"io"
	"os"

	"flamedesk/app"
	"flamedesk/assets"
)

// runGUI opens the window on FILE, or on the bundled sample when no file is given.
func runGUI(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("flamedesk", flag.ContinueOnError)
	fs.SetOutput(stderr)
	frameStats := fs.Bool("frame-stats", false, "print p50/p95/p99 frame times to stderr every few seconds")
	fs.Usage = func() { io.WriteString(stderr, usageText) }
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() > 1 {
		return usageError(stderr, "too many arguments: %q", fs.Args())
	}
	src := app.Source{Name: assets.SampleTraceName, Data: assets.SampleTrace}
	if fs.NArg() == 1 {
		path := fs.Arg(0)
		if _, err := os.Stat(path); err != nil {
			return inputError(stderr, path, err)
		}
		src = app.SourceFromPath(path)
	}
	opts := app.Options{Source: src, Load: openTrace}
	if *frameStats {
		opts.FrameStats = stderr
	}
	if err := app.Run(opts); err != nil {
		io.WriteString(stderr, "flamedesk: "+err.Error()+"\n")
		return exitInput
	}
	return exitOK
}
