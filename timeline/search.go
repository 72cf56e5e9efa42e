package timeline

import (
	"context"
	"math/bits"
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
	// Matches in order of start time (ties in track order, then parent before child); nil for a
	// result of MarkFrames, which is only drawn.
	Matches []EntryRef
	// count is the number of matching entries, listed in Matches or not.
	count int
	// Lanes are the matching lane items (request URLs, mark and measure names…), by lane then
	// start.
	Lanes   []LaneRef
	tracks  []trackMatches
	laneSet map[LaneRef]struct{}
}

type trackMatches struct {
	bits []uint64 // bit e set when entry e matches
	// levels[l] has bit p set when entry Levels[l].Entries[p] matches: with bits, one bit per
	// entry whatever the number of matches, so that a search for "a" on a large trace costs the
	// window a few MB rather than a list of positions per level.
	levels [][]uint64
}

// Search finds the entries matching query. An empty query matches nothing. O(strings + entries).
func (m *Model) Search(query string) *SearchResult {
	r, _ := m.SearchContext(context.Background(), query)
	return r
}

// SearchContext is Search that stops early, with ctx's error, once ctx is done: a window
// searching as the user types drops the search for "r" when "ru" follows.
func (m *Model) SearchContext(ctx context.Context, query string) (*SearchResult, error) {
	r := &SearchResult{Query: query, tracks: make([]trackMatches, len(m.Tracks))}
	if query == "" {
		return r, nil
	}
	tr := m.Trace
	match := newFolder(query)

	strHit := make([]bool, tr.Strings.Len())
	for id := range strHit {
		strHit[id] = id != 0 && match.in(tr.Strings.Get(core.StrID(id)))
		if id%(1<<14) == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
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
	if err := m.collect(ctx, r, frameHit, strHit, true); err != nil {
		return nil, err
	}
	r.Lanes = m.SearchLanes(query)
	r.laneSet = make(map[LaneRef]struct{}, len(r.Lanes))
	for _, l := range r.Lanes {
		r.laneSet[l] = struct{}{}
	}
	return r, nil
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
	m.collect(context.Background(), r, frameHit, nil, true)
	return r
}

// MarkFrames is MatchFrames for a highlight that is drawn and counted but never stepped through
// (the calls of the call tree's selected function): it lists no Matches, which for a function
// called millions of times spares 8 bytes a call (51 MB on gen-trace-large) and the merge.
func (m *Model) MarkFrames(ctx context.Context, label string, frameHit []bool) (*SearchResult, error) {
	r := &SearchResult{Query: label, tracks: make([]trackMatches, len(m.Tracks))}
	if err := m.collect(ctx, r, frameHit, nil, false); err != nil {
		return nil, err
	}
	return r, nil
}

// collect fills r with the entries whose frame (ProfileCalls) or name (events) is marked. Its
// only allocations are the bit sets and, when listed, Matches at their final sizes.
func (m *Model) collect(ctx context.Context, r *SearchResult, frameHit, nameHit []bool, listed bool) error {
	// The matches are marked level by level too: every level must be there.
	if err := m.WaitPlaced(ctx); err != nil {
		return err
	}
	total := 0
	for ti := range m.Tracks {
		t := &m.Tracks[ti]
		ct := t.Core
		tm := &r.tracks[ti]
		tm.bits = make([]uint64, (ct.Len()+63)/64)
		count := 0
		for e := 0; e < ct.Len(); e++ {
			if e%(1<<16) == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			var hit bool
			if ct.KindAt(e) == core.EntryProfileCall && int(ct.FrameAt(e)) < len(frameHit) {
				hit = frameHit[ct.FrameAt(e)]
			} else if ct.KindAt(e) != core.EntryProfileCall && int(ct.NameAt(e)) < len(nameHit) {
				hit = nameHit[ct.NameAt(e)]
			}
			if hit && !t.Drawn(int32(e)) {
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
		total += count
		tm.levels = make([][]uint64, len(t.Levels))
		for li := range t.Levels {
			entries := t.Levels[li].Entries
			var lb []uint64
			for p, e := range entries {
				if tm.bits[e>>6]&(1<<(e&63)) != 0 {
					if lb == nil {
						lb = make([]uint64, (len(entries)+63)/64)
					}
					lb[p>>6] |= 1 << (p & 63)
				}
			}
			tm.levels[li] = lb
		}
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	r.count = total
	if listed {
		r.Matches = m.mergeByStart(r.tracks, total)
	}
	return nil
}

// matchCursor walks one track's matches in entry order, which is start order (pre-order).
type matchCursor struct {
	bits  []uint64
	track TrackID
	entry int // the current match; -1 when past the last
	start float64
}

// next moves to the first match after the current one.
func (c *matchCursor) next(m *Model) {
	e := c.entry + 1
	for w := e >> 6; w < len(c.bits); w++ {
		word := c.bits[w]
		if w == e>>6 {
			word &^= 1<<(e&63) - 1
		}
		if word != 0 {
			c.entry = w<<6 + bits.TrailingZeros64(word)
			c.start = m.Tracks[c.track].Core.StartAt(c.entry)
			return
		}
	}
	c.entry = -1
}

// mergeByStart merges the tracks' matches into one list of total entries, ordered by start and
// then by track, through a heap of one cursor per track with matches: O(matches × log tracks)
// and no list but the result.
func (m *Model) mergeByStart(tracks []trackMatches, total int) []EntryRef {
	if total == 0 {
		return nil
	}
	out := make([]EntryRef, 0, total)
	var heap []matchCursor
	for ti := range tracks {
		if tracks[ti].bits == nil {
			continue
		}
		c := matchCursor{bits: tracks[ti].bits, track: TrackID(ti), entry: -1}
		c.next(m)
		if c.entry >= 0 {
			heap = append(heap, c)
		}
	}
	less := func(a, b *matchCursor) bool {
		return a.start < b.start || (a.start == b.start && a.track < b.track)
	}
	down := func(i int) {
		for {
			l := 2*i + 1
			if l >= len(heap) {
				return
			}
			if r := l + 1; r < len(heap) && less(&heap[r], &heap[l]) {
				l = r
			}
			if !less(&heap[l], &heap[i]) {
				return
			}
			heap[i], heap[l] = heap[l], heap[i]
			i = l
		}
	}
	for i := len(heap)/2 - 1; i >= 0; i-- {
		down(i)
	}
	for len(heap) > 0 {
		c := &heap[0]
		out = append(out, EntryRef{Track: c.track, Entry: int32(c.entry)})
		c.next(m)
		if c.entry < 0 {
			heap[0] = heap[len(heap)-1]
			heap = heap[:len(heap)-1]
		}
		down(0)
	}
	return out
}

// Len is the number of matches.
func (r *SearchResult) Len() int {
	if r == nil {
		return 0
	}
	return r.count
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
// highlight. O(span length / 64).
func (r *SearchResult) AnyIn(t TrackID, level int, s Span) bool {
	if r == nil || t < 0 || int(t) >= len(r.tracks) {
		return false
	}
	levels := r.tracks[t].levels
	if level < 0 || level >= len(levels) || s.First > s.Last || s.First < 0 {
		return false
	}
	lb := levels[level]
	first, last := int(s.First), min(int(s.Last), len(lb)*64-1)
	for w := first >> 6; w <= last>>6; w++ {
		word := lb[w]
		if w == first>>6 {
			word &^= 1<<(first&63) - 1
		}
		if w == last>>6 && last&63 != 63 {
			word &= 1<<(last&63+1) - 1
		}
		if word != 0 {
			return true
		}
	}
	return false
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
