package cache

import (
	"reflect"
	"slices"
	"testing"
	"unsafe"

	"flamedesk/internal/fixtures"
)

// TestAdoptedTraceReadsTheSameFromTheMapping: a loaded trace moved onto its cache file keeps what
// was added to it after the write (strings, warnings), reads the same columns from the mapping,
// and is the one Release then hands the mapping's pages back for.
func TestAdoptedTraceReadsTheSameFromTheMapping(t *testing.T) {
	dir, key, path := storedCopy(t, "gen-trace-small.json.gz")
	loaded, err := openFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want, err := openFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// What the layers above add once the file is written.
	id := loaded.Strings.Intern("added after the cache write")
	loaded.Warnings.Add("added after the cache write", 2)
	wantWarnings := loaded.Warnings.Lines()
	track := &loaded.Tracks[0]

	back, err := dir.Load(key)
	if err != nil {
		t.Fatal(err)
	}
	if err := Adopt(loaded, back); err != nil {
		t.Fatal(err)
	}
	if &loaded.Tracks[0] != track {
		t.Fatal("the tracks moved: pointers to them went stale")
	}
	if unsafe.SliceData(loaded.Events.Ts) != unsafe.SliceData(back.Events.Ts) {
		t.Fatal("the event columns are not the mapping's")
	}
	if loaded.Strings.Get(id) != "added after the cache write" || !slices.Equal(loaded.Warnings.Lines(), wantWarnings) {
		t.Fatal("the adopted trace lost a string or a warning added after the write")
	}
	// The columns are the same as a fresh load's; the string table and warnings were checked
	// above, and the load's timings differ from one load to the next.
	loaded.Strings, want.Strings = nil, nil
	loaded.Warnings = want.Warnings
	loaded.Stats = want.Stats
	if err := same(reflect.ValueOf(want).Elem(), reflect.ValueOf(loaded).Elem(), "Trace"); err != nil {
		t.Fatal(err)
	}
	mappings.Lock()
	_, mine := mappings.of[loaded]
	_, theirs := mappings.of[back]
	mappings.Unlock()
	if !mine || theirs {
		t.Fatal("the mapping is not the adopting trace's")
	}
	Release(loaded)
}

// TestAdoptRefusesAnotherTrace: a file read back that is not the loaded trace changes nothing.
func TestAdoptRefusesAnotherTrace(t *testing.T) {
	dir, key, _ := storedCopy(t, "gen-trace-small.json.gz")
	other, err := openFile(fixtures.Path(t, "fixtures", "generated", "gen-trace-medium-reload.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	back, err := dir.Load(key)
	if err != nil {
		t.Fatal(err)
	}
	ts := unsafe.SliceData(other.Events.Ts)
	if err := Adopt(other, back); err == nil {
		t.Fatal("another trace's file was adopted")
	}
	if unsafe.SliceData(other.Events.Ts) != ts {
		t.Fatal("a refused adoption changed the trace")
	}
	Release(back)
}
