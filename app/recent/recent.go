// Package recent owns flamedesk's list of recently opened files: the last ten, newest first, kept in
// os.UserConfigDir()/flamedesk/recent.json. The file is replaced atomically, so a crash never
// leaves half a list, and a list that cannot be read is treated as empty rather than as an error:
// losing the history is better than refusing to start.
package recent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// MaxEntries is how many files the list remembers.
const MaxEntries = 10

// formatVersion is written into the file; a file of a later version is ignored.
const formatVersion = 1

// Entry is one remembered file.
type Entry struct {
	Path   string    // absolute path of the file
	Opened time.Time // when it was last opened
	// Available is false when the file is gone or no longer a regular file; Load checks it, so a
	// toolbar can grey the entry out instead of failing when it is chosen.
	Available bool
	// Compare is the file that was compared with Path (B), "" when it was opened alone; Align is
	// how B was lined up with it, as the comparison saved it (align.Spec's JSON).
	Compare string
	Align   json.RawMessage
}

// The file format. Available is not stored: it is the state of the disk when the list is read.
type fileEntry struct {
	Path    string          `json:"path"`
	Opened  time.Time       `json:"opened"`
	Compare string          `json:"compare,omitempty"`
	Align   json.RawMessage `json:"align,omitempty"`
}

type fileFormat struct {
	Version int         `json:"version"`
	Files   []fileEntry `json:"files"`
}

// mu serialises the read-modify-write of Add and Forget within this process; two flamedesk
// processes can still race, and then the last writer wins with a whole, valid file.
var mu sync.Mutex

// File returns the path of the list: os.UserConfigDir()/flamedesk/recent.json.
func File() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "flamedesk", "recent.json"), nil
}

// Load returns the remembered files, newest first, each marked Available or not. It returns nil
// when there is no list or it cannot be read.
func Load() []Entry {
	file, err := File()
	if err != nil {
		return nil
	}
	mu.Lock()
	defer mu.Unlock()
	return LoadFile(file)
}

// Add puts path at the top of the list (moving it up if it was there already) and writes the list.
func Add(path string) error {
	file, err := File()
	if err != nil {
		return err
	}
	mu.Lock()
	defer mu.Unlock()
	return AddToFile(file, path, time.Now())
}

// Forget removes path from the list, for example after the user dismissed an unavailable entry.
func Forget(path string) error {
	file, err := File()
	if err != nil {
		return err
	}
	mu.Lock()
	defer mu.Unlock()
	return ForgetInFile(file, path)
}

// LoadFile is Load for the list stored in file.
func LoadFile(file string) []Entry {
	stored := readList(file)
	if len(stored) == 0 {
		return nil
	}
	entries := make([]Entry, len(stored))
	for i, e := range stored {
		info, err := os.Stat(e.Path)
		entries[i] = Entry{Path: e.Path, Opened: e.Opened, Available: err == nil && info.Mode().IsRegular(),
			Compare: e.Compare, Align: compact(e.Align)}
		if e.Compare != "" {
			// A comparison is available when both of its files are.
			info, err := os.Stat(e.Compare)
			entries[i].Available = entries[i].Available && err == nil && info.Mode().IsRegular()
		}
	}
	return entries
}

// AddToFile is Add for the list stored in file, with the time of opening given.
func AddToFile(file, path string, opened time.Time) error {
	abs, err := absolute(path)
	if err != nil {
		return err
	}
	list := readList(file)
	list = append([]fileEntry{{Path: abs, Opened: opened.UTC()}}, without(list, abs)...)
	return writeList(file, list[:min(len(list), MaxEntries)])
}

// compact is raw JSON without the indentation the list is written with.
func compact(raw json.RawMessage) json.RawMessage {
	if raw == nil {
		return nil
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return nil
	}
	return b.Bytes()
}

// AddComparisonToFile is AddToFile for path compared with compare (B), lined up as align (JSON)
// says; the entry of path remembers its latest comparison.
func AddComparisonToFile(file, path, compare string, align json.RawMessage, opened time.Time) error {
	abs, err := absolute(path)
	if err != nil {
		return err
	}
	absB, err := absolute(compare)
	if err != nil {
		return err
	}
	if !json.Valid(align) {
		align = nil
	}
	list := readList(file)
	list = append([]fileEntry{{Path: abs, Opened: opened.UTC(), Compare: absB, Align: align}}, without(list, abs)...)
	return writeList(file, list[:min(len(list), MaxEntries)])
}

// ForgetInFile is Forget for the list stored in file.
func ForgetInFile(file, path string) error {
	abs, err := absolute(path)
	if err != nil {
		return err
	}
	list := readList(file)
	kept := without(list, abs)
	if len(kept) == len(list) {
		return nil
	}
	return writeList(file, kept)
}

func absolute(path string) (string, error) {
	if path == "" {
		return "", errors.New("recent: empty path")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("recent: %w", err)
	}
	return abs, nil
}

func without(list []fileEntry, path string) []fileEntry {
	kept := make([]fileEntry, 0, len(list))
	for _, e := range list {
		if e.Path != path {
			kept = append(kept, e)
		}
	}
	return kept
}

// readList reads the stored list, keeping only sound entries: absolute, cleaned paths, each once,
// at most MaxEntries. A missing, unreadable, corrupt or newer-versioned file gives an empty list.
func readList(file string) []fileEntry {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	var stored fileFormat
	if err := json.Unmarshal(data, &stored); err != nil || stored.Version != formatVersion {
		return nil
	}
	list := make([]fileEntry, 0, min(len(stored.Files), MaxEntries))
	seen := map[string]bool{}
	for _, e := range stored.Files {
		if len(list) == MaxEntries {
			break
		}
		if e.Path == "" || !filepath.IsAbs(e.Path) || filepath.Clean(e.Path) != e.Path || seen[e.Path] {
			continue
		}
		if e.Compare != "" && (!filepath.IsAbs(e.Compare) || filepath.Clean(e.Compare) != e.Compare) {
			e.Compare, e.Align = "", nil
		}
		seen[e.Path] = true
		list = append(list, e)
	}
	return list
}

// writeList replaces file with the list: it writes a temporary file beside it, syncs it and
// renames it over the old one, so readers see either the old list or the new one, never a mix.
func writeList(file string, list []fileEntry) error {
	data, err := json.MarshalIndent(fileFormat{Version: formatVersion, Files: list}, "", "  ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	dir := filepath.Dir(file)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("recent: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".recent-*.json")
	if err != nil {
		return fmt.Errorf("recent: %w", err)
	}
	defer os.Remove(tmp.Name()) // fails harmlessly once the rename has happened
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("recent: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("recent: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("recent: %w", err)
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		return fmt.Errorf("recent: %w", err)
	}
	return nil
}
