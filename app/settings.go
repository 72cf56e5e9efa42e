package app

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// settings are the choices flamedesk remembers between runs, in
// os.UserConfigDir()/flamedesk/settings.json. An unreadable file means the defaults.
type settings struct {
	Dark    bool `json:"dark"`
	Refined bool `json:"refinedTiming"` // JS call timing refined to task edges (Lighthouse)
	// WheelZooms picks DevTools' "classic" scheme (the wheel zooms, shift+wheel scrolls) over
	// the default "modern" one (ctrl+wheel zooms, the wheel scrolls).
	WheelZooms bool `json:"wheelZooms"`
}

func settingsFile() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "flamedesk", "settings.json"), nil
}

func loadSettings() settings {
	var s settings
	file, err := settingsFile()
	if err != nil {
		return s
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return s
	}
	if json.Unmarshal(b, &s) != nil {
		return settings{}
	}
	return s
}

// save replaces the file atomically, so that a crash never leaves half of it.
func (s settings) save() error {
	file, err := settingsFile()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), ".settings-*.json")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), file)
}
