package dialog

import (
	"path/filepath"
	"strings"
	"unicode/utf16"
)

// Matches reports whether a file's base name passes the filter. Matching ignores case, as the
// Windows and macOS choosers do, so "TRACE.JSON" passes "*.json" on every backend we draw ourselves.
func (f Filter) Matches(name string) bool {
	name = strings.ToLower(name)
	for _, p := range f.Patterns {
		if ok, err := filepath.Match(strings.ToLower(p), name); err == nil && ok {
			return true
		}
	}
	return false
}

// showsAll reports whether the filter lets every file through.
func (f Filter) showsAll() bool {
	for _, p := range f.Patterns {
		if p == "*" || p == "*.*" {
			return true
		}
	}
	return false
}

// extensions returns the last extensions the filter's patterns name ("*.json.gz" gives "gz"),
// without duplicates, for choosers that filter by extension only. It returns nil when the filter
// shows every file.
func (f Filter) extensions() []string {
	if f.showsAll() {
		return nil
	}
	var exts []string
	seen := map[string]bool{}
	for _, p := range f.Patterns {
		ext := strings.TrimPrefix(filepath.Ext(p), ".")
		if ext == "" || strings.ContainsAny(ext, "*?[") || seen[ext] {
			continue
		}
		seen[ext] = true
		exts = append(exts, ext)
	}
	return exts
}

// win32FilterString encodes filters the way OPENFILENAMEW.lpstrFilter wants them: UTF-16 pairs of
// NUL-terminated name and ';'-separated patterns, closed by an extra NUL. "*" becomes "*.*", which
// is how Windows spells every file.
func win32FilterString(filters []Filter) []uint16 {
	if len(filters) == 0 {
		return nil
	}
	var out []uint16
	for _, f := range filters {
		patterns := make([]string, len(f.Patterns))
		for i, p := range f.Patterns {
			if p == "*" {
				p = "*.*"
			}
			patterns[i] = p
		}
		out = append(out, utf16.Encode([]rune(f.Name))...)
		out = append(out, 0)
		out = append(out, utf16.Encode([]rune(strings.Join(patterns, ";")))...)
		out = append(out, 0)
	}
	return append(out, 0)
}
