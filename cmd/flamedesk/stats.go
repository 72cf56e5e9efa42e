package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"text/tabwriter"
	"time"

	"flamedesk/core"
	"flamedesk/core/integrate"
	"flamedesk/core/load"
)

const statsUsage = `Usage: flamedesk stats FILE

Loads FILE, builds its tracks, and prints what was loaded (sizes, events, threads, profiles,
samples, ProfileCalls, warnings) and the wall time of each stage.
`

func runStats(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("stats", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	files, code, ok := parseFileArgs(fs, "stats", statsUsage, args, stdout, stderr)
	if !ok {
		return code
	}
	file := files[0]
	size := int64(-1)
	if st, err := os.Stat(file); err == nil {
		size = st.Size()
	}
	t0 := time.Now()
	tr, err := load.File(context.Background(), file, nil)
	if err != nil {
		return inputError(stderr, file, err)
	}
	loadDur := time.Since(t0)
	t1 := time.Now()
	if err := integrate.BuildContext(context.Background(), tr, nil); err != nil {
		return inputError(stderr, file, err)
	}
	integrateDur := time.Since(t1)
	printStats(stdout, file, size, tr, loadDur, integrateDur)
	return exitOK
}

func printStats(w io.Writer, file string, size int64, tr *core.Trace, loadDur, integrateDur time.Duration) {
	var entries, calls, notInTree, maxDepth int
	for i := range tr.Tracks {
		t := &tr.Tracks[i]
		entries += t.Len()
		notInTree += t.NotInTree
		maxDepth = max(maxDepth, t.MaxDepth)
		for e := range t.Len() {
			if t.KindAt(e) == core.EntryProfileCall {
				calls++
			}
		}
	}
	var nodes, samples int
	for i := range tr.Profiles {
		nodes += len(tr.Profiles[i].NodeID)
		samples += len(tr.Profiles[i].Samples)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "file\t%s\n", file)
	fmt.Fprintf(tw, "kind\t%s\n", tr.Kind)
	fmt.Fprintf(tw, "file size\t%s\n", bytesText(size))
	if tr.Stats.Gzip {
		fmt.Fprintf(tw, "JSON size\t%s (gzip)\n", bytesText(tr.Stats.JSONBytes))
	}
	fmt.Fprintf(tw, "events\t%d\n", tr.Events.Len())
	fmt.Fprintf(tw, "threads\t%d (%d with a track)\n", len(tr.Threads), len(tr.Tracks))
	fmt.Fprintf(tw, "profiles\t%d (%d nodes)\n", len(tr.Profiles), nodes)
	fmt.Fprintf(tw, "samples\t%d\n", samples)
	fmt.Fprintf(tw, "track entries\t%d (%d ProfileCalls; %d left out of the tree; max depth %d)\n", entries, calls, notInTree, maxDepth)
	if tr.Stats.MemoryBudget > 0 {
		fmt.Fprintf(tw, "memory budget\t%s for the load, as much again for the tracks\n", bytesText(tr.Stats.MemoryBudget))
	}
	fmt.Fprintf(tw, "warnings\t%d\n", tr.Warnings.Len())
	for _, l := range tr.Warnings.Lines() {
		fmt.Fprintf(tw, "\t  %s\n", l)
	}
	for _, s := range tr.Stats.Stages {
		fmt.Fprintf(tw, "stage: %s\t%s\n", s.Name, ms(s.Dur))
	}
	fmt.Fprintf(tw, "time: load (read, parse, profiles)\t%s\n", ms(loadDur))
	fmt.Fprintf(tw, "time: integrate (tracks)\t%s\n", ms(integrateDur))
	fmt.Fprintf(tw, "time: total\t%s\n", ms(loadDur+integrateDur))
	tw.Flush()
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)) }

func bytesText(n int64) string {
	switch {
	case n < 0:
		return "unknown"
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB (%d bytes)", float64(n)/(1<<20), n)
	case n >= 1<<10:
		return fmt.Sprintf("%.1f kB (%d bytes)", float64(n)/(1<<10), n)
	}
	return fmt.Sprintf("%d bytes", n)
}
