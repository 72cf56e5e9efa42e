// Package mapdirs remembers, per profile file, the source map folder the user chose for it
// ("Source maps…" in the window), in os.UserConfigDir()/flamedesk/sourcemaps.json, so that opening
// the file again maps it the same way. The file is replaced atomically; a file that cannot be read
// counts as empty: forgetting a folder is better than refusing to open a profile.
package mapdirs

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"
)

// MaxEntries bounds the list; the oldest choices go first.
const MaxEntries = 200

const formatVersion = 1

type entry struct {
	Folder string    `json:"folder"`
	Chosen time.Time `json:"chosen"`
}

type fileFormat struct {
	Version int              `json:"version"`
	Files   map[string]entry `json:"files"`
}

var mu sync.Mutex

// File returns the path of the store: os.UserConfigDir()/flamedesk/sourcemaps.json.
func File() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "flamedesk", "sourcemaps.json"), nil
}

// Lookup returns the folder remembered for a profile file in store, "" when there is none or it
// is no longer a folder.
func Lookup(store, profile string) string {
	abs, err := filepath.Abs(profile)
	if err != nil {
		return ""
	}
	mu.Lock()
	defer mu.Unlock()
	e, ok := read(store).Files[abs]
	if !ok {
		return ""
	}
	if st, err := os.Stat(e.Folder); err != nil || !st.IsDir() {
		return ""
	}
	return e.Folder
}

// Remember stores folder for a profile file in store ("" forgets it).
func Remember(store, profile, folder string, now time.Time) error {
	abs, err := filepath.Abs(profile)
	if err != nil {
		return err
	}
	if folder != "" {
		if folder, err = filepath.Abs(folder); err != nil {
			return err
		}
	}
	mu.Lock()
	defer mu.Unlock()
	f := read(store)
	if folder == "" {
		delete(f.Files, abs)
	} else {
		f.Files[abs] = entry{Folder: folder, Chosen: now}
	}
	if len(f.Files) > MaxEntries {
		keys := make([]string, 0, len(f.Files))
		for k := range f.Files {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return f.Files[keys[i]].Chosen.After(f.Files[keys[j]].Chosen) })
		for _, k := range keys[MaxEntries:] {
			delete(f.Files, k)
		}
	}
	return write(store, f)
}

func read(store string) fileFormat {
	empty := fileFormat{Version: formatVersion, Files: map[string]entry{}}
	b, err := os.ReadFile(store)
	if err != nil {
		return empty
	}
	var f fileFormat
	if json.Unmarshal(b, &f) != nil || f.Version != formatVersion || f.Files == nil {
		return empty
	}
	return f
}

func write(store string, f fileFormat) error {
	if store == "" {
		return errors.New("no store file")
	}
	if err := os.MkdirAll(filepath.Dir(store), 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(store), ".sourcemaps-*.json")
	if err != nil {
		return err
	}
	_, err = tmp.Write(append(b, '\n'))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), store)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
