package timelines

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/valyala/fastjson"

	"flamedesk/core"
)

// args reads values out of the raw args JSON that the loader kept for an event. One reader is
// reused for every event of a pass: its parser's memory is recycled, so a value returned by parse
// is valid only until the next call.
type args struct {
	tr *core.Trace
	p  fastjson.Parser
}

// parse returns event i's args object, or nil when the loader kept none or they are not an object.
func (a *args) parse(i int) *fastjson.Value {
	raw := a.tr.Events.ArgsJSON(i)
	if raw == nil {
		return nil
	}
	v, err := a.p.ParseBytes(raw)
	if err != nil || v.Type() != fastjson.TypeObject {
		return nil
	}
	return v
}

// str is the string at path, and whether a string is there.
func str(v *fastjson.Value, path ...string) (string, bool) {
	if v == nil {
		return "", false
	}
	x := v.Get(path...)
	if x == nil || x.Type() != fastjson.TypeString {
		return "", false
	}
	return string(x.GetStringBytes()), true
}

// num is the number at path, and whether a number is there.
func num(v *fastjson.Value, path ...string) (float64, bool) {
	if v == nil {
		return 0, false
	}
	x := v.Get(path...)
	if x == nil || x.Type() != fastjson.TypeNumber {
		return 0, false
	}
	f, err := x.Float64()
	return f, err == nil
}

// truthy is JavaScript's truthiness of the value at path: false for absent, null, false, 0, NaN and "".
func truthy(v *fastjson.Value, path ...string) bool {
	if v == nil {
		return false
	}
	x := v.Get(path...)
	if x == nil {
		return false
	}
	switch x.Type() {
	case fastjson.TypeNull, fastjson.TypeFalse:
		return false
	case fastjson.TypeNumber:
		f, _ := x.Float64()
		return f != 0 && f == f
	case fastjson.TypeString:
		return len(x.GetStringBytes()) > 0
	}
	return true
}

// has tells whether path is present, whatever its value (null included).
func has(v *fastjson.Value, path ...string) bool {
	return v != nil && v.Get(path...) != nil
}

// key is the value at path as a map key the way JavaScript would see it: a string as is, a number
// as its shortest text. ok is false when absent or another type.
func key(v *fastjson.Value, path ...string) (string, bool) {
	if v == nil {
		return "", false
	}
	x := v.Get(path...)
	if x == nil {
		return "", false
	}
	switch x.Type() {
	case fastjson.TypeString:
		return string(x.GetStringBytes()), true
	case fastjson.TypeNumber:
		f, err := x.Float64()
		if err != nil {
			return "", false
		}
		return strconv.FormatFloat(f, 'f', -1, 64), true
	}
	return "", false
}

// nameSet is the position in a list of event names of each StrID that spells one of them: a
// table indexed by StrID, up to the largest such StrID, that the lists read for every event of
// the trace in place of a map lookup (a fifth of their scans' time on gen-trace-large).
type nameSet struct {
	pos []uint16 // position+1 by StrID, 0 for a StrID that is none of the names
}

// lookupNames is the nameSet of names (a short list: fewer than 65535); a name the trace never
// used is in none. Of two equal names, the later one's position counts.
func lookupNames(tr *core.Trace, names ...string) nameSet {
	top := -1
	for _, n := range names {
		if id, ok := tr.Strings.Lookup(n); ok {
			top = max(top, int(id))
		}
	}
	s := nameSet{}
	if top < 0 {
		return s
	}
	s.pos = make([]uint16, top+1)
	for i, n := range names {
		if id, ok := tr.Strings.Lookup(n); ok {
			s.pos[id] = uint16(i) + 1
		}
	}
	return s
}

// find is the position of id's name in the list, ok false for a StrID that is none of them.
func (s nameSet) find(id core.StrID) (int, bool) {
	if int(id) >= len(s.pos) || s.pos[id] == 0 {
		return 0, false
	}
	return int(s.pos[id]) - 1, true
}

// empty reports whether the trace has none of the names.
func (s nameSet) empty() bool { return s.pos == nil }

// jsNum is the value at path as JavaScript arithmetic sees it: a number as is, null and false 0,
// true 1, a numeric string its number, anything else (absent included) NaN.
func jsNum(v *fastjson.Value, path ...string) float64 {
	if v == nil {
		return math.NaN()
	}
	x := v.Get(path...)
	if x == nil {
		return math.NaN()
	}
	switch x.Type() {
	case fastjson.TypeNumber:
		f, err := x.Float64()
		if err != nil {
			return math.NaN()
		}
		return f
	case fastjson.TypeNull, fastjson.TypeFalse:
		return 0
	case fastjson.TypeTrue:
		return 1
	case fastjson.TypeString:
		s := strings.TrimSpace(string(x.GetStringBytes()))
		if s == "" {
			return 0
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return math.NaN()
		}
		return f
	}
	return math.NaN()
}

// nullish tells whether path is absent or null, where JavaScript's ?? would take its default.
func nullish(v *fastjson.Value, path ...string) bool {
	if v == nil {
		return true
	}
	x := v.Get(path...)
	return x == nil || x.Type() == fastjson.TypeNull
}

// Raw is a value copied from an event's args as it was written, for the fields the engine passes
// through without looking at their type. An empty Raw is written as null.
type Raw []byte

// MarshalJSON writes the value, or null when there is none.
func (r Raw) MarshalJSON() ([]byte, error) {
	if len(r) == 0 {
		return []byte("null"), nil
	}
	return r, nil
}

// String is the value when it is a JSON string, else "".
func (r Raw) String() string {
	if len(r) < 2 || r[0] != '"' {
		return ""
	}
	var s string
	if json.Unmarshal(r, &s) != nil {
		return ""
	}
	return s
}

// raw copies the value at path; nil when absent.
func raw(v *fastjson.Value, path ...string) Raw {
	if v == nil {
		return nil
	}
	x := v.Get(path...)
	if x == nil {
		return nil
	}
	return x.MarshalTo(nil)
}

// rawOr copies the value at path, or def (JSON text) when it is absent or null, as `?? def`.
func rawOr(v *fastjson.Value, def string, path ...string) Raw {
	if nullish(v, path...) {
		return Raw(def)
	}
	return raw(v, path...)
}
