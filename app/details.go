package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"gioui.org/layout"
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
}

type detailLine struct {
	label, value string
}

type detailsKey struct {
	doc        *document
	sel        timeline.EntryRef
	merged     bool
	span       timeline.Span
	rangeStart float64
	rangeEnd   float64
	refined    bool
}

func (p *detailsPanel) reset() { p.key = detailsKey{}; p.lines = nil }

func (p *detailsPanel) layout(gtx layout.Context, u *ui) layout.Dimensions {
	d := u.doc
	k := detailsKey{doc: d, sel: d.selected, merged: d.selectedIsMerge, span: d.selectedSpan,
		rangeStart: d.rangeStart, rangeEnd: d.rangeEnd, refined: u.settings.Refined}
	if k != p.key || p.lines == nil {
		p.key = k
		p.lines = describeSelection(u, d)
	}
	p.list.Axis = layout.Vertical
	return layout.Inset{Left: unit.Dp(8), Right: unit.Dp(8), Top: unit.Dp(2)}.Layout(gtx, func(gtx layout.Context) layout.Dimensions {
		return layoutList(gtx, u, &p.list, len(p.lines), func(gtx layout.Context, i int) layout.Dimensions {
			l := p.lines[i]
			if l.label == "" {
				return u.label(gtx, l.value)
			}
			return layout.Flex{}.Layout(gtx,
				layout.Rigid(func(gtx layout.Context) layout.Dimensions {
					gtx.Constraints.Min.X = gtx.Dp(96)
					return u.mutedLabel(gtx, l.label)
				}),
				layout.Flexed(1, func(gtx layout.Context) layout.Dimensions {
					return u.label(gtx, l.value)
				}),
			)
		})
	})
}

// describeSelection formats the details of whatever is selected.
func describeSelection(u *ui, d *document) []detailLine {
	m := d.model
	rel := func(t float64) string { return formatDuration(t - d.view.Origin()) }
	var out []detailLine
	if d.hasRange() {
		out = append(out, detailLine{"Range", fmt.Sprintf("%s – %s (%s)", rel(d.rangeStart), rel(d.rangeEnd), formatDuration(d.rangeEnd-d.rangeStart))})
	}
	if !d.selected.Valid() {
		if len(out) == 0 {
			out = append(out, detailLine{"", "Click a bar to see its details. Shift+drag selects a time range."})
		}
		return out
	}
	if d.selectedIsMerge {
		return append(out, describeMerged(d)...)
	}
	ref := d.selected
	ct := m.Tracks[ref.Track].Core
	start, end := m.EntryStart(ref), m.EntryEnd(ref)
	out = append(out, detailLine{"", m.EntryName(ref)})
	if ct.Kind[ref.Entry] == core.EntryProfileCall {
		f := d.trace.Frames[ct.Frame[ref.Entry]]
		url := d.trace.Strings.Get(f.URL)
		if url != "" {
			out = append(out, detailLine{"Source", fmt.Sprintf("%s:%d:%d", url, f.Line+1, f.Column+1)})
		}
		out = append(out,
			detailLine{"Start", rel(start)},
			detailLine{"Total time", formatDuration(end - start)},
			detailLine{"Self time", formatDuration(ct.Self[ref.Entry])},
			detailLine{"Samples", fmt.Sprint(samplesIn(d.trace, ct, start, end))},
			detailLine{"Thread", m.Tracks[ref.Track].Title},
		)
		out = append(out, refinedLines(u, d, ref)...)
		return out
	}
	if raw := m.NameString(m.EntryNameID(ref)); raw != m.EntryName(ref) {
		out = append(out, detailLine{"Trace event", raw})
	}
	out = append(out,
		detailLine{"Category", m.EntryCategory(ref)},
		detailLine{"Start", rel(start)},
		detailLine{"Duration", formatDuration(end - start)},
		detailLine{"Self time", formatDuration(ct.Self[ref.Entry])},
		detailLine{"Thread", m.Tracks[ref.Track].Title},
	)
	if ev := ct.Ref[ref.Entry]; ev >= 0 && int(ev) < d.trace.Events.Len() {
		if args := d.trace.Events.ArgsJSON(int(ev)); len(args) > 0 {
			out = append(out, detailLine{"Args", prettyJSON(args)})
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
	lv := &m.Tracks[d.selected.Track].Levels[d.selectedLevel]
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
		{"", fmt.Sprintf("%d entries merged (too narrow to draw apart)", s.Count())},
		{"Span", fmt.Sprintf("%s – %s (%s)", formatDuration(s.Start-d.view.Origin()), formatDuration(s.End-d.view.Origin()), formatDuration(s.End-s.Start))},
	}
	for i := 0; i < len(items) && i < 8; i++ {
		out = append(out, detailLine{formatDuration(items[i].dur), items[i].name})
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
