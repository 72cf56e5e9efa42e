package core

import "math"

// Times is a column of times or durations in µs. Most traces stamp whole microseconds, so a
// column holds 32-bit offsets from Base while every value is exactly Base plus one of them (an
// integer within 35 minutes of Base), or such a whole µs taken through DevTools' detour through
// milliseconds (µs / 1000 × 1000, which is how sample times reach ProfileCalls, and is not always
// the integer it started from); and float64s from the first value that is neither. The values read
// back are always the ones stored, bit for bit.
type Times struct {
	// Base is a whole number of µs; Off counts from it. Both are unused once Wide is set.
	Base float64
	Off  []uint32
	// Wide holds the values themselves when one of them is no Base+offset; nil otherwise.
	Wide []float64
}

// NewTimes returns a column of n values, all base (rounded down to a whole µs), that keeps
// offsets from it.
func NewTimes(base float64, n int) Times {
	b := math.Floor(base)
	if math.IsNaN(b) || math.IsInf(b, 0) || math.Abs(b) > 1<<53 {
		b = 0
	}
	return Times{Base: b, Off: make([]uint32, n)}
}

// Len is the number of values.
func (c *Times) Len() int {
	if c.Wide != nil {
		return len(c.Wide)
	}
	return len(c.Off)
}

// detoured marks an offset whose value went through the milliseconds detour.
const detoured = 1 << 31

// At returns value i.
func (c *Times) At(i int) float64 {
	if c.Wide != nil {
		return c.Wide[i]
	}
	o := c.Off[i]
	if o&detoured != 0 {
		return (c.Base + float64(o&^detoured)) / 1000 * 1000
	}
	return c.Base + float64(o)
}

// offset returns how v is stored as an offset from Base, ok false when it cannot be exactly.
func (c *Times) offset(v float64) (uint32, bool) {
	d := v - c.Base
	if !(d >= 0 && d < detoured) {
		return 0, false
	}
	o := uint32(d)
	if math.Float64bits(c.Base+float64(o)) == math.Float64bits(v) {
		return o, true
	}
	u := math.Round(d)
	if !(u >= 0 && u < detoured) {
		return 0, false
	}
	o = uint32(u)
	return o | detoured, math.Float64bits((c.Base+float64(o))/1000*1000) == math.Float64bits(v)
}

// Fits reports whether v can be stored without widening the column.
func (c *Times) Fits(v float64) bool {
	if c.Wide != nil {
		return true
	}
	_, ok := c.offset(v)
	return ok
}

// Set stores v as value i, widening the column when v needs it.
func (c *Times) Set(i int, v float64) {
	if c.Wide == nil {
		if o, ok := c.offset(v); ok {
			c.Off[i] = o
			return
		}
		c.widen()
	}
	c.Wide[i] = v
}

// Append adds v at the end.
func (c *Times) Append(v float64) {
	if c.Wide == nil {
		if o, ok := c.offset(v); ok {
			c.Off = append(c.Off, o)
			return
		}
		c.widen()
	}
	c.Wide = append(c.Wide, v)
}

// Move copies value from to index to, as it is stored.
func (c *Times) Move(to, from int) {
	if c.Wide != nil {
		c.Wide[to] = c.Wide[from]
	} else {
		c.Off[to] = c.Off[from]
	}
}

// Truncate keeps the first n values.
func (c *Times) Truncate(n int) {
	if c.Wide != nil {
		c.Wide = c.Wide[:n]
	} else {
		c.Off = c.Off[:n]
	}
}

// Clip drops the spare capacity left by Append or Truncate.
func (c *Times) Clip() {
	if c.Wide != nil {
		if cap(c.Wide) > len(c.Wide) {
			c.Wide = append([]float64(nil), c.Wide...)
		}
	} else if cap(c.Off) > len(c.Off) {
		c.Off = append([]uint32(nil), c.Off...)
	}
}

// IsWide reports whether the column stores float64s.
func (c *Times) IsWide() bool { return c.Wide != nil }

func (c *Times) widen() {
	w := make([]float64, len(c.Off), max(cap(c.Off), 1))
	for i := range c.Off {
		w[i] = c.At(i)
	}
	c.Wide, c.Off = w, nil
}
