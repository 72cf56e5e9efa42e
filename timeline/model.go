package timeline

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"flamedesk/core"
	"flamedesk/core/timelines"

	"flamedesk/internal/background"
)

// Model is the display model of one trace: processes (groups) in display order, each with its
// thread tracks in display order, every track's tree split into levels by depth, which tracks and
// groups are collapsed or hidden, and the resulting vertical layout.
//
// Model is not safe for concurrent use; the window owns it on its UI goroutine. Build it once per
// loaded trace with New; changing collapse or hide state re-lays it out in O(tracks). The one
// exception is PlaceRest, which places the rows a model built for a first view left out beside
// its readers (deferred.go).
type Model struct {
	Trace *core.Trace
	// Groups are processes in display order.
	Groups []Group
	// Tracks are all thread tracks in display order: the tracks of Groups[0] first, and so on.
	// TrackID values index this slice.
	Tracks []Track
	// Style is the vertical layout in pixels; call Relayout after changing it.
	Style LayoutStyle
	// Lanes are the tracks above the threads (network, frames, timings…), in display order;
	// SetLanes fills them.
	Lanes []Lane
	// Panel is what the lanes were built from (AddPanelLanes), nil without lanes.
	Panel *timelines.Timelines

	lanesHeight float64

	minTs, maxTs  float64
	contentHeight float64
	// deferred lists the tracks with rows left for PlaceRest; placed is closed once it placed
	// them, nil when there were none.
	deferred []TrackID
	placed   chan struct{}
	// lateIn is closed once the late tracks are in (InstallLate) or given up; nil when the model
	// has none.
	lateIn chan struct{}
	// shown lists the tracks with a visible header, in display (and so vertical) order.
	shown []TrackID
	// dispatchTitles name EventDispatch entries by the DOM event they dispatched ("Event: click").
	dispatchTitles map[EntryRef]string
	// GeneratedNames shows JS functions as the engine recorded them even where a source map gave
	// their original names (Trace.Original): the toolbar's switch. Searches made before a change
	// keep the names they matched.
	GeneratedNames bool
	// self remembers the last EntrySelf: a tooltip asks for the same entry on every frame, and a
	// self time walks the entry's subtree.
	self struct {
		track *core.Track
		entry int32
		value float64
	}
}

// EntrySelf is r's self time (its duration minus its children's), µs. Call it from one goroutine.
func (m *Model) EntrySelf(r EntryRef) float64 {
	ct := m.Tracks[r.Track].Core
	if m.self.track == ct && m.self.entry == r.Entry {
		return m.self.value
	}
	v := ct.SelfAt(int(r.Entry))
	m.self.track, m.self.entry, m.self.value = ct, r.Entry, v
	return v
}

// TrackID indexes Model.Tracks.
type TrackID int32

// EntryRef names one entry of one track: Entry indexes the columns of the track's core.Track.
type EntryRef struct {
	Track TrackID
	Entry int32
}

// NoEntry is the EntryRef of nothing, e.g. no selection.
var NoEntry = EntryRef{Track: -1, Entry: -1}

// Valid reports whether r names an entry.
func (r EntryRef) Valid() bool { return r.Track >= 0 && r.Entry >= 0 }

// LayoutStyle sizes the rows of the chart, in pixels.
type LayoutStyle struct {
	GroupHeaderHeight float64 // the process header row
	TrackHeaderHeight float64 // the thread header row above a track's levels
	RowHeight         float64 // one level (depth) of a track
	TrackPadding      float64 // empty space below the last level of an expanded track
}

// Scaled multiplies every size of s by k, for a display with k pixels per dp; scale render.Style
// by the same factor.
func (s LayoutStyle) Scaled(k float64) LayoutStyle {
	return LayoutStyle{
		GroupHeaderHeight: s.GroupHeaderHeight * k, TrackHeaderHeight: s.TrackHeaderHeight * k,
		RowHeight: s.RowHeight * k, TrackPadding: s.TrackPadding * k,
	}
}

// DefaultLayoutStyle is the layout of the window and of `flamedesk render` at scale 1: the row
// height is DevTools' 17 px.
func DefaultLayoutStyle() LayoutStyle {
	return LayoutStyle{GroupHeaderHeight: 22, TrackHeaderHeight: 18, RowHeight: 17, TrackPadding: 6}
}

// Group is one process.
type Group struct {
	Pid         int64
	ProcessName string // process_name, "" when the trace has none
	// MainFrameURL is the URL of the outermost main frame this renderer showed, when the trace
	// says so; renderers with a main frame come first.
	MainFrameURL string
	MainFrame    bool
	// Tracks of this process in display order.
	Tracks    []TrackID
	Collapsed bool // only the header row is shown
	Hidden    bool // nothing is shown

	// Y is the top of the group's header and Height everything it shows, in content pixels (0 is
	// the top of the first shown row). Both are 0 for a hidden group. Set by Relayout.
	Y, Height float64
}

// Title is the text of the group's header row, e.g. "Renderer (pid 28704) — https://example.com/".
func (g *Group) Title() string {
	name := g.ProcessName
	if name == "" {
		name = "Process"
	}
	t := fmt.Sprintf("%s (pid %d)", name, g.Pid)
	if g.MainFrameURL != "" {
		t += " — " + g.MainFrameURL
	}
	return t
}

// Track is one thread's tree, split into levels by depth.
type Track struct {
	Core   *core.Track // the columns; entry indexes refer to them
	Thread core.ThreadID
	Group  int // index into Model.Groups
	Title  string
	// IsMain marks the thread its process runs its main loop on (CrRendererMain, CrBrowserMain,
	// tid == pid, ...).
	IsMain bool
	// Levels[d] holds the entries drawn on row d.
	Levels []Level
	// Rows is the row each entry is drawn on, -1 for an entry the chart leaves out (the panel's
	// visible-entries rule: its children move up a row); nil when every entry is drawn on the row
	// of its depth. The model keeps it only while it is built: New packs it into rowsUp (rows.go),
	// so read it through Row and Drawn.
	Rows []int32
	// rowsUp is Rows packed: per entry, 0 when left out, else 1 + how many rows above its depth
	// it is drawn (rows.go); empty when Rows was nil.
	rowsUp core.Packed
	// pending is nil unless rows of the track are placed after the model is built (deferred.go).
	pending *rowsPending
	// late is set while the track's core track is still to be built (late.go); its one row is
	// then pending.
	late      *lateTrack
	Collapsed bool // only the header row is shown
	Hidden    bool // nothing is shown

	// Layout in content pixels, set by Relayout: Y is the top of the header row, RowsY the top of
	// level 0, Height the header plus the levels plus padding. Shown is false when the track or
	// its group is hidden or its group is collapsed; its Y, RowsY and Height are then 0.
	Y, RowsY, Height float64
	Shown            bool
}

// Level is the entries of one depth of a track in start order. Entries at one depth never
// overlap in a well-formed tree; the level keeps the running maximum of their ends anyway, so that
// every search over it is correct even when a producer wrote overlapping siblings.
type Level struct {
	Entries []int32 // indexes into the track's core.Track
	// maxEnd[i] is the maximum over Entries[:i+1] of Start+Dur, µs (MaxEndAt), as 32-bit offsets
	// from a whole µs, while every such maximum is one, as core.Times keeps them.
	//
	// A level whose maxima are not all such offsets (a .cpuprofile's ends, taken through
	// milliseconds, are seldom whole µs) keeps lastEnding instead: the position of the entry
	// that ends last among Entries[:i+1], noEnd while none has an end; maxEnd is then empty. It
	// takes the memory the offsets had, 4 bytes an entry, where float64 maxima took 8 more: 240
	// MB of a window showing a .cpuprofile of 30 M calls.
	maxEnd     core.Times
	lastEnding []uint32

	// stand[i] is the least merge width at which entry i stands apart from its predecessor: the
	// larger of MergeGapDivisor times the gap before it and the width it adds past its
	// predecessors (see spans.go), rounded up to a bfloat16 (standBits). blockMax and superMax
	// are its maxima over blocks of 64 and 4096 entries, so that a search for the next entry
	// that stands apart skips whole blocks.
	stand    []uint16
	blockMax []uint16
	superMax []uint16
}

// noEnd is lastEnding's mark for "no entry has ended yet": every end so far is NaN.
const noEnd = math.MaxUint32

// Len is the number of entries in the level.
func (l *Level) Len() int { return len(l.Entries) }

// MaxEndAt is the latest end of the entries up to position i, µs; ct is the level's track.
func (l *Level) MaxEndAt(ct *core.Track, i int) float64 {
	if l.lastEnding == nil {
		return l.maxEnd.At(i)
	}
	k := l.lastEnding[i]
	if k == noEnd {
		return math.Inf(-1)
	}
	return ct.EndAt(int(l.Entries[k]))
}

// setMaxEnd sets the running maximum end at position i to runMax, which the entry at position
// last ends at (noEnd: none has an end). A level that keeps offsets and cannot keep runMax as one
// turns to keeping positions; last is then not read, and may be stale.
func (l *Level) setMaxEnd(ct *core.Track, i int, runMax float64, last uint32) {
	switch {
	case l.lastEnding != nil:
		l.lastEnding[i] = last
	case l.maxEnd.Fits(runMax):
		l.maxEnd.Set(i, runMax)
	default:
		l.keepLastEnding(ct, i)
	}
}

// keepLastEnding turns the level from offsets to lastEnding, in the offsets' memory, and fills
// it for positions 0 to upto from the entries' ends.
func (l *Level) keepLastEnding(ct *core.Track, upto int) {
	last := l.maxEnd.Off[:l.Len()]
	l.maxEnd = core.Times{}
	l.lastEnding = last
	runMax, k := math.Inf(-1), uint32(noEnd)
	for i := 0; i <= upto; i++ {
		if end := ct.EndAt(int(l.Entries[i])); end > runMax {
			runMax, k = end, uint32(i)
		}
		last[i] = k
	}
}

// lastEndingAt is the position that lastEnding holds at i once the level keeps positions, noEnd
// before.
func (l *Level) lastEndingAt(i int) uint32 {
	if l.lastEnding == nil {
		return noEnd
	}
	return l.lastEnding[i]
}

// New builds the display model of tr. tr.Tracks must be filled (core/integrate does that); a
// trace without tracks gives an empty model. It is O(n) in entries, about 0.4 s for a trace of
// millions, so the window calls it on its loading goroutine.
func New(tr *core.Trace) *Model {
	m, _ := newModel(context.Background(), tr, nil, nil, 0)
	return m
}

// newModel is New that counts the entries laid out in p (may be nil), takes the tracks pl (may be
// nil) laid out ahead, and gives up with ctx.Err() between tracks once ctx is cancelled. With
// firstRows above 0 (viewRows of the chart's first view), the large tracks of a trace whose bounds
// are its own are left with their rows counted and their levels empty, or with only their first
// rows placed, for placeFirstView and PlaceRest to place the others (deferred.go).
func newModel(ctx context.Context, tr *core.Trace, p *core.Progress, pl *Prelayout, firstRows int) (*Model, error) {
	m := &Model{Trace: tr, Style: DefaultLayoutStyle()}
	// The EventDispatch titles are read from the core tracks beside their layout.
	titles := make(chan []map[int32]string, 1) // buffered: a cancelled build does not wait for it
	go func() {
		background.Lower()
		titles <- coreDispatchTitles(ctx, tr)
	}()
	deferring := firstRows > 0 && engineBounds(tr)
	if !deferring {
		firstRows = 0
	}
	m.buildGroups(ctx, p, pl, firstRows)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !deferring {
		// Tracks that pl laid out in part (Prelayout.DeferRows) are placed whole.
		m.placeFirstView(0)
	}
	byCore := <-titles
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.dispatchTitles = dispatchTitlesOfTracks(tr, m.Tracks, byCore)
	m.packRows()
	m.computeBounds()
	m.Relayout()
	return m, nil
}

func (m *Model) buildGroups(ctx context.Context, p *core.Progress, pl *Prelayout, firstRows int) {
	tr := m.Trace
	mainFrames := mainFrameURLs(tr)
	late := pl.lateThreads()
	// For a DevTools trace, the panel's view of its threads: names, order, and which it shows.
	var panel map[core.ThreadID]int
	var threads []timelines.ThreadTrack
	var meta *timelines.Meta
	var vis *timelines.Visibility
	if tr.Kind == core.InputTrace {
		// A generic trace (not recorded by DevTools) is shown by process, as the panel does too.
		if meta = timelines.BuildMeta(tr); !meta.TraceIsGeneric {
			threads = timelines.ThreadTracksWithLate(tr, meta, late)
			vis = timelines.NewVisibility(tr, false)
			panel = make(map[core.ThreadID]int, len(threads))
			for k, t := range threads {
				panel[t.Thread] = k
			}
		}
	}
	byPid := map[int64]int{}
	var filtered []bool // by track of m.Tracks: its rows are the panel's drawn entries
	for ti := range tr.Tracks {
		ct := &tr.Tracks[ti]
		isLate := ct.Len() == 0 && slices.Contains(late, ct.Thread)
		if (ct.Len() == 0 && !isLate) || int(ct.Thread) >= len(tr.Threads) {
			continue
		}
		pt, inPanel := panel[ct.Thread]
		if inPanel && !threads[pt].Drawn {
			// Nothing in it is drawn (a lone page-load marker in "pid 0"): not a track of its own.
			continue
		}
		th := &tr.Threads[ct.Thread]
		gi, ok := byPid[th.Pid]
		if !ok {
			gi = len(m.Groups)
			byPid[th.Pid] = gi
			g := Group{Pid: th.Pid, ProcessName: tr.Strings.Get(th.ProcessName)}
			if url, ok := mainFrames[th.Pid]; ok {
				g.MainFrame, g.MainFrameURL = true, url
			}
			if meta != nil {
				// The URL the panel names the renderer after: the first it showed, about:blank
				// giving way to the page it navigated to.
				if url, ok := meta.ProcessURL[th.Pid]; ok && g.MainFrame {
					g.MainFrameURL = url
				}
			}
			m.Groups = append(m.Groups, g)
		}
		t := Track{
			Core:   ct,
			Thread: ct.Thread,
			Group:  gi,
			Title:  threadTitle(tr, ct.Thread),
			IsMain: isMainThread(tr, th),
		}
		if inPanel {
			t.Title, t.Hidden = threads[pt].Name, !threads[pt].Shown
		}
		if isLate {
			t.late = &lateTrack{filtered: inPanel}
		}
		m.Tracks = append(m.Tracks, t)
		filtered = append(filtered, inPanel)
	}
	layOutTracks(ctx, p, tr, m.Tracks, filtered, vis, pl, firstRows)
	// When the trace names no main frame, a renderer with a CrRendererMain track is the best
	// evidence of one.
	if len(mainFrames) == 0 {
		for i := range m.Tracks {
			t := &m.Tracks[i]
			g := &m.Groups[t.Group]
			if tr.Strings.Get(tr.Threads[t.Thread].Name) == "CrRendererMain" {
				g.MainFrame = true
			}
		}
	}

	groupOrder := make([]int, len(m.Groups))
	for i := range groupOrder {
		groupOrder[i] = i
	}
	trackOrder := make([]int, len(m.Tracks))
	for i := range trackOrder {
		trackOrder[i] = i
	}
	if panel != nil {
		// The panel's order: its tracks by rank and business, shown ones first; a process goes
		// where its first track goes, and a process with every track hidden is hidden too.
		rank := func(t *Track) int {
			r := panel[t.Thread]
			if t.Hidden {
				r += len(threads)
			}
			return r
		}
		first := make([]int, len(m.Groups))
		allHidden := make([]bool, len(m.Groups))
		for g := range first {
			first[g], allHidden[g] = 2*len(threads)+1, true
		}
		for i := range m.Tracks {
			t := &m.Tracks[i]
			first[t.Group] = min(first[t.Group], rank(t))
			allHidden[t.Group] = allHidden[t.Group] && t.Hidden
		}
		for g := range m.Groups {
			m.Groups[g].Hidden = allHidden[g]
		}
		slices.SortStableFunc(groupOrder, func(a, b int) int { return cmp.Compare(first[a], first[b]) })
		slices.SortStableFunc(trackOrder, func(a, b int) int { return cmp.Compare(rank(&m.Tracks[a]), rank(&m.Tracks[b])) })
	} else {
		slices.SortStableFunc(groupOrder, func(a, b int) int {
			return compareGroups(tr, &m.Groups[a], &m.Groups[b])
		})
		slices.SortStableFunc(trackOrder, func(a, b int) int {
			return compareThreads(tr, &m.Tracks[a], &m.Tracks[b])
		})
	}

	groups := make([]Group, 0, len(m.Groups))
	newGroup := make([]int, len(m.Groups))
	for ni, oi := range groupOrder {
		newGroup[oi] = ni
		groups = append(groups, m.Groups[oi])
	}
	tracks := make([]Track, 0, len(m.Tracks))
	for _, g := range groupOrder {
		for _, ti := range trackOrder {
			if m.Tracks[ti].Group != g {
				continue
			}
			t := m.Tracks[ti]
			t.Group = newGroup[g]
			groups[t.Group].Tracks = append(groups[t.Group].Tracks, TrackID(len(tracks)))
			tracks = append(tracks, t)
		}
	}
	m.Groups, m.Tracks = groups, tracks
	m.markLate()
}

// layOutTracks builds every track's rows and levels, the bulk of New on a large trace, but for
// those pl laid out ahead. Tracks are independent, so they are built on every core at once, the
// largest first. With firstRows above 0, a large track's levels are deferred (layOut).
func layOutTracks(ctx context.Context, p *core.Progress, tr *core.Trace, tracks []Track, filtered []bool, vis *timelines.Visibility, pl *Prelayout, firstRows int) {
	order := make([]int, len(tracks))
	total := 0
	for i := range order {
		order[i] = i
		total += tracks[i].Core.Len()
	}
	if p != nil {
		p.Total.Store(int64(total))
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(tracks[b].Core.Len(), tracks[a].Core.Len()) })
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(background.Workers(), len(tracks)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			background.Lower()
			for {
				k := int(next.Add(1) - 1)
				if k >= len(order) || ctx.Err() != nil {
					return
				}
				t := &tracks[order[k]]
				laid, ok := pl.take(t.Core, filtered[order[k]])
				if !ok {
					laid = layOut(tr, t.Core, filtered[order[k]], vis, true, firstRows)
				}
				t.Rows, t.Levels, t.pending = laid.rows, laid.levels, laid.pending
				// Packed here rather than after every track is laid out: the smaller tracks'
				// while the largest is still being laid out.
				t.packRows()
				if p != nil {
					p.Done.Add(int64(t.Core.Len()))
				}
			}
		}()
	}
	wg.Wait()
}

// compareGroups orders processes: renderers showing a main frame first (in pid order), then the
// rest by process_sort_index, name and pid.
func compareGroups(tr *core.Trace, a, b *Group) int {
	if a.MainFrame != b.MainFrame {
		if a.MainFrame {
			return -1
		}
		return 1
	}
	if !a.MainFrame {
		if c := cmp.Compare(processSortIndex(tr, a.Pid), processSortIndex(tr, b.Pid)); c != 0 {
			return c
		}
		if c := strings.Compare(a.ProcessName, b.ProcessName); c != 0 {
			return c
		}
	}
	return cmp.Compare(a.Pid, b.Pid)
}

func processSortIndex(tr *core.Trace, pid int64) int32 {
	for i := range tr.Threads {
		if tr.Threads[i].Pid == pid {
			return tr.Threads[i].ProcessSortIndex
		}
	}
	return 0
}

// compareThreads orders the threads of one process: the main thread first, then by
// thread_sort_index (0 when absent), then by name and tid.
func compareThreads(tr *core.Trace, a, b *Track) int {
	if a.IsMain != b.IsMain {
		if a.IsMain {
			return -1
		}
		return 1
	}
	ta, tb := &tr.Threads[a.Thread], &tr.Threads[b.Thread]
	if c := cmp.Compare(ta.SortIndex, tb.SortIndex); c != 0 {
		return c
	}
	if c := strings.Compare(tr.Strings.Get(ta.Name), tr.Strings.Get(tb.Name)); c != 0 {
		return c
	}
	return cmp.Compare(ta.Tid, tb.Tid)
}

func isMainThread(tr *core.Trace, th *core.Thread) bool {
	switch tr.Strings.Get(th.Name) {
	case "CrRendererMain", "CrBrowserMain", "CrGpuMain", "CrUtilityMain", "main", "Main":
		return true
	}
	return th.Tid == th.Pid
}

func threadTitle(tr *core.Trace, t core.ThreadID) string {
	th := &tr.Threads[t]
	name := tr.Strings.Get(th.Name)
	switch {
	case tr.Kind == core.InputCPUProfile || tr.Kind == core.InputSelfProfile:
		if name == "" {
			return "Main"
		}
		return name
	case name == "":
		return fmt.Sprintf("Thread %d", th.Tid)
	}
	return fmt.Sprintf("%s (tid %d)", name, th.Tid)
}

// laidOut is a track's rows and levels as layOut makes them.
type laidOut struct {
	rows    []int32 // nil: every entry on the row of its depth
	levels  []Level
	pending *rowsPending
}

// layOut builds a track's rows (the panel's drawn entries when filtered) and its levels, taking a
// second goroutine for a large track when parallel is set. With firstRows above 0, a large
// track's levels are deferred: when it is filtered (drawn rows), only the entries of its first
// rows are found, its rows not even computed (deferLazily); else its levels are only made, empty
// (deferRows). placeFirstView and PlaceRest place them.
func layOut(tr *core.Trace, ct *core.Track, filtered bool, vis *timelines.Visibility, parallel bool, firstRows int) laidOut {
	var l laidOut
	if firstRows > 0 && filtered && l.deferLazily(tr, ct, vis, firstRows) {
		return l
	}
	if filtered {
		l.rows = drawnRowsOn(tr, ct, vis, parallel)
	}
	if firstRows == 0 || !l.deferRows(ct) {
		l.levels = buildLevelsOn(ct, l.rows, parallel)
	}
	return l
}

// buildLevels splits a track's pre-order columns into levels. Pre-order visits each depth in start
// order already; a level that is not (a producer bug) is sorted, so searches stay correct.
func buildLevels(ct *core.Track) []Level { return buildLevelsOnRows(ct, nil) }

// buildLevelsOnRows is buildLevels with each entry on rows[e] instead of its depth; an entry whose
// row is negative is left out. rows nil means the depths.
//
// It is a counting sort by row that computes each level's running maximum end and stand values as
// its entries arrive (they arrive in start order), so one pass writes everything in place. A deep
// track (thousands of rows) would scatter its writes over as many places at once, each a cache and
// TLB miss; the entries of its rows from 256 on are first bucketed by row/256 (a stable radix
// pass over 4-byte indexes), so that the writing pass never has more than 256 rows open.
func buildLevelsOnRows(ct *core.Track, rows []int32) []Level {
	return buildLevelsOn(ct, rows, true)
}

// buildLevelsOn is buildLevelsOnRows that takes a second goroutine for a large track only when
// parallel is set: the Prelayout does not while core/integrate still holds the other core.
func buildLevelsOn(ct *core.Track, rows []int32, parallel bool) []Level {
	if rows != nil {
		return placeLevels(ct, rows, parallel)
	}
	return placeLevels(ct, ct.Depth, parallel)
}

// rowColumn is a column of rows: core.Track's depths, or drawnRows' (negative: left out).
type rowColumn interface{ ~uint16 | ~int32 }

const rowBucketShift = 8

// spanRun is how many entries' times placeLevels reads at once.
const spanRun = 256

// placeCheck is how many entries placeLevelRange walks between looks at its context.
const placeCheck = 1 << 16

func placeLevels[R rowColumn](ct *core.Track, rows []R, parallel bool) []Level {
	next := rowStarts(rows)
	if next == nil {
		return nil
	}
	levels := make([]Level, len(next)-1)
	placeLevelRange(context.Background(), ct, rows, next, levels, 0, len(levels), parallel)
	return levels
}

// rowStarts counts each row's entries: next[r] is where row r's entries begin among the kept ones
// (those on a row, not left out), and its last element how many are kept. It is nil when none is.
// The count grows as deeper rows turn up, which is rare after the first few thousand entries.
func rowStarts[R rowColumn](rows []R) []int {
	next := make([]int, 64)
	for _, r := range rows {
		if r >= 0 {
			if int(r)+1 >= len(next) {
				grown := make([]int, max(int(r)+2, 2*len(next)))
				copy(grown, next)
				next = grown
			}
			next[int(r)+1]++
		}
	}
	maxRow := len(next) - 2
	for maxRow >= 0 && next[maxRow+1] == 0 {
		maxRow--
	}
	if maxRow < 0 {
		return nil
	}
	next = next[:maxRow+2]
	for d := 1; d < len(next); d++ {
		next[d] += next[d-1]
	}
	return next
}

// placeLevelRange builds levels[lo:hi], the levels of rows lo to hi, in arrays of their own; next
// is rowStarts(rows). The other levels are left as they are, so that a track's rows can be placed
// in parts (the first view's, then the rest: deferred.go). Once ctx is cancelled it stops within
// placeCheck entries, leaving the levels part built: the caller then drops them.
func placeLevelRange[R rowColumn](ctx context.Context, ct *core.Track, rows []R, next []int, levels []Level, lo, hi int, parallel bool) {
	if lo >= hi {
		return
	}
	maxRow := len(next) - 2
	// at[d] is where row d's entries begin in this range's arrays; rows outside it are never
	// placed, and their bounds are clamped to the arrays.
	base, kept := next[lo], next[hi]-next[lo]
	at := make([]int, len(next))
	for d := range at {
		at[d] = min(max(next[d]-base, 0), kept)
	}
	p := newRangePlacer(ct, levels, at, lo, hi)
	// Each goroutine finishes the rows it placed.
	finishRows := p.finish
	// placeRows places the entries of rows lo to hi, in entry order. The rows of the first bucket (below 1<<rowBucketShift) are placed straight from rows; only
	// the entries of deeper rows are bucketed first. Those are few in a real track (3 % of a large
	// trace's main thread; 43 of another thread's 2.5 M entries), and bucketing every entry wrote
	// and page-faulted an index of 4 bytes an entry for nothing.
	//
	// The entries' times are read a run at a time (core.Track.SpansWhole), and placed by
	// placeWhole while they are whole µs, as nearly every trace's are.
	placeRows := func(lo, hi int) {
		top := min(hi, 1<<rowBucketShift)
		if lo >= top {
			return
		}
		sp := newSpanPlacer(&p)
		for run := 0; run < len(rows); run += spanRun {
			if run%placeCheck == 0 && ctx.Err() != nil {
				return
			}
			for j, r := range rows[run:min(run+spanRun, len(rows))] {
				if int(r) >= lo && int(r) < top {
					sp.add(run+j, int(r))
				}
			}
			sp.flush()
		}
	}
	if hi-1 >= 1<<rowBucketShift {
		// Bucket the deeper rows' entries by row>>rowBucketShift, in entry order within a bucket;
		// the first bucket stays empty.
		// Where each bucket begins, among the deeper rows' entries, follows from where its first
		// row begins among all the entries.
		bucketNext := make([]int, (maxRow>>rowBucketShift)+2)
		for b := 1; b < len(bucketNext); b++ {
			bucketNext[b] = next[min(b<<rowBucketShift, maxRow+1)] - next[1<<rowBucketShift]
		}
		deep := bucketNext[len(bucketNext)-1]
		byBucket := make([]int32, deep)
		for i, r := range rows {
			if int(r) >= 1<<rowBucketShift {
				b := int(r) >> rowBucketShift
				byBucket[bucketNext[b]] = int32(i)
				bucketNext[b]++
			}
		}
		// bucketNext[b] is now where bucket b ends, and so where b+1 begins.
		placeFirst := placeRows
		placeRows = func(lo, hi int) {
			placeFirst(lo, hi)
			sp := newSpanPlacer(&p)
			for b := max(lo>>rowBucketShift, 1); b <= (hi-1)>>rowBucketShift; b++ {
				if ctx.Err() != nil {
					return
				}
				for _, i := range byBucket[bucketNext[b-1]:bucketNext[b]] {
					if r := int(rows[i]); r >= lo && r < hi {
						if sp.add(int(i), r) {
							sp.flush()
						}
					}
				}
			}
			sp.flush()
		}
	}
	placeAndFinish := func(lo, hi int) {
		placeRows(lo, hi)
		if ctx.Err() == nil {
			finishRows(lo, hi)
		}
	}
	// The rows before the one at which half the entries are placed go on this goroutine, the rest
	// on another; in a deep track the bucket that holds that row is read by both. (Cut between
	// whole buckets, the halves were far apart: a deep track has most of its entries in its
	// first 256 rows.)
	minSplit := 0
	if parallel {
		minSplit = parallelPlaceEntries
	}
	if split := splitRow(next, lo, hi, minSplit); split > 0 {
		done := make(chan struct{})
		go func() {
			background.Lower()
			placeAndFinish(split, hi)
			close(done)
		}()
		placeAndFinish(lo, split)
		<-done
	} else {
		placeAndFinish(lo, hi)
	}
}

// parallelPlaceEntries is the size from which placeLevels places a track's entries on two
// goroutines: the main thread of a large trace (4.6 M entries, 0.3 s of placing) is otherwise the
// one track left to lay out after core/integrate, while a core waits (Prelayout). A variable so
// that a test can check the split on small tracks.
var parallelPlaceEntries = 1 << 20

// splitRow is the first row of the second half of rows lo to hi when they are worth placing on
// two goroutines, holding minEntries entries or more: the row at which about half of their
// entries come before (next holds where each row's entries begin); 0 when they are not, or
// minEntries is 0.
func splitRow(next []int, lo, hi, minEntries int) int {
	kept := next[hi] - next[lo]
	if minEntries <= 0 || kept < minEntries || background.Workers() < 2 {
		return 0
	}
	for d := lo + 1; d < hi; d++ {
		if next[d]-next[lo] >= kept/2 {
			return d
		}
	}
	return 0
}

// placer writes entries into their levels in entry order, each row's on one goroutine (rows share
// nothing but disjoint ranges of entries, running maxima and stands), keeping each level's
// running maximum end and last start as it goes.
type placer struct {
	ct      *core.Track
	levels  []Level
	rows    []rowPlacing
	entries []int32
	maxEnds []uint32 // every level's maxEnd.Off, while it keeps offsets
	stands  []uint16
}

// rowPlacing is how far the placing of one row has got, kept together: consecutive entries are
// mostly on different rows, and placing one reads and writes all of its row's state.
type rowPlacing struct {
	next, first        int     // the next free and the first position of the row's entries
	prevEnd, prevStart float64 // the running maximum end and the last start so far
	// base is the level's maxEnd.Base while it keeps offsets, NaN before its first entry and
	// once it keeps lastEnding: placeWhole writes the offsets from it itself.
	base     float64
	unsorted bool
}

// newRangePlacer makes the levels lo to hi arrays of their own, for entries to be placed in
// them; at[d] is where row d's entries begin in those arrays, and at[hi] how many they hold.
func newRangePlacer(ct *core.Track, levels []Level, at []int, lo, hi int) placer {
	kept := at[hi] - at[lo]
	entries := make([]int32, kept)
	maxEnds := make([]uint32, kept)
	stands := make([]uint16, kept)
	adviseHugePages(entries)
	adviseHugePages(maxEnds)
	adviseHugePages(stands)
	for d := lo; d < hi; d++ {
		levels[d] = Level{Entries: entries[at[d]:at[d+1]:at[d+1]], maxEnd: core.Times{Off: maxEnds[at[d]:at[d+1]:at[d+1]]},
			stand: stands[at[d]:at[d+1]:at[d+1]]}
	}
	return newPlacer(ct, levels, at, entries, maxEnds, stands)
}

// finish sorts the levels lo to hi that were placed out of order and builds their block maxima.
func (p *placer) finish(lo, hi int) {
	for d := lo; d < hi; d++ {
		lv := &p.levels[d]
		if p.rows[d].unsorted {
			lv.sortByStart(p.ct)
		}
		lv.buildBlockMax()
	}
}

func newPlacer(ct *core.Track, levels []Level, next []int, entries []int32, maxEnds []uint32, stands []uint16) placer {
	rows := make([]rowPlacing, len(levels))
	for d := range rows {
		rows[d] = rowPlacing{next: next[d], first: next[d], base: math.NaN()}
	}
	return placer{ct: ct, levels: levels, rows: rows, entries: entries, maxEnds: maxEnds, stands: stands}
}

// place places entry i on row d.
func (p *placer) place(i, d int) {
	p.placeSpan(i, d, p.ct.StartAt(i), p.ct.EndAt(i))
}

// placeSpan places entry i, which spans start to end, on row d.
func (p *placer) placeSpan(i, d int, start, end float64) {
	r := &p.rows[d]
	k := r.next
	r.next++
	p.entries[k] = int32(i)
	lv := &p.levels[d]
	pos := k - r.first
	// Nothing to merge with before the first entry; a NaN end is skipped by the running maximum,
	// not spread.
	prevEnd, last := math.Inf(-1), uint32(noEnd)
	if pos == 0 {
		// Offsets count from the whole µs at or before the first start: the running maximum
		// never goes below it in a level in start order.
		lv.maxEnd.Base = core.NewTimes(start, 0).Base
	} else {
		if cmp.Less(start, r.prevStart) {
			r.unsorted = true
		}
		prevEnd, last = r.prevEnd, lv.lastEndingAt(pos-1)
	}
	runMax := prevEnd
	if end > runMax {
		runMax, last = end, uint32(pos)
	}
	lv.setMaxEnd(p.ct, pos, runMax, last)
	if pos == 0 {
		p.stands[k] = infStand
	} else {
		p.stands[k] = standValue(start, prevEnd, runMax)
	}
	r.prevEnd, r.prevStart = runMax, start
	if lv.lastEnding != nil {
		r.base = math.NaN() // placeWhole writes offsets only
	} else {
		r.base = lv.maxEnd.Base
	}
}

// spanPlacer places entries a run at a time, in the order they are added: it reads the run's
// times at once (core.Track.SpansWhole) and has placeWhole place them while they are whole µs, as
// nearly every trace's are. Once a run is not, the rows it places are placed by placeSpan from
// then on: placeWhole's shortcuts hold only for a row that placed whole µs alone. Each goroutine
// has its own, for the rows it places.
type spanPlacer struct {
	p            *placer
	whole        bool
	n            int
	entries      [spanRun]int32
	rows         [spanRun]int32
	starts, ends [spanRun]float64
}

func newSpanPlacer(p *placer) *spanPlacer { return &spanPlacer{p: p, whole: true} }

// add queues entry i for row d; it reports whether the run is full, and must be flushed.
func (sp *spanPlacer) add(i, d int) bool {
	sp.entries[sp.n], sp.rows[sp.n] = int32(i), int32(d)
	sp.n++
	return sp.n == spanRun
}

// flush places the queued entries.
func (sp *spanPlacer) flush() {
	background.Yield()
	n := sp.n
	sp.n = 0
	entries, rows := sp.entries[:n], sp.rows[:n]
	sp.whole = sp.whole && sp.p.ct.SpansWhole(entries, sp.starts[:n], sp.ends[:n])
	if !sp.whole {
		for k, i := range entries {
			sp.p.place(int(i), int(rows[k]))
		}
		return
	}
	sp.p.placeWhole(entries, rows, sp.starts[:n], sp.ends[:n])
}

// placeWhole is placeSpan for each of a run of entries on their rows, with times that
// core.Track.SpansWhole gave, whole µs, on rows that placed only such times before: the running
// maximum is then a whole µs too, so its offset from the level's base needs no exactness check,
// and a stand value from 0 to below 2^24 is its own float32, rounded up to a bfloat16 by its bits
// as standBits does. It leaves the first entry of a row, an entry out of start order, an offset
// past 31 bits and any other stand value to placeSpan, which gives the same for them. One loop
// over the run with the columns in locals: a call per entry, and reloading the columns from p
// after each write, cost a fifth of the placing.
func (p *placer) placeWhole(entries, rows []int32, starts, ends []float64) {
	states, placed, maxEnds, stands := p.rows, p.entries, p.maxEnds, p.stands
	rows, starts, ends = rows[:len(entries)], starts[:len(entries)], ends[:len(entries)]
	for n, i := range entries {
		d, start, end := int(rows[n]), starts[n], ends[n]
		r := &states[d]
		k := r.next
		prevEnd := r.prevEnd
		runMax := max(prevEnd, end)
		off := runMax - r.base // NaN before the first entry and once the level keeps lastEnding
		stand := max((start-prevEnd)*MergeGapDivisor, runMax-max(start, prevEnd))
		if !(off >= 0 && off < 1<<31) || !(stand >= 0 && stand < 1<<24) || start < r.prevStart {
			p.placeSpan(int(i), d, start, end)
			continue
		}
		r.next = k + 1
		placed[k] = i
		maxEnds[k] = uint32(off)
		stands[k] = uint16((math.Float32bits(float32(stand)) + 1<<16 - 1) >> 16)
		r.prevEnd, r.prevStart = runMax, start
	}
}

// standValue is stand for an entry starting at start whose predecessors end by prevEnd, with
// runMax the running maximum end including it: the larger of MergeGapDivisor times the gap before
// it and the width it adds past its predecessors (see spans.go), rounded up (standBits).
func standValue(start, prevEnd, runMax float64) uint16 {
	gap := start - prevEnd
	added := runMax - max(start, prevEnd)
	return standBits(max(gap*MergeGapDivisor, added))
}

// A stand value is kept as a bfloat16, the top half of a float32's bits: 2 bytes an entry where a
// float32 took 4 (15 MB of the window on gen-trace-large). It is rounded up, never down, so that a
// search that skips the entries whose stand value is below a width skips none that stands apart;
// an entry that only looks like it stands apart is told by the exact test (SpanIter.joined). The
// values are never negative, and for those the bits are in the order of the values, so searches
// compare them as integers (standThreshold).

// infStand is +Inf's bits: every entry that starts a level, and any whose stand value is NaN, so
// that searches stop there and the exact test decides.
const infStand = 0x7F80

// standBits is the least bfloat16 not below x, as its bits: 0 for x at or below 0.
func standBits(x float64) uint16 {
	switch {
	case math.IsNaN(x):
		return infStand
	case !(x > 0):
		return 0
	}
	// Adding all ones below the kept half carries into it unless those bits are all zero.
	return uint16((math.Float32bits(roundUp32(x)) + 1<<16 - 1) >> 16)
}

// standThreshold is the least stand bits whose value is at least w: an entry stands apart at
// width w when its stand bits are at least this.
func standThreshold(w float64) uint16 {
	if math.IsNaN(w) {
		return math.MaxUint16 // above every stand value, as no value is at least NaN
	}
	return standBits(w)
}

// standFloat is the value of stand bits.
func standFloat(b uint16) float64 { return float64(math.Float32frombits(uint32(b) << 16)) }

// sortByStart puts a level that came out of pre-order unsorted (a producer bug) in start order,
// stable, and recomputes its running maxima and stand values.
func (lv *Level) sortByStart(ct *core.Track) {
	m := lv.Len()
	starts := make([]float64, m)
	for k, e := range lv.Entries {
		starts[k] = ct.StartAt(int(e))
	}
	order := make([]int, m)
	for k := range order {
		order[k] = k
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(starts[a], starts[b]) })
	es := slices.Clone(lv.Entries)
	for k, o := range order {
		lv.Entries[k] = es[o]
	}
	runMax, last := math.Inf(-1), uint32(noEnd)
	for k, e := range lv.Entries {
		start, end := ct.StartAt(int(e)), ct.EndAt(int(e))
		prevEnd := runMax
		if end > runMax {
			runMax, last = end, uint32(k)
		}
		lv.setMaxEnd(ct, k, runMax, last)
		if k == 0 {
			lv.stand[k] = infStand
		} else {
			lv.stand[k] = standValue(start, prevEnd, runMax)
		}
	}
}

const (
	blockShift = 6  // 64 entries per block
	superShift = 12 // 4096 entries per super-block
)

// buildBlockMax fills the block maxima of stand. Each block's maximum is taken over its values in
// registers (maxOf), and a super-block's over its blocks' maxima: updating both maxima in memory
// for every value made each update wait for the one before (7.4 M values on gen-trace-large). The
// maximum of a set does not depend on the grouping, -0 below +0 included.
func (lv *Level) buildBlockMax() {
	n := lv.Len()
	lv.blockMax = make([]uint16, (n+(1<<blockShift)-1)>>blockShift)
	lv.superMax = make([]uint16, (n+(1<<superShift)-1)>>superShift)
	for b := range lv.blockMax {
		lv.blockMax[b] = maxOf(lv.stand[b<<blockShift : min((b+1)<<blockShift, n)])
	}
	const blocksPerSuper = 1 << (superShift - blockShift)
	for s := range lv.superMax {
		lv.superMax[s] = maxOf(lv.blockMax[s*blocksPerSuper : min((s+1)*blocksPerSuper, len(lv.blockMax))])
	}
}

// maxOf is the largest of vs, 0 for none; four running maxima at once, so that each comparison
// need not wait for the one before.
func maxOf(vs []uint16) uint16 {
	var m0, m1, m2, m3 uint16
	for len(vs) >= 4 {
		m0, m1, m2, m3 = max(m0, vs[0]), max(m1, vs[1]), max(m2, vs[2]), max(m3, vs[3])
		vs = vs[4:]
	}
	for _, v := range vs {
		m0 = max(m0, v)
	}
	return max(m0, m1, m2, m3)
}

// roundUp32 is the least float32 not below x (+Inf for NaN, so that searches stop there and the
// exact test decides).
func roundUp32(x float64) float32 {
	if math.IsNaN(x) {
		return float32(math.Inf(1))
	}
	f := float32(x)
	if float64(f) < x {
		f = math.Nextafter32(f, float32(math.Inf(1)))
	}
	return f
}

// engineBounds reports whether the model spans what DevTools says tr spans (core.EngineBounds,
// which the loader put in MinTs and MaxTs): times count from the same origin as the panel's, and
// an event the engine leaves out (a "::UMA" instant written long before the recording) does not
// stretch the first view. Other inputs span their entries, read from the levels.
func engineBounds(tr *core.Trace) bool {
	return tr.Kind == core.InputTrace && tr.MinTs < tr.MaxTs && !math.IsInf(tr.MinTs, 0) && !math.IsInf(tr.MaxTs, 0)
}

func (m *Model) computeBounds() {
	if tr := m.Trace; engineBounds(tr) {
		m.minTs, m.maxTs = tr.MinTs, tr.MaxTs
		return
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range m.Tracks {
		t := &m.Tracks[i]
		for _, lv := range t.Levels {
			if lv.Len() == 0 {
				continue
			}
			lo = min(lo, t.Core.StartAt(int(lv.Entries[0])))
			hi = max(hi, lv.MaxEndAt(t.Core, lv.Len()-1))
		}
	}
	if lo > hi {
		// No entries: fall back to the loader's bounds, then to an empty window at 0.
		lo, hi = m.Trace.MinTs, m.Trace.MaxTs
		if !(lo <= hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
			lo, hi = 0, 0
		}
	}
	m.minTs, m.maxTs = lo, hi
}

// Bounds is the time range the view opens on and counts from, µs: for a trace, DevTools' bounds
// (core.EngineBounds); for a profile, or a trace without events the engine counts, the earliest
// start and the latest end of any entry. Metadata events (often at ts 0) do not stretch it.
func (m *Model) Bounds() (minTs, maxTs float64) { return m.minTs, m.maxTs }

// Relayout recomputes every group's and track's vertical position after a change of collapse or
// hide state or of Style. The setters below call it.
func (m *Model) Relayout() {
	st := m.Style
	y := m.layoutLanes()
	m.shown = m.shown[:0]
	for gi := range m.Groups {
		g := &m.Groups[gi]
		for _, ti := range g.Tracks {
			t := &m.Tracks[ti]
			t.Y, t.RowsY, t.Height, t.Shown = 0, 0, 0, false
		}
		if g.Hidden {
			g.Y, g.Height = 0, 0
			continue
		}
		g.Y = y
		y += st.GroupHeaderHeight
		if !g.Collapsed {
			for _, ti := range g.Tracks {
				t := &m.Tracks[ti]
				if t.Hidden {
					continue
				}
				t.Shown = true
				t.Y = y
				y += st.TrackHeaderHeight
				t.RowsY = y
				if !t.Collapsed {
					y += float64(t.rowCount())*st.RowHeight + st.TrackPadding
				}
				t.Height = y - t.Y
				m.shown = append(m.shown, ti)
			}
		}
		g.Height = y - g.Y
	}
	m.contentHeight = y
}

// ContentHeight is the height of everything shown, in pixels; the ruler is not part of it.
func (m *Model) ContentHeight() float64 { return m.contentHeight }

// ShownTracks lists the tracks whose header is shown, top to bottom. The slice is owned by the
// model and valid until the next Relayout.
func (m *Model) ShownTracks() []TrackID { return m.shown }

// SetTrackCollapsed collapses a track to its header row, or expands it.
func (m *Model) SetTrackCollapsed(t TrackID, collapsed bool) {
	m.Tracks[t].Collapsed = collapsed
	m.Relayout()
}

// SetTrackHidden hides a track entirely, or shows it again.
func (m *Model) SetTrackHidden(t TrackID, hidden bool) {
	m.Tracks[t].Hidden = hidden
	m.Relayout()
}

// SetGroupCollapsed collapses a process to its header row, or expands it.
func (m *Model) SetGroupCollapsed(g int, collapsed bool) {
	m.Groups[g].Collapsed = collapsed
	m.Relayout()
}

// SetGroupHidden hides a process with all its tracks, or shows it again.
func (m *Model) SetGroupHidden(g int, hidden bool) {
	m.Groups[g].Hidden = hidden
	m.Relayout()
}

// RowTop is the top of a level's row in content pixels.
func (m *Model) RowTop(t TrackID, level int) float64 {
	return m.Tracks[t].RowsY + float64(level)*m.Style.RowHeight
}

// EntryStart and EntryEnd are an entry's bounds in µs (a missing duration reads as 0).
func (m *Model) EntryStart(r EntryRef) float64 { return m.Tracks[r.Track].Core.StartAt(int(r.Entry)) }

// EntryEnd is the end of an entry in µs.
func (m *Model) EntryEnd(r EntryRef) float64 { return m.Tracks[r.Track].Core.EndAt(int(r.Entry)) }

// EntryName is the label of an entry: a ProfileCall's function name ("(anonymous)" when it has
// none), or a trace event's title as DevTools shows it (EventTitle).
func (m *Model) EntryName(r EntryRef) string {
	name := m.NameString(m.EntryNameID(r))
	if m.Tracks[r.Track].Core.KindAt(int(r.Entry)) != core.EntryProfileCall {
		if t, ok := m.dispatchTitles[r]; ok {
			return t
		}
		return EventTitle(name)
	}
	return name
}

// AnonymousName is the name id EntryNameID gives a function without a name; NameString shows it as
// "(anonymous)". It is not interned, so that the model never writes to the trace's string table.
const AnonymousName = ^core.StrID(0)

// EntryNameID is EntryName as an interned id (or AnonymousName), a cheap key for caches.
func (m *Model) EntryNameID(r EntryRef) core.StrID {
	ct := m.Tracks[r.Track].Core
	if ct.KindAt(int(r.Entry)) == core.EntryProfileCall {
		if f := ct.FrameAt(int(r.Entry)); int(f) < len(m.Trace.Frames) {
			if id := m.Trace.Shown(f, !m.GeneratedNames).FunctionName; id != 0 {
				return id
			}
			return AnonymousName
		}
	}
	return ct.NameAt(int(r.Entry))
}

// EntryFrame is a ProfileCall's call frame as shown: original where a source map applies (unless
// GeneratedNames), else the engine's. ok is false for events.
func (m *Model) EntryFrame(r EntryRef) (f core.CallFrame, ok bool) {
	ct := m.Tracks[r.Track].Core
	if ct.KindAt(int(r.Entry)) != core.EntryProfileCall || int(ct.FrameAt(int(r.Entry))) >= len(m.Trace.Frames) {
		return core.CallFrame{Line: -1, Column: -1}, false
	}
	return m.Trace.Shown(ct.FrameAt(int(r.Entry)), !m.GeneratedNames), true
}

// EntryMapped reports whether a source map gave a ProfileCall its original name and position.
func (m *Model) EntryMapped(r EntryRef) bool {
	ct := m.Tracks[r.Track].Core
	return ct.KindAt(int(r.Entry)) == core.EntryProfileCall && m.Trace.IsMapped(ct.FrameAt(int(r.Entry)))
}

// EntryLocation is where a ProfileCall's function is, for tooltips and details: "file:line" with
// the file's base name and a 1-based line ("text.ts:12" from a source map, "bundle.js:1" else);
// "" for events and frames without a URL.
func (m *Model) EntryLocation(r EntryRef) string {
	f, ok := m.EntryFrame(r)
	if !ok {
		return ""
	}
	return FrameLocation(m.Trace, f)
}

// FrameLocation is "file:line" for a call frame: the base name of its URL and its 1-based line
// ("" without a URL, the base name alone without a line).
func FrameLocation(tr *core.Trace, f core.CallFrame) string {
	url := tr.Strings.Get(f.URL)
	if url == "" {
		return ""
	}
	base := url
	if q := strings.IndexAny(base, "?#"); q >= 0 {
		base = base[:q]
	}
	if i := strings.LastIndexByte(base, '/'); i >= 0 && i+1 < len(base) {
		base = base[i+1:]
	}
	if f.Line < 0 {
		return base
	}
	return base + ":" + strconv.Itoa(int(f.Line)+1)
}

// NameString is the text of a name id from EntryNameID.
func (m *Model) NameString(id core.StrID) string {
	if id == AnonymousName {
		return anonymous
	}
	return m.Trace.Strings.Get(id)
}

// EntryURL is the script URL of a ProfileCall's frame (the original source where a source map
// applies, unless GeneratedNames), "" for events and frames without one.
func (m *Model) EntryURL(r EntryRef) string {
	ct := m.Tracks[r.Track].Core
	if ct.KindAt(int(r.Entry)) != core.EntryProfileCall {
		return ""
	}
	if f := ct.FrameAt(int(r.Entry)); int(f) < len(m.Trace.Frames) {
		return m.Trace.Strings.Get(m.Trace.Shown(f, !m.GeneratedNames).URL)
	}
	return ""
}

// EntryCategory is a trace event's category ("" for ProfileCalls).
func (m *Model) EntryCategory(r EntryRef) string {
	ct := m.Tracks[r.Track].Core
	if ct.KindAt(int(r.Entry)) != core.EntryEvent {
		return ""
	}
	ref := ct.RefAt(int(r.Entry))
	if ref < 0 || int(ref) >= len(m.Trace.Events.Cat) {
		return ""
	}
	return m.Trace.Strings.Get(m.Trace.Events.Cat[ref])
}

// EntryDepth is the level an entry sits on.
func (m *Model) EntryDepth(r EntryRef) int { return m.Tracks[r.Track].Row(r.Entry) }

// Row is the row entry e is drawn on, -1 when the chart leaves it out.
func (t *Track) Row(e int32) int {
	if p := t.pending; p != nil {
		// Rows the model has not computed or packed yet (deferred.go); once they are cleared,
		// rowsUp and Rows are set.
		if p.lazy != nil && !p.known.Load() {
			return p.lazy.row(t.Core, e)
		}
		if rows := p.rows.Load(); rows != nil {
			if *rows == nil {
				return int(t.Core.DepthAt(int(e)))
			}
			return int((*rows)[e])
		}
	}
	if t.rowsUp.N > 0 {
		up := t.rowsUp.At(int(e))
		if up == 0 {
			return -1
		}
		return int(t.Core.DepthAt(int(e))) - int(up-1)
	}
	if t.Rows != nil {
		return int(t.Rows[e])
	}
	return int(t.Core.DepthAt(int(e)))
}

// Drawn reports whether the chart draws entry e (the panel leaves some out).
func (t *Track) Drawn(e int32) bool { return t.Row(e) >= 0 }

// drawnRows places the entries of ct on rows as the panel does: an entry it does not draw takes no
// row, and its children go on the row it would have had. nil when every entry is drawn.
//
// A track of parallelPlaceEntries entries or more is done in two halves at once, cut at a
// top-level entry near its middle: an entry's row depends only on its ancestors, which are in
// its own half. On gen-trace-large's main thread that is 80 ms of CPU otherwise spent on one
// core after core/integrate, while the window waits.
func drawnRows(tr *core.Trace, ct *core.Track, vis *timelines.Visibility) []int32 {
	return drawnRowsOn(tr, ct, vis, true)
}

// drawnRowsOn is drawnRows that takes a second goroutine only when parallel is set.
func drawnRowsOn(tr *core.Trace, ct *core.Track, vis *timelines.Visibility, parallel bool) []int32 {
	n := ct.Len()
	if parallel && n >= parallelPlaceEntries && background.Workers() > 1 {
		if cut := topLevelNear(ct, n/2); cut > 0 {
			if rows, ok := drawnRowsInHalves(tr, ct, vis, cut); ok {
				return rows
			}
		}
	}
	rows := newRowsAlloc(n)
	drawnRowsOf(tr, ct, vis, 0, n, rows, false)
	return rows.rows
}

// drawnRowsInHalves is drawnRows with the entries before cut and from cut on done at once; ok is
// false when the second half does not stand alone (an entry deeper than one below the previous
// one, whose row would come from before cut).
func drawnRowsInHalves(tr *core.Trace, ct *core.Track, vis *timelines.Visibility, cut int) (rows []int32, ok bool) {
	n := ct.Len()
	alloc := newRowsAlloc(n)
	var secondWrote, secondOK bool
	done := make(chan struct{})
	go func() {
		background.Lower()
		secondWrote, secondOK = drawnRowsOf(tr, ct, vis, cut, n, alloc, true)
		close(done)
	}()
	firstWrote, _ := drawnRowsOf(tr, ct, vis, 0, cut, alloc, false)
	<-done
	if !secondOK {
		return nil, false
	}
	// A half that drew every entry left its rows unwritten: they are its depths.
	if rows = alloc.rows; rows != nil && !firstWrote {
		fillDepths(ct, rows, 0, cut)
	}
	if rows != nil && !secondWrote {
		fillDepths(ct, rows, cut, n)
	}
	return rows, true
}

// rowsAlloc allocates a track's rows once, for whichever half of drawnRowsInHalves needs them
// first.
type rowsAlloc struct {
	once sync.Once
	n    int
	rows []int32
}

func newRowsAlloc(n int) *rowsAlloc { return &rowsAlloc{n: n} }

func (a *rowsAlloc) get() []int32 {
	a.once.Do(func() {
		a.rows = make([]int32, a.n)
		adviseHugePages(a.rows)
	})
	return a.rows
}

// topLevelNear is the first entry at depth 0 from mid on, else the last before it; 0 when there
// is none but the first.
func topLevelNear(ct *core.Track, mid int) int {
	for e := mid; e < ct.Len(); e++ {
		if ct.DepthAt(e) == 0 {
			return e
		}
	}
	for e := mid - 1; e > 0; e-- {
		if ct.DepthAt(e) == 0 {
			return e
		}
	}
	return 0
}

// fillDepths sets rows[lo:hi] to the entries' depths.
func fillDepths(ct *core.Track, rows []int32, lo, hi int) {
	for k := lo; k < hi; k++ {
		rows[k] = int32(ct.DepthAt(k))
	}
}

// drawnRowsOf is drawnRows for the entries lo to hi. It gets the whole track's rows from alloc at
// its first entry left out, and then writes rows[lo:hi] (wrote); until then it writes nothing.
// With alone set it gives up (ok false) at an entry more than one deeper than the one before,
// or than depth 0 at lo, whose parent row it would not know.
func drawnRowsOf(tr *core.Trace, ct *core.Track, vis *timelines.Visibility, lo, hi int, alloc *rowsAlloc, alone bool) (wrote, ok bool) {
	var rows []int32
	// up[d+1] is the row the children of the latest entry at depth d go on, and up[0] the roots'
	// row, 0. Pre-order puts every parent before its children, and an entry's parent is the
	// latest one a level up.
	up := make([]int32, ct.MaxDepth+3)
	prev := -1
	// Whether each entry is drawn is looked up a run at a time (Visibility.EntriesAt), and the
	// entries of a run are walked with its depths beside them.
	var drawnRun [256]bool
	for run := lo; run < hi; run += len(drawnRun) {
		background.Yield()
		drawn := drawnRun[:min(len(drawnRun), hi-run)]
		vis.EntriesAt(tr, ct, run, drawn)
		depths := ct.Depth[run : run+len(drawn)]
		for k, depth := range depths {
			d := int(depth)
			if alone && d > prev+1 {
				return rows != nil, false
			}
			prev = d
			if d+1 >= len(up) {
				up = append(up, make([]int32, d+2-len(up))...)
			}
			if rows == nil {
				if drawn[k] {
					up[d+1] = int32(d) + 1
					continue
				}
				// Up to here every entry sat on the row of its depth.
				rows = alloc.get()
				fillDepths(ct, rows, lo, run+k)
			}
			// Without a branch on whether the entry is drawn, which varies from one entry to
			// the next: a drawn entry takes its parent's row, and its children the one below;
			// one left out takes -1, and its children its parent's row.
			base := up[d]
			var in int32
			if drawn[k] {
				in = 1
			}
			rows[run+k] = base | (in - 1)
			up[d+1] = base + in
		}
	}
	return rows != nil, true
}

const anonymous = "(anonymous)"
