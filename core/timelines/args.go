package timelines

import (
	"strconv"

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

// boolean is the JSON boolean at path, and whether one is there.
func boolean(v *fastjson.Value, path ...string) (bool, bool) {
	if v == nil {
		return false, false
	}
	x := v.Get(path...)
	if x == nil {
		return false, false
	}
	switch x.Type() {
	case fastjson.TypeTrue:
		return true, true
	case fastjson.TypeFalse:
		return false, true
	}
	return false, false
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

// names looks up the StrIDs of the given event names; a name the trace never used gets ok false.
type nameSet map[core.StrID]int

// lookupNames maps the StrID of each name the trace has to its position in names.
func lookupNames(tr *core.Trace, names ...string) nameSet {
	s := nameSet{}
	for i, n := range names {
		if id, ok := tr.Strings.Lookup(n); ok {
			s[id] = i
		}
	}
	return s
}
