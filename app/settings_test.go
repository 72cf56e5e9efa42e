package app

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSettingsRoundTripAndCorruptFile(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("HOME", dir)
	if got := loadSettings(); got != (settings{}) {
		t.Fatalf("defaults: got %+v", got)
	}
	want := settings{Dark: true, Refined: true}
	if err := want.save(); err != nil {
		t.Fatal(err)
	}
	if got := loadSettings(); got != want {
		t.Fatalf("round trip: got %+v, want %+v", got, want)
	}
	file, _ := settingsFile()
	if err := os.WriteFile(file, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := loadSettings(); got != (settings{}) {
		t.Fatalf("corrupt file: got %+v, want defaults", got)
	}
	if m, _ := filepath.Glob(filepath.Join(filepath.Dir(file), ".settings-*")); len(m) != 0 {
		t.Fatalf("temporary files left behind: %v", m)
	}
}
