package load

import (
	"bytes"

	"flamedesk/core"
)

// The call frames of a trace's profile chunks repeat: a function shows up in one node per call
// path, and each node spells its frame out again (gen-trace-medium-reload has 95 thousand call
// frame objects, 15 MB of its 50 MB of JSON, for 4761 distinct ones). A call frame object seen
// before, byte for byte, is not read again: what reading it gave is remembered by its bytes.
// Reading the same bytes always gives the same fields (every string in them is already interned
// and nothing in them is counted), so the result is the one a second reading would have given.
const (
	// maxMemoFrame is the longest call frame object remembered; longer ones are read every time.
	maxMemoFrame = 512
	// maxMemoBytes bounds what the memo holds, so that a file of endless distinct frames cannot
	// make it grow without end; past it, new frames are read every time.
	maxMemoBytes = 8 << 20
	// memoOverhead is what an entry costs beside its bytes: the map's slot and the string header.
	memoOverhead = 96
)

// frameMemo maps the bytes of a call frame object to the fields reading it gave, and to the
// frame those fields were interned as once a node has asked for it (the same fields always
// intern as the same frame, so a node whose only call frame is a remembered one needs no
// interning either).
type frameMemo struct {
	index   map[string]int32 // into entries
	entries []memoFrame
	bytes   int
}

type memoFrame struct {
	fields frameFields
	frame  core.FrameID
	hasID  bool
}

// noMemo is the entry index of a call frame read without the memo.
const noMemo = -1

// firstCallFrame reads a node's callFrame object into cf, which holds nothing yet, through the
// memo when the object sits whole in the window. It returns the memo entry that holds what was
// read, or noMemo.
func (l *loader) firstCallFrame(cf *frameFields) (int32, error) {
	s := l.s
	end, ok := s.objectEndGuess(maxMemoFrame)
	if !ok {
		return noMemo, l.callFrame(cf)
	}
	m := &l.frameMemo
	if i, ok := m.index[string(s.buf[s.pos:end])]; ok {
		*cf = m.entries[i].fields
		s.pos = end
		return i, nil
	}
	start, base, repaired := s.pos, s.base, s.badUTF8
	if err := l.callFrame(cf); err != nil {
		return noMemo, err
	}
	// Remembered only when reading ended at the guessed end (so the bytes are the whole object),
	// the window has not moved (they are still at start) and reading counted no repaired string,
	// which a second reading would have counted again.
	if s.base != base || s.pos != end || s.badUTF8 != repaired || m.bytes+end-start > maxMemoBytes {
		return noMemo, nil
	}
	if m.index == nil {
		m.index = map[string]int32{}
	}
	l.mem.charge(int64(end-start) + memoOverhead)
	m.bytes += end - start
	i := int32(len(m.entries))
	m.entries = append(m.entries, memoFrame{fields: *cf})
	m.index[string(s.buf[start:end])] = i
	return i, nil
}

// memoFrameID interns the fields of memo entry i, once per entry.
func (l *loader) memoFrameID(i int32) core.FrameID {
	e := &l.frameMemo.entries[i]
	if !e.hasID {
		e.frame, e.hasID = l.frame(&e.fields, false), true
	}
	return e.frame
}

// objectEndGuess returns the index just past the first '}' at most limit bytes after pos, when
// the byte at pos is '{' and that '}' is inside the window. The guess need not be the object's end
// (a '}' may sit in a string or close a nested object): a memo entry is only made when reading
// the object ended there, so bytes equal to an entry's end where it did.
func (s *scanner) objectEndGuess(limit int) (end int, ok bool) {
	buf := s.buf[s.pos:min(s.end, s.pos+limit)]
	if len(buf) == 0 || buf[0] != '{' {
		return 0, false
	}
	j := bytes.IndexByte(buf, '}')
	if j < 0 {
		return 0, false
	}
	return s.pos + j + 1, true
}

// drop lets the memo go once the input is read, before the profiles and tracks are built.
func (m *frameMemo) drop(b *budget) {
	b.release(int64(m.bytes + memoOverhead*len(m.entries)))
	*m = frameMemo{}
}
