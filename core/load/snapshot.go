// Screenshot images kept as bytes instead of the base64 text the trace carries them in.

package load

import (
	"bytes"

	"github.com/segmentio/asm/base64"

	"flamedesk/core"
)

// minSnapshotText is the shortest base64 text worth decoding apart: below it the span of the
// image costs more than the quarter it saves.
const minSnapshotText = 64

// snapshotText returns where the text of args' top-level "snapshot" member starts and ends, when
// args (a JSON object) has one whose value is a string with no escapes. ok is false otherwise, and
// also when a key before it has escapes: a JSON reader compares keys unescaped, and might then
// take another member for the first "snapshot" than this scan does.
func snapshotText(args []byte) (from, to int, ok bool) {
	i := skipSpace(args, 0)
	if i >= len(args) || args[i] != '{' {
		return 0, 0, false
	}
	i++
	for {
		i = skipSpace(args, i)
		if i >= len(args) || args[i] != '"' {
			return 0, 0, false
		}
		keyFrom := i + 1
		keyTo, escaped := stringEnd(args, keyFrom)
		if keyTo < 0 || escaped {
			return 0, 0, false
		}
		i = skipSpace(args, keyTo+1)
		if i >= len(args) || args[i] != ':' {
			return 0, 0, false
		}
		i = skipSpace(args, i+1)
		if string(args[keyFrom:keyTo]) == "snapshot" {
			if i >= len(args) || args[i] != '"' {
				return 0, 0, false
			}
			end, escaped := stringEnd(args, i+1)
			if end < 0 || escaped {
				return 0, 0, false
			}
			return i + 1, end, true
		}
		if i = skipValue(args, i); i < 0 {
			return 0, 0, false
		}
		i = skipSpace(args, i)
		if i >= len(args) || args[i] != ',' {
			return 0, 0, false
		}
		i++
	}
}

// skipSpace returns the index of the first byte at or after i that is not JSON whitespace.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// stringEnd returns the index of the quote that ends the JSON string whose text starts at i, -1
// when it does not end, and whether the text has escapes.
func stringEnd(b []byte, i int) (end int, escaped bool) {
	// A screenshot's text is tens of KB without escapes: two vectorized searches cover it.
	if q := bytes.IndexByte(b[i:], '"'); q >= 0 && bytes.IndexByte(b[i:i+q], '\\') < 0 {
		return i + q, false
	}
	for ; i < len(b); i++ {
		switch b[i] {
		case '"':
			return i, escaped
		case '\\':
			escaped = true
			i++
		}
	}
	return -1, escaped
}

// skipValue returns the index just past the JSON value that starts at i, -1 when it does not end.
// Nested objects and arrays are skipped by their brackets alone: the loader's scanner has already
// read args as JSON.
func skipValue(b []byte, i int) int {
	depth := 0
	for ; i < len(b); i++ {
		switch c := b[i]; c {
		case '"':
			end, _ := stringEnd(b, i+1)
			if end < 0 {
				return -1
			}
			i = end
			if depth == 0 {
				return i + 1
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return i // the end of the enclosing object: a scalar ended here
			}
			if depth--; depth == 0 {
				return i + 1
			}
		case ',', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return i
			}
		}
	}
	if depth == 0 {
		return i
	}
	return -1
}

// splitSnapshot decodes the image of a Screenshot event's args: the bytes of its base64 text, and
// the args with that text taken out ("snapshot":""). ok is false, and args are to be kept as they
// are, unless the text is canonical padded base64, the one text that encoding the image gives
// back (timelines.SnapshotBase64 then returns it exactly). rest and image are written into the
// loader's scratch, valid until the next call.
func (l *loader) splitSnapshot(args []byte) (rest, image []byte, ok bool) {
	from, to, ok := snapshotText(args)
	if !ok || to-from < minSnapshotText || (to-from)%4 != 0 {
		return nil, nil, false
	}
	text := args[from:to]
	enc := base64.StdEncoding.Strict()
	l.image = growTo(l.image, enc.DecodedLen(len(text)))
	n, err := enc.Decode(l.image, text)
	// The decoder skips newlines, which JSON strings cannot hold raw; the length check is what
	// makes sure nothing was skipped.
	if err != nil || enc.EncodedLen(n) != len(text) {
		return nil, nil, false
	}
	l.argsRest = append(append(l.argsRest[:0], args[:from]...), args[to:]...)
	return l.argsRest, l.image[:n], true
}

// keepSnapshot keeps a Screenshot event's args with its image apart (splitSnapshot) when it can,
// and returns the span of the args, as argsArena.add does.
func (l *loader) keepSnapshot(args []byte, event int) (core.Span, bool) {
	e := &l.cols
	rest, image, split := l.splitSnapshot(args)
	if !split {
		return e.arena.add(l.mem, args)
	}
	return l.keepSplit(image, rest, event)
}

// keepSplit keeps a Screenshot's image apart from the rest of its args.
func (l *loader) keepSplit(image, rest []byte, event int) (core.Span, bool) {
	e := &l.cols
	at, ok := e.arena.add(l.mem, image)
	if !ok {
		return core.Span{}, false
	}
	span, ok := e.arena.add(l.mem, rest)
	if !ok {
		return core.Span{}, false
	}
	e.snapshots = append(e.snapshots, core.EventArgs{Event: int32(event), Span: at})
	return span, true
}

// growTo returns b with length n, reusing its array when it is large enough.
func growTo(b []byte, n int) []byte {
	if cap(b) < n {
		return make([]byte, n)
	}
	return b[:n]
}
