package mapdirs

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestRememberLookup(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "config", "flamedesk", "sourcemaps.json")
	maps := filepath.Join(dir, "maps")
	if err := os.Mkdir(maps, 0o755); err != nil {
		t.Fatal(err)
	}
	profile := filepath.Join(dir, "a.cpuprofile")
	if got := Lookup(store, profile); got != "" {
		t.Fatalf("empty store gives %q", got)
	}
	if err := Remember(store, profile, maps, time.Unix(1, 0)); err != nil {
		t.Fatal(err)
	}
	if got := Lookup(store, profile); got != maps {
		t.Fatalf("lookup %q, want %q", got, maps)
	}
	if got := Lookup(store, filepath.Join(dir, "b.cpuprofile")); got != "" {
		t.Fatalf("another file gives %q", got)
	}
	// A folder that is gone is not offered.
	if err := os.Remove(maps); err != nil {
		t.Fatal(err)
	}
	if got := Lookup(store, profile); got != "" {
		t.Fatalf("removed folder still offered: %q", got)
	}
	if err := Remember(store, profile, "", time.Unix(2, 0)); err != nil {
		t.Fatal(err)
	}
	if f := read(store); len(f.Files) != 0 {
		t.Fatalf("forgotten entry kept: %v", f.Files)
	}
}

func TestUnreadableStoreIsEmpty(t *testing.T) {
	store := filepath.Join(t.TempDir(), "sourcemaps.json")
	if err := os.WriteFile(store, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := Lookup(store, "x.json"); got != "" {
		t.Fatalf("got %q", got)
	}
	maps := t.TempDir()
	if err := Remember(store, "x.json", maps, time.Unix(1, 0)); err != nil {
		t.Fatal(err)
	}
	if got := Lookup(store, "x.json"); got != maps {
		t.Fatalf("got %q after rewriting a broken store", got)
	}
}

func TestOldestForgotten(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "s.json")
	for i := range MaxEntries + 5 {
		if err := Remember(store, filepath.Join(dir, "p", string(rune('a'+i%26))+string(rune('a'+i/26))), dir, time.Unix(int64(i), 0)); err != nil {
			t.Fatal(err)
		}
	}
	f := read(store)
	if len(f.Files) != MaxEntries {
		t.Fatalf("%d entries kept", len(f.Files))
	}
	if _, ok := f.Files[filepath.Join(dir, "p", "aa")]; ok {
		t.Fatal("the oldest entry was kept")
	}
}
