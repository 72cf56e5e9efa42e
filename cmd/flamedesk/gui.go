package main

import (
	"flag"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"

	"flamedesk/app"
	"flamedesk/assets"
	"flamedesk/core/pipeline"
)

// runGUI opens the window on FILE, or on the bundled sample when no file is given.
func runGUI(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("flamedesk", flag.ContinueOnError)
	fs.SetOutput(stderr)
	frameStats := fs.Bool("frame-stats", false, "print p50/p95/p99 frame times to stderr every few seconds")
	blank := fs.Bool("blank", false, "draw only the background (with --frame-stats: the frame-time floor)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the session to this file")
	noCache := fs.Bool("no-cache", false, "neither read nor write the cache of files opened before")
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
	// The window keeps running after a load, so the cache is written off the loading goroutine.
	loadOpts := pipeline.WithUserCache(*noCache)
	loadOpts.Background = true
	opts := app.Options{Source: src, Load: loadOpts.Open, Blank: *blank}
	if *frameStats {
		opts.FrameStats = stderr
	}
	stopProfile := func() {}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return inputError(stderr, *cpuProfile, err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			return inputError(stderr, *cpuProfile, err)
		}
		stopProfile = func() { pprof.StopCPUProfile(); f.Close() }
		// A profiled session is often ended with a signal; the profile must still be written.
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
		go func() {
			<-sig
			stopProfile()
			os.Exit(exitOK)
		}()
	}
	app.Run(opts, func(err error) {
		stopProfile()
		if err != nil {
			io.WriteString(stderr, "flamedesk: "+err.Error()+"\n")
			os.Exit(exitInput)
		}
		os.Exit(exitOK)
	})
	return exitOK
}
