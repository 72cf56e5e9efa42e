package load

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"flamedesk/internal/background"
)

const (
	// maxDepth caps JSON nesting. Real traces nest a few levels; a legacy profile head nests as deep
	// as the JS stack. Deeper input is refused instead of exhausting memory or the goroutine stack.
	maxDepth = 10000
	// maxToken caps one string or number. A token must sit whole in the buffer; anything longer
	// than this is not a trace.
	maxToken = 256 << 20
	// readSize is how much the scanner asks its source for at a time.
	readSize = 1 << 20
	// maxCapture caps the raw args kept for one event; longer args are not kept (with a warning).
	maxCapture = 1 << 20
)

// errTruncated reports input that ends inside a value.
var errTruncated = errors.New("unexpected end of input")

// syntaxError is a JSON error at a byte offset of the decompressed stream.
type syntaxError struct {
	off int64
	msg string
}

func (e *syntaxError) Error() string { return fmt.Sprintf("byte %d: %s", e.off, e.msg) }

// scanner is a pull JSON tokenizer over a refillable window of its source: memory stays at the
// size of the largest token (or captured args) whatever the size of the input, so gigabytes of
// whitespace or a gzip bomb cost a bounded buffer, not the whole file.
type scanner struct {
	src  io.Reader
	ctx  context.Context
	mem  *budget
	buf  []byte
	pos  int   // next unread byte
	end  int   // buf[:end] holds data
	base int64 // stream offset of buf[0]
	eof  bool
	err  error // first error of src other than io.EOF, or the context's

	// Capture keeps the bytes of one value (an event's args) without a second pass. While the
	// value is read, bytes leave the window only through fill, which first copies
	// buf[capFrom:keep] into capOut. A value that ends without a refill is left in the window
	// (capLazy, at buf[capFrom:capEnd]) and copied only if a refill comes before it is used, so
	// the args of most events are never copied at all.
	capOn   bool
	capLazy bool
	capFrom int
	capEnd  int
	capOut  []byte
	capOver bool // longer than the limit, or dropped: nothing is kept
	capMax  int  // the limit of the current capture: maxCapture unless startCaptureUpTo said

	str     []byte // scratch for strings with escapes
	badUTF8 int    // strings repaired because of invalid UTF-8

	// When the source hands out its blocks (the gzip inflater does), the window is each block
	// itself, read in place rather than copied into buf. Only a value cut by a block's end is
	// copied, with the start of the next block behind it, into stitch; once the window has moved
	// past the copied bytes it is the block again.
	blocks  blockSource
	block   []byte // the block held: the window itself, or the block stitch holds the start of
	rest    []byte // in stitch mode, the part of block not yet in the window
	stitch  []byte
	foreign int // in stitch mode, buf[:foreign] came before block
}

// blockSource is a source that hands out the blocks it fills instead of copying them.
type blockSource interface {
	nextBlock() ([]byte, error)
	releaseBlock([]byte)
}

// stitchSize is how much of a new block is copied behind a value cut by the end of the last one.
const stitchSize = 64 << 10

func newScanner(ctx context.Context, src io.Reader, initial []byte, mem *budget) *scanner {
	s := &scanner{src: src, ctx: ctx, mem: mem}
	if b, ok := src.(blockSource); ok {
		s.blocks = b
		if len(initial) > 0 {
			s.stitchUp(initial, nil)
			s.foreign, s.end = len(initial), len(initial)
		}
		return s
	}
	s.buf = makeSlice[byte](mem, max(readSize, len(initial)+readSize), max(readSize, len(initial)+readSize))
	s.end = copy(s.buf, initial)
	if src == nil {
		s.eof = true
	}
	return s
}

// offset is the stream offset of the next unread byte.
func (s *scanner) offset() int64 { return s.base + int64(s.pos) }

func (s *scanner) errorf(format string, args ...any) error {
	return &syntaxError{off: s.offset(), msg: fmt.Sprintf(format, args...)}
}

// fill reads more input, keeping buf[keep:] (keep <= pos). It returns by how much indexes into
// buf moved down, and false when the source is exhausted.
func (s *scanner) fill(keep int) (shift int, ok bool) {
	if s.eof {
		return 0, false
	}
	if s.capOn {
		s.flushCapture(keep)
	}
	if s.capLazy {
		s.capLazy = false
		s.capOn = true
		s.flushCapture(s.capEnd)
		s.capOn = false
	}
	if s.blocks != nil {
		return s.fillBlocks(keep)
	}
	if keep > 0 {
		n := copy(s.buf, s.buf[keep:s.end])
		s.end = n
		s.pos -= keep
		s.base += int64(keep)
		if s.capOn {
			s.capFrom -= keep
		}
		shift = keep
	}
	if len(s.buf)-s.end < readSize/2 {
		if s.end >= maxToken {
			s.err = &syntaxError{off: s.base, msg: fmt.Sprintf("a single value is longer than %d MB", maxToken>>20)}
			s.eof = true
			return shift, false
		}
		n := max(2*len(s.buf), s.end+readSize)
		nb := makeSlice[byte](s.mem, n, n)
		copy(nb, s.buf[:s.end])
		s.mem.release(int64(len(s.buf)))
		s.buf = nb
	}
	for {
		// Reads are 256 KB (inflated) to 1 MB of parsing apart: a point where the window's
		// frame may go first.
		background.Yield()
		if err := s.ctx.Err(); err != nil {
			s.err, s.eof = err, true
			return shift, false
		}
		n, err := s.src.Read(s.buf[s.end:])
		s.end += n
		if err != nil {
			s.eof = true
			if err != io.EOF {
				s.err = err
			}
			return shift, n > 0
		}
		if n > 0 {
			return shift, true
		}
	}
}

// fillBlocks is fill for a blockSource. At the end of the input nothing moves (shift 0).
func (s *scanner) fillBlocks(keep int) (shift int, ok bool) {
	tail := s.buf[keep:s.end]
	if len(s.rest) > 0 {
		if keep >= s.foreign {
			// What is kept all comes from block: read on in place.
			from := len(s.block) - len(s.rest) - len(tail)
			s.buf, s.rest, s.foreign = s.block[from:], nil, 0
			return s.moved(keep), true
		}
		// A value longer than the stitch so far: copy more of block behind it.
		if !s.stitchFits(len(tail)) {
			return 0, false
		}
		n := min(len(s.rest), max(stitchSize, len(tail)))
		s.stitchUp(tail, s.rest[:n])
		s.rest = s.rest[n:]
		s.foreign -= keep
		return s.moved(keep), true
	}
	background.Yield()
	if err := s.ctx.Err(); err != nil {
		s.err, s.eof = err, true
		return 0, false
	}
	if !s.stitchFits(len(tail)) {
		return 0, false
	}
	// An error that comes with data is given again by the next call, once the data is read.
	next, err := s.blocks.nextBlock()
	if len(next) == 0 {
		s.blocks.releaseBlock(next)
		s.eof = true
		if err != io.EOF {
			s.err = err
		}
		return 0, false
	}
	old := s.block
	if len(tail) == 0 {
		s.buf, s.block, s.rest, s.foreign = next, next, nil, 0
	} else {
		n := min(len(next), stitchSize)
		s.stitchUp(tail, next[:n])
		s.block, s.rest, s.foreign = next, next[n:], len(tail)
	}
	s.blocks.releaseBlock(old) // only now: tail may have been in it
	return s.moved(keep), true
}

// stitchFits reports whether a value of n bytes may still grow, and ends the input if not.
func (s *scanner) stitchFits(n int) bool {
	if n < maxToken {
		return true
	}
	s.err = &syntaxError{off: s.base, msg: fmt.Sprintf("a single value is longer than %d MB", maxToken>>20)}
	s.eof = true
	return false
}

// stitchUp makes the window tail followed by more, in stitch. tail may lie in stitch itself.
func (s *scanner) stitchUp(tail, more []byte) {
	need := len(tail) + len(more)
	if cap(s.stitch) < need {
		n := max(2*cap(s.stitch), need, 2*stitchSize)
		nb := makeSlice[byte](s.mem, n, n)
		copy(nb, tail)
		s.mem.release(int64(cap(s.stitch)))
		s.stitch = nb
	} else {
		s.stitch = s.stitch[:cap(s.stitch)]
		copy(s.stitch, tail)
	}
	copy(s.stitch[len(tail):], more)
	s.buf = s.stitch[:need]
}

// moved settles the window's indexes after buf[keep:] has become the start of a new buf.
func (s *scanner) moved(keep int) int {
	s.end = len(s.buf)
	s.pos -= keep
	s.base += int64(keep)
	if s.capOn {
		s.capFrom -= keep
	}
	return keep
}

func (s *scanner) flushCapture(upto int) {
	if upto <= s.capFrom {
		return
	}
	if !s.capOver {
		if len(s.capOut)+upto-s.capFrom > s.capLimit() {
			s.capOver = true
			s.capOut = s.capOut[:0]
		} else {
			s.capOut = append(s.capOut, s.buf[s.capFrom:upto]...)
		}
	}
	s.capFrom = upto
}

// startCapture begins a capture at the next unread byte.
func (s *scanner) startCapture() { s.startCaptureUpTo(maxCapture) }

// startCaptureUpTo begins a capture that keeps up to limit bytes.
func (s *scanner) startCaptureUpTo(limit int) {
	s.capOn, s.capLazy, s.capFrom, s.capOver, s.capMax = true, false, s.pos, false, limit
	s.capOut = s.capOut[:0]
}

func (s *scanner) capLimit() int {
	if s.capMax > 0 {
		return s.capMax
	}
	return maxCapture
}

// stopCapture ends the capture at the next unread byte.
func (s *scanner) stopCapture() {
	s.capOn = false
	if len(s.capOut) == 0 && !s.capOver {
		s.capLazy, s.capEnd = true, s.pos
		return
	}
	s.flushCapture(s.pos)
}

// dropCapture abandons the current capture: the value is not going to be kept.
func (s *scanner) dropCapture() {
	s.capOver = true
	s.capOut = s.capOut[:0]
}

// captured returns the bytes of the last capture, or overflow when they were longer than
// maxCapture or dropped. The result is valid until the next scanner call.
func (s *scanner) captured() (out []byte, overflow bool) {
	switch {
	case s.capOver:
		return nil, true
	case s.capLazy:
		if s.capEnd-s.capFrom > s.capLimit() {
			return nil, true
		}
		return s.buf[s.capFrom:s.capEnd], false
	}
	return s.capOut, false
}

// peek skips whitespace and returns the next byte without consuming it; ok is false at the end.
func (s *scanner) peek() (byte, bool) {
	// The usual case, a value or delimiter right there, stays small enough to be inlined.
	if s.pos < s.end {
		if c := s.buf[s.pos]; c > ' ' {
			return c, true
		}
	}
	return s.peekPast()
}

// peekPast is peek's loop, past whitespace and across refills.
func (s *scanner) peekPast() (byte, bool) {
	for {
		for s.pos < s.end {
			c := s.buf[s.pos]
			if c > ' ' || (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
				return c, true
			}
			s.pos++
		}
		if _, ok := s.fill(s.pos); !ok {
			return 0, false
		}
	}
}

// next consumes the next non-space byte.
func (s *scanner) next() (byte, bool) {
	c, ok := s.peek()
	if ok {
		s.pos++
	}
	return c, ok
}

// expect consumes byte want or fails.
func (s *scanner) expect(want byte) error {
	c, ok := s.peek()
	if !ok {
		return s.eofErr()
	}
	if c != want {
		return s.errorf("expected %q, found %s", want, quoteByte(c))
	}
	s.pos++
	return nil
}

// eofErr is the error for input that ended where a value was due: the source's own error if it
// had one (a broken gzip stream, a cancelled context), else errTruncated.
func (s *scanner) eofErr() error {
	if s.err != nil {
		return s.err
	}
	return errTruncated
}

func quoteByte(c byte) string {
	if c >= ' ' && c < 0x7f {
		return fmt.Sprintf("%q", rune(c))
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

// objectStart consumes '{' and reports whether the object is empty (then '}' is consumed too).
// Use with nextKey:
//
//	empty, err := s.objectStart()
//	for more := !empty; more; {
//		key, err := s.key() ... value ...
//		more, err = s.objectNext()
//	}
func (s *scanner) objectStart() (empty bool, err error) {
	if err := s.expect('{'); err != nil {
		return false, err
	}
	c, ok := s.peek()
	if !ok {
		return false, s.eofErr()
	}
	if c == '}' {
		s.pos++
		return true, nil
	}
	return false, nil
}

// key reads an object key and its colon. The key is valid until the next scanner call.
func (s *scanner) key() ([]byte, error) {
	// The usual key: ASCII without escapes, at most 15 bytes, its colon right after it, all in
	// the window. Such a key needs no UTF-8 check and no copy.
	if i := s.pos; i+18 <= s.end {
		b := s.buf[i : i+18 : i+18]
		w := binary.LittleEndian.Uint64(b[1:9])
		n := 0
		m := quoteOrBackslash(w)
		if m == 0 && w&highBits == 0 {
			w = binary.LittleEndian.Uint64(b[9:17])
			n, m = 8, quoteOrBackslash(w)
		}
		if m != 0 && b[0] == '"' {
			n += bits.TrailingZeros64(m) >> 3
			if b[n+1] == '"' && b[n+2] == ':' && w&(m-1)&highBits == 0 {
				s.pos = i + n + 3
				return b[1 : n+1], nil
			}
		}
	}
	if s.pos >= s.end || s.buf[s.pos] != '"' {
		c, ok := s.peek()
		if !ok {
			return nil, s.eofErr()
		}
		if c != '"' {
			return nil, s.errorf("expected an object key, found %s", quoteByte(c))
		}
	}
	k, err := s.str0()
	if err != nil {
		return nil, err
	}
	// The key may live in buf; expect(':') can refill and move it. Keys are short: keep a copy
	// only in that rare case.
	if s.pos >= s.end || s.buf[s.pos] != ':' {
		k = append(s.str[:0:0], k...)
		if err := s.expect(':'); err != nil {
			return nil, err
		}
		return k, nil
	}
	s.pos++
	return k, nil
}

// objectNext consumes ',' (more members follow) or '}' (the object ended).
func (s *scanner) objectNext() (more bool, err error) {
	// The usual cases, without spaces: `,"` and `}`.
	if i := s.pos; i+1 < s.end {
		switch s.buf[i] {
		case ',':
			if s.buf[i+1] == '"' {
				s.pos = i + 1
				return true, nil
			}
		case '}':
			s.pos = i + 1
			return false, nil
		}
	}
	c, ok := s.next()
	if !ok {
		return false, s.eofErr()
	}
	switch c {
	case ',':
		// A trailing comma before '}' is accepted. The usual next byte is a key's quote.
		if s.pos < s.end && s.buf[s.pos] == '"' {
			return true, nil
		}
		c2, ok := s.peek()
		if !ok {
			return false, s.eofErr()
		}
		if c2 == '}' {
			s.pos++
			return false, nil
		}
		return true, nil
	case '}':
		return false, nil
	}
	s.pos--
	return false, s.errorf("expected ',' or '}' in an object, found %s", quoteByte(c))
}

// arrayStart consumes '[' and reports whether the array is empty (then ']' is consumed too).
func (s *scanner) arrayStart() (empty bool, err error) {
	if err := s.expect('['); err != nil {
		return false, err
	}
	c, ok := s.peek()
	if !ok {
		return false, s.eofErr()
	}
	if c == ']' {
		s.pos++
		return true, nil
	}
	return false, nil
}

// arrayNext consumes ',' or ']'.
func (s *scanner) arrayNext() (more bool, err error) {
	if i := s.pos; i+1 < s.end {
		switch s.buf[i] {
		case ',':
			if c := s.buf[i+1]; c == '{' || c == '"' || (c >= '0' && c <= '9') || c == '-' {
				s.pos = i + 1
				return true, nil
			}
		case ']':
			s.pos = i + 1
			return false, nil
		}
	}
	c, ok := s.next()
	if !ok {
		return false, s.eofErr()
	}
	switch c {
	case ',':
		if s.pos < s.end {
			// The usual next byte starts a value: no need to look past spaces for a ']'.
			if c := s.buf[s.pos]; (c >= '0' && c <= '9') || c == '{' || c == '"' || c == '-' {
				return true, nil
			}
		}
		c2, ok := s.peek()
		if !ok {
			return false, s.eofErr()
		}
		if c2 == ']' {
			s.pos++
			return false, nil
		}
		return true, nil
	case ']':
		return false, nil
	}
	s.pos--
	return false, s.errorf("expected ',' or ']' in an array, found %s", quoteByte(c))
}

// str0 reads a string whose opening quote is the next byte. The result points into buf or into
// the scratch buffer and is valid until the next scanner call. Invalid UTF-8 is replaced.
func (s *scanner) str0() ([]byte, error) {
	s.pos++ // opening quote
	start := s.pos
	var hi byte
	for {
		i, end, buf := s.pos, s.end, s.buf
		// Eight bytes at a time while they are in the window: most strings are names and urls of
		// tens of bytes, which a byte loop pays for one comparison at a time.
		// The high bits are gathered from whole words, the bytes past the quote included: one of
		// them set in vain only costs a UTF-8 check that passes.
		var hi8 uint64
		for i+8 <= end {
			w := binary.LittleEndian.Uint64(buf[i:])
			hi8 |= w
			if m := quoteOrBackslash(w); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		if hi8&highBits != 0 {
			hi = 0x80
		}
		for i < end {
			c := buf[i]
			if c == '"' {
				out := buf[start:i]
				s.pos = i + 1
				if hi >= 0x80 && !utf8.Valid(out) {
					return s.repairUTF8(out), nil
				}
				return out, nil
			}
			if c == '\\' {
				s.pos = i
				return s.strSlow(start)
			}
			hi |= c
			i++
		}
		s.pos = i
		shift, ok := s.fill(start)
		start -= shift
		if !ok {
			return nil, s.eofErr()
		}
	}
}

const (
	lowBits  = 0x0101010101010101
	highBits = 0x8080808080808080
)

// quoteOrBackslash has the high bit set in the first byte of w (little-endian) that is '"' or '\\',
// and is 0 when there is none. Bytes after the first such one may be marked wrongly; they are
// never looked at.
func quoteOrBackslash(w uint64) uint64 {
	q := w ^ ('"' * lowBits)
	b := w ^ ('\\' * lowBits)
	return ((q-lowBits)&^q | (b-lowBits)&^b) & highBits
}

// strSlow finishes a string with escapes into s.str; buf[start:pos] is its plain prefix.
func (s *scanner) strSlow(start int) ([]byte, error) {
	out := append(s.str[:0], s.buf[start:s.pos]...)
	for {
		if s.pos >= s.end {
			if _, ok := s.fill(s.pos); !ok {
				return nil, s.eofErr()
			}
		}
		c := s.buf[s.pos]
		switch {
		case c == '"':
			s.pos++
			s.str = out
			if !utf8.Valid(out) {
				return s.repairUTF8(out), nil
			}
			return out, nil
		case c == '\\':
			if s.end-s.pos < 6 {
				// An escape is at most 6 bytes; make sure it is whole.
				if _, ok := s.fill(s.pos); !ok && s.end-s.pos < 2 {
					return nil, s.eofErr()
				}
			}
			e := s.buf[s.pos+1]
			s.pos += 2
			switch e {
			case '"', '\\', '/':
				out = append(out, e)
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r, ok := s.hex4()
				if !ok {
					return nil, s.errorf("bad \\u escape in a string")
				}
				if utf16.IsSurrogate(r) {
					r2 := utf8.RuneError
					if s.end-s.pos < 6 {
						s.fill(s.pos)
					}
					if s.end-s.pos >= 6 && s.buf[s.pos] == '\\' && s.buf[s.pos+1] == 'u' {
						s.pos += 2
						if lo, ok := s.hex4(); ok {
							r2 = lo
						}
					}
					if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
						r = d
					} else {
						// A lone surrogate: JS keeps it, UTF-8 cannot; use U+FFFD for both halves.
						out = utf8.AppendRune(out, utf8.RuneError)
						r = r2
						if utf16.IsSurrogate(r) {
							r = utf8.RuneError
						}
					}
				}
				out = utf8.AppendRune(out, r)
			default:
				return nil, s.errorf("bad escape \\%c in a string", e)
			}
		default:
			out = append(out, c)
			s.pos++
		}
	}
}

func (s *scanner) hex4() (rune, bool) {
	if s.end-s.pos < 4 {
		return 0, false
	}
	var r rune
	for _, c := range s.buf[s.pos : s.pos+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	s.pos += 4
	return r, true
}

func (s *scanner) repairUTF8(b []byte) []byte {
	s.badUTF8++
	var out []byte
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n <= 1 {
			out = utf8.AppendRune(out, utf8.RuneError)
			b = b[1:]
			continue
		}
		out = append(out, b[:n]...)
		b = b[n:]
	}
	s.str = out
	return out
}

// Kinds of JSON values, from their first byte.
const (
	kindNone byte = iota
	kindString
	kindNumber
	kindObject
	kindArray
	kindLiteral // true, false, null
)

func kindOf(c byte) byte {
	switch {
	case c == '"':
		return kindString
	case c == '-' || (c >= '0' && c <= '9'):
		return kindNumber
	case c == '{':
		return kindObject
	case c == '[':
		return kindArray
	case c == 't' || c == 'f' || c == 'n' || c == 'N' || c == 'I':
		// N and I: NaN and Infinity, which Python's json module writes. They are not JSON, but
		// treating them as non-numeric values keeps the rest of the file readable.
		return kindLiteral
	}
	return kindNone
}

// valueKind peeks at the next value's kind.
func (s *scanner) valueKind() (byte, error) {
	c, ok := s.peek()
	if !ok {
		return kindNone, s.eofErr()
	}
	k := kindOf(c)
	if k == kindNone {
		return k, s.errorf("expected a value, found %s", quoteByte(c))
	}
	return k, nil
}

// number reads a value that should be a number. ok is false, with the value consumed, when it was
// another kind of value (a string, null, an object...) or a malformed or non-finite number.
func (s *scanner) number() (v float64, ok bool, err error) {
	if v, ok := s.fastNumber(); ok {
		return v, true, nil
	}
	c, more := s.peek()
	if !more {
		return 0, false, s.eofErr()
	}
	if kindOf(c) != kindNumber {
		return 0, false, s.skip()
	}
	start := s.pos
	for {
		i, end, buf := s.pos, s.end, s.buf
		for i < end {
			if numberByte[buf[i]] {
				i++
				continue
			}
			s.pos = i
			v, ok := parseNumber(buf[start:i])
			return v, ok, nil
		}
		s.pos = i
		shift, more := s.fill(start)
		start -= shift
		if !more {
			if s.err != nil {
				return 0, false, s.err
			}
			// A number at the very end of the input is complete.
			v, ok := parseNumber(s.buf[start:s.pos])
			return v, ok, nil
		}
	}
}

// numberByte marks the bytes a number token is made of. Letters are included so that NaN,
// Infinity and other junk that some writers emit where numbers belong is consumed as one token
// and rejected as a whole.
var numberByte = func() (t [256]bool) {
	for _, c := range []byte("0123456789+-.") {
		t[c] = true
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = true, true
	}
	return t
}()

// parseNumber converts a JSON number. Integers of up to 15 digits, the bulk of any trace, take a
// fast path; the rest go through strconv, which rounds exactly like JavaScript's JSON.parse.
func parseNumber(b []byte) (float64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	neg := b[0] == '-'
	d := b
	if neg {
		d = b[1:]
		if len(d) == 0 {
			return 0, false
		}
	}
	if n := len(d); n > 0 && n <= 15 {
		var x int64
		i := 0
		for ; i < n; i++ {
			c := d[i]
			if c < '0' || c > '9' {
				break
			}
			x = x*10 + int64(c-'0')
		}
		if i == n {
			if neg {
				if x == 0 {
					return math.Copysign(0, -1), true
				}
				return float64(-x), true
			}
			return float64(x), true
		}
	}
	if c := d[0]; c < '0' || c > '9' {
		return 0, false // NaN, Infinity, ".5", "+1"
	}
	v, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(b), len(b)), 64)
	if err != nil || math.IsInf(v, 0) || v != v {
		return 0, false
	}
	return v, true
}

// fastInt parses the common array element "123," or "-45]" straight from the window: an integer
// of up to 15 digits followed by ',' or ']'. It consumes the element and its delimiter and
// reports the delimiter; ok is false (nothing consumed) when the bytes need the general path.
func (s *scanner) fastInt() (v int64, delim byte, ok bool) {
	i, buf := s.pos, s.buf
	if s.end-i < 18 {
		return 0, 0, false
	}
	neg := buf[i] == '-'
	if neg {
		i++
	}
	x, n := digits16(buf, i)
	if n == 0 || n > 15 {
		return 0, 0, false
	}
	i += n
	d := buf[i]
	if d != ',' && d != ']' {
		return 0, 0, false
	}
	if neg {
		if x == 0 {
			return 0, 0, false // -0 is a float matter
		}
		x = -x
	}
	s.pos = i + 1
	return x, d, true
}

// fastNumber parses an integer of up to 15 digits that sits whole in the window and is followed
// by a delimiter, the form of nearly every number in a trace. It consumes the number only.
func (s *scanner) fastNumber() (float64, bool) {
	i, buf := s.pos, s.buf
	if s.end-i < 18 {
		return 0, false
	}
	neg := buf[i] == '-'
	if neg {
		i++
	}
	x, n := digits16(buf, i)
	if n == 0 || n > 15 {
		return 0, false
	}
	i += n
	switch buf[i] {
	case ',', '}', ']':
	default:
		return 0, false
	}
	if neg {
		if x == 0 {
			return 0, false
		}
		x = -x
	}
	s.pos = i
	return float64(x), true
}

// digits16 parses the run of ASCII digits at buf[i:], up to 16 of them, eight at a time; buf must
// hold 16 bytes from i. n is the run's length (16 for 16 or more digits).
func digits16(buf []byte, i int) (x int64, n int) {
	w := binary.LittleEndian.Uint64(buf[i : i+8])
	n = digitRun(w)
	if n < 8 {
		return int64(eightDigits(w << (64 - 8*n))), n // a shift by 64 gives 0
	}
	w2 := binary.LittleEndian.Uint64(buf[i+8 : i+16])
	m := digitRun(w2)
	return int64(eightDigits(w))*pow10[m] + int64(eightDigits(w2<<(64-8*m))), 8 + m
}

// digitRun is the number of ASCII digits at the start of w (little-endian), 0 to 8. A byte is a
// digit when it and it plus 6 both have 3 as their high nibble; the carry out of a non-digit
// byte can only disturb the bytes after it.
func digitRun(w uint64) int {
	t := w&(0xf0*lowBits) | (w+6*lowBits)&(0xf0*lowBits)>>4
	return bits.TrailingZeros64(t^(0x33*lowBits)) >> 3
}

// eightDigits converts eight ASCII digits, the first in the low byte, to their value; zero bytes
// count as leading zeros.
func eightDigits(w uint64) uint64 {
	w = (w & (0x0f * lowBits)) * (1 + 10<<8) >> 8
	w = (w & 0x00ff00ff00ff00ff) * (1 + 100<<16) >> 16
	return (w & 0x0000ffff0000ffff) * (1 + 10000<<32) >> 32
}

var pow10 = [9]int64{1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000}

// integer reads a value that should be an integral number (a node id). ok is false, with the value
// consumed, for anything else.
func (s *scanner) integer() (int64, bool, error) {
	v, ok, err := s.number()
	if !ok || err != nil {
		return 0, false, err
	}
	if v != math.Trunc(v) || v < -(1<<53) || v > 1<<53 {
		return 0, false, nil
	}
	return int64(v), true, nil
}

// skip consumes one value of any kind without decoding it. Objects and arrays are skipped
// iteratively with a depth counter, so nesting costs no stack; it is still capped at maxDepth.
func (s *scanner) skip() error {
	c, ok := s.peek()
	if !ok {
		return s.eofErr()
	}
	switch kindOf(c) {
	case kindString:
		return s.skipString()
	case kindNumber:
		if _, ok := s.fastNumber(); ok {
			return nil
		}
		return s.skipScalar()
	case kindLiteral:
		return s.skipScalar()
	case kindObject, kindArray:
		return s.skipNested()
	}
	return s.errorf("expected a value, found %s", quoteByte(c))
}

func (s *scanner) skipString() error {
	s.pos++
	for {
		i, end, buf := s.pos, s.end, s.buf
		for i+8 <= end {
			if m := quoteOrBackslash(binary.LittleEndian.Uint64(buf[i:])); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		for i < end {
			c := buf[i]
			if c == '"' {
				s.pos = i + 1
				return nil
			}
			if c == '\\' {
				if i+1 >= end {
					break
				}
				i += 2
				continue
			}
			i++
		}
		s.pos = i
		if _, ok := s.fill(s.pos); !ok {
			return s.eofErr()
		}
	}
}

func (s *scanner) skipScalar() error {
	start := s.pos
	for {
		i, end, buf := s.pos, s.end, s.buf
		for i < end {
			c := buf[i]
			if c == ',' || c == '}' || c == ']' || c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == ':' {
				s.pos = i
				return s.checkScalar(buf[start:i])
			}
			i++
			if i-start > 64 {
				s.pos = i
				return s.errorf("malformed value")
			}
		}
		s.pos = i
		shift, ok := s.fill(start)
		start -= shift
		if !ok {
			if s.err != nil {
				return s.err
			}
			return s.checkScalar(s.buf[start:s.pos])
		}
	}
}

func (s *scanner) checkScalar(b []byte) error {
	switch string(b) {
	case "true", "false", "null", "NaN", "Infinity", "-Infinity":
		return nil
	}
	if _, ok := parseNumber(b); ok {
		return nil
	}
	if len(b) > 0 && kindOf(b[0]) == kindNumber {
		// Out-of-range numbers such as 1e999 are still numbers.
		if _, err := strconv.ParseFloat(string(b), 64); err != nil && !errors.Is(err, strconv.ErrRange) {
			return s.errorf("malformed number %q", b)
		}
		return nil
	}
	return s.errorf("malformed value %q", b)
}

// skipNested skips an object or array by counting brackets outside strings. It does not check
// that brackets match in kind: that leniency costs nothing and keeps skipping a single pass.
func (s *scanner) skipNested() error {
	depth := 0
	inStr := false
	for {
		i, end, buf := s.pos, s.end, s.buf
		for i < end {
			c := buf[i]
			if inStr {
				if c != '"' && c != '\\' {
					// On to the string's next quote or backslash, a word at a time.
					for i+8 <= end {
						if m := quoteOrBackslash(binary.LittleEndian.Uint64(buf[i:])); m != 0 {
							i += bits.TrailingZeros64(m) >> 3
							break
						}
						i += 8
					}
					for i < end && buf[i] != '"' && buf[i] != '\\' {
						i++
					}
					if i >= end {
						break
					}
					c = buf[i]
				}
				if c == '"' {
					inStr = false
				} else {
					if i+1 >= end {
						break
					}
					i++
				}
				i++
				continue
			}
			switch c {
			case '"':
				inStr = true
			case '{', '[':
				depth++
				if depth > maxDepth {
					s.pos = i
					return s.errorf("values nested deeper than %d levels", maxDepth)
				}
			case '}', ']':
				depth--
				if depth == 0 {
					s.pos = i + 1
					return nil
				}
			}
			i++
		}
		s.pos = i
		if _, ok := s.fill(s.pos); !ok {
			return s.eofErr()
		}
	}
}

// peekInside returns the first non-space byte after the '[' or '{' at pos, consuming nothing. It
// gives up (false) after 64 KB of whitespace, which keeps the window bounded.
func (s *scanner) peekInside() (byte, bool) {
	i := s.pos + 1
	for {
		for ; i < s.end; i++ {
			c := s.buf[i]
			if c != ' ' && c != '\n' && c != '\r' && c != '\t' {
				return c, true
			}
			if i-s.pos > 64<<10 {
				return 0, false
			}
		}
		shift, ok := s.fill(s.pos)
		i -= shift
		if !ok {
			return 0, false
		}
	}
}

// skipBOM drops a UTF-8 byte order mark at the start.
func (s *scanner) skipBOM() {
	if s.end-s.pos < 3 {
		s.fill(s.pos)
	}
	if s.end-s.pos >= 3 && s.buf[s.pos] == 0xef && s.buf[s.pos+1] == 0xbb && s.buf[s.pos+2] == 0xbf {
		s.pos += 3
	}
}

// push appends v, doubling the capacity when full. append grows large slices by only 1.25×, which
// for columns of millions of entries means copying them over and over.
func push[T any](b *budget, s []T, v T) []T {
	if len(s) == cap(s) {
		s = grow(b, s, 1)
	}
	return append(s, v)
}

// pushTo is push for a slice held in the heap: storing push's result writes the slice's pointer
// (with the collector's write barrier while it marks), where appending in place writes only the
// length.
func pushTo[T any](b *budget, s *[]T, v T) {
	if len(*s) == cap(*s) {
		*s = grow(b, *s, 1)
	}
	*s = append(*s, v)
}

// grow makes room for n more elements, at least doubling the capacity when it must move, or
// taking only what the budget has left when a doubling would not fit. The new block is charged
// to b before it is allocated; the old one is released once copied.
func grow[T any](b *budget, s []T, n int) []T {
	if cap(s)-len(s) >= n {
		return s
	}
	var zero T
	size := int64(unsafe.Sizeof(zero))
	want := max(2*cap(s), len(s)+n, 256)
	if size > 0 {
		if fit := b.room() / size; int64(want) > fit && fit >= int64(len(s)+n) {
			want = int(fit)
		}
	}
	b.charge(int64(want) * size)
	ns := make([]T, len(s), want)
	background.Copy(ns, s)
	b.release(int64(cap(s)) * size)
	return ns
}

// over makes b, which starts at stream offset base, the scanner's whole input: a segment of the
// event array that a lane parses (split.go). b is read in place.
func (s *scanner) over(b []byte, base int64) {
	*s = scanner{ctx: s.ctx, mem: s.mem, str: s.str, badUTF8: s.badUTF8, capOut: s.capOut[:0],
		buf: b, end: len(b), base: base, eof: true}
}

// rewind moves the scanner back to stream offset at, whose bytes up to the window's next unread
// one are prefix: reading goes on there, then with the window and the rest of the source.
func (s *scanner) rewind(prefix []byte, at int64) {
	tail := s.buf[s.pos:s.end]
	n := len(prefix) + len(tail)
	var nb []byte
	if s.blocks != nil {
		// The window becomes a stitch: the prefix and the unread bytes from before the block
		// are foreign, the rest is the block's, whose unread rest (if any) follows as before.
		foreign := len(prefix) + max(s.foreign-s.pos, 0)
		nb = makeSlice[byte](s.mem, n, n)
		s.mem.release(int64(cap(s.stitch)))
		s.stitch, s.foreign = nb, foreign
	} else {
		nb = makeSlice[byte](s.mem, n, n+readSize)
		s.mem.release(int64(len(s.buf)))
		nb = nb[:cap(nb)]
	}
	copy(nb[copy(nb, prefix):], tail)
	s.buf, s.pos, s.end, s.base = nb, 0, n, at
	s.capOn, s.capLazy = false, false
}

// hideEnd undoes the sight of the input's end when it was reached by reading ahead (split.go looks
// for a cut): the end shows again when the parser asks for more, where a read in one pass sees it,
// so that errors and warnings read the same.
func (s *scanner) hideEnd() {
	if !s.eof {
		return
	}
	end := endedSource{err: s.err}
	s.src, s.eof, s.err = end, false, nil
	if s.blocks != nil {
		s.blocks = end
	}
}

// endedSource is the source of a scanner whose input has ended, with err (nil: io.EOF).
type endedSource struct{ err error }

func (e endedSource) Read([]byte) (int, error) { return 0, e.end() }

func (e endedSource) nextBlock() ([]byte, error) { return nil, e.end() }

func (e endedSource) releaseBlock([]byte) {}

func (e endedSource) end() error {
	if e.err != nil {
		return e.err
	}
	return io.EOF
}
