// Package dump owns the `flamedesk dump` output: the per-thread tracks of a loaded trace as one
// JSON object in the "flamedesk-dump/1" format of shared/conformance/README.md, which the
// conformance tools compare with DevTools' own output and which scripts can pipe into jq.
//
// The writer streams: a trace of millions of entries is written without building a document in
// memory.
package dump

import (
	"bufio"
	"encoding/json"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"unicode/utf8"

	"flamedesk/core"
	"flamedesk/core/lighthouse"
	"flamedesk/core/timelines"
)

// Format names the output format; it is the value of the top-level "format" key.
const Format = "flamedesk-dump/1"

// Options says what to write beyond the tracks.
type Options struct {
	// File is the input's path; its base name is written as input.file.
	File string
	// Refine adds the "lighthouse" list: each profile's naive and refined synthetic B/E events.
	Refine bool
}

// Write writes tr's tracks, profiles and warnings as JSON to w. tr.Tracks must have been built
// (core/integrate.Build).
func Write(w io.Writer, tr *core.Trace, opts Options) error {
	d := &writer{w: bufio.NewWriterSize(w, 1<<16), tr: tr}
	d.raw(`{"format":`)
	d.str(Format)
	d.raw(`,"input":{"file":`)
	d.str(filepath.Base(opts.File))
	d.raw(`,"kind":`)
	d.str(tr.Kind.String())
	d.raw("},\n\"threads\":[")
	for i := range tr.Tracks {
		if i > 0 {
			d.raw(",")
		}
		d.track(&tr.Tracks[i])
	}
	d.raw("],\n\"profiles\":[")
	for i := range tr.Profiles {
		p := &tr.Profiles[i]
		if i > 0 {
			d.raw(",")
		}
		d.raw("\n{\"profileId\":")
		d.str(tr.Strings.Get(p.ProfileID))
		d.raw(`,"pid":`)
		d.int(p.Pid)
		d.raw(`,"tid":`)
		d.int(p.Tid)
		d.raw(`,"nodes":`)
		d.int(int64(len(p.NodeID)))
		d.raw(`,"samples":`)
		d.int(int64(len(p.Samples)))
		d.raw("}")
	}
	d.raw("]")
	if opts.Refine {
		d.lighthouse()
	}
	if tr.Kind == core.InputTrace {
		d.timelines()
	}
	d.raw(",\n\"warnings\":[")
	for i, l := range tr.Warnings.Lines() {
		if i > 0 {
			d.raw(",")
		}
		d.str(l)
	}
	d.raw("]}\n")
	if d.err != nil {
		return d.err
	}
	return d.w.Flush()
}

type writer struct {
	w   *bufio.Writer
	tr  *core.Trace
	buf []byte
	err error
}

func (d *writer) raw(s string) {
	if d.err == nil {
		_, d.err = d.w.WriteString(s)
	}
}

func (d *writer) flushBuf() {
	if d.err == nil {
		_, d.err = d.w.Write(d.buf)
	}
	d.buf = d.buf[:0]
}

func (d *writer) str(s string) {
	d.buf = appendString(d.buf[:0], s)
	d.flushBuf()
}

func (d *writer) int(v int64) {
	d.buf = strconv.AppendInt(d.buf[:0], v, 10)
	d.flushBuf()
}

// track writes one thread with its entries in pre-order, one entry per line.
func (d *writer) track(t *core.Track) {
	tr := d.tr
	th := tr.Threads[t.Thread]
	b := d.buf[:0]
	b = append(b, "\n{\"pid\":"...)
	b = strconv.AppendInt(b, th.Pid, 10)
	b = append(b, `,"tid":`...)
	b = strconv.AppendInt(b, th.Tid, 10)
	b = append(b, `,"name":`...)
	b = appendOptString(b, tr.Strings.Get(th.Name))
	b = append(b, `,"processName":`...)
	b = appendOptString(b, tr.Strings.Get(th.ProcessName))
	b = append(b, `,"entries":[`...)
	for i := 0; i < t.Len(); i++ {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '\n')
		if t.KindAt(i) == core.EntryProfileCall {
			b = append(b, `{"kind":"profileCall","name":`...)
		} else {
			b = append(b, `{"kind":"event","name":`...)
		}
		b = appendString(b, tr.Strings.Get(t.NameAt(i)))
		if t.KindAt(i) != core.EntryProfileCall {
			b = append(b, `,"cat":`...)
			b = appendString(b, tr.Strings.Get(tr.Events.Cat[t.RefAt(i)]))
		}
		b = append(b, `,"ts":`...)
		b = appendFloat(b, t.StartAt(i))
		b = append(b, `,"dur":`...)
		b = appendFloat(b, t.DurAt(i))
		b = append(b, `,"depth":`...)
		b = strconv.AppendInt(b, int64(t.DepthAt(i)), 10)
		if t.KindAt(i) == core.EntryProfileCall {
			var f core.CallFrame
			if int(t.FrameAt(i)) < len(tr.Frames) {
				f = tr.Frames[t.FrameAt(i)]
			}
			b = append(b, `,"callFrame":{"functionName":`...)
			b = appendString(b, tr.Strings.Get(f.FunctionName))
			b = append(b, `,"url":`...)
			b = appendString(b, tr.Strings.Get(f.URL))
			b = append(b, `,"scriptId":`...)
			b = appendString(b, tr.Strings.Get(f.ScriptID))
			b = append(b, `,"lineNumber":`...)
			b = strconv.AppendInt(b, int64(f.Line), 10)
			b = append(b, `,"columnNumber":`...)
			b = strconv.AppendInt(b, int64(f.Column), 10)
			b = append(b, `},"nodeId":`...)
			b = strconv.AppendInt(b, d.nodeID(t, i), 10)
			if tr.IsMapped(t.FrameAt(i)) {
				// Where a source map puts the frame; the compared fields above stay the engine's.
				o := tr.Shown(t.FrameAt(i), true)
				b = append(b, `,"original":{"functionName":`...)
				b = appendString(b, tr.Strings.Get(o.FunctionName))
				b = append(b, `,"url":`...)
				b = appendString(b, tr.Strings.Get(o.URL))
				b = append(b, `,"lineNumber":`...)
				b = strconv.AppendInt(b, int64(o.Line), 10)
				b = append(b, `,"columnNumber":`...)
				b = strconv.AppendInt(b, int64(o.Column), 10)
				b = append(b, '}')
			}
		}
		b = append(b, '}')
		if len(b) > 1<<15 {
			d.buf = b
			d.flushBuf()
			b = d.buf
		}
	}
	b = append(b, "]}"...)
	d.buf = b
	d.flushBuf()
}

// lighthouse writes the list that --refine asks for: per profile, Lighthouse's naive and refined
// synthetic B/E events (refined null when the thread has no known tasks, naive null when
// Lighthouse cannot synthesize the profile).
func (d *writer) lighthouse() {
	d.raw(",\n\"lighthouse\":[")
	for i, r := range lighthouse.FromTrace(d.tr) {
		if i > 0 {
			d.raw(",")
		}
		p := &r.Profile
		b := append(d.buf[:0], "\n{\"id\":"...)
		b = appendString(b, p.ID)
		b = append(b, `,"pid":`...)
		b = strconv.AppendInt(b, p.Pid, 10)
		b = append(b, `,"tid":`...)
		b = strconv.AppendInt(b, p.Tid, 10)
		d.buf = b
		d.flushBuf()
		d.raw(`,"naive":`)
		d.syntheticEvents(p, r.Events, false)
		d.raw(`,"refined":`)
		d.syntheticEvents(p, r.Events, true)
		d.raw("}")
	}
	d.raw("]")
}

// syntheticEvents writes one list of synthetic events, or null when there is none.
func (d *writer) syntheticEvents(p *lighthouse.Profile, s *lighthouse.Synthetic, refined bool) {
	if s == nil || (refined && s.Refined == nil) {
		d.raw("null")
		return
	}
	b := append(d.buf[:0], '[')
	for i := 0; i < s.Len(); i++ {
		if i > 0 {
			b = append(b, ',')
		}
		node := &p.Nodes[s.Node[i]]
		b = append(b, "\n{\"ph\":\""...)
		b = append(b, s.Ph[i])
		b = append(b, `","ts":`...)
		if refined {
			b = appendFloat(b, s.Refined[i])
		} else {
			b = appendFloat(b, s.Naive(i))
		}
		b = append(b, `,"nodeId":`...)
		b = strconv.AppendInt(b, node.ID, 10)
		b = append(b, `,"functionName":`...)
		b = appendString(b, d.tr.Strings.Get(node.FunctionName))
		b = append(b, `,"url":`...)
		b = appendString(b, d.tr.Strings.Get(node.URL))
		b = append(b, '}')
		if len(b) > 1<<15 {
			d.buf = b
			d.flushBuf()
			b = d.buf
		}
	}
	b = append(b, ']')
	d.buf = b
	d.flushBuf()
}

// timelines writes the tracks beside the thread flame charts (core/timelines). They are small, so
// encoding/json writes them in one piece.
func (d *writer) timelines() {
	b, err := json.Marshal(timelines.Build(d.tr))
	if err != nil {
		if d.err == nil {
			d.err = err
		}
		return
	}
	d.raw(",\n\"timelines\":")
	if d.err == nil {
		_, d.err = d.w.Write(b)
	}
}

// nodeID is the profile's own id of a ProfileCall's node.
func (d *writer) nodeID(t *core.Track, i int) int64 {
	if t.Profile < 0 || int(t.Profile) >= len(d.tr.Profiles) {
		return -1
	}
	p := &d.tr.Profiles[t.Profile]
	if n := t.NodeAt(i); n >= 0 && int(n) < len(p.NodeID) {
		return p.NodeID[n]
	}
	return -1
}

// appendFloat writes a number the way JSON readers expect: shortest round-trip digits, plain
// notation except for very small or very large magnitudes, and null for NaN or infinities.
func appendFloat(b []byte, v float64) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return append(b, "null"...)
	}
	if a := math.Abs(v); a != 0 && (a < 1e-6 || a >= 1e21) {
		return strconv.AppendFloat(b, v, 'e', -1, 64)
	}
	return strconv.AppendFloat(b, v, 'f', -1, 64)
}

func appendOptString(b []byte, s string) []byte {
	if s == "" {
		return append(b, "null"...)
	}
	return appendString(b, s)
}

// appendString writes s as a JSON string; invalid UTF-8 becomes U+FFFD.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i++
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
