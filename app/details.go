package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"io"
	"slices"
	"sort"
	"strings"

	"gioui.org/io/clipboard"
	"gioui.org/io/pointer"
	"gioui.org/layout"
	"gioui.org/op"
	"gioui.org/unit"
	"gioui.org/widget"

	"flamedesk/core"
	"flamedesk/timeline"
)

// detailsPanel describes the selection: a ProfileCall, a trace event, a merged span or a range.
type detailsPanel struct {
	list widget.List
	// lines is rebuilt only when the selection changes, so a frame does no formatting.
	lines []detailLine
	key   detailsKey
	// clicks are the lines that carry more than they show (a source URL): hovering one shows all
	// of it, a click copies it.
	clicks []widget.Clickable
	// copied is the text last copied, shown until the selection changes.
	copied string
	// lineY is where each line was drawn below the panel's top in the last frame (for tests).
	lineY []int
	// showSource and openEditor are the buttons of a JS call's details (sourceview.go).
	showSource, openEditor widget.Clickable
}

// detailLine is one line of the details: a label and its value. full, when set, is the whole of
// what value abbreviates.
type detailLine struct {
	label, value, full string
	// sourceButtons marks the line of a JS call's "Show source" and "Open in editor".
	sourceButtons bool
}

type detailsKey struct {
	doc        *document
	model      any
	sel        timeline.EntryRef
	merged     bool
	span       timeline.Span
	rangeStart float64
	rangeEnd   float64
	refined    bool
	lane       timeline.LaneRef
	hasLane    bool
}

func (p *detailsPanel) reset() { p.key = detailsKey{}; p.lines = nil }

func (p *detailsPanel) layout(gtx layout.Context, e env) layout.Dimensions {
	d := e.doc
	k := detailsKey{doc: d, model: d.model, sel: d.selected, merged: d.selectedIsMerge, span: d.selectedSpan,
		rangeStart: d.rangeStart, rangeEnd: d.rangeEnd, refined: e.settings.Refined,
		lane: d.laneSelected, hasLane: d.hasLaneSelected}
	if k != p.key || p.lines == nil {
		p.key = k
		p.lines = describeSelection(d)
		p.copied = ""
		if len(p.clicks) < len(p.lines) {
			p.clicks = make([]widget.Clickable, len(p.lines))
		}
	}
	for i, l := range p.lines {
		for l.full != "" && p.clicks[i].Clicked(gtx) {
			gtx.Execute(clipboard.WriteCmd{Type: "application/text", Data: io.NopCloser(strings.NewReader(l.full))})
			p.copied = l.full
		}
	}
	p.list.Axis = layout.Vertical
	var hovered string
	p.lineY = p.lineY[:0]
	y := gtx.Dp(2) - p.list.Position.Offset
	dims := layout.Inset{Left: unit.Dp(8), Right: unit.Dp(8), Top: unit.Dp(2)}.Layout(gtx, func(gtx layout.Context) layout.Dimensions {
		return e.th.List(gtx, &p.list, len(p.lines), func(gtx layout.Context, i int) layout.Dimensions {
			dims := p.layoutLine(gtx, e, i, &hovered)
			for len(p.lineY) <= i {
				p.lineY = append(p.lineY, -1)
			}
			p.lineY[i] = y
			y += dims.Size.Y
			return dims
		})
	})
	// The whole URL shows at the foot of the panel while its line is hovered, and a click
	// copies it.
	tip := hovered
	if p.copied != "" {
		tip = "Copied " + p.copied
	} else if tip != "" {
		tip += "  (click to copy)"
	}
	if tip != "" {
		defer op.Offset(image.Pt(0, max(0, gtx.Constraints.Max.Y-gtx.Dp(26)))).Push(gtx.Ops).Pop()
		e.th.Card(gtx, func(gtx layout.Context) layout.Dimensions {
			return layout.UniformInset(unit.Dp(4)).Layout(gtx, func(gtx layout.Context) layout.Dimensions {
				return e.th.Label(gtx, tip)
			})
		})
	}
	return dims
}

// layoutLine draws line i: its label and value, the value clickable when it abbreviates more.
func (p *detailsPanel) layoutLine(gtx layout.Context, e env, i int, hovered *string) layout.Dimensions {
	l := p.lines[i]
	if l.sourceButtons {
		return p.layoutSourceButtons(gtx, e)
	}
	if l.label == "" {
		return e.th.Label(gtx, l.value)
	}
	value := func(gtx layout.Context) layout.Dimensions { return e.th.Label(gtx, l.value) }
	if l.full != "" {
		if p.clicks[i].Hovered() {
			*hovered = l.full
		}
		plain := value
		value = func(gtx layout.Context) layout.Dimensions {
			return p.clicks[i].Layout(gtx, func(gtx layout.Context) layout.Dimensions {
				pointer.CursorPointer.Add(gtx.Ops)
				return plain(gtx)
			})
		}
	}
	return layout.Flex{}.Layout(gtx,
		layout.Rigid(func(gtx layout.Context) layout.Dimensions {
			gtx.Constraints.Min.X = gtx.Dp(96)
			return e.th.MutedLabel(gtx, l.label)
		}),
		layout.Flexed(1, value),
	)
}

// describeSelection formats the details of whatever is selected.
func describeSelection(d *document) []detailLine {
	m := d.model
	rel := func(t float64) string { return formatDuration(t - d.view.Origin()) }
	var out []detailLine
	if d.hasRange() {
		out = append(out, detailLine{label: "Range", value: fmt.Sprintf("%s – %s (%s)", rel(d.rangeStart), rel(d.rangeEnd), formatDuration(d.rangeEnd-d.rangeStart))})
	}
	if d.hasLaneSelected {
		return append(out, laneDetails(d)...)
	}
	if !d.selected.Valid() {
		if len(out) == 0 {
			out = append(out, detailLine{value: "Click a bar to see its details. Shift+drag selects a time range."})
		}
		return out
	}
	if d.selectedIsMerge {
		return append(out, describeMerged(d)...)
	}
	ref := d.selected
	ct := m.Tracks[ref.Track].Core
	start, end := m.EntryStart(ref), m.EntryEnd(ref)
	out = append(out, detailLine{value: m.EntryName(ref)})
	if ct.KindAt(int(ref.Entry)) == core.EntryProfileCall {
		f, _ := m.EntryFrame(ref)
		url := d.trace.Strings.Get(f.URL)
		if url != "" {
			// The file and line:column first, as DevTools shows them: a long URL cut at the end
			// would lose exactly those.
			out = append(out, detailLine{label: "Source", value: sourcePosition(url, f.Line, f.Column),
				full: fmt.Sprintf("%s:%d:%d", url, f.Line+1, f.Column+1)})
		}
		out = append(out, generatedLines(d, ref)...)
		out = append(out,
			detailLine{label: "Start", value: rel(start)},
			detailLine{label: "Total time", value: formatDuration(end - start)},
			detailLine{label: "Self time", value: formatDuration(m.EntrySelf(ref))},
			detailLine{label: "Samples", value: fmt.Sprint(samplesIn(d.trace, ct, start, end))},
			detailLine{label: "Thread", value: m.Tracks[ref.Track].Title},
		)
		out = append(out, refinedLines(d, ref)...)
		if url != "" {
			out = append(out, detailLine{sourceButtons: true})
		}
		return out
	}
	if raw := m.NameString(m.EntryNameID(ref)); raw != m.EntryName(ref) {
		out = append(out, detailLine{label: "Trace event", value: raw})
	}
	out = append(out,
		detailLine{label: "Category", value: m.EntryCategory(ref)},
		detailLine{label: "Start", value: rel(start)},
		detailLine{label: "Duration", value: formatDuration(end - start)},
		detailLine{label: "Self time", value: formatDuration(m.EntrySelf(ref))},
		detailLine{label: "Thread", value: m.Tracks[ref.Track].Title},
	)
	if ev := ct.RefAt(int(ref.Entry)); ev >= 0 && int(ev) < d.trace.Events.Len() {
		if args := d.trace.Events.ArgsJSON(int(ev)); len(args) > 0 {
			out = append(out, detailLine{label: "Args", value: prettyJSON(args)})
		}
	}
	return out
}

// samplesIn counts the samples of the track's profile that fall in [start, end).
func samplesIn(tr *core.Trace, ct *core.Track, start, end float64) int {
	if ct.Profile < 0 || int(ct.Profile) >= len(tr.Profiles) {
		return 0
	}
	ts := tr.Profiles[ct.Profile].Timestamps
	if len(ts) == 0 {
		return 0
	}
	ts = ts[:len(ts)-1] // the last one is the extrapolated end, not a sample
	return sort.SearchFloat64s(ts, end) - sort.SearchFloat64s(ts, start)
}

// describeMerged lists how many entries a merged span stands for, and the longest of them.
func describeMerged(d *document) []detailLine {
	m := d.model
	s := d.selectedSpan
	t := &m.Tracks[d.selected.Track]
	if !t.Placed(d.selectedLevel) {
		return nil
	}
	lv := &t.Levels[d.selectedLevel]
	type item struct {
		name string
		dur  float64
	}
	var items []item
	const scanLimit = 200000 // a merged span of millions of entries is summarised from its first ones
	for pos := s.First; pos <= s.Last && int(pos-s.First) < scanLimit; pos++ {
		ref := timeline.EntryRef{Track: d.selected.Track, Entry: lv.Entries[pos]}
		items = append(items, item{m.EntryName(ref), m.EntryEnd(ref) - m.EntryStart(ref)})
	}
	slices.SortFunc(items, func(a, b item) int {
		switch {
		case a.dur > b.dur:
			return -1
		case a.dur < b.dur:
			return 1
		}
		return strings.Compare(a.name, b.name)
	})
	out := []detailLine{
		{value: fmt.Sprintf("%d entries merged (too narrow to draw apart)", s.Count())},
		{label: "Span", value: fmt.Sprintf("%s – %s (%s)", formatDuration(s.Start-d.view.Origin()), formatDuration(s.End-d.view.Origin()), formatDuration(s.End-s.Start))},
	}
	for i := 0; i < len(items) && i < 8; i++ {
		out = append(out, detailLine{label: formatDuration(items[i].dur), value: items[i].name})
	}
	return out
}

func prettyJSON(b []byte) string {
	var buf bytes.Buffer
	if json.Indent(&buf, b, "", "  ") != nil {
		return string(b)
	}
	return buf.String()
}
