package load

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"

	"flamedesk/core"
)

// withLanes runs f with the event array cut into segments of at least least and at most most
// bytes and read on lanes lanes (0: in one pass).
func withLanes(lanes, least, most int, f func()) {
	wasCount, wasMin, wasMax := laneCount, segmentMin, segmentMax
	laneCount = func(bool) int { return lanes }
	segmentMin, segmentMax = least, most
	defer func() { laneCount, segmentMin, segmentMax = wasCount, wasMin, wasMax }()
	f()
}

// loadBytes loads data as a file's content.
func loadBytes(data []byte) (*core.Trace, error) {
	return Reader(context.Background(), bytes.NewReader(data), int64(len(data)), nil)
}

// sameLoad fails t unless a and b (and their errors) are the same load, the time taken aside.
func sameLoad(t *testing.T, a, b *core.Trace, errA, errB error) {
	t.Helper()
	if (errA == nil) != (errB == nil) || (errA != nil && errA.Error() != errB.Error()) {
		t.Fatalf("errors differ: in one pass %v, split %v", errA, errB)
	}
	if errA != nil {
		return
	}
	if sa, sb := a.Strings.All(), b.Strings.All(); !reflect.DeepEqual(sa, sb) {
		t.Errorf("strings differ: %d in one pass, %d split", len(sa), len(sb))
		for i := range min(len(sa), len(sb)) {
			if sa[i] != sb[i] {
				t.Errorf("first at %d: %q / %q", i, sa[i], sb[i])
				break
			}
		}
	}
	ca, cb := *a, *b
	ca.Strings, cb.Strings = nil, nil
	ca.Stats, cb.Stats = core.LoadStats{}, core.LoadStats{}
	va, vb := reflect.ValueOf(ca), reflect.ValueOf(cb)
	for i := range va.NumField() {
		if !sameBits(va.Field(i), vb.Field(i)) {
			name := va.Type().Field(i).Name
			t.Errorf("%s differs", name)
			if name == "Warnings" {
				ma, na := a.Warnings.Entries()
				mb, nb := b.Warnings.Entries()
				t.Errorf("one pass: %q %v\nsplit: %q %v", ma, na, mb, nb)
			}
			if name == "Chunks" || name == "Events" {
				fa, fb := va.Field(i), vb.Field(i)
				for j := range fa.NumField() {
					if !sameBits(fa.Field(j), fb.Field(j)) {
						t.Errorf("  %s.%s differs", name, fa.Type().Field(j).Name)
					}
				}
			}
		}
	}
}

// compareSplit loads data in one pass and split in segments of each size, and compares.
func compareSplit(t *testing.T, data []byte) {
	t.Helper()
	var one *core.Trace
	var oneErr error
	withLanes(0, 0, 0, func() { one, oneErr = loadBytes(data) })
	for _, size := range [][2]int{{1, 300}, {1, 5000}, {2000, 64 << 10}} {
		withLanes(3, size[0], size[1], func() {
			split, err := loadBytes(data)
			sameLoad(t, one, split, oneErr, err)
		})
		if t.Failed() {
			t.Fatalf("with segments of %d to %d bytes", size[0], size[1])
		}
	}
}

// TestSplitAsOnePass loads every fixture in one pass and split into segments of several sizes,
// from a few events to many: the traces must be the same, string and thread ids, event indexes
// and warnings included.
func TestSplitAsOnePass(t *testing.T) {
	for _, path := range everyFixture(t) {
		name := filepath.Base(path)
		if strings.Contains(name, "large") {
			continue
		}
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if raceEnabled && len(data) > 1<<20 {
				t.Skip("under the race detector the smaller files cover the lanes, in seconds rather than a minute")
			}
			compareSplit(t, data)
		})
	}
}

// TestSplitDamaged splits traces that a lane cannot read to the end of its segment: malformed
// events, a line that starts with '{' inside a string, the end of the array followed by more,
// NUL bytes, a cut file; read plain and gzipped, so that the loader goes back both in its own
// buffer and in the inflater's blocks.
func TestSplitDamaged(t *testing.T) {
	var events []string
	for i := range 400 {
		ph := "X"
		if i%7 == 0 {
			ph = "B"
		}
		events = append(events, fmt.Sprintf(`{"ph":"%s","name":"n%d","cat":"c%d","pid":%d,"tid":%d,"ts":%d,"dur":3,"args":{"data":{"x":%d}}}`,
			ph, i%37, i%5, 1+i%3, i%11, 1000+i*10, i))
		if i%50 == 10 {
			events = append(events, fmt.Sprintf(`{"ph":"M","name":"thread_name","pid":%d,"tid":%d,"args":{"name":"T%d"}}`, 1+i%3, i%11, i))
			nodes := `[{"id":1,"callFrame":{"functionName":"(root)","url":"","scriptId":0,"lineNumber":-1,"columnNumber":-1}},` +
				fmt.Sprintf(`{"id":2,"parent":1,"callFrame":{"functionName":"f%d","url":"u%d.js","scriptId":3,"lineNumber":1,"columnNumber":2}}]`, i, i%4)
			events = append(events,
				fmt.Sprintf(`{"ph":"P","name":"Profile","pid":1,"tid":%d,"id":"0x%d","ts":%d,"args":{"data":{"startTime":%d}}}`, i%11, i, 1000+i*10, 1000+i*10),
				fmt.Sprintf(`{"ph":"P","name":"ProfileChunk","pid":1,"tid":%d,"id":"0x%d","ts":%d,"args":{"data":{"cpuProfile":{"nodes":%s,"samples":[2,2,1,2.5]},"timeDeltas":[1,2,3.5,4]}}}`, 99, i, 1001+i*10, nodes))
		}
		if i%40 == 5 {
			events = append(events, fmt.Sprintf(`{"ph":"b","name":"async","cat":"a","id":"0x%d","pid":1,"tid":1,"ts":%d}`, i, 1000+i*10))
			events = append(events, fmt.Sprintf(`{"ph":"X","name":"Screenshot","pid":1,"tid":1,"ts":%d,"id":"0x%d","args":{"snapshot":"%s"}}`, 1000+i*10, i, strings.Repeat("QUJD", 40)))
		}
	}
	whole := "[\n" + strings.Join(events, ",\n") + "\n]\n"
	cases := map[string]string{
		"whole":     whole,
		"no end":    strings.TrimSuffix(whole, "\n]\n"),
		"cut":       whole[:len(whole)*2/3],
		"malformed": strings.Replace(whole, `"n5","cat"`, `"n5" "cat"`, 3),
		"no ts":     strings.Replace(whole, `"ts":1100,`, ``, 1),
		"bad ts":    strings.Replace(whole, `"ts":1200,`, `"ts":"x",`, 1),
		"brace in string": strings.Replace(whole, `"name":"n3",`,
			"\"name\":\"n3\n{\\\"ph\\\":\\\"X\\\",\\\"name\\\":\\\"fake\\\",\\\"ts\\\":1,\\\"pid\\\":1,\\\"tid\\\":1},\n\",", 2),
		"second document":  whole + "[\n" + strings.Join(events[:20], ",\n") + "\n]\n",
		"array ends early": strings.Replace(whole, ",\n"+events[200]+",\n", "\n]\n,\n"+events[200]+",\n", 1),
		"nul":              whole[:len(whole)/2] + strings.Repeat("\x00", 100),
		"object":           `{"traceEvents":` + whole + `,"metadata":{"source":"x"}}`,
		"bad utf8":         strings.Replace(whole, `"n7"`, "\"n7\xff\"", 5),
	}
	for name, text := range cases {
		t.Run(name, func(t *testing.T) {
			compareSplit(t, []byte(text))
			var gz bytes.Buffer
			w := gzip.NewWriter(&gz)
			w.Write([]byte(text))
			w.Close()
			compareSplit(t, gz.Bytes())
		})
	}
}

// sameBits is reflect.DeepEqual with floats compared by their bits, so that NaN equals NaN.
func sameBits(a, b reflect.Value) bool {
	switch a.Kind() {
	case reflect.Float32, reflect.Float64:
		return math.Float64bits(a.Float()) == math.Float64bits(b.Float())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.String:
		return a.String() == b.String()
	case reflect.Slice:
		if a.IsNil() != b.IsNil() {
			return false
		}
		fallthrough
	case reflect.Array:
		if a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !sameBits(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := range a.NumField() {
			if !sameBits(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return sameBits(a.Elem(), b.Elem())
	case reflect.Map:
		if a.Len() != b.Len() {
			return false
		}
		for _, k := range a.MapKeys() {
			if vb := b.MapIndex(k); !vb.IsValid() || !sameBits(a.MapIndex(k), vb) {
				return false
			}
		}
		return true
	}
	panic("sameBits: " + a.Kind().String())
}

// FuzzSplit loads each input in one pass and split into segments of a few events: the two must be
// the same load, whatever the input.
func FuzzSplit(f *testing.F) {
	traceSeeds(f)
	f.Add([]byte("[\n{\"ph\":\"X\",\"name\":\"a\n{\",\"ts\":1,\"pid\":1,\"tid\":1},\n{\"ph\":\"X\",\"name\":\"b\",\"ts\":2,\"pid\":1,\"tid\":1}\n]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var one, split *core.Trace
		var oneErr, splitErr error
		withLanes(0, 0, 0, func() { one, oneErr = loadBytes(data) })
		withLanes(3, 1, 64, func() { split, splitErr = loadBytes(data) })
		sameLoad(t, one, split, oneErr, splitErr)
	})
}

// TestSplitWidensAsOnePass: a profile whose later chunks sample nodes with ids past 65535 widens
// its halved sample ids at a check partway (pushNarrow), and a trace read on lanes, whose own
// arenas widen elsewhere or not at all, must widen the load's at the same value.
func TestSplitWidensAsOnePass(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"traceEvents":[` + "\n")
	b.WriteString(`{"ph":"P","name":"Profile","pid":1,"tid":1,"ts":100,"id":"0x1","args":{"data":{"startTime":100}}}`)
	nodes := `{"id":1,"callFrame":{"functionName":"(root)"}},{"id":2,"parent":1,"callFrame":{"functionName":"f"}},` +
		`{"id":100000,"parent":1,"callFrame":{"functionName":"g"}}`
	for c := range 60 {
		var ids, deltas []string
		for i := range 300 {
			id := "2"
			if c >= 20 && i%2 == 0 { // past chunk 20, half the samples escape 16 bits
				id = "100000"
			}
			ids, deltas = append(ids, id), append(deltas, fmt.Sprint(100+i%7))
		}
		data := `"cpuProfile":{"samples":[` + strings.Join(ids, ",") + `]},"timeDeltas":[` + strings.Join(deltas, ",") + `]`
		if c == 0 {
			data = `"cpuProfile":{"nodes":[` + nodes + `],"samples":[` + strings.Join(ids, ",") + `]},"timeDeltas":[` + strings.Join(deltas, ",") + `]`
		}
		fmt.Fprintf(&b, ",\n"+`{"ph":"P","name":"ProfileChunk","pid":1,"tid":1,"ts":%d,"id":"0x1","args":{"data":{%s}}}`, 200+c, data)
	}
	b.WriteString("\n]}\n")
	data := []byte(b.String())
	var one *core.Trace
	withLanes(0, 0, 0, func() {
		var err error
		if one, err = loadBytes(data); err != nil {
			t.Fatal(err)
		}
	})
	// The ids widened (and no window holds both values); the deltas stayed halved.
	if c := &one.Chunks; c.SampleIDs.Len() != 18000 || c.SampleIDs.Small == nil || len(c.SampleIDs.Wide) != 0 ||
		c.Deltas.Small != nil || len(c.Deltas.Wide) != 0 {
		t.Errorf("%d ids (halved %v, %d wide), deltas halved %v with %d wide", c.SampleIDs.Len(), c.SampleIDs.Small == nil,
			len(c.SampleIDs.Wide), c.Deltas.Small == nil, len(c.Deltas.Wide))
	}
	compareSplit(t, data)
}
