package timelines

import (
	"math"
	"strconv"

	"github.com/valyala/fastjson"
)

// jsonScalar copies a JSON value out of a parse (whose memory is reused): a string, a float64, a
// bool or nil, and an object or array as its JSON text.
func jsonScalar(v *fastjson.Value) any {
	if v == nil {
		return nil
	}
	switch v.Type() {
	case fastjson.TypeString:
		return string(v.GetStringBytes())
	case fastjson.TypeNumber:
		f, err := v.Float64()
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return v.String() // beyond float64: kept as written
		}
		return f
	case fastjson.TypeTrue:
		return true
	case fastjson.TypeFalse:
		return false
	case fastjson.TypeNull:
		return nil
	}
	return v.String()
}

// jsString is JavaScript's String(value) of a JSON value: "undefined" when absent.
func jsString(v *fastjson.Value) string {
	if v == nil {
		return "undefined"
	}
	switch v.Type() {
	case fastjson.TypeString:
		return string(v.GetStringBytes())
	case fastjson.TypeNull:
		return "null"
	case fastjson.TypeTrue:
		return "true"
	case fastjson.TypeFalse:
		return "false"
	case fastjson.TypeNumber:
		f, _ := v.Float64()
		return jsNumber(f)
	case fastjson.TypeArray:
		return "" // only arrays of scalars print otherwise; rare enough
	}
	return "[object Object]"
}

// jsNumber approximates JavaScript's Number#toString: plain digits in the usual range, else an
// exponent.
func jsNumber(f float64) string {
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}
