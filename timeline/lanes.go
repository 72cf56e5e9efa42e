package timeline

import (
	"context"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"flamedesk/core"
	"flamedesk/core/timelines"
	"flamedesk/internal/background"
)

// LaneKind is the kind of a track the Performance panel shows beside the thread flame charts.
type LaneKind uint8

// The kinds, in the panel's order from the top: the network pane, then the main chart's frames
// (the filmstrip as their second row), animations, timings, interactions, layout shifts and the
// extension groups; the thread tracks (LaneThread) come after them.
const (
	LaneNetwork LaneKind = iota
	LaneFrames
	LaneScreenshots
	LaneAnimations
	LaneTimings
	LaneInteractions
	LaneLayoutShifts
	LaneExtension
	LaneMemory
	LaneThread
	numLaneKinds
)

var laneKindNames = [numLaneKinds]string{"network", "frames", "screenshots", "animations", "timings", "interactions",
	"layoutShifts", "extension", "memory", "thread"}

// String is the kind's name as `flamedesk tracks` and `render --tracks` spell it.
func (k LaneKind) String() string {
	if k < numLaneKinds {
		return laneKindNames[k]
	}
	return "LaneKind(" + strconv.Itoa(int(k)) + ")"
}

// ParseLaneKind is the kind named s ("network", "layoutShifts", …).
func ParseLaneKind(s string) (LaneKind, bool) {
	for k, n := range laneKindNames {
		if n == s {
			return LaneKind(k), true
		}
	}
	return 0, false
}

// ItemStyle says how a lane item is drawn; what it means depends on the lane's kind.
type ItemStyle uint8

// Network items: the request's resource type, which colours it.
const (
	NetDocument ItemStyle = iota
	NetStylesheet
	NetScript
	NetImage
	NetMedia
	NetFont
	NetFetch
	NetOther
	NetWebSocket      // a WebSocket connection
	NetWebSocketEvent // one of its events, an instant
)

// Timings items.
const (
	TimingMark ItemStyle = iota
	TimingMeasure
	TimingConsoleTime
	TimingTimeStamp
	TimingExtensionMarker
	// Page-load markers: flags on the ruler whose lines cross every track.
	TimingNavigationStart
	TimingFCP
	TimingLCP
	TimingDCL
	TimingLoad
)

// Frames items, screenshots items (FrameComplete), animation items (plain or AnimationNonComposited),
// interaction items (plain or InteractionLong), layout-shift items and extension items.
const (
	FrameComplete ItemStyle = iota
	FrameIdle
	FramePartial
	FrameDropped

	AnimationPlain         ItemStyle = 0
	AnimationNonComposited ItemStyle = 1

	InteractionPlain ItemStyle = 0
	InteractionLong  ItemStyle = 1 // over 200 ms

	ShiftCluster ItemStyle = 0
	ShiftDiamond ItemStyle = 1

	ExtensionBar     ItemStyle = 0
	ExtensionInstant ItemStyle = 1
)

// LongInteraction is the duration from which the panel marks an interaction, µs.
const LongInteraction = 200_000

// Lane is one track beside the threads. Its items are few (hundreds to a few thousand), kept as
// columns; Ref indexes the timelines list the item came from (the kind's own list; for a
// WebSocket event, Sub is its index in the connection's events, else -1).
type Lane struct {
	Kind  LaneKind
	Name  string // the header's title
	Group string // an extension track's group, "" otherwise
	// ExtGroup and ExtTrack index timelines.Extension and its Tracks for an extension lane,
	// whose items' Ref index the track's Entries.
	ExtGroup, ExtTrack int

	Start, Dur []float64 // µs; Dur 0 for an instant
	Row        []int32   // -1 for an item drawn outside the rows (a page-load flag)
	Style      []ItemStyle
	Label      []string
	Ref, Sub   []int32
	// Value is a per-item number: a layout shift's score, else 0.
	Value []float64
	// Rows is how many rows the lane has.
	Rows int

	Collapsed, Hidden bool
	// Layout in content pixels, set by Relayout as for a Track.
	Y, RowsY, Height float64
	Shown            bool

	// byRow[r] lists the items on row r by start, with maxEnd the running maximum of their ends.
	byRow  [][]int32
	maxEnd [][]float64
}

// Len is the number of items.
func (l *Lane) Len() int { return len(l.Start) }

// Title is the header text, with the group of an extension track before it.
func (l *Lane) Title() string {
	if l.Group != "" {
		return l.Group + " › " + l.Name
	}
	return l.Name
}

func (l *Lane) add(start, dur float64, row int, style ItemStyle, label string, ref, sub int, value float64) {
	if math.IsNaN(dur) || math.IsInf(dur, 0) || dur < 0 {
		dur = 0
	}
	l.Start = append(l.Start, start)
	l.Dur = append(l.Dur, dur)
	l.Row = append(l.Row, int32(row))
	l.Style = append(l.Style, style)
	l.Label = append(l.Label, label)
	l.Ref = append(l.Ref, int32(ref))
	l.Sub = append(l.Sub, int32(sub))
	l.Value = append(l.Value, value)
	if row+1 > l.Rows {
		l.Rows = row + 1
	}
}

// index sorts each row's items by start for the visible-range queries.
func (l *Lane) index() {
	l.byRow = make([][]int32, l.Rows)
	for i, r := range l.Row {
		if r >= 0 && !math.IsInf(l.Start[i], 0) && !math.IsNaN(l.Start[i]) {
			l.byRow[r] = append(l.byRow[r], int32(i))
		}
	}
	l.maxEnd = make([][]float64, l.Rows)
	for r, items := range l.byRow {
		sort.SliceStable(items, func(a, b int) bool { return l.Start[items[a]] < l.Start[items[b]] })
		me := make([]float64, len(items))
		run := math.Inf(-1)
		for k, i := range items {
			run = max(run, l.Start[i]+l.Dur[i])
			me[k] = run
		}
		l.maxEnd[r] = me
	}
}

// Visible calls yield for each item on row that overlaps [t0, t1], in start order, until yield
// returns false. O(log n + visible).
func (l *Lane) Visible(row int, t0, t1 float64, yield func(item int32) bool) {
	if row < 0 || row >= len(l.byRow) {
		return
	}
	items, me := l.byRow[row], l.maxEnd[row]
	k := sort.SearchFloat64s(me, t0)
	for ; k < len(items); k++ {
		i := items[k]
		if l.Start[i] > t1 {
			return
		}
		if l.Start[i]+l.Dur[i] >= t0 && !yield(i) {
			return
		}
	}
}

// Drawn is the number of items the lane draws, its flags included.
func (l *Lane) Drawn() int { return len(l.Start) }

// LaneRef names one item of one lane.
type LaneRef struct {
	Lane int32
	Item int32
}

// NoLaneItem is the LaneRef of nothing.
var NoLaneItem = LaneRef{Lane: -1, Item: -1}

// Valid reports whether r names an item.
func (r LaneRef) Valid() bool { return r.Lane >= 0 && r.Item >= 0 }

// BuildLanes makes the lanes of tl in the panel's order, leaving out empty ones. A generic trace
// (not recorded by DevTools) has none: the panel shows only its threads. The memory lane is
// built hidden: the panel shows the counters only when asked.
func BuildLanes(tl *timelines.Timelines) []Lane {
	if tl == nil || tl.TraceIsGeneric {
		return nil
	}
	var out []Lane
	keep := func(l Lane) {
		if l.Len() > 0 {
			l.index()
			out = append(out, l)
		}
	}
	keep(networkLane(tl))
	keep(framesLane(tl))
	keep(screenshotsLane(tl))
	keep(animationsLane(tl))
	keep(timingsLane(tl))
	keep(interactionsLane(tl))
	keep(layoutShiftsLane(tl))
	for gi := range tl.Extension {
		g := &tl.Extension[gi]
		for ti := range g.Tracks {
			t := &g.Tracks[ti]
			l := Lane{Kind: LaneExtension, Name: t.Name, ExtGroup: gi, ExtTrack: ti}
			if g.IsTrackGroup {
				l.Group = g.Name
			}
			for ei := range t.Entries {
				e := &t.Entries[ei]
				st := ExtensionBar
				if e.Source == "performance.mark" || !(float64(e.Dur) > 0) {
					st = ExtensionInstant
				}
				l.add(e.Ts, float64(e.Dur), e.Level, st, e.Name, ei, -1, 0)
			}
			keep(l)
		}
	}
	if l := memoryLane(tl); l.Len() > 0 {
		l.Hidden = true
		l.index()
		out = append(out, l)
	}
	return out
}

// ResourceStyle is the colour class of a request from its resource type and, when the trace
// records none the panel knows (older traces), its MIME type, as the panel colours it; both as the
// trace writes them (JSON strings).
func ResourceStyle(resourceType, mimeType string) ItemStyle {
	switch strings.Trim(resourceType, `"`) {
	case "Document":
		return NetDocument
	case "Stylesheet":
		return NetStylesheet
	case "Script":
		return NetScript
	case "Image":
		return NetImage
	case "Media":
		return NetMedia
	case "Font":
		return NetFont
	case "XHR", "Fetch", "EventSource":
		return NetFetch
	}
	mime := strings.ToLower(strings.Trim(mimeType, `"`))
	switch {
	case strings.HasSuffix(mime, "/css"):
		return NetStylesheet
	case strings.HasSuffix(mime, "javascript") || strings.HasSuffix(mime, "ecmascript"):
		return NetScript
	case strings.HasPrefix(mime, "image/"):
		return NetImage
	case strings.HasPrefix(mime, "audio/") || strings.HasPrefix(mime, "video/"):
		return NetMedia
	case strings.HasPrefix(mime, "font/") || strings.Contains(mime, "font-"):
		return NetFont
	case mime == "text/html":
		return NetDocument
	}
	return NetOther
}

func networkLane(tl *timelines.Timelines) Lane {
	l := Lane{Kind: LaneNetwork, Name: "Network"}
	for si := range tl.WebSockets {
		s := &tl.WebSockets[si]
		l.add(float64(s.Ts), float64(s.Dur), s.Level, NetWebSocket, "WebSocket "+s.URL, si, -1, 0)
		for ei := range s.Events {
			e := &s.Events[ei]
			l.add(float64(e.Ts), 0, e.Level, NetWebSocketEvent, e.Name, si, ei, 0)
		}
	}
	for ri := range tl.Network {
		r := &tl.Network[ri]
		l.add(float64(r.Ts), float64(r.Dur), r.Level, ResourceStyle(r.ResourceType.String(), r.MimeType.String()), r.URL, ri, -1, 0)
	}
	return l
}

func framesLane(tl *timelines.Timelines) Lane {
	l := Lane{Kind: LaneFrames, Name: "Frames"}
	for i := range tl.Frames {
		f := &tl.Frames[i]
		st, label := FrameComplete, "Frame"
		switch {
		case f.Dropped:
			st, label = FrameDropped, "Dropped frame"
		case f.Partial:
			st, label = FramePartial, "Partially presented frame"
		case f.Idle:
			st, label = FrameIdle, "Idle frame"
		}
		l.add(f.Ts, float64(f.Dur), 0, st, label, i, -1, 0)
	}
	return l
}

// FilmstripRows is the height of the screenshots lane in rows: its one row of items is drawn
// that tall, so that the window can show the screenshots in it as a filmstrip.
const FilmstripRows = 3

func screenshotsLane(tl *timelines.Timelines) Lane {
	l := Lane{Kind: LaneScreenshots, Name: "Screenshots"}
	for i := range tl.Screenshots {
		s := &tl.Screenshots[i]
		l.add(s.Ts, float64(s.Dur), 0, FrameComplete, "Screenshot", i, -1, 0)
	}
	if l.Len() > 0 {
		l.Rows = FilmstripRows
	}
	return l
}

func animationsLane(tl *timelines.Timelines) Lane {
	l := Lane{Kind: LaneAnimations, Name: "Animations"}
	for i := range tl.Animations {
		a := &tl.Animations[i]
		st := AnimationPlain
		if a.NonComposited {
			st = AnimationNonComposited
		}
		l.add(a.Ts, float64(a.Dur), a.Level, st, a.Name, i, -1, 0)
	}
	return l
}

// Timings refs: Sub tells which list of timelines.Timings an item came from.
const (
	TimingsFromMarks int32 = iota
	TimingsFromMeasures
	TimingsFromConsole
	TimingsFromTimestamps
	TimingsFromExtensionMarkers
	TimingsFromPageLoad
)

func timingsLane(tl *timelines.Timelines) Lane {
	t := &tl.Timings
	l := Lane{Kind: LaneTimings, Name: "Timings"}
	add := func(ts, dur float64, row int, st ItemStyle, label string, ref int, from int32) {
		l.add(ts, dur, row, st, label, ref, int(from), 0)
	}
	for i := range t.ExtensionMarkers {
		e := &t.ExtensionMarkers[i]
		add(e.Ts, 0, e.Level, TimingExtensionMarker, e.Name, i, TimingsFromExtensionMarkers)
	}
	for i := range t.Marks {
		if e := &t.Marks[i]; e.Level >= 0 {
			add(e.Ts, 0, int(e.Level), TimingMark, e.Name, i, TimingsFromMarks)
		}
	}
	for i := range t.Measures {
		if e := &t.Measures[i]; e.Level >= 0 {
			add(e.Ts, float64(e.Dur), int(e.Level), TimingMeasure, e.Name, i, TimingsFromMeasures)
		}
	}
	for i := range t.Timestamps {
		if e := &t.Timestamps[i]; e.Level >= 0 {
			add(e.Ts, 0, int(e.Level), TimingTimeStamp, e.Name, i, TimingsFromTimestamps)
		}
	}
	for i := range t.ConsoleTimings {
		if e := &t.ConsoleTimings[i]; e.Level >= 0 {
			add(e.Ts, float64(e.Dur), int(e.Level), TimingConsoleTime, e.Name, i, TimingsFromConsole)
		}
	}
	for i := range t.PageLoad {
		p := &t.PageLoad[i]
		if !p.PanelMarker || math.IsNaN(float64(p.Ts)) {
			continue
		}
		st, label := pageLoadStyle(p.Kind)
		add(float64(p.Ts), 0, -1, st, label, i, TimingsFromPageLoad)
	}
	if l.Len() > 0 && l.Rows == 0 {
		l.Rows = 1 // only flags: the lane still shows their row
	}
	return l
}

// pageLoadStyle is the style and the panel's short label of a page-load marker.
func pageLoadStyle(kind string) (ItemStyle, string) {
	switch kind {
	case "FCP":
		return TimingFCP, "FCP"
	case "LCP", "softLCP":
		return TimingLCP, "LCP"
	case "DCL":
		return TimingDCL, "DCL"
	case "L":
		return TimingLoad, "L"
	}
	return TimingNavigationStart, "Nav"
}

func interactionsLane(tl *timelines.Timelines) Lane {
	l := Lane{Kind: LaneInteractions, Name: "Interactions"}
	for i := range tl.Interactions {
		in := &tl.Interactions[i]
		if in.Nested || in.Level < 0 {
			continue
		}
		st := InteractionPlain
		if in.Dur > LongInteraction {
			st = InteractionLong
		}
		l.add(in.Ts, in.Dur, int(in.Level), st, in.Type, i, -1, 0)
	}
	return l
}

func layoutShiftsLane(tl *timelines.Timelines) Lane {
	ls := &tl.LayoutShifts
	l := Lane{Kind: LaneLayoutShifts, Name: "Layout shifts"}
	for i := range ls.Clusters {
		c := &ls.Clusters[i]
		l.add(c.Ts, float64(c.Dur), c.Level, ShiftCluster, "Layout shift cluster", i, -1, float64(c.Score))
	}
	for i := range ls.Shifts {
		s := &ls.Shifts[i]
		score, _ := s.Score.(float64)
		l.add(s.Ts, 0, s.Level, ShiftDiamond, "Layout shift", i, -1, score)
	}
	return l
}

// memoryLane holds one point per counter change of the first process's counters, for the graph.
func memoryLane(tl *timelines.Timelines) Lane {
	l := Lane{Kind: LaneMemory, Name: "Memory"}
	pids := make([]string, 0, len(tl.Memory))
	for pid := range tl.Memory {
		pids = append(pids, pid)
	}
	sort.Strings(pids)
	// The columns are made to size at once: a large trace has tens of thousands of points.
	points := 0
	for _, counters := range tl.Memory {
		for _, series := range counters {
			points += len(series)
		}
	}
	if points > 0 {
		l.Start, l.Dur, l.Value = make([]float64, 0, points), make([]float64, 0, points), make([]float64, 0, points)
		l.Row, l.Ref, l.Sub = make([]int32, 0, points), make([]int32, 0, points), make([]int32, 0, points)
		l.Style, l.Label = make([]ItemStyle, 0, points), make([]string, 0, points)
	}
	for pi, pid := range pids {
		counters := tl.Memory[pid]
		names := make([]string, 0, len(counters))
		for n := range counters {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			for k, p := range counters[n] {
				l.add(p[0], 0, 0, 0, n, pi, k, p[1])
			}
		}
	}
	if l.Len() > 0 {
		l.Rows = 4 // the graph's height
	}
	return l
}

// SetLanes puts lanes above the thread tracks (BuildLanes makes them) and lays the model out
// again; nil removes them.
func (m *Model) SetLanes(lanes []Lane) {
	m.Lanes = lanes
	m.Relayout()
}

// SetLaneCollapsed collapses a lane to its header row, or expands it.
func (m *Model) SetLaneCollapsed(l int, collapsed bool) {
	m.Lanes[l].Collapsed = collapsed
	m.Relayout()
}

// SetLaneHidden hides a lane, or shows it again.
func (m *Model) SetLaneHidden(l int, hidden bool) {
	m.Lanes[l].Hidden = hidden
	m.Relayout()
}

// LanesHeight is the height of the lanes above the threads, content pixels.
func (m *Model) LanesHeight() float64 { return m.lanesHeight }

// layoutLanes places the lanes from the top and returns where the thread groups start.
func (m *Model) layoutLanes() float64 {
	st := m.Style
	y := 0.0
	for i := range m.Lanes {
		l := &m.Lanes[i]
		l.Y, l.RowsY, l.Height, l.Shown = 0, 0, 0, false
		if l.Hidden {
			continue
		}
		l.Shown = true
		l.Y = y
		y += st.TrackHeaderHeight
		l.RowsY = y
		if !l.Collapsed {
			y += float64(l.Rows)*st.RowHeight + st.TrackPadding
		}
		l.Height = y - l.Y
	}
	m.lanesHeight = y
	return y
}

// LaneRowTop is the content y of a lane's row.
func (m *Model) LaneRowTop(l, row int) float64 {
	return m.Lanes[l].RowsY + float64(row)*m.Style.RowHeight
}

// hitLane finds what is at content y cy (above LanesHeight) and x: a lane's header, or the item
// drawn under the point (the last drawn, which is on top).
func (m *Model) hitLane(vp *Viewport, x, cy float64) Hit {
	miss := Hit{Kind: HitNone, Group: -1, Track: -1, Entry: NoEntry, Lane: NoLaneItem}
	for li := range m.Lanes {
		l := &m.Lanes[li]
		if !l.Shown || cy < l.Y || cy >= l.Y+l.Height {
			continue
		}
		if cy < l.RowsY {
			return Hit{Kind: HitLaneHeader, Group: -1, Track: -1, Entry: NoEntry, Lane: LaneRef{Lane: int32(li), Item: -1}}
		}
		if l.Collapsed {
			return miss
		}
		row := int(math.Floor((cy - l.RowsY) / m.Style.RowHeight))
		if l.Kind == LaneScreenshots {
			row = 0 // its items fill the lane's height
		}
		found := int32(-1)
		// Instants (diamonds, marks) are drawn a few pixels wide around their time.
		slop := vp.PxToDur(4)
		l.Visible(row, vp.PxToTime(x)-slop, vp.PxToTime(x)+slop, func(i int32) bool {
			x0 := vp.TimeToPx(l.Start[i])
			x1 := vp.TimeToPx(l.Start[i] + l.Dur[i])
			if l.Dur[i] == 0 || x1-x0 < 1 {
				x0, x1 = x0-4, x1+4
			}
			if x >= x0 && x < x1 {
				found = i
			}
			return true
		})
		if found < 0 {
			return miss
		}
		return Hit{Kind: HitLaneItem, Group: -1, Track: -1, Level: row, Entry: NoEntry, Lane: LaneRef{Lane: int32(li), Item: found}}
	}
	return miss
}

// SearchLanes lists the lane items whose label (a request's URL, a mark's or measure's name…)
// holds query, ignoring case, by lane then start.
func (m *Model) SearchLanes(query string) []LaneRef {
	if query == "" {
		return nil
	}
	f := newFolder(query)
	var out []LaneRef
	for li := range m.Lanes {
		l := &m.Lanes[li]
		if l.Kind == LaneMemory {
			continue
		}
		start := len(out)
		for i, s := range l.Label {
			if f.in(s) {
				out = append(out, LaneRef{Lane: int32(li), Item: int32(i)})
			}
		}
		part := out[start:]
		sort.SliceStable(part, func(a, b int) bool { return l.Start[part[a].Item] < l.Start[part[b].Item] })
	}
	return out
}

// AddPanelLanes builds the lanes of the model's trace (core/timelines) and puts them above the
// threads. A profile, or a trace DevTools did not record, gets none. About 0.15 s on the largest
// trace: call it where New is called, off the UI goroutine.
func (m *Model) AddPanelLanes() {
	if m.Trace == nil || m.Trace.Kind != core.InputTrace {
		return
	}
	p := timelines.Build(m.Trace)
	m.setPanel(p, BuildLanes(p))
}

// UsePanelOf puts the lanes of o, a model of the same trace's events, above m's threads: the
// lanes read the events only, so a model whose tracks were rebuilt (the refined JS timing) shows
// the same network, frames and timings without building them again. The lanes' own state
// (collapsed, hidden) starts as o's; the items are shared, read-only. Call it where nothing else
// changes o.
func (m *Model) UsePanelOf(o *Model) {
	m.setPanel(o.Panel, slices.Clone(o.Lanes))
}

// setPanel puts the lanes built from p above the threads.
func (m *Model) setPanel(p *timelines.Timelines, lanes []Lane) {
	m.Panel = p
	m.SetLanes(lanes)
}

// NewWithPanelLanes is New followed by AddPanelLanes, with the panel's timelines built while the
// levels are: both only read the trace, and the largest track's levels keep one core busy after
// the other has finished the rest, so the lanes cost little wall time on top.
func NewWithPanelLanes(tr *core.Trace) *Model {
	m, _ := NewWithPanelLanesContext(context.Background(), tr, nil)
	return m
}

// NewWithPanelLanesContext is NewWithPanelLanes that counts the entries laid out in p (may be
// nil; Total is set to the trace's entries) and gives up with ctx.Err() once ctx is cancelled:
// what the window's loader calls.
func NewWithPanelLanesContext(ctx context.Context, tr *core.Trace, p *core.Progress) (*Model, error) {
	return newWithPanelLanes(ctx, tr, p, nil, 0)
}

// newWithPanelLanes is NewWithPanelLanesContext taking the tracks pl (may be nil) laid out ahead,
// and placing only the rows of a large track that a first view of viewHeight reaches when that
// is above 0 (deferred.go).
func newWithPanelLanes(ctx context.Context, tr *core.Trace, p *core.Progress, pl *Prelayout, viewHeight float64) (*Model, error) {
	if tr.Kind != core.InputTrace {
		return newModel(ctx, tr, p, pl, 0)
	}
	// The lanes too are built beside the levels: the levels take longer, and whatever is built
	// after them delays the window. The lists are built ahead by pl where it could, else here.
	built := pl.takeLists()
	if built == nil {
		built = buildPanelLanes(tr, pl.takeEarly())
	}
	m, err := newModel(ctx, tr, p, pl, viewRows(viewHeight))
	if err != nil {
		return nil, err
	}
	b := <-built
	b.early.Warn(tr)
	m.setPanel(b.panel, b.lanes)
	// The lanes push the threads down: the first view is known once they are in.
	m.placeFirstView(viewHeight)
	return m, nil
}

// panelLanes is the panel's lists of a trace and the lanes drawn from them.
type panelLanes struct {
	early *timelines.Early
	panel *timelines.Timelines
	lanes []Lane
}

// buildPanelLanes builds tr's panel lists, finishing those built ahead (early, nil when there are
// none), and their lanes on a goroutine of its own. The channel is buffered: a cancelled build
// does not wait for it. Their warnings go to the trace once the levels are built, as buildGroups
// adds the meta's beside them.
func buildPanelLanes(tr *core.Trace, early *timelines.Early) <-chan panelLanes {
	built := make(chan panelLanes, 1)
	go func() {
		background.Lower()
		e := early
		if e == nil {
			e = timelines.BuildEarly(tr)
		}
		panel := e.Finish(tr)
		built <- panelLanes{e, panel, BuildLanes(panel)}
	}()
	return built
}

// TrackInfo is one row of the track list: what `flamedesk tracks` prints.
type TrackInfo struct {
	Kind  string `json:"kind"`
	Name  string `json:"name"`
	Group string `json:"group"`
	Items int    `json:"items"`
}

// TrackList lists the shown tracks top to bottom: the lanes, then the thread tracks with their
// process's title as group. A thread's items are the entries it draws.
func (m *Model) TrackList() []TrackInfo {
	var out []TrackInfo
	for li := range m.Lanes {
		l := &m.Lanes[li]
		if l.Shown {
			out = append(out, TrackInfo{Kind: l.Kind.String(), Name: l.Name, Group: l.Group, Items: l.Drawn()})
		}
	}
	for _, ti := range m.shown {
		t := &m.Tracks[ti]
		n := 0
		for e := range int32(t.Core.Len()) {
			if t.Drawn(e) {
				n++
			}
		}
		out = append(out, TrackInfo{Kind: LaneThread.String(), Name: t.Title, Group: m.Groups[t.Group].Title(), Items: n})
	}
	return out
}

// LaneTooltip is what the panel says about a lane item, first line the title.
func (m *Model) LaneTooltip(r LaneRef) []string {
	if !r.Valid() || int(r.Lane) >= len(m.Lanes) || int(r.Item) >= m.Lanes[r.Lane].Len() {
		return nil
	}
	l := &m.Lanes[r.Lane]
	i := r.Item
	ms := func(us float64) string { return strconv.FormatFloat(us/1000, 'f', 1, 64) + " ms" }
	title := l.Label[i]
	lines := []string{title}
	if l.Dur[i] > 0 {
		lines = append(lines, ms(l.Dur[i]))
	}
	tl := m.Panel
	ref := int(l.Ref[i])
	switch {
	case tl == nil:
	case l.Kind == LaneNetwork && l.Style[i] < NetWebSocket && ref < len(tl.Network):
		lines = append(lines, networkDetails(&tl.Network[ref], ms)...)
	case l.Kind == LaneInteractions && ref < len(tl.Interactions):
		in := &tl.Interactions[ref]
		lines[0] = "Interaction: " + in.Type
		lines = append(lines, "Input delay "+ms(float64(in.InputDelay)), "Processing duration "+ms(float64(in.MainThreadHandling)),
			"Presentation delay "+ms(float64(in.PresentationDelay)))
		if l.Style[i] == InteractionLong {
			lines = append(lines, "Long interaction (over 200 ms)")
		}
		// The longest interaction the track draws is the page's INP.
		longest := true
		for k := range l.Dur {
			if l.Dur[k] > l.Dur[i] {
				longest = false
				break
			}
		}
		if longest {
			lines = append(lines, "INP: the longest interaction")
		}
	case l.Kind == LaneLayoutShifts:
		lines = append(lines, "Score "+strconv.FormatFloat(l.Value[i], 'g', 4, 64))
		if l.Style[i] == ShiftDiamond && ref < len(tl.LayoutShifts.Shifts) {
			if c := tl.LayoutShifts.Shifts[ref].Cluster; c >= 0 && c < len(tl.LayoutShifts.Clusters) {
				cl := &tl.LayoutShifts.Clusters[c]
				lines = append(lines, "Cluster "+strconv.Itoa(c+1)+": score "+strconv.FormatFloat(float64(cl.Score), 'g', 4, 64)+
					", "+strconv.Itoa(cl.Shifts)+" shifts")
			}
		} else if l.Style[i] == ShiftCluster && ref < len(tl.LayoutShifts.Clusters) {
			lines = append(lines, strconv.Itoa(tl.LayoutShifts.Clusters[ref].Shifts)+" shifts")
		}
	case l.Kind == LaneAnimations && l.Style[i] == AnimationNonComposited:
		lines = append(lines, "Non-composited animation")
	case l.Kind == LaneTimings && l.Row[i] < 0 && ref < len(tl.Timings.PageLoad):
		lines[0] = tl.Timings.PageLoad[ref].Name
		lines = append(lines, ms(float64(tl.Timings.PageLoad[ref].SinceNavigation))+" after navigation")
	case l.Kind == LaneExtension && l.ExtGroup < len(tl.Extension) && l.ExtTrack < len(tl.Extension[l.ExtGroup].Tracks):
		if es := tl.Extension[l.ExtGroup].Tracks[l.ExtTrack].Entries; ref < len(es) {
			if s, ok := es[ref].TooltipText.(string); ok && s != "" {
				lines = append(lines, s)
			}
		}
	}
	return lines
}

// rawText is a value passed through from the trace (JSON: a string, a number, a boolean) as
// text, "" when it is absent.
func rawText(r timelines.Raw) string {
	if s := r.String(); s != "" {
		return s
	}
	if s := string(r); s != "null" && (len(s) == 0 || s[0] != '"') {
		return s
	}
	return ""
}

// joinSet joins the parts that are not empty with " · ".
func joinSet(parts ...string) string {
	var kept []string
	for _, p := range parts {
		if p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, " · ")
}

// networkDetails is what the panel tells of a request beyond its URL and duration: method,
// status, MIME type and protocol; priority and resource type; the timing phases; the sizes;
// cache, render blocking and redirects.
func networkDetails(q *timelines.Request, ms func(float64) string) []string {
	phase := func(name string, v timelines.Num) string {
		if f := float64(v); f > 0 && !math.IsNaN(f) {
			return name + " " + ms(f)
		}
		return ""
	}
	label := func(name, v string) string {
		if v == "" {
			return ""
		}
		return name + " " + v
	}
	priority := rawText(q.Priority)
	if ip := rawText(q.InitialPriority); ip != "" && ip != priority {
		priority += " (initially " + ip + ")"
	}
	size := func(name string, r timelines.Raw) string {
		n, err := strconv.ParseFloat(rawText(r), 64)
		if err != nil || n < 0 {
			return ""
		}
		if n < 1024 {
			return name + " " + strconv.FormatFloat(n, 'f', 0, 64) + " B"
		}
		return name + " " + strconv.FormatFloat(n/1024, 'f', 1, 64) + " kB"
	}
	status := rawText(q.StatusCode)
	if status == "0" {
		status = "" // no response
	}
	out := []string{
		joinSet(rawText(q.RequestMethod), label("Status", status), rawText(q.MimeType), rawText(q.Protocol)),
		joinSet(label("Priority", priority), rawText(q.ResourceType)),
		joinSet(phase("Queueing", q.Queueing), phase("stalled", q.Stalled), phase("DNS lookup", q.DNSLookup),
			phase("initial connection", q.InitialConnection), phase("SSL", q.SSL), phase("proxy", q.ProxyNegotiation)),
		joinSet(phase("Request sent", q.RequestSent), phase("waiting (TTFB)", q.Waiting), phase("content download", q.Download)),
		joinSet(size("Transferred", q.EncodedDataLength), size("resource", q.DecodedBodyLength)),
	}
	var cache string
	switch {
	case q.IsMemoryCached:
		cache = "From memory cache"
	case q.IsDiskCached:
		cache = "From disk cache"
	}
	if sw := rawText(q.FromServiceWorker); sw == "true" {
		cache = joinSet(cache, "From service worker")
	}
	blocking := ""
	if q.IsRenderBlocking {
		blocking = "Render blocking"
		if rb := rawText(q.RenderBlocking); rb != "" {
			blocking += " (" + rb + ")"
		}
	}
	out = append(out, joinSet(cache, blocking))
	for k, r := range q.Redirects {
		if k == 5 {
			out = append(out, strconv.Itoa(len(q.Redirects)-k)+" more redirects")
			break
		}
		out = append(out, "Redirected from "+rawText(r.URL))
	}
	kept := out[:0]
	for _, s := range out {
		if s != "" {
			kept = append(kept, s)
		}
	}
	return kept
}
