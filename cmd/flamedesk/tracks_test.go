package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"flamedesk/internal/fixtures"
)

// TestTracksMatchReferences runs `flamedesk tracks --format json` on every trace that has a
// DevTools timelines reference and checks the tracks above the threads: which ones, in the
// panel's order, and how many items each draws, all counted from the reference itself.
func TestTracksMatchReferences(t *testing.T) {
	if testing.Short() {
		t.Skip("loads every referenced trace")
	}
	refs := fixtures.Glob(t, "conformance/golden/*.timelines.json.gz")
	for _, refPath := range refs {
		name := strings.TrimSuffix(filepath.Base(refPath), ".timelines.json.gz")
		t.Run(name, func(t *testing.T) {
			want := expectedLanes(t, refPath)
			var stdout, stderr bytes.Buffer
			if code := run([]string{"tracks", "--format", "json", fixtureNamed(t, name)}, &stdout, &stderr); code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			var got struct {
				Tracks []struct {
					Kind, Name, Group string
					Items             int
				}
			}
			if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			var lanes []string
			sawThread := false
			for _, tk := range got.Tracks {
				if tk.Kind == "thread" {
					sawThread = true
					continue
				}
				if sawThread {
					t.Errorf("%s track %q comes after a thread", tk.Kind, tk.Name)
				}
				lanes = append(lanes, fmt.Sprintf("%s %q %q %d", tk.Kind, tk.Group, tk.Name, tk.Items))
			}
			if g, w := strings.Join(lanes, "\n"), strings.Join(want, "\n"); g != w {
				t.Errorf("tracks above the threads:\n got: %s\nwant: %s", g, w)
			}
		})
	}
}

// expectedLanes reads a timelines reference and lists the tracks the panel draws above the
// threads, in its order (network, frames, screenshots, animations, timings, interactions,
// layout shifts, extension tracks), leaving out empty ones; none for a generic trace.
func expectedLanes(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	type leveled struct {
		Level  *int `json:"level"`
		Nested bool `json:"nested"`
	}
	var ref struct {
		TraceIsGeneric bool `json:"traceIsGeneric"`
		Network        []json.RawMessage
		WebSockets     []struct{ Events []json.RawMessage } `json:"webSockets"`
		Frames         []json.RawMessage
		Screenshots    []json.RawMessage
		Animations     []json.RawMessage
		Timings        struct {
			Marks, Measures, ConsoleTimings, Timestamps []leveled
			ExtensionMarkers                            []json.RawMessage
			PageLoad                                    []struct{ PanelMarker bool }
		}
		Interactions []leveled
		LayoutShifts struct{ Shifts, Clusters []json.RawMessage }
		Extension    []struct {
			Name         string
			IsTrackGroup bool
			Tracks       []struct {
				Name    string
				Entries []json.RawMessage
			}
		}
	}
	if err := json.NewDecoder(zr).Decode(&ref); err != nil {
		t.Fatal(err)
	}
	if ref.TraceIsGeneric {
		return nil
	}
	var out []string
	add := func(kind, group, name string, n int) {
		if n > 0 {
			out = append(out, fmt.Sprintf("%s %q %q %d", kind, group, name, n))
		}
	}
	drawn := func(list []leveled) (n int) {
		for _, x := range list {
			if x.Level != nil && !x.Nested {
				n++
			}
		}
		return n
	}
	network := len(ref.Network)
	for _, s := range ref.WebSockets {
		network += 1 + len(s.Events)
	}
	add("network", "", "Network", network)
	add("frames", "", "Frames", len(ref.Frames))
	add("screenshots", "", "Screenshots", len(ref.Screenshots))
	add("animations", "", "Animations", len(ref.Animations))
	tm := &ref.Timings
	timings := drawn(tm.Marks) + drawn(tm.Measures) + drawn(tm.ConsoleTimings) + drawn(tm.Timestamps) + len(tm.ExtensionMarkers)
	for _, p := range tm.PageLoad {
		if p.PanelMarker {
			timings++
		}
	}
	add("timings", "", "Timings", timings)
	add("interactions", "", "Interactions", drawn(ref.Interactions))
	add("layoutShifts", "", "Layout shifts", len(ref.LayoutShifts.Shifts)+len(ref.LayoutShifts.Clusters))
	for _, g := range ref.Extension {
		for _, tk := range g.Tracks {
			group := ""
			if g.IsTrackGroup {
				group = g.Name
			}
			add("extension", group, tk.Name, len(tk.Entries))
		}
	}
	return out
}

// fixtureNamed finds the one fixture whose name is stem plus an extension.
func fixtureNamed(t *testing.T, stem string) string {
	t.Helper()
	var found []string
	for _, dir := range []string{"upstream", "generated"} {
		m, _ := filepath.Glob(filepath.Join(fixtures.Shared(), "fixtures", dir, stem+".*"))
		found = append(found, m...)
	}
	if len(found) != 1 {
		t.Fatalf("want one fixture named %s.*, found %q", stem, found)
	}
	return found[0]
}
