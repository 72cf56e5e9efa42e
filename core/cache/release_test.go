package cache

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"flamedesk/internal/fixtures"
)

// storedCopy copies a fixture to a scratch folder and caches it there; it returns the cache, the
// copy's key and its path.
func storedCopy(t *testing.T, name string) (Dir, Key, string) {
	t.Helper()
	data, err := os.ReadFile(fixtures.Path(t, "fixtures", "generated", name))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	tr, err := openFile(p)
	if err != nil {
		t.Fatal(err)
	}
	dir := Dir{Path: filepath.Join(t.TempDir(), "cache")}
	key, err := KeyOf(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := dir.Store(key, tr); err != nil {
		t.Fatal(err)
	}
	return dir, key, p
}

func TestReleasedTraceStillReadsTheSame(t *testing.T) {
	dir, key, _ := storedCopy(t, "gen-trace-small.json.gz")
	want, err := dir.Load(key) // a second mapping of the same file, left alone
	if err != nil {
		t.Fatal(err)
	}
	back, err := dir.Load(key)
	if err != nil {
		t.Fatal(err)
	}
	Release(back)
	mappings.Lock()
	_, kept := mappings.of[back]
	mappings.Unlock()
	if kept {
		t.Error("a released trace is still remembered")
	}
	// Its pages were handed back; reading the columns faults them in again from the file.
	if err := same(reflect.ValueOf(want).Elem(), reflect.ValueOf(back).Elem(), "Trace"); err != nil {
		t.Fatal(err)
	}
	Release(back) // a second time changes nothing
	Release(want)
}

func TestDamagedCacheFileIsAMissAndRemoved(t *testing.T) {
	dir, key, _ := storedCopy(t, "gen-trace-small.json.gz")
	name := dir.entry(key.Path)
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0xff
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := dir.Load(key); !errors.Is(err, ErrMiss) {
		t.Fatalf("a damaged cache file loaded: %v", err)
	}
	if _, err := os.Stat(name); !os.IsNotExist(err) {
		t.Fatalf("the damaged cache file is still there: %v", err)
	}
}
