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
	"flamedesk/core/align"
	"flamedesk/core/pipeline"
)

// runGUI opens the window on FILE, or on the bundled sample when no file is given; a second
// file B is loaded beside it for the Compare tab.
func runGUI(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("flamedesk", flag.ContinueOnError)
	fs.SetOutput(stderr)
	frameStats := fs.Bool("frame-stats", false, "print p50/p95/p99 frame times to stderr every few seconds")
	frameLog := fs.String("frame-log", "", "write one line per frame (start, build, interval and layout times) to this file")
	blank := fs.Bool("blank", false, "draw only the background (with --frame-stats: the frame-time floor)")
	sourceMaps := fs.String("sourcemaps", "", "search this folder for the source maps of the profile's scripts")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the session to this file")
	alignStr := fs.String("align", "start", "with two files: how B's clock is lined up with A's, as in flamedesk diff")
	noCache := fs.Bool("no-cache", false, "neither read nor write the cache of files opened before")
	timeToReady := fs.Bool("time-to-ready", false, "print how long after start the loaded chart was on screen, stage by stage, then exit")
	fs.Usage = func() { io.WriteString(stderr, usageText) }
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() > 2 {
		return usageError(stderr, "too many arguments: %q", fs.Args())
	}
	spec, err := align.ParseSpec(*alignStr)
	if err != nil {
		return usageError(stderr, "--align: %v", err)
	}
	src := app.Source{Name: assets.SampleTraceName, Data: assets.SampleTrace}
	var compare app.Source
	for i, path := range fs.Args() {
		if _, err := os.Stat(path); err != nil {
			return inputError(stderr, path, err)
		}
		if i == 0 {
			src = app.SourceFromPath(path)
		} else {
			compare = app.SourceFromPath(path)
		}
	}
	// The window keeps running after a load, so the cache is written off the loading goroutine,
	// once the loaded chart is on screen.
	later := new(app.Later)
	loadOpts := pipeline.WithUserCache(*noCache)
	loadOpts.Defer = later.Add
	// Once written, the cache file takes the place of the loaded trace's heap copy (app/cacheswap.go).
	loadOpts.Written = later.Written
	opts := app.Options{Source: src, Load: loadOpts.Open, Blank: *blank, Compare: compare, Align: spec,
		SourceMaps: *sourceMaps, Later: later}
	if *frameStats {
		opts.FrameStats = stderr
	}
	if *timeToReady {
		opts.ReadyLog, opts.ExitWhenReady, opts.Started = stderr, true, started
	}
	if *frameLog != "" {
		f, err := os.Create(*frameLog)
		if err != nil {
			return inputError(stderr, *frameLog, err)
		}
		defer f.Close()
		opts.FrameLog = f
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
	watchHeapProfileSignal()
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
