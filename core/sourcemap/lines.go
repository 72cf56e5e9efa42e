package sourcemap

import (
	"sort"
	"strings"

	"flamedesk/core"
)

// LineTime is the self time that a function spent on one line of its file.
type LineTime struct {
	Line int32   // 1-based
	Self float64 // µs
	// Samples is the number of samples on the line; a .cpuprofile's per-line counts share a
	// node's samples out, so it may be fractional there.
	Samples float64
}

// LineTimes is a function's self time line by line.
type LineTimes struct {
	// File is the file the lines are in: the original source when Original, else the script URL.
	File     string
	Original bool
	Lines    []LineTime // by line
	// Total is the function's self time over the profile; Elsewhere is the part of it that fell
	// in another file (code inlined from elsewhere) or on no known line.
	Total, Elsewhere float64
	// FromTicks is true when the lines come from a .cpuprofile's positionTicks (per node counts,
	// no columns), false when every sample carried its own line (a trace's ProfileChunks).
	FromTicks bool
}

// Lines returns the self time per line of the function whose frames isFunc accepts, over profile p
// of the set's trace. With original, lines are mapped to the function's original source through
// its map (when the set has one for it); else they are the script's own lines. set may be nil: the
// generated lines are then all there is.
//
// V8 records a line per sample in trace chunks ("lines", with "columns"), and a .cpuprofile keeps
// per-node line counts ("positionTicks", lines only): there a node's self time is shared out by its
// counts, and a line with no column is mapped from its first mapped position, or from the
// function's own position on the line the function starts on.
func Lines(tr *core.Trace, set *Set, p *core.ProfileModel, isFunc func(core.FrameID) bool, original bool) LineTimes {
	var out LineTimes
	if len(p.Samples) == 0 || len(p.Timestamps) != len(p.Samples)+1 {
		return out
	}
	// The file: that of the function's first frame in the profile.
	first := core.NoFrame
	for _, f := range p.NodeFrame {
		if f != core.NoFrame && isFunc(f) {
			first = f
			break
		}
	}
	if first == core.NoFrame {
		return out
	}
	shown := tr.Shown(first, original)
	out.File = tr.Strings.Get(shown.URL)
	out.Original = original && tr.IsMapped(first)
	byLine := map[int32]*LineTime{}
	add := func(f core.FrameID, line, col int32, self, samples float64) {
		out.Total += self
		l, ok := placeLine(tr, set, f, line, col, out.Original, shown.URL)
		if !ok {
			out.Elsewhere += self
			return
		}
		lt := byLine[l]
		if lt == nil {
			lt = &LineTime{Line: l}
			byLine[l] = lt
		}
		lt.Self += self
		lt.Samples += samples
	}

	lines, cols := p.SampleLine.Len(), p.SampleColumn.Len()
	if lines > 0 || p.SampleLinesZero {
		for i, node := range p.Samples {
			if node < 0 || int(node) >= len(p.NodeFrame) || (lines > 0 && i >= lines) {
				continue
			}
			f := p.NodeFrame[node]
			if f == core.NoFrame || !isFunc(f) {
				continue
			}
			line, col := int32(0), int32(0)
			if lines > 0 {
				line = p.SampleLine.At(i)
			}
			if i < cols {
				col = p.SampleColumn.At(i)
			}
			add(f, line, col, p.Timestamps[i+1]-p.Timestamps[i], 1)
		}
	} else {
		out.FromTicks = true
		self := make([]float64, len(p.NodeFrame))
		for i, node := range p.Samples {
			if node >= 0 && int(node) < len(self) {
				self[node] += p.Timestamps[i+1] - p.Timestamps[i]
			}
		}
		pos := tr.Chunks.Positions
		for node, f := range p.NodeFrame {
			if f == core.NoFrame || !isFunc(f) || self[node] == 0 {
				continue
			}
			var ticks []int32
			if node < len(p.NodeTicks) {
				if sp := p.NodeTicks[node]; int(sp.Off+sp.Len) <= len(pos) {
					ticks = pos[sp.Off : sp.Off+sp.Len]
				}
			}
			total := 0.0
			for k := 0; k+1 < len(ticks); k += 2 {
				total += float64(ticks[k+1])
			}
			if total == 0 {
				add(f, 0, 0, self[node], 0)
				continue
			}
			for k := 0; k+1 < len(ticks); k += 2 {
				share := float64(ticks[k+1]) / total
				add(f, ticks[k], 0, self[node]*share, float64(ticks[k+1]))
			}
		}
	}
	for _, lt := range byLine {
		out.Lines = append(out.Lines, *lt)
	}
	sort.Slice(out.Lines, func(i, j int) bool { return out.Lines[i].Line < out.Lines[j].Line })
	return out
}

// placeLine turns a sample's generated position (1-based line and column, 0 when unknown) into the
// 1-based line shown: the generated line itself, or the original line in file when mapped.
func placeLine(tr *core.Trace, set *Set, f core.FrameID, line, col int32, original bool, file core.StrID) (int32, bool) {
	if line <= 0 {
		return 0, false
	}
	if !original {
		return line, true
	}
	m := set.MapOf(f)
	if m == nil {
		return 0, false
	}
	genCol := 0
	switch {
	case col > 0:
		genCol = int(col) - 1
	case line-1 == tr.Frames[f].Line:
		// A line without a column, on the line where the function starts: its own position is
		// the best guess (a minified bundle is one line).
		genCol = max(int(tr.Frames[f].Column), 0)
	}
	source, _, oline, _, ok := lookup(m.c, int(line), genCol)
	if !ok || tr.Strings.Get(file) != cleanSource(source) {
		return 0, false
	}
	return int32(oline), true
}

// SourceLine is one line of a source view: its text and the self time the function spent on it.
type SourceLine struct {
	Text    string
	Self    float64 // µs
	Samples float64
}

// Annotate splits a source's text into lines and puts each line's time beside it. Times on lines
// past the end of the text (a source that changed since the recording) are left out; Annotate
// reports how much.
func Annotate(text string, lt LineTimes) (lines []SourceLine, missing float64) {
	for _, l := range strings.SplitAfter(text, "\n") {
		lines = append(lines, SourceLine{Text: strings.TrimRight(l, "\r\n")})
	}
	if n := len(lines); n > 0 && lines[n-1].Text == "" && strings.HasSuffix(text, "\n") {
		lines = lines[:n-1]
	}
	for _, l := range lt.Lines {
		if i := int(l.Line) - 1; i >= 0 && i < len(lines) {
			lines[i].Self += l.Self
			lines[i].Samples += l.Samples
		} else {
			missing += l.Self
		}
	}
	return lines, missing
}
