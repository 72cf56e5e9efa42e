// Package cache keeps a loaded, integrated core.Trace on disk so that a file opened before reopens
// without parsing: the trace's columns are written as raw little-endian blocks behind a header that
// names the source (path, size, modification time) and the format, and read back with one read of
// the file, the columns cast from its bytes rather than decoded one value at a time.
//
// The codec walks core.Trace by reflection, so a field added to the model is written and read back
// without a change here; a field of a kind the codec cannot write (an interface, a function, a struct
// with private fields it does not know) makes the schema invalid and the cache is then never used.
// The schema's fingerprint is part of the header, so a cache written before the model changed is
// a miss. Any mismatch or damage (length, checksum, fingerprint) is a miss, never a panic.
package cache

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"reflect"
	"unsafe"

	"flamedesk/core"
)

// errSchema is returned when core.Trace holds a field the codec cannot write.
var errSchema = errors.New("cache: core.Trace has a field the cache cannot store")

var (
	stringsType  = reflect.TypeFor[core.Strings]()
	warningsType = reflect.TypeFor[core.Warnings]()
	traceType    = reflect.TypeFor[core.Trace]()
)

// schema is the fingerprint of core.Trace's layout, or the reason it cannot be stored.
var schemaFingerprint, schemaErr = fingerprint(traceType)

// fingerprint hashes every field name, type, size and offset reachable from t, failing on a kind
// the codec does not handle (an interface, a function, a channel, a private field outside a plain
// struct).
func fingerprint(t reflect.Type) (uint64, error) {
	h := fnv.New64a()
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type) error
	walk = func(t reflect.Type) error {
		fmt.Fprintf(h, "(%s %d %d", t.String(), t.Kind(), t.Size())
		defer h.Write([]byte(")"))
		if seen[t] {
			return nil
		}
		seen[t] = true
		switch {
		case t == stringsType || t == warningsType:
			return nil
		case isPlain(t):
			if t.Kind() == reflect.Struct {
				for i := range t.NumField() {
					f := t.Field(i)
					fmt.Fprintf(h, "%s@%d:%s;", f.Name, f.Offset, f.Type)
				}
			}
			return nil
		}
		switch t.Kind() {
		case reflect.String:
			return nil
		case reflect.Slice:
			return walk(t.Elem())
		case reflect.Map:
			if !isPlain(t.Key()) || !isPlain(t.Elem()) {
				return fmt.Errorf("%w: %s", errSchema, t)
			}
			return walk(t.Key())
		case reflect.Pointer:
			// A pointer is written as a presence flag and the value it points to.
			return walk(t.Elem())
		case reflect.Struct:
			for i := range t.NumField() {
				f := t.Field(i)
				if !f.IsExported() {
					return fmt.Errorf("%w: private field %s.%s", errSchema, t, f.Name)
				}
				fmt.Fprintf(h, "%s:", f.Name)
				if err := walk(f.Type); err != nil {
					return err
				}
			}
			return nil
		}
		return fmt.Errorf("%w: %s", errSchema, t)
	}
	err := walk(t)
	return h.Sum64(), err
}

// isPlain reports whether a value of t is only bytes (no pointer, no string), so that a column of
// it can be written and read back as its memory.
func isPlain(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return true
	case reflect.Array:
		return isPlain(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if !isPlain(t.Field(i).Type) {
				return false
			}
		}
		return true
	}
	return false
}

// encoder streams 8-byte-aligned blocks to w, counting what it wrote; the first write error stays
// in err.
type encoder struct {
	w    io.Writer
	snap *Snap // where the string table and the warnings come from
	n    int64
	err  error
}

func (e *encoder) write(b []byte) {
	if e.err != nil || len(b) == 0 {
		return
	}
	var k int
	k, e.err = e.w.Write(b)
	e.n += int64(k)
}

func (e *encoder) u64(x uint64) {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], x)
	e.write(b[:])
}

var zeros [8]byte

func (e *encoder) raw(b []byte) {
	e.write(b)
	e.write(zeros[:(8-len(b)%8)%8])
}

// memory returns the bytes behind a slice of plain values.
func memory(v reflect.Value) []byte {
	n := v.Len() * int(v.Type().Elem().Size())
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(v.UnsafePointer()), n)
}

// length writes a slice's length as n+1, 0 for nil, so that nil and empty come back as they were.
func (e *encoder) length(v reflect.Value) bool {
	if v.IsNil() {
		e.u64(0)
		return false
	}
	e.u64(uint64(v.Len()) + 1)
	return true
}

func (e *encoder) value(v reflect.Value) {
	t := v.Type()
	switch {
	case t == stringsType:
		list := e.snap.strings
		e.u64(uint64(len(list)))
		lens := make([]uint64, len(list))
		total := 0
		for i, s := range list {
			lens[i] = uint64(len(s))
			total += len(s)
		}
		e.raw(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(lens))), 8*len(lens)))
		e.u64(uint64(total))
		for _, s := range list {
			e.write(unsafe.Slice(unsafe.StringData(s), len(s)))
		}
		e.write(zeros[:(8-total%8)%8])
		return
	case t == warningsType:
		msgs, counts := e.snap.warnings.Entries()
		e.u64(uint64(len(msgs)))
		for i, m := range msgs {
			e.str(m)
			e.u64(uint64(counts[i]))
		}
		return
	}
	switch t.Kind() {
	case reflect.Bool:
		if v.Bool() {
			e.u64(1)
		} else {
			e.u64(0)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.u64(uint64(v.Int()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		e.u64(v.Uint())
	case reflect.Float32, reflect.Float64:
		e.u64(math.Float64bits(v.Float()))
	case reflect.String:
		e.str(v.String())
	case reflect.Pointer:
		if v.IsNil() || (t.Elem() == stringsType && e.snap.strings == nil) {
			e.u64(0)
			return
		}
		e.u64(1)
		e.value(v.Elem())
	case reflect.Slice:
		if !e.length(v) {
			return
		}
		if isPlain(t.Elem()) {
			e.raw(memory(v))
			return
		}
		for i := range v.Len() {
			e.value(v.Index(i))
		}
	case reflect.Map:
		if v.IsNil() {
			e.u64(0)
			return
		}
		e.u64(uint64(v.Len()) + 1)
		keys := reflect.MakeSlice(reflect.SliceOf(t.Key()), 0, v.Len())
		vals := reflect.MakeSlice(reflect.SliceOf(t.Elem()), 0, v.Len())
		for it := v.MapRange(); it.Next(); {
			keys = reflect.Append(keys, it.Key())
			vals = reflect.Append(vals, it.Value())
		}
		e.raw(memory(keys))
		e.raw(memory(vals))
	case reflect.Struct:
		if isPlain(t) {
			e.raw(unsafe.Slice((*byte)(v.Addr().UnsafePointer()), t.Size()))
			return
		}
		for i := range v.NumField() {
			e.value(v.Field(i))
		}
	default:
		panic("cache: unchecked schema") // fingerprint refuses every other kind first
	}
}

func (e *encoder) str(s string) {
	e.u64(uint64(len(s)))
	e.raw(unsafe.Slice(unsafe.StringData(s), len(s)))
}

// decoder reads blocks from buf, whose start is 8-byte aligned. The values it returns alias buf.
type decoder struct {
	buf []byte
	off int
	err error
}

var errDamaged = errors.New("cache: damaged or truncated")

func (d *decoder) fail() {
	if d.err == nil {
		d.err = errDamaged
	}
}

func (d *decoder) u64() uint64 {
	if d.err != nil || len(d.buf)-d.off < 8 {
		d.fail()
		return 0
	}
	x := binary.LittleEndian.Uint64(d.buf[d.off:])
	d.off += 8
	return x
}

// raw returns the next n bytes and skips the padding after them.
func (d *decoder) raw(n uint64) []byte {
	left := uint64(len(d.buf) - d.off)
	if d.err != nil || n > left {
		d.fail()
		return nil
	}
	b := d.buf[d.off : d.off+int(n) : d.off+int(n)]
	padded := (n + 7) &^ 7
	if padded > left {
		d.fail()
		return nil
	}
	d.off += int(padded)
	return b
}

// count reads a number of items of at least size bytes each, failing when the rest of the
// buffer cannot hold that many.
func (d *decoder) count(size uint64) int {
	n := d.u64()
	if d.err != nil {
		return 0
	}
	if size == 0 {
		size = 1
	}
	if n > uint64(len(d.buf)-d.off)/size {
		d.fail()
		return 0
	}
	return int(n)
}

// column casts the next n values of elem from the buffer.
func (d *decoder) column(elem reflect.Type, n int) reflect.Value {
	b := d.raw(uint64(n) * uint64(elem.Size()))
	if d.err != nil {
		return reflect.Zero(reflect.SliceOf(elem))
	}
	if n == 0 || len(b) == 0 {
		return reflect.MakeSlice(reflect.SliceOf(elem), n, n)
	}
	return reflect.SliceAt(elem, unsafe.Pointer(unsafe.SliceData(b)), n)
}

func (d *decoder) str() string {
	b := d.raw(d.u64())
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

func (d *decoder) value(v reflect.Value) {
	if d.err != nil {
		return
	}
	t := v.Type()
	switch {
	case t == stringsType:
		n := d.count(8)
		lens := d.column(reflect.TypeFor[uint64](), n).Interface().([]uint64)
		arena := d.raw(d.u64())
		if d.err != nil {
			return
		}
		list := make([]string, n)
		off := uint64(0)
		for i, l := range lens {
			if l > uint64(len(arena))-off {
				d.fail()
				return
			}
			if l > 0 {
				list[i] = unsafe.String(&arena[off], int(l))
			}
			off += l
		}
		if n == 0 || list[0] != "" {
			d.fail()
			return
		}
		v.Set(reflect.ValueOf(*core.StringsFrom(list)))
		return
	case t == warningsType:
		n := d.count(16)
		var w core.Warnings
		for range n {
			m := d.str()
			c := d.u64()
			if d.err != nil || c == 0 || c > math.MaxInt32 {
				d.fail()
				return
			}
			w.Add(m, int(c))
		}
		v.Set(reflect.ValueOf(w))
		return
	}
	switch t.Kind() {
	case reflect.Bool:
		x := d.u64()
		if x > 1 {
			d.fail()
		}
		v.SetBool(x == 1)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(d.u64()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(d.u64())
	case reflect.Float32, reflect.Float64:
		v.SetFloat(math.Float64frombits(d.u64()))
	case reflect.String:
		v.SetString(d.str())
	case reflect.Pointer:
		switch d.u64() {
		case 0:
		case 1:
			p := reflect.New(t.Elem())
			d.value(p.Elem())
			v.Set(p)
		default:
			d.fail()
		}
	case reflect.Slice:
		elem := t.Elem()
		plain := isPlain(elem)
		size := uint64(8)
		if plain {
			size = uint64(elem.Size())
		}
		n := d.count(0)
		if n == 0 {
			return // nil
		}
		n--
		if uint64(n) > uint64(len(d.buf)-d.off)/max(size, 1) {
			d.fail()
			return
		}
		if plain {
			v.Set(d.column(elem, n))
			return
		}
		s := reflect.MakeSlice(t, n, n)
		for i := range n {
			d.value(s.Index(i))
		}
		v.Set(s)
	case reflect.Map:
		n := d.count(0)
		if n == 0 {
			return
		}
		n--
		if uint64(n) > uint64(len(d.buf)-d.off)/max(uint64(t.Key().Size()+t.Elem().Size()), 1) {
			d.fail()
			return
		}
		keys := d.column(t.Key(), n)
		vals := d.column(t.Elem(), n)
		if d.err != nil {
			return
		}
		m := reflect.MakeMapWithSize(t, n)
		for i := range n {
			m.SetMapIndex(keys.Index(i), vals.Index(i))
		}
		v.Set(m)
	case reflect.Struct:
		if isPlain(t) {
			b := d.raw(uint64(t.Size()))
			if d.err == nil && len(b) > 0 {
				v.Set(reflect.NewAt(t, unsafe.Pointer(unsafe.SliceData(b))).Elem())
			}
			return
		}
		for i := range v.NumField() {
			d.value(v.Field(i))
		}
	default:
		d.fail()
	}
}
