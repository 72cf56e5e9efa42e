package timelines

import (
	"encoding/base64"
	"math"

	"github.com/valyala/fastjson"

	"flamedesk/core"
	"flamedesk/internal/background"
)

// Screenshot is one frame of the filmstrip. Its image (a JPEG, usually) stays where the loader kept
// it, decoded beside the args or as their base64 text (core.Events.Snapshot).
type Screenshot struct {
	Ts    float64 `json:"ts"`
	Dur   Num     `json:"dur"`   // until the next screenshot; the last one until bounds.max
	Bytes int     `json:"bytes"` // the size of the decoded image
	// Event indexes tr.Events.
	Event int32 `json:"-"`
}

// buildScreenshots is the filmstrip: the modern Screenshot events (args.source_id, no id) when
// there are any, else the legacy ones (with an id), in file order, without those before
// bounds.min.
func buildScreenshots(tr *core.Trace, b Bounds) []Screenshot {
	name, ok := tr.Strings.Lookup("Screenshot")
	if !ok {
		return nil
	}
	ev := &tr.Events
	a := &args{tr: tr}
	var modern, legacy []Screenshot
	badBase64 := 0
	for i, n := range ev.Name {
		background.YieldEvery(i)
		if n != name {
			continue
		}
		_, src := ev.AsyncIDOf(i)
		v := a.parse(i)
		isLegacy := src == core.IDField || src == core.IDUnreadable
		if !isLegacy && !has(v, "source_id") {
			continue
		}
		s := Screenshot{Ts: ev.Ts[i], Event: int32(i)}
		var bad bool
		if image, decoded := ev.Snapshot(i); decoded {
			s.Bytes = len(image)
		} else if x := v.Get("snapshot"); x != nil && x.Type() == fastjson.TypeString {
			s.Bytes, bad = base64Size(x.GetStringBytes())
		} else {
			bad = true
		}
		if bad {
			badBase64++
		}
		if isLegacy {
			legacy = append(legacy, s)
		} else {
			modern = append(modern, s)
		}
	}
	tr.Warnings.Add("screenshots whose args.snapshot is missing or not base64 (the valid characters are counted)", badBase64)
	list := modern
	if len(list) == 0 {
		list = legacy
	}
	kept := list[:0]
	for _, s := range list {
		if !(s.Ts < float64(b.Min)) {
			kept = append(kept, s)
		}
	}
	for k := range kept {
		end := float64(b.Max)
		if k+1 < len(kept) {
			end = kept[k+1].Ts
		}
		kept[k].Dur = Num(end - kept[k].Ts)
		if math.IsInf(end, 0) {
			kept[k].Dur = Num(math.NaN())
		}
	}
	return kept
}

// base64Size is the length of what text decodes to, counted as a lenient decoder (Node's Buffer)
// reads it: characters outside the alphabet are skipped, '=' ends the data. bad tells that there
// were such characters (other than whitespace).
func base64Size(text []byte) (n int, bad bool) {
	chars := 0
	for _, c := range text {
		switch {
		case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '+', c == '/', c == '-', c == '_':
			chars++
		case c == '=':
			return chars * 6 / 8, bad
		case c == ' ', c == '\n', c == '\r', c == '\t':
		default:
			bad = true
		}
	}
	return chars * 6 / 8, bad
}

// SnapshotBase64 returns the base64 text of screenshot s's image, nil when it has none.
func SnapshotBase64(tr *core.Trace, s Screenshot) []byte {
	if image, decoded := tr.Events.Snapshot(int(s.Event)); decoded {
		return base64.StdEncoding.AppendEncode(nil, image)
	}
	var a args
	a.tr = tr
	v := a.parse(int(s.Event))
	if x := v.Get("snapshot"); x != nil && x.Type() == fastjson.TypeString {
		return append([]byte(nil), x.GetStringBytes()...)
	}
	return nil
}

// SnapshotImage decodes screenshot s's image (a JPEG, usually), reading the base64 text leniently as
// the engine's data: URL does: characters outside the alphabet are skipped, '=' ends the data.
func SnapshotImage(tr *core.Trace, s Screenshot) []byte {
	if image, decoded := tr.Events.Snapshot(int(s.Event)); decoded {
		return append([]byte(nil), image...)
	}
	text := SnapshotBase64(tr, s)
	clean := text[:0]
	for _, c := range text {
		switch {
		case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '+', c == '/':
			clean = append(clean, c)
		case c == '-':
			clean = append(clean, '+')
		case c == '_':
			clean = append(clean, '/')
		}
		if c == '=' {
			break
		}
	}
	if len(clean)%4 == 1 { // a lone last character holds no whole byte
		clean = clean[:len(clean)-1]
	}
	out := make([]byte, base64.RawStdEncoding.DecodedLen(len(clean)))
	n, _ := base64.RawStdEncoding.Decode(out, clean)
	return out[:n]
}
