package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"flamedesk/core"
	"flamedesk/core/calltree"
	"flamedesk/core/load"
	"flamedesk/core/sourcemap"
)

const sourceUsage = `Usage: flamedesk source FILE FUNCTION [--thread PID:TID] [--sourcemaps DIR] [--generated]
                        [--context N] [--format text|json]

Prints the self time of FUNCTION line by line, beside the text of its file when that is at hand:
the original source where a source map applies (from the map, or from disk), else the script as
the trace carries it or as it is on disk. Lines come from the positions V8 records with each
sample (a trace's ProfileChunk lines, a .cpuprofile's positionTicks).

  FUNCTION           a function name as calltree prints it ("(anonymous)" for one without)
  --thread PID:TID   the profiled thread (default: as calltree chooses)
  --generated        use the engine's names and the script's own lines
  --context N        lines of source shown around each line with time (default 2)
  --format F         text, or json: {"function","file","original","units":"ms","total",
                     "elsewhere","fromTicks","lines":[{"line","self","samples","text"}]}
` + sourceMapsUsage

func runSource(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("source", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	thread := fs.String("thread", "", "")
	sourceMaps := addSourceMapsFlag(fs)
	generated := fs.Bool("generated", false, "")
	contextLines := fs.Int("context", 2, "")
	format := fs.String("format", "text", "")
	files, code, ok := parseSourceArgs(fs, args, stdout, stderr)
	if !ok {
		return code
	}
	if *format != "text" && *format != "json" {
		return usageError(stderr, "source: --format must be text or json, not %q", *format)
	}
	file, function := files[0], files[1]
	tr, err := load.File(context.Background(), file, nil)
	if err != nil {
		return inputError(stderr, file, err)
	}
	if len(tr.Profiles) == 0 {
		return inputError(stderr, file, fmt.Errorf("no CPU profile in the file"))
	}
	set := applySourceMaps(tr, *sourceMaps)
	noteSourceMaps(stderr, set)
	profile := calltree.DefaultProfile(tr)
	if *thread != "" {
		pid, tid, err := parsePidTid(*thread)
		if err != nil {
			return usageError(stderr, "source: --thread %q: %v", *thread, err)
		}
		if profile = calltree.FindProfile(tr, pid, tid); profile < 0 {
			return usageError(stderr, "source: no profile for thread %s", *thread)
		}
	}
	p := &tr.Profiles[profile]
	funcs := calltree.NewFunctionsNamed(tr, p, !*generated)
	fn := calltree.NoFunc
	for f := calltree.FuncID(0); int(f) < funcs.Len(); f++ {
		name := funcs.Name(f)
		if name == "" {
			name = "(anonymous)"
		}
		if name == function && !funcs.IsResource(f) {
			fn = f
			break
		}
	}
	if fn == calltree.NoFunc {
		return usageError(stderr, "source: no function %q in %s", function, calltree.ProfileLabel(tr, profile))
	}
	isFunc := func(f core.FrameID) bool { return funcs.OfFrame(f) == fn }
	lt := sourcemap.Lines(tr, set, p, isFunc, !*generated)
	var src sourcemap.Source
	haveText := false
	for _, f := range p.NodeFrame {
		if f != core.NoFrame && isFunc(f) {
			src, haveText = set.SourceOf(f, !*generated)
			break
		}
	}
	var lines []sourcemap.SourceLine
	if haveText {
		lines, _ = sourcemap.Annotate(src.Text, lt)
	}
	w := bufio.NewWriter(stdout)
	if *format == "json" {
		writeSourceJSON(w, funcs.Describe(fn), lt, lines)
	} else {
		writeSourceText(w, funcs.Describe(fn), lt, lines, max(*contextLines, 0))
	}
	if err := w.Flush(); err != nil {
		return exitInput
	}
	return exitOK
}

// parseSourceArgs parses flags that may come before, between or after FILE and FUNCTION.
func parseSourceArgs(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (pos []string, code int, ok bool) {
	for {
		if err := fs.Parse(args); err != nil {
			if err == flag.ErrHelp {
				fmt.Fprint(stdout, sourceUsage)
				return nil, exitOK, false
			}
			return nil, usageError(stderr, "source: %v", err), false
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(pos) != 2 {
		return nil, usageError(stderr, "source: want FILE and FUNCTION"), false
	}
	return pos, exitOK, true
}

func writeSourceText(w *bufio.Writer, what string, lt sourcemap.LineTimes, lines []sourcemap.SourceLine, context int) {
	how := "per-sample positions"
	if lt.FromTicks {
		how = "positionTicks"
	}
	fmt.Fprintf(w, "%s: self %.3f ms in %s (lines from %s)\n", what, lt.Total/1000, orNone(lt.File), how)
	if lt.Elsewhere > 0 {
		fmt.Fprintf(w, "  %.3f ms on no line of the file\n", lt.Elsewhere/1000)
	}
	fmt.Fprintf(w, "%10s %8s %6s\n", "self ms", "samples", "line")
	if lines == nil {
		for _, l := range lt.Lines {
			fmt.Fprintf(w, "%10.3f %8.0f %6d\n", l.Self/1000, l.Samples, l.Line)
		}
		if len(lt.Lines) > 0 {
			fmt.Fprintln(w, "(the source text is not at hand)")
		}
		return
	}
	show := make([]bool, len(lines))
	for i, l := range lines {
		if l.Self > 0 {
			for j := max(i-context, 0); j <= min(i+context, len(lines)-1); j++ {
				show[j] = true
			}
		}
	}
	gap := false
	for i, l := range lines {
		if !show[i] {
			gap = true
			continue
		}
		if gap {
			fmt.Fprintln(w, "       ...")
			gap = false
		}
		if l.Self > 0 {
			fmt.Fprintf(w, "%10.3f %8.0f %6d  %s\n", l.Self/1000, l.Samples, i+1, l.Text)
		} else {
			fmt.Fprintf(w, "%10s %8s %6d  %s\n", "", "", i+1, l.Text)
		}
	}
}

func orNone(s string) string {
	if s == "" {
		return "(no file)"
	}
	return s
}

func writeSourceJSON(w *bufio.Writer, what string, lt sourcemap.LineTimes, lines []sourcemap.SourceLine) {
	b := []byte(`{"function":`)
	b = appendJSONString(b, what)
	b = append(b, `,"file":`...)
	b = appendJSONString(b, lt.File)
	b = fmt.Appendf(b, `,"original":%t,"units":"ms","total":%g,"elsewhere":%g,"fromTicks":%t,"lines":[`,
		lt.Original, lt.Total/1000, lt.Elsewhere/1000, lt.FromTicks)
	for i, l := range lt.Lines {
		if i > 0 {
			b = append(b, ',')
		}
		b = fmt.Appendf(b, "\n{\"line\":%d,\"self\":%g,\"samples\":%g,\"text\":", l.Line, l.Self/1000, l.Samples)
		text := ""
		if n := int(l.Line) - 1; n >= 0 && n < len(lines) {
			text = strings.TrimRight(lines[n].Text, " \t")
		}
		b = appendJSONString(b, text)
		b = append(b, '}')
	}
	b = append(b, "]}\n"...)
	w.Write(b)
}

func appendJSONString(b []byte, s string) []byte {
	q, _ := json.Marshal(s) // a string always marshals; invalid UTF-8 becomes U+FFFD
	return append(b, q...)
}
