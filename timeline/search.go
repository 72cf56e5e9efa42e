package timeline

import (
	"slices"
	"strings"
	"unicode/utf8"

	"flamedesk/core"
)

// SearchResult is the entries whose function name (as shown: original where a source map
// applies), event name, script URL or original file contains a query,
// case-insensitively. Matches lists them in time order for next/previous; Contains and AnyIn answer
// "is this highlighted" in O(1) and O(log n) while drawing.
//
// A result is immutable, so the window can compute it on another goroutine while it keeps drawing
// the previous one.
type SearchResult struct {
	Query string
	// Matches in order of start time (ties in track order, then parent before child).
	Matches []EntryRef
	// Lanes are the matching lane items (request URLs, mark and measure names…), by lane then
	// start.
	Lanes   []LaneRef
	tracks  []trackMatches
	laneSet map[LaneRef]struct{}
}

type trackMatches struct {
	bits []uint64  // bit e set when entry e matches
	pos  [][]int32 // per level, the positions of the matching entries in increasing order
}

// Search finds the entries matching query. An empty query matches nothing. O(strings + entries).
func (m *Model) Search(query string) *SearchResult {
	r := &SearchResult{Query: query, tracks: make([]trackMatches, len(m.Tracks))}
	if query == "" {
		return r
	}
	tr := m.Trace
	match := newFolder(query)

	strHit := make([]bool, tr.Strings.Len())
	for id := range strHit {
		strHit[id] = id != 0 && match.in(tr.Strings.Get(core.StrID(id)))
	}
	anonHit := match.in(anonymous)
	frameHit := make([]bool, len(tr.Frames))
	for i, f := range tr.Frames {
		// A mapped frame matches by the name shown and by both its original and its script URL
		// (searching "bundle.js" still finds everything the bundle ran).
		shown := tr.Shown(core.FrameID(i), !m.GeneratedNames)
		name := strHit[shown.FunctionName] || (shown.FunctionName == 0 && anonHit)
		frameHit[i] = name || strHit[f.URL] || strHit[shown.URL]
	}

	// Events match by their title too ("timer fired" finds TimerFire); frames were decided above,
	// so a JS function named like an event is not matched by that event's title.
	for name, title := range eventTitles {
		if match.in(title) {
			if id, ok := tr.Strings.Lookup(name); ok {
				strHit[id] = true
			}
		}
	}
	r = m.collect(r, frameHit, strHit)
	r.Lanes = m.SearchLanes(query)
	r.laneSet = make(map[LaneRef]struct{}, len(r.Lanes))
	for _, l := range r.Lanes {
		r.laneSet[l] = struct{}{}
	}
	return r
}

// ContainsLane reports whether a lane item matches; false on a nil result.
func (r *SearchResult) ContainsLane(ref LaneRef) bool {
	if r == nil {
		return false
	}
	_, ok := r.laneSet[ref]
	return ok
}

// MatchFrames finds the ProfileCalls whose call frame is marked in frameHit (indexed by
// core.FrameID), e.g. every call of one function of the call tree, as a result that highlights
// like a search. label becomes the result's Query.
func (m *Model) MatchFrames(label string, frameHit []bool) *SearchResult {
	r := &SearchResult{Query: label, tracks: make([]trackMatches, len(m.Tracks))}
	return m.collect(r, frameHit, nil)
}

// collect fills r with the entries whose frame (ProfileCalls) or name (events) is marked.
func (m *Model) collect(r *SearchResult, frameHit, nameHit []bool) *SearchResult {
	perTrack := make([][]EntryRef, len(m.Tracks))
	for ti := range m.Tracks {
		t := &m.Tracks[ti]
		ct := t.Core
		tm := &r.tracks[ti]
		tm.bits = make([]uint64, (ct.Len()+63)/64)
		count := 0
		for e := 0; e < ct.Len(); e++ {
			var hit bool
			if ct.KindAt(e) == core.EntryProfileCall && int(ct.FrameAt(e)) < len(frameHit) {
				hit = frameHit[ct.FrameAt(e)]
			} else if ct.KindAt(e) != core.EntryProfileCall && int(ct.NameAt(e)) < len(nameHit) {
				hit = nameHit[ct.NameAt(e)]
			}
			if hit && t.Rows != nil && t.Rows[e] < 0 {
				hit = false // not drawn: nothing to show or step to
			}
			if hit {
				tm.bits[e>>6] |= 1 << (e & 63)
				count++
			}
		}
		if count == 0 {
			tm.bits = nil
			continue
		}
		// Pre-order is start order, so each track's list comes out sorted.
		list := make([]EntryRef, 0, count)
		for e := 0; e < ct.Len(); e++ {
			if tm.bits[e>>6]&(1<<(e&63)) != 0 {
				list = append(list, EntryRef{Track: TrackID(ti), Entry: int32(e)})
			}
		}
		perTrack[ti] = list
		tm.pos = make([][]int32, len(t.Levels))
		for li := range t.Levels {
			for p, e := range t.Levels[li].Entries {
				if tm.bits[e>>6]&(1<<(e&63)) != 0 {
					tm.pos[li] = append(tm.pos[li], int32(p))
				}
			}
		}
	}
	r.Matches = m.mergeByStart(perTrack)
	return r
}

// mergeByStart merges per-track lists sorted by start into one, ordered by start and then by
// track. It always merges the two shortest lists, so the long list of a busy main thread is
// copied once rather than once per level of a merge tree.
func (m *Model) mergeByStart(lists [][]EntryRef) []EntryRef {
	lists = slices.DeleteFunc(lists, func(l []EntryRef) bool { return len(l) == 0 })
	before := func(a, b EntryRef) bool { // a strictly before b
		sa, sb := m.EntryStart(a), m.EntryStart(b)
		return sa < sb || (sa == sb && a.Track < b.Track)
	}
	for len(lists) > 1 {
		slices.SortStableFunc(lists, func(a, b []EntryRef) int { return len(a) - len(b) })
		x, y := lists[0], lists[1]
		out := make([]EntryRef, 0, len(x)+len(y))
		for len(x) > 0 && len(y) > 0 {
			if before(y[0], x[0]) {
				out, y = append(out, y[0]), y[1:]
			} else {
				out, x = append(out, x[0]), x[1:]
			}
		}
		out = append(append(out, x...), y...)
		lists = append(lists[2:], out)
	}
	if len(lists) == 0 {
		return nil
	}
	return lists[0]
}

// Len is the number of matches.
func (r *SearchResult) Len() int {
	if r == nil {
		return 0
	}
	return len(r.Matches)
}

// Contains reports whether an entry matches. O(1); false on a nil result.
func (r *SearchResult) Contains(ref EntryRef) bool {
	if r == nil || ref.Track < 0 || int(ref.Track) >= len(r.tracks) {
		return false
	}
	bits := r.tracks[ref.Track].bits
	w := int(ref.Entry >> 6)
	return ref.Entry >= 0 && w < len(bits) && bits[w]&(1<<(ref.Entry&63)) != 0
}

// AnyIn reports whether any entry a span covers matches: how a merged span knows to show a
// highlight. O(log matches on the level).
func (r *SearchResult) AnyIn(t TrackID, level int, s Span) bool {
	if r == nil || t < 0 || int(t) >= len(r.tracks) {
		return false
	}
	pos := r.tracks[t].pos
	if level < 0 || level >= len(pos) {
		return false
	}
	p := pos[level]
	i, _ := slices.BinarySearch(p, s.First)
	return i < len(p) && p[i] <= s.Last
}

// FirstAfter is the index in Matches of the first match starting after t (absolute µs), wrapping
// to 0 past the end; -1 when there are no matches. The window uses it to start next/previous from
// what is on screen.
func (r *SearchResult) FirstAfter(m *Model, t float64) int {
	if r.Len() == 0 {
		return -1
	}
	i, _ := slices.BinarySearchFunc(r.Matches, t, func(e EntryRef, t float64) int {
		if m.EntryStart(e) <= t {
			return -1
		}
		return 1
	})
	if i == len(r.Matches) {
		return 0
	}
	return i
}

// Next is the match after index i, wrapping around; -1 when there are no matches.
func (r *SearchResult) Next(i int) int {
	n := r.Len()
	if n == 0 {
		return -1
	}
	if i < 0 {
		return 0
	}
	return (i + 1) % n
}

// Prev is the match before index i, wrapping around; -1 when there are no matches.
func (r *SearchResult) Prev(i int) int {
	n := r.Len()
	if n == 0 {
		return -1
	}
	if i <= 0 || i > n {
		return n - 1
	}
	return i - 1
}

// folder matches a query case-insensitively: byte-wise with ASCII folding when the query is ASCII
// (no allocation per string), through Unicode lower-casing otherwise.
type folder struct {
	q     string
	ascii bool
}

func newFolder(q string) folder {
	ascii := true
	for i := 0; i < len(q); i++ {
		if q[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return folder{q: asciiLower(q), ascii: true}
	}
	return folder{q: strings.ToLower(q)}
}

func (f folder) in(s string) bool {
	if !f.ascii {
		return strings.Contains(strings.ToLower(s), f.q)
	}
	q := f.q
	n := len(q)
	if n > len(s) {
		return false
	}
	first := q[0]
	for i := 0; i+n <= len(s); i++ {
		if lowerByte(s[i]) != first {
			continue
		}
		j := 1
		for j < n && lowerByte(s[i+j]) == q[j] {
			j++
		}
		if j == n {
			return true
		}
	}
	return false
}

func lowerByte(b byte) byte {
	if b >= 'A' && b <= 'Z' {
		return b + ('a' - 'A')
	}
	return b
}

func asciiLower(s string) string {
	b := []byte(s)
	for i := range b {
		b[i] = lowerByte(b[i])
	}
	return string(b)
}
