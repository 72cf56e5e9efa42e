package app

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSettingsRoundTripAndCorruptFile(t *testing.T) {
	dir := configDir(t.TempDir())
	if got := dir.loadSettings(); got != (settings{}) {
		t.Fatalf("defaults: got %+v", got)
	}
	want := settings{Dark: true, Refined: true}
	if err := dir.saveSettings(want); err != nil {
		t.Fatal(err)
	}
	if got := dir.loadSettings(); got != want {
		t.Fatalf("round trip: got %+v, want %+v", got, want)
	}
	file, _ := dir.file("settings.json")
	if err := os.WriteFile(file, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := dir.loadSettings(); got != (settings{}) {
		t.Fatalf("corrupt file: got %+v, want defaults", got)
	}
	if m, _ := filepath.Glob(filepath.Join(filepath.Dir(file), ".settings-*")); len(m) != 0 {
		t.Fatalf("temporary files left behind: %v", m)
	}
}

// Without a directory of its own the window uses the user's: os.UserConfigDir()/flamedesk.
func TestConfigDirDefaultsToTheUsers(t *testing.T) {
	home := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", home)
	t.Setenv("HOME", home)
	got, err := configDir("").file("recent.json")
	if err != nil {
		t.Fatal(err)
	}
	user, _ := os.UserConfigDir()
	if want := filepath.Join(user, "flamedesk", "recent.json"); got != want {
		t.Fatalf("recent list at %s, want %s", got, want)
	}
}
