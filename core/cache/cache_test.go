package cache

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"flamedesk/core"
	"flamedesk/core/integrate"
	"flamedesk/core/load"
	"flamedesk/core/timelines"
	"flamedesk/internal/fixtures"
)

// roundTripFixtures are several files of each kind: traces, .cpuprofile files and JS
// Self-Profiling output.
var roundTripFixtures = [][]string{
	{"fixtures", "generated", "gen-trace-small.json.gz"},
	{"fixtures", "generated", "gen-trace-medium-reload.json.gz"},
	{"fixtures", "upstream", "devtools-web-sockets.json.gz"},
	{"fixtures", "upstream", "devtools-extension-tracks-and-marks.json.gz"},
	{"fixtures", "upstream", "speedscope-chrome70-worker.json"},
	{"fixtures", "upstream", "firefox-profiler-chrome-trace-issue-5429.json.gz"},
	{"fixtures", "generated", "gen-cpuprofile-prettier-format.cpuprofile"},
	{"fixtures", "upstream", "devtools-large-profile.cpuprofile.gz"},
	{"fixtures", "upstream", "speedscope-node10-example.cpuprofile"},
	{"fixtures", "generated", "gen-selfprofile-small.json"},
}

// encode writes tr into an aligned buffer, as a cache file read back would be.
func encode(t testing.TB, tr *core.Trace, key Key) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, tr, key); err != nil {
		t.Fatal(err)
	}
	return aligned(buf.Bytes())
}

func aligned(b []byte) []byte {
	words := make([]uint64, (len(b)+7)/8)
	out := unsafeBytes(words, len(b))
	copy(out, b)
	return out
}

func TestSchemaCoversTheWholeTrace(t *testing.T) {
	// Every field of core.Trace, and of everything it holds, must be of a kind the codec writes;
	// a field it cannot (an interface, a function, a private field) would make every cache a miss,
	// and this test says which field.
	if schemaErr != nil {
		t.Fatal(schemaErr)
	}
	// A field added to the model changes the fingerprint, so that older cache files miss.
	type widerTrace struct {
		core.Trace
		Extra []int32
	}
	wider, err := fingerprint(reflect.TypeFor[widerTrace]())
	if err != nil || wider == schemaFingerprint {
		t.Fatalf("a wider model has fingerprint %x (%v), the same as core.Trace's", wider, err)
	}
	type withInterface struct{ P any }
	if _, err := fingerprint(reflect.TypeFor[withInterface]()); !errors.Is(err, errSchema) {
		t.Fatalf("an interface field was accepted: %v", err)
	}
	//lint:ignore U1000 the unexported field is what the schema must refuse
	type withPrivate struct{ s []string }
	if _, err := fingerprint(reflect.TypeFor[withPrivate]()); !errors.Is(err, errSchema) {
		t.Fatalf("a private field was accepted: %v", err)
	}
}

func TestRoundTripIsIdentical(t *testing.T) {
	for _, f := range roundTripFixtures {
		t.Run(f[len(f)-1], func(t *testing.T) {
			path := fixtures.Path(t, f...)
			tr, err := openFile(path)
			if err != nil {
				t.Fatal(err)
			}
			key, err := KeyOf(path)
			if err != nil {
				t.Fatal(err)
			}
			back, err := Decode(encode(t, tr, key), key)
			if err != nil {
				t.Fatal(err)
			}
			if err := same(reflect.ValueOf(tr).Elem(), reflect.ValueOf(back).Elem(), "Trace"); err != nil {
				t.Fatal(err)
			}
			// The dump of both is compared in cmd/flamedesk (TestDumpFromTheCacheIsTheSame), next to the writer.
			if tr.Kind == core.InputTrace {
				if err := same(reflect.ValueOf(timelines.Build(tr)).Elem(), reflect.ValueOf(timelines.Build(back)).Elem(), "Timelines"); err != nil {
					t.Fatal(err)
				}
			}
			// The cached trace's string table still interns: a known string keeps its id.
			if tr.Strings.Len() > 1 {
				want := tr.Strings.Get(core.StrID(tr.Strings.Len() - 1))
				if id, ok := back.Strings.Lookup(want); !ok || back.Strings.Get(id) != want {
					t.Fatalf("Lookup(%q) on the cached table = %d, %v", want, id, ok)
				}
			}
		})
	}
}

// same compares two values field by field: NaN equals NaN, nil differs from empty, the string
// table and the warnings by their contents.
func same(a, b reflect.Value, at string) error {
	if a.Type() != b.Type() {
		return fmt.Errorf("%s: types %s and %s", at, a.Type(), b.Type())
	}
	switch a.Type() {
	case stringsType:
		if !slices.Equal(a.Addr().Interface().(*core.Strings).All(), b.Addr().Interface().(*core.Strings).All()) {
			return fmt.Errorf("%s: string tables differ", at)
		}
		return nil
	case warningsType:
		la, lb := a.Addr().Interface().(*core.Warnings).Lines(), b.Addr().Interface().(*core.Warnings).Lines()
		if !slices.Equal(la, lb) {
			return fmt.Errorf("%s: warnings %q, want %q", at, lb, la)
		}
		return nil
	}
	switch a.Kind() {
	case reflect.Float32, reflect.Float64:
		x, y := a.Float(), b.Float()
		if x != y && !(math.IsNaN(x) && math.IsNaN(y)) {
			return fmt.Errorf("%s: %v, want %v", at, y, x)
		}
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() != b.IsNil() {
			return fmt.Errorf("%s: nil %v, want %v", at, b.IsNil(), a.IsNil())
		}
		if !a.IsNil() {
			return same(a.Elem(), b.Elem(), at)
		}
	case reflect.Slice:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return fmt.Errorf("%s: %d entries (nil %v), want %d (nil %v)", at, b.Len(), b.IsNil(), a.Len(), a.IsNil())
		}
		fallthrough
	case reflect.Array:
		for i := range a.Len() {
			if err := same(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", at, i)); err != nil {
				return err
			}
		}
	case reflect.Map:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return fmt.Errorf("%s: %d keys, want %d", at, b.Len(), a.Len())
		}
		for it := a.MapRange(); it.Next(); {
			v := b.MapIndex(it.Key())
			if !v.IsValid() {
				return fmt.Errorf("%s: key %v missing", at, it.Key())
			}
			if err := same(it.Value(), v, fmt.Sprintf("%s[%v]", at, it.Key())); err != nil {
				return err
			}
		}
	case reflect.Struct:
		for i := range a.NumField() {
			name := at + "." + a.Type().Field(i).Name
			if !a.Type().Field(i).IsExported() {
				continue // only private fields of plain values, compared through the exported ones
			}
			if err := same(a.Field(i), b.Field(i), name); err != nil {
				return err
			}
		}
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		return nil
	default:
		if !a.Equal(b) {
			return fmt.Errorf("%s: %v, want %v", at, b, a)
		}
	}
	return nil
}

func TestStaleOrDamagedIsAMiss(t *testing.T) {
	path := fixtures.Path(t, "fixtures", "generated", "gen-trace-small.json.gz")
	tr, err := openFile(path)
	if err != nil {
		t.Fatal(err)
	}
	key, err := KeyOf(path)
	if err != nil {
		t.Fatal(err)
	}
	data := encode(t, tr, key)
	for name, k := range map[string]Key{
		"size":  {key.Path, key.Size + 1, key.ModTime},
		"mtime": {key.Path, key.Size, key.ModTime + 1},
		"path":  {key.Path + "x", key.Size, key.ModTime},
	} {
		if _, err := Decode(data, k); !errors.Is(err, ErrMiss) {
			t.Errorf("another %s: %v, want a miss", name, err)
		}
	}
	for _, at := range []int{8, len(data) / 2, len(data) - 20, len(data) - 1} {
		bad := aligned(data)
		bad[at] ^= 0x40
		if _, err := Decode(bad, key); !errors.Is(err, ErrMiss) {
			t.Errorf("a flipped bit at %d of %d: %v, want a miss %v", at, len(data), err, bad[at-8:min(at+8, len(bad))])
		}
	}
	for _, n := range []int{0, 7, 40, len(data) / 3, len(data) - 1} {
		if _, err := Decode(aligned(data[:n]), key); !errors.Is(err, ErrMiss) {
			t.Errorf("truncated to %d bytes: %v, want a miss", n, err)
		}
	}
	versioned := aligned(data)
	binary.LittleEndian.PutUint64(versioned[8:], FormatVersion+1)
	if _, err := Decode(versioned, key); !errors.Is(err, ErrMiss) {
		t.Errorf("another format version: %v, want a miss", err)
	}
}

func TestDirStoresLoadsAndEvicts(t *testing.T) {
	src := t.TempDir()
	var paths []string
	for _, f := range []string{"gen-trace-small.json.gz", "gen-selfprofile-small.json"} {
		data, err := os.ReadFile(fixtures.Path(t, "fixtures", "generated", f))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(src, f)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	dir := Dir{Path: filepath.Join(t.TempDir(), "cache")}
	var sizes []int64
	for _, p := range paths {
		tr, err := openFile(p)
		if err != nil {
			t.Fatal(err)
		}
		key, _ := KeyOf(p)
		if _, err := dir.Load(key); !errors.Is(err, ErrMiss) {
			t.Fatalf("an empty cache returned %v", err)
		}
		if err := dir.Store(key, tr); err != nil {
			t.Fatal(err)
		}
		back, err := dir.Load(key)
		if err != nil {
			t.Fatal(err)
		}
		if back.Events.Len() != tr.Events.Len() || len(back.Tracks) != len(tr.Tracks) {
			t.Fatalf("%s: %d events, %d tracks back, want %d, %d", p, back.Events.Len(), len(back.Tracks), tr.Events.Len(), len(tr.Tracks))
		}
		fi, err := os.Stat(dir.entry(key.Path))
		if err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, fi.Size())
	}
	// A changed source misses, and its stale cache file is removed.
	key0, _ := KeyOf(paths[0])
	later := time.Unix(0, key0.ModTime).Add(time.Second)
	if err := os.Chtimes(paths[0], later, later); err != nil {
		t.Fatal(err)
	}
	changed, _ := KeyOf(paths[0])
	if _, err := dir.Load(changed); !errors.Is(err, ErrMiss) {
		t.Fatalf("a changed source hit the cache: %v", err)
	}
	if _, err := os.Stat(dir.entry(key0.Path)); !os.IsNotExist(err) {
		t.Fatalf("the stale cache file is still there: %v", err)
	}
	// With room for one file only, storing another evicts the least recently used.
	small := Dir{Path: dir.Path, MaxBytes: max(sizes[0], sizes[1])}
	key1, _ := KeyOf(paths[1])
	old := time.Now().Add(-time.Hour)
	os.Chtimes(dir.entry(key1.Path), old, old)
	tr, err := openFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := small.Store(changed, tr); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir.entry(key1.Path)); !os.IsNotExist(err) {
		t.Fatalf("the least recently used file was kept: %v", err)
	}
	if _, err := small.Load(changed); err != nil {
		t.Fatalf("the newest file was evicted: %v", err)
	}
}

// FuzzDecode feeds the body reader arbitrary bytes (past the checksum, which would otherwise stop
// almost every input first): it must return a trace or a miss, never panic.
func FuzzDecode(f *testing.F) {
	path := fixtures.Path(f, "fixtures", "upstream", "speedscope-node10-example.cpuprofile")
	tr, err := openFile(path)
	if err != nil {
		f.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, tr, Key{}); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		a := aligned(data)
		Decode(a, Key{})
		// The body starts after 8×3 bytes, an empty path (its length) and 2×8 key bytes; the trailer is 16.
		if len(a) > 48+16 {
			decodeBody(a[48 : len(a)-16])
		}
		decodeBody(a)
	})
}

// openFile loads and integrates path as core/pipeline does (which imports this package).
func openFile(path string) (*core.Trace, error) {
	tr, err := load.File(context.Background(), path, nil)
	if err != nil {
		return nil, err
	}
	return tr, integrate.BuildContext(context.Background(), tr, nil)
}

// TestPointerFieldsRoundTrip writes and reads a value with a set and a nil pointer to columns, as
// core.Trace's optional tables are.
func TestPointerFieldsRoundTrip(t *testing.T) {
	type columns struct {
		Mapped []bool
		Line   []int32
	}
	type holder struct {
		Set, Unset *columns
	}
	in := holder{Set: &columns{Mapped: []bool{true, false, true}, Line: []int32{4, -1, 7}}}
	if _, err := fingerprint(reflect.TypeFor[holder]()); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	e := &encoder{w: &buf, snap: &Snap{}}
	e.value(reflect.ValueOf(&in).Elem())
	var out holder
	d := &decoder{buf: aligned(buf.Bytes())}
	d.value(reflect.ValueOf(&out).Elem())
	if d.err != nil {
		t.Fatal(d.err)
	}
	if err := same(reflect.ValueOf(in), reflect.ValueOf(out), "holder"); err != nil {
		t.Fatal(err)
	}
}

// A snapshot taken while late tracks were to come, completed by AddLate, reads back as the trace
// would have been without them: the late build's warnings added to those of the snapshot's time
// (a count merged, a message appended), and the place of a late track that came out empty gone.
func TestAddLateCompletesTheSnapshot(t *testing.T) {
	path := fixtures.Path(t, "fixtures", "upstream", "devtools-two-workers.json.gz")
	tr, err := openFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n := len(tr.Tracks)
	tr.Tracks = append(tr.Tracks, core.Track{Thread: tr.Tracks[0].Thread, Profile: -1})
	tr.Warnings.Add("seen before", 2)
	snap := Snapshot(tr)
	var late core.Warnings
	late.Add("seen before", 3)
	late.Add("from the late build", 1)
	snap.AddLate(&late)
	key, err := KeyOf(path)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := snap.write(&buf, key); err != nil {
		t.Fatal(err)
	}
	back, err := Decode(aligned(buf.Bytes()), key)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Tracks) != n || len(tr.Tracks) != n+1 {
		t.Errorf("%d tracks read back, want %d; the trace's own list has %d, want %d", len(back.Tracks), n, len(tr.Tracks), n+1)
	}
	lines := back.Warnings.Lines()
	if !slices.Contains(lines, "5 × seen before") || lines[len(lines)-1] != "from the late build" {
		t.Errorf("warnings read back %q", lines)
	}
}

// TestCompactRowPastColumnsNamesTheFirstBadRow checks the per-row test a reopen makes of a
// compact track, with each kind of bad reference placed in the second block of rows and a good
// track around it.
func TestCompactRowPastColumnsNamesTheFirstBadRow(t *testing.T) {
	const rows, events, nodes, samples, calls = 1500, 4, 9, 300, 50
	build := func() *core.Track {
		tk := &core.Track{Compact: true, Depth: make([]uint16, rows)}
		tk.NodeName = make([]core.StrID, nodes)
		tk.CallStart = make([]float64, calls)
		tk.SampleStart = core.NewTimes(0, samples)
		tk.NodePlus1 = core.NewPacked(rows, 1<<5)
		tk.Refs = core.NewPacked(rows, 1<<10)
		tk.EndRefs = core.NewPacked(rows, 1<<10)
		for i := range rows {
			if i%7 == 0 { // an event's row
				tk.Refs.Set(i, uint64(i%events))
				continue
			}
			tk.NodePlus1.Set(i, uint64(1+i%nodes))
			tk.Refs.Set(i, uint64(i%(samples+calls)))
			tk.EndRefs.Set(i, uint64(i%(samples+1)))
		}
		return tk
	}
	if row := compactRowPastColumns(build(), events, true); row != -1 {
		t.Fatalf("a good track: row %d named bad", row)
	}
	const at = 700
	for name, spoil := range map[string]func(*core.Track){
		"node past the nodes":      func(tk *core.Track) { tk.NodePlus1.Set(at, nodes+1) },
		"event past the events":    func(tk *core.Track) { tk.NodePlus1.Set(at, 0); tk.Refs.Set(at, events) },
		"sample past the calls":    func(tk *core.Track) { tk.Refs.Set(at, samples+calls) },
		"end past the samples":     func(tk *core.Track) { tk.EndRefs.Set(at, samples+1) },
		"node past, in a late row": func(tk *core.Track) { tk.NodePlus1.Set(rows-1, nodes+1) },
	} {
		tk := build()
		spoil(tk)
		want := at
		if strings.Contains(name, "late row") {
			want = rows - 1
		}
		if row := compactRowPastColumns(tk, events, true); row != want {
			t.Errorf("%s: row %d named, want %d", name, row, want)
		}
	}
	// Without ends, an end past the samples is not looked at.
	tk := build()
	tk.EndRefs.Set(at, samples+1)
	if row := compactRowPastColumns(tk, events, false); row != -1 {
		t.Errorf("ends not checked: row %d named", row)
	}
}
