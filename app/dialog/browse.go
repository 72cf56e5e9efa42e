package dialog

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// browser is the state of the builtin file browser, kept apart from its drawing so that it can be
// tested without a window: the folder shown, its entries through the current filter, and the
// selected row.
type browser struct {
	dir       string
	filters   []Filter
	filterIdx int
	entries   []browseEntry
	selected  int    // index into entries, -1 for none
	problem   string // the last error to show the user, "" for none
	folders   bool   // choosing a folder: only folders are listed
}

type browseEntry struct {
	name string
	dir  bool
}

// newBrowser opens a browser on dir, or on the working directory when dir is empty or unreadable.
// With folders it lists folders only, for choosing one.
func newBrowser(dir string, filters []Filter, folders bool) *browser {
	if len(filters) == 0 {
		filters = []Filter{{Name: "All files", Patterns: []string{"*"}}}
	}
	b := &browser{filters: filters, selected: -1, folders: folders}
	if dir == "" || b.chdir(dir) != nil {
		wd, err := os.Getwd()
		if err != nil {
			wd = string(filepath.Separator)
		}
		if err := b.chdir(wd); err != nil {
			b.dir = wd
			b.problem = err.Error()
		}
	}
	return b
}

// filter is the filter in force.
func (b *browser) filter() Filter { return b.filters[b.filterIdx] }

// chdir shows another folder; on failure the browser keeps the folder it had.
func (b *browser) chdir(dir string) error {
	dir = filepath.Clean(dir)
	filter := b.filter()
	if b.folders {
		filter = Filter{Name: "Folders"}
	}
	entries, err := readBrowseEntries(dir, filter)
	if err != nil {
		return err
	}
	b.dir, b.entries, b.selected, b.problem = dir, entries, -1, ""
	return nil
}

// reload lists the current folder again, for a new filter or a changed folder.
func (b *browser) reload() {
	if err := b.chdir(b.dir); err != nil {
		b.entries, b.selected, b.problem = nil, -1, err.Error()
	}
}

// up goes to the parent folder.
func (b *browser) up() {
	if parent := filepath.Dir(b.dir); parent != b.dir {
		b.setProblem(b.chdir(parent))
	}
}

// nextFilter switches to the following filter, wrapping around.
func (b *browser) nextFilter() {
	b.filterIdx = (b.filterIdx + 1) % len(b.filters)
	b.reload()
}

// activate opens row i: a folder is entered, a file is chosen. It returns the chosen path, or ""
// while the user is still browsing.
func (b *browser) activate(i int) string {
	if i < 0 || i >= len(b.entries) {
		return ""
	}
	e := b.entries[i]
	p := filepath.Join(b.dir, e.name)
	if e.dir {
		b.setProblem(b.chdir(p))
		return ""
	}
	return p
}

// submit handles a path typed by the user (absolute, relative to the folder shown, or starting
// with ~): a folder is entered, an existing file is chosen, anything else is reported.
func (b *browser) submit(typed string) string {
	if strings.TrimSpace(typed) == "" {
		return b.activate(b.selected)
	}
	p := resolveTyped(b.dir, typed)
	info, err := os.Stat(p)
	switch {
	case err != nil:
		b.problem = describeStatError(p, err)
		return ""
	case info.IsDir():
		b.setProblem(b.chdir(p))
		return ""
	case b.folders:
		b.problem = fmt.Sprintf("%s is not a folder", p)
		return ""
	}
	return p
}

// chooseFolder is the folder a folder browser's "Choose this folder" picks: the selected folder
// if a row is selected, else the folder shown.
func (b *browser) chooseFolder() string {
	if b.selected >= 0 && b.selected < len(b.entries) && b.entries[b.selected].dir {
		return filepath.Join(b.dir, b.entries[b.selected].name)
	}
	return b.dir
}

// move changes the selection by delta rows, staying within the list.
func (b *browser) move(delta int) {
	if len(b.entries) == 0 {
		return
	}
	b.selected = min(max(b.selected+delta, 0), len(b.entries)-1)
}

func (b *browser) setProblem(err error) {
	if err != nil {
		b.problem = err.Error()
	}
}

// resolveTyped turns what the user typed into a clean absolute path: "~" and "~/x" name the home
// folder, relative paths are taken from dir.
func resolveTyped(dir, typed string) string {
	typed = strings.TrimSpace(typed)
	if typed == "~" || strings.HasPrefix(typed, "~/") || strings.HasPrefix(typed, `~\`) {
		if home, err := os.UserHomeDir(); err == nil {
			typed = filepath.Join(home, typed[1:])
		}
	}
	if !filepath.IsAbs(typed) {
		typed = filepath.Join(dir, typed)
	}
	return filepath.Clean(typed)
}

// readBrowseEntries lists dir for the browser: folders first, then the files the filter passes,
// each group in case-insensitive name order. Hidden entries (a leading dot) are left out, as
// file managers do. Symbolic links count as what they point to; broken ones are dropped.
func readBrowseEntries(dir string, filter Filter) ([]browseEntry, error) {
	des, err := os.ReadDir(dir)
	if err != nil && len(des) == 0 {
		return nil, err
	}
	entries := make([]browseEntry, 0, len(des))
	for _, de := range des {
		name := de.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		isDir := de.IsDir()
		if de.Type()&os.ModeSymlink != 0 {
			info, err := os.Stat(filepath.Join(dir, name))
			if err != nil {
				continue
			}
			isDir = info.IsDir()
		}
		if !isDir && !filter.Matches(name) {
			continue
		}
		entries = append(entries, browseEntry{name: name, dir: isDir})
	}
	slices.SortFunc(entries, func(a, b browseEntry) int {
		if a.dir != b.dir {
			if a.dir {
				return -1
			}
			return 1
		}
		return cmp.Or(cmp.Compare(strings.ToLower(a.name), strings.ToLower(b.name)), cmp.Compare(a.name, b.name))
	})
	return entries, nil
}

func describeStatError(p string, err error) string {
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Sprintf("%s does not exist", p)
	}
	return err.Error()
}
