package app

import (
	"encoding/json"
	"os"
	"path/filepath"

	"flamedesk/app/recent"
)

// settings are the choices flamedesk remembers between runs, in settings.json of the config
// directory. An unreadable file means the defaults.
type settings struct {
	Dark    bool `json:"dark"`
	Refined bool `json:"refinedTiming"` // JS call timing refined to task edges (Lighthouse)
	// WheelZooms picks DevTools' "classic" scheme (the wheel zooms, shift+wheel scrolls) over
	// the default "modern" one (ctrl+wheel zooms, the wheel scrolls).
	WheelZooms bool `json:"wheelZooms"`
	// GeneratedNames shows JS functions as the engine recorded them even where a source map
	// gives their original names (the toolbar's "Names" switch).
	GeneratedNames bool `json:"generatedNames"`
}

// configDir is the directory of settings.json and recent.json; empty means the user's,
// os.UserConfigDir()/flamedesk.
type configDir string

func (c configDir) file(name string) (string, error) {
	if c != "" {
		return filepath.Join(string(c), name), nil
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "flamedesk", name), nil
}

func (c configDir) loadSettings() settings {
	var s settings
	file, err := c.file("settings.json")
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

// saveSettings replaces the file atomically, so that a crash never leaves half of it.
func (c configDir) saveSettings(s settings) error {
	file, err := c.file("settings.json")
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

// recentFiles lists the recently opened files, newest first.
func (c configDir) recentFiles() []recent.Entry {
	file, err := c.file("recent.json")
	if err != nil {
		return nil
	}
	return recent.LoadFile(file)
}

// rememberRecent adds a successfully opened file to the recent list; failing to write it only
// costs the history, so the error is not shown.
func (c configDir) rememberRecent(path string) {
	if file, err := c.file("recent.json"); err == nil {
		_ = recent.AddToFile(file, path, timeNow())
	}
}

// changeSettings stores s and applies what changed.
func (u *ui) changeSettings(s settings) {
	old := u.settings
	u.settings = s
	_ = u.config.saveSettings(s)
	if s.Dark != old.Dark {
		u.th.SetDark(s.Dark)
		u.chart.invalidate()
	}
	if s.Refined != old.Refined {
		u.applyTiming()
	}
	if s.GeneratedNames != old.GeneratedNames {
		u.applyNames()
	}
}
