package timelines

import (
	"math"
	"slices"
	"strconv"

	"github.com/valyala/fastjson"

	"flamedesk/core"
	"flamedesk/internal/background"
)

// Row is a level that may be absent: -1, written as null, for an item drawn on another track.
type Row int

// noRow marks an item the track does not draw.
const noRow Row = -1

// MarshalJSON writes the row, or null.
func (r Row) MarshalJSON() ([]byte, error) {
	if r < 0 {
		return []byte("null"), nil
	}
	return strconv.AppendInt(nil, int64(r), 10), nil
}

// Timings is the Timings track: User Timing marks and measures, console.time and console.timeStamp
// and the markers of the extension API. Level counts rows from the top of the whole track.
type Timings struct {
	Marks            []Mark            `json:"marks"`
	Measures         []Measure         `json:"measures"`
	ConsoleTimings   []Measure         `json:"consoleTimings"`
	Timestamps       []TimeStamp       `json:"timestamps"`
	ExtensionMarkers []ExtensionMarker `json:"extensionMarkers"`
	PageLoad         []PageLoadMarker  `json:"pageLoad"`
}

// Mark is a performance.mark.
type Mark struct {
	Kind  string  `json:"kind"` // "performance.mark"
	Name  string  `json:"name"`
	Ts    float64 `json:"ts"`
	Pid   int64   `json:"pid"`
	Tid   int64   `json:"tid"`
	Level Row     `json:"level"`
}

// Measure is a performance.measure or a console.time, paired from its async events.
type Measure struct {
	Name  string  `json:"name"`
	Ts    float64 `json:"ts"`
	Dur   Num     `json:"dur"`
	Pid   int64   `json:"pid"`
	Tid   int64   `json:"tid"`
	Level Row     `json:"level"`
}

// TimeStamp is a console.timeStamp. Start and End are args.data.start/end as written (a time, or
// the name of an earlier timeStamp); Track is set when it goes to an extension track.
type TimeStamp struct {
	Name  string  `json:"name"`
	Ts    float64 `json:"ts"`
	Pid   int64   `json:"pid"`
	Tid   int64   `json:"tid"`
	Start any     `json:"start"`
	End   any     `json:"end"`
	Track any     `json:"track"`
	Level Row     `json:"level"`
}

// ExtensionMarker is a mark or measure whose devtools payload makes it a marker; always on row 0.
type ExtensionMarker struct {
	Name        string  `json:"name"`
	Ts          float64 `json:"ts"`
	Pid         int64   `json:"pid"`
	Tid         int64   `json:"tid"`
	Color       any     `json:"color"`
	TooltipText any     `json:"tooltipText"`
	Level       int     `json:"level"`
}

// ExtensionGroup is one custom track of the extension API, or a group of them.
type ExtensionGroup struct {
	Name         string           `json:"name"`
	IsTrackGroup bool             `json:"isTrackGroup"`
	Tracks       []ExtensionTrack `json:"tracks"`
}

// ExtensionTrack is one track of a group, its entries levelled from its own first row.
type ExtensionTrack struct {
	Name    string           `json:"name"`
	Entries []ExtensionEntry `json:"entries"`
}

// ExtensionEntry is one bar (or, from a mark, one instant) of an extension track.
type ExtensionEntry struct {
	Name        string  `json:"name"`
	Ts          float64 `json:"ts"`
	Dur         Num     `json:"dur"`
	Pid         int64   `json:"pid"`
	Tid         int64   `json:"tid"`
	Level       int     `json:"level"`
	Source      string  `json:"source"` // performance.measure, performance.mark or console.timeStamp
	Color       any     `json:"color"`
	TooltipText any     `json:"tooltipText"`
}

// timingNames are the navigation- and resource-timing marks Blink writes under blink.user_timing
// itself: the engine leaves them out of the Timings track.
var timingNames = []string{"workerStart", "redirectStart", "redirectEnd", "fetchStart", "domainLookupStart",
	"domainLookupEnd", "connectStart", "connectEnd", "secureConnectionStart", "requestStart", "responseStart",
	"responseEnd", "navigationStart", "unloadEventStart", "unloadEventEnd", "commitNavigationEnd", "domLoading",
	"domInteractive", "domContentLoadedEventStart", "domContentLoadedEventEnd", "domComplete", "loadEventStart",
	"loadEventEnd"}

// payloadKind is what a devtools payload makes of a timing.
type payloadKind uint8

const (
	payloadNone   payloadKind = iota
	payloadMarker             // dataType "marker"
	payloadEntry              // an entry of an extension track
	payloadOther              // valid (url and description) but drawn nowhere
)

// payload is the devtools object of a timing's detail (or a timeStamp's track arguments).
type payload struct {
	kind           payloadKind
	track, group   string // group "" when the entry is not in a track group
	trackRaw       string // the track value's JSON, the engine's identity of a track
	hasTrack       bool   // 'track' in the payload
	color, tooltip any
}

// utItem is one User Timing item being ordered: a raw event (mark, timeStamp) or a pair.
type utItem struct {
	ev               int32 // the event, or the pair's begin
	end              int32 // the pair's end, -1 for none
	ts, dur          float64
	thread           core.ThreadID
	cmpStart, cmpEnd float64
	track            string // the engine's track for the ordering, when hasTrack
	hasTrack         bool
	isConsole        bool // a console.time pair
	isMark           bool // a performance.mark
	onExtension      bool // a timeStamp drawn on an extension track
	level            Row
	pl               payload
}

// buildTimings collects the Timings track and the extension tracks.
func buildTimings(tr *core.Trace) (Timings, []ExtensionGroup) {
	ev := &tr.Events
	ignored := lookupNames(tr, timingNames...)
	userTiming, hasUT := tr.Strings.Lookup("blink.user_timing")
	console, hasConsole := tr.Strings.Lookup("blink.console")
	timeStamp, hasTS := tr.Strings.Lookup("TimeStamp")
	var asyncList, markList, stampList []int32
	for i, ph := range ev.Ph {
		background.YieldEvery(i)
		name, cat := ev.Name[i], ev.Cat[i]
		if _, ok := ignored.find(name); ok {
			continue
		}
		async := isAsyncPhase(ph)
		switch {
		case hasUT && cat == userTiming && async:
			asyncList = append(asyncList, int32(i))
			continue
		case hasUT && cat == userTiming && (ph == 'R' || ph == 'I'):
			markList = append(markList, int32(i))
		}
		if hasConsole && cat == console && async {
			asyncList = append(asyncList, int32(i))
		}
		if hasTS && ph == 'I' && name == timeStamp {
			stampList = append(stampList, int32(i))
		}
	}
	b := &timingsBuilder{tr: tr, a: &args{tr: tr}}
	pairs, unpaired := pairAsync(tr, asyncList)
	tr.Warnings.Add("performance.measure or console.time events without their other half (not drawn)", unpaired)

	// The pairs, then ordered with the engine's User Timing comparator.
	synth := make([]utItem, len(pairs))
	for k, p := range pairs {
		it := utItem{ev: p.Begin, end: p.End, ts: p.Ts, dur: p.Dur, thread: p.Thread, cmpStart: p.Ts, cmpEnd: p.Ts + p.Dur}
		if p.End >= 0 {
			it.isConsole = hasConsole && ev.Cat[p.End] == console
		} else {
			it.isConsole = hasConsole && ev.Cat[p.Begin] == console
		}
		if !it.isConsole {
			if d, ok := str(b.a.parse(int(p.Begin)), "detail"); ok && d != "" {
				it.pl = b.detailPayload(d)
				it.track, it.hasTrack = it.pl.trackRaw, it.pl.hasTrack
			}
		}
		synth[k] = it
	}
	synth = reorder(synth, jsSortOrder(len(synth), func(x, y int) int { return utCompare(synth, x, y) }))

	marks := make([]utItem, len(markList))
	for k, i := range markList {
		it := utItem{ev: i, end: -1, ts: ev.Ts[i], dur: ev.Dur[i], thread: ev.Thread[i], isMark: true}
		if d, ok := str(b.a.parse(int(i)), "data", "detail"); ok && d != "" {
			it.pl = b.detailPayload(d)
		}
		marks[k] = it
	}

	stamps := make([]utItem, len(stampList))
	stampData := make([]stampArgs, len(stampList))
	for k, i := range stampList {
		it := utItem{ev: i, end: -1, ts: ev.Ts[i], dur: ev.Dur[i], thread: ev.Thread[i], cmpStart: ev.Ts[i], cmpEnd: ev.Ts[i]}
		sd := b.stampArgs(int(i))
		switch {
		case !math.IsNaN(it.dur):
			it.cmpEnd = it.ts + it.dur
		case sd.startNum && sd.endNum:
			it.cmpStart, it.cmpEnd = sd.start, sd.end
		}
		it.track, it.hasTrack = sd.trackString, sd.hasTrackString
		it.onExtension = sd.trackTruthy
		stamps[k], stampData[k] = it, sd
	}
	order := jsSortOrder(len(stamps), func(x, y int) int { return utCompare(stamps, x, y) })
	stamps = reorder(stamps, order)
	stampData = reorder(stampData, order)

	return b.assemble(synth, marks, stamps, stampData)
}

// utCompare is the engine's userTimingComparator: by start, longer first; equal spans of the same
// track (or both without one) put the later item first; across tracks they compare equal.
func utCompare(list []utItem, x, y int) int {
	a, b := &list[x], &list[y]
	if c := startsBefore(a.cmpStart, a.cmpEnd, b.cmpStart, b.cmpEnd); c != 0 {
		return c
	}
	if a.hasTrack != b.hasTrack || a.track != b.track {
		return 0
	}
	return y - x
}

// reorder puts list[order[k]] at k for every k, in place: a copy of a million items of User
// Timing (about 200 bytes each) would hold them twice at the peak. order must be a permutation
// of list's indexes; it is left as it was.
func reorder[T any](list []T, order []int) []T {
	done := make([]bool, len(list))
	for start := range list {
		if done[start] {
			continue
		}
		// Follow the cycle through start: each place takes the item it is to hold, and the one
		// that closes the cycle takes start's, kept aside.
		held := list[start]
		k := start
		for {
			done[k] = true
			from := order[k]
			if from == start {
				list[k] = held
				break
			}
			list[k] = list[from]
			k = from
		}
	}
	return list
}

type timingsBuilder struct {
	tr     *core.Trace
	a      *args
	detail fastjson.Parser
	bad    int
}

// detailPayload reads the devtools payload out of a User Timing detail (a JSON string).
func (b *timingsBuilder) detailPayload(detail string) payload {
	v, err := b.detail.Parse(detail)
	if err != nil {
		return payload{}
	}
	if v.Type() != fastjson.TypeObject {
		return payload{}
	}
	d := v.Get("devtools")
	if d == nil {
		return payload{}
	}
	if d.Type() != fastjson.TypeObject {
		if d.Type() != fastjson.TypeArray {
			b.bad++
		}
		return payload{}
	}
	var p payload
	dataType := d.Get("dataType")
	track := d.Get("track")
	isType := func(s string) bool {
		return dataType != nil && dataType.Type() == fastjson.TypeString && string(dataType.GetStringBytes()) == s
	}
	switch {
	case isType("marker"):
		p.kind = payloadMarker
	case (dataType == nil || isType("track-entry")) && truthy(d, "track"):
		p.kind = payloadEntry
	case d.Get("url") != nil && d.Get("description") != nil:
		p.kind = payloadOther
	default:
		b.bad++
		return payload{}
	}
	if track != nil {
		p.hasTrack, p.trackRaw, p.track = true, track.String(), jsString(track)
	}
	if truthy(d, "trackGroup") {
		p.group = jsString(d.Get("trackGroup"))
	}
	p.color = jsonScalar(d.Get("color"))
	p.tooltip = jsonScalar(d.Get("tooltipText"))
	return p
}

// stampArgs is what a console.timeStamp's args.data holds.
type stampArgs struct {
	hasData                bool
	name                   string // String(name ?? message)
	listedName             string // name ?? message ?? "" as the reference lists it
	start, end             float64
	startNum, endNum       bool
	startRaw, endRaw       any
	startText, endText     string // String(start), String(end): the name of an earlier timeStamp
	startTruthy, endTruthy bool
	hasStart, hasEnd       bool
	trackString            string // args.data.track when a string
	hasTrackString         bool
	trackTruthy            bool
	track, group, color    string
	hasGroup               bool
}

func (b *timingsBuilder) stampArgs(i int) stampArgs {
	var s stampArgs
	data := b.a.parse(i).Get("data")
	if data == nil || data.Type() == fastjson.TypeNull {
		return s
	}
	s.hasData = truthy(data)
	name := data.Get("name")
	if name == nil || name.Type() == fastjson.TypeNull {
		name = data.Get("message")
	}
	s.name = jsString(name)
	if name != nil && name.Type() != fastjson.TypeNull {
		s.listedName = s.name
	}
	read := func(key string) (v float64, isNum bool, raw any, text string, isTruthy, present bool) {
		x := data.Get(key)
		if x == nil {
			return 0, false, nil, "undefined", false, false
		}
		if x.Type() == fastjson.TypeNumber {
			v, _ = x.Float64()
			isNum = true
		}
		return v, isNum, jsonScalar(x), jsString(x), truthy(data, key), true
	}
	s.start, s.startNum, s.startRaw, s.startText, s.startTruthy, s.hasStart = read("start")
	s.end, s.endNum, s.endRaw, s.endText, s.endTruthy, s.hasEnd = read("end")
	if t := data.Get("track"); t != nil && t.Type() == fastjson.TypeString {
		s.trackString, s.hasTrackString = string(t.GetStringBytes()), true
	}
	if truthy(data, "track") {
		s.trackTruthy = true
		s.track = jsString(data.Get("track"))
		s.color = jsString(data.Get("color"))
		if g := data.Get("trackGroup"); g != nil {
			s.group, s.hasGroup = jsString(g), true
		}
	}
	return s
}

// extEntry is an entry bound for an extension track, before grouping.
type extEntry struct {
	name           string
	ts, dur        float64
	thread         core.ThreadID
	source         string
	track, group   string
	color, tooltip any
}

// assemble builds the lists from the ordered items.
func (b *timingsBuilder) assemble(synth, marks, stamps []utItem, stampData []stampArgs) (Timings, []ExtensionGroup) {
	tr := b.tr
	ev := &tr.Events
	// The measures take synth's place (each item moves to an index no later than its own): the
	// items are some 200 bytes, and a million measures copied into a list grown by append held
	// three times their size at once.
	var consoleTimings []utItem
	measures := synth[:0]
	for _, it := range synth {
		if it.isConsole {
			consoleTimings = append(consoleTimings, it)
		} else {
			measures = append(measures, it)
		}
	}

	// Extension entries and markers from the measures and marks, merged in time order (marks as
	// they came), then from the timeStamps.
	var entries []extEntry
	var markers []ExtensionMarker
	merged := mergeTimings(measures, marks)
	for _, it := range merged {
		src := "performance.measure"
		if it.isMark {
			src = "performance.mark"
		}
		th := tr.Threads[it.thread]
		switch it.pl.kind {
		case payloadMarker:
			markers = append(markers, ExtensionMarker{Name: tr.Strings.Get(ev.Name[it.ev]), Ts: it.ts, Pid: th.Pid, Tid: th.Tid,
				Color: it.pl.color, TooltipText: it.pl.tooltip})
		case payloadEntry:
			dur := it.dur
			if math.IsNaN(dur) {
				dur = 0
			}
			entries = append(entries, extEntry{name: tr.Strings.Get(ev.Name[it.ev]), ts: it.ts, dur: dur, thread: it.thread,
				source: src, track: it.pl.track, group: it.pl.group, color: it.pl.color, tooltip: it.pl.tooltip})
		}
	}
	byName := map[string]float64{}
	for k, it := range stamps {
		sd := &stampData[k]
		if !sd.hasData {
			continue
		}
		byName[sd.name] = it.ts
		if !sd.trackTruthy && !sd.startTruthy && !sd.endTruthy {
			continue
		}
		start, hasStart := sd.start, sd.startNum
		if !sd.startNum {
			start, hasStart = byName[sd.startText]
		}
		end, hasEnd := sd.end, sd.endNum
		if !sd.endNum {
			end, hasEnd = byName[sd.endText]
		}
		if hasEnd && !hasStart {
			continue
		}
		if !hasStart {
			start = it.ts
		}
		if !hasEnd {
			end = it.ts
		}
		if sd.trackTruthy {
			group := ""
			if sd.hasGroup {
				group = sd.group
			}
			entries = append(entries, extEntry{name: sd.name, ts: start, dur: end - start, thread: it.thread,
				source: "console.timeStamp", track: sd.track, group: group, color: sd.color})
		}
	}

	var t Timings
	next := 0
	if len(markers) > 0 {
		next = 1
	}
	place := func(list []utItem, keep func(*utItem) bool) {
		var r rows
		for k := range list {
			it := &list[k]
			it.level = noRow
			if keep(it) {
				it.level = Row(next + r.place(it.ts, it.dur))
			}
		}
		next += len(r)
	}
	place(marks, func(it *utItem) bool { return it.pl.kind == payloadNone })
	place(measures, func(it *utItem) bool { return it.pl.kind == payloadNone })
	place(stamps, func(it *utItem) bool { return !it.onExtension })
	place(consoleTimings, func(*utItem) bool { return true })

	// Lists made to measure (Grow leaves a nil list nil when there is nothing to add).
	t.Marks = slices.Grow(t.Marks, len(marks))
	t.Measures = slices.Grow(t.Measures, len(measures))
	t.ConsoleTimings = slices.Grow(t.ConsoleTimings, len(consoleTimings))
	t.Timestamps = slices.Grow(t.Timestamps, len(stamps))
	for _, it := range marks {
		th := tr.Threads[it.thread]
		t.Marks = append(t.Marks, Mark{Kind: "performance.mark", Name: tr.Strings.Get(ev.Name[it.ev]), Ts: it.ts,
			Pid: th.Pid, Tid: th.Tid, Level: it.level})
	}
	for _, it := range measures {
		th := tr.Threads[it.thread]
		t.Measures = append(t.Measures, Measure{Name: tr.Strings.Get(ev.Name[it.ev]), Ts: it.ts, Dur: Num(it.dur),
			Pid: th.Pid, Tid: th.Tid, Level: it.level})
	}
	for _, it := range consoleTimings {
		th := tr.Threads[it.thread]
		t.ConsoleTimings = append(t.ConsoleTimings, Measure{Name: tr.Strings.Get(ev.Name[it.ev]), Ts: it.ts, Dur: Num(it.dur),
			Pid: th.Pid, Tid: th.Tid, Level: it.level})
	}
	for k, it := range stamps {
		sd := &stampData[k]
		th := tr.Threads[it.thread]
		ts := TimeStamp{Name: sd.listedName, Ts: it.ts, Pid: th.Pid, Tid: th.Tid, Start: sd.startRaw, End: sd.endRaw, Level: it.level}
		if sd.trackTruthy {
			ts.Track = sd.track
		}
		t.Timestamps = append(t.Timestamps, ts)
	}
	t.ExtensionMarkers = markers
	tr.Warnings.Add("User Timing details whose devtools payload is not valid (drawn as plain timings)", b.bad)
	return t, groupExtension(tr, entries)
}

// mergeTimings merges the ordered measures with the marks (in file order) as the engine's
// mergeEventsInOrder does: on a tie the measure comes first.
func mergeTimings(measures, marks []utItem) []utItem {
	// With one list empty the merge is the other: no copy of it.
	if len(marks) == 0 {
		return measures
	}
	if len(measures) == 0 {
		return marks
	}
	out := make([]utItem, 0, len(measures)+len(marks))
	i, j := 0, 0
	for i < len(measures) && j < len(marks) {
		a, m := &measures[i], &marks[j]
		md := m.dur
		if math.IsNaN(md) {
			md = 0
		}
		if startsBefore(a.ts, a.ts+a.dur, m.ts, m.ts+md) <= 0 {
			out = append(out, *a)
			i++
		} else {
			out = append(out, *m)
			j++
		}
	}
	out = append(out, measures[i:]...)
	return append(out, marks[j:]...)
}
