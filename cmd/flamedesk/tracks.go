package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"flamedesk/core/pipeline"
	"flamedesk/timeline"
)

const tracksUsage = `Usage: flamedesk tracks FILE [--format text|json]

Lists the tracks of FILE as the window shows them, top to bottom: the Performance panel's tracks
(network, frames, screenshots, animations, timings, interactions, layout shifts, extension
tracks) and then the threads. For each: its kind, name, group and how many items it draws.

  --format text|json    text (default) or {"tracks": [{"kind", "name", "group", "items"}]}
`

func runTracks(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("tracks", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	format := fs.String("format", "text", "")
	files, code, ok := parseFileArgs(fs, "tracks", tracksUsage, args, stdout, stderr)
	if !ok {
		return code
	}
	if *format != "text" && *format != "json" {
		return usageError(stderr, "tracks: --format must be text or json, not %q", *format)
	}
	tr, err := pipeline.OpenFile(files[0])
	if err != nil {
		return inputError(stderr, files[0], err)
	}
	m := timeline.New(tr)
	m.AddPanelLanes()
	list := m.TrackList()
	if *format == "json" {
		if list == nil {
			list = []timeline.TrackInfo{}
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(struct {
			Tracks []timeline.TrackInfo `json:"tracks"`
		}{list}); err != nil {
			return writeError(stderr, "stdout", err)
		}
		return exitOK
	}
	w := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "KIND\tITEMS\tNAME\tGROUP")
	for _, t := range list {
		fmt.Fprintf(w, "%s\t%d\t%s\t%s\n", t.Kind, t.Items, t.Name, t.Group)
	}
	if err := w.Flush(); err != nil {
		return writeError(stderr, "stdout", err)
	}
	return exitOK
}
