package sourcemap

import (
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"

	"flamedesk/core"
)

// maxSourceBytes caps a source file read from disk for the source view.
const maxSourceBytes = 32 << 20

// MapOf returns the map that covers frame f, nil when none does.
func (s *Set) MapOf(f core.FrameID) *Map {
	if s == nil || int(f) >= len(s.frameMap) || s.frameMap[f] < 0 {
		return nil
	}
	return &s.Maps[s.frameMap[f]]
}

// Source is the text of a file a frame belongs to, for the source view.
type Source struct {
	// Name is the file as shown: the original source, or the script URL.
	Name string
	Text string
	// Path is the file on disk, "" when the text came from the trace or the map.
	Path string
}

// SourceOf returns the text of the file frame f is in: the original source when original is true
// and a map covers f (the map's sourcesContent, else the file on disk beside the map or under the
// folder), else the script itself (its text from the trace, else a file:// URL or the folder).
func (s *Set) SourceOf(f core.FrameID, original bool) (Source, bool) {
	if s == nil || int(f) >= len(s.tr.Frames) {
		return Source{}, false
	}
	tr := s.tr
	if m := s.MapOf(f); original && m != nil {
		shown := tr.Strings.Get(tr.Original.URL[f])
		raw := m.rawSource[shown]
		src := Source{Name: shown}
		if p, ok := s.sourcePath(m, raw, shown); ok {
			src.Path = p
		}
		if text := s.originalText(m, raw); text != "" {
			src.Text = text
			return src, true
		}
		return Source{}, false
	}
	scriptURL := tr.Strings.Get(tr.Frames[f].URL)
	if scriptURL == "" {
		return Source{}, false
	}
	src := Source{Name: scriptURL}
	if p, ok := s.scriptPath(scriptURL); ok {
		src.Path = p
	}
	if sc := s.scripts[scriptURL]; sc != nil && sc.text != "" {
		src.Text = sc.text
		return src, true
	}
	if src.Path != "" {
		if b, err := readSmall(src.Path); err == nil {
			src.Text = string(b)
			return src, true
		}
	}
	return Source{}, false
}

func sourceContent(m *Map, raw string) (text string) {
	defer func() {
		if recover() != nil {
			text = ""
		}
	}()
	return m.c.SourceContent(raw)
}

// sourcePath finds an original source on disk: relative to the map file that names it, else by its
// path under the folder.
func (s *Set) sourcePath(m *Map, raw, shown string) (string, bool) {
	if m.Path != "" && raw != "" && !strings.Contains(raw, "://") {
		p := filepath.FromSlash(raw)
		if !filepath.IsAbs(p) {
			p = filepath.Join(filepath.Dir(m.Path), p)
		}
		if isFile(p) {
			return p, true
		}
	}
	if strings.HasPrefix(raw, "file://") {
		if u, err := url.Parse(raw); err == nil && isFile(filepath.FromSlash(u.Path)) {
			return filepath.FromSlash(u.Path), true
		}
	}
	return s.folder.file(shown)
}

// scriptPath finds a generated script on disk: a file:// URL that exists, else by name under the
// folder.
func (s *Set) scriptPath(scriptURL string) (string, bool) {
	if u, err := url.Parse(scriptURL); err == nil && u.Scheme == "file" && isFile(filepath.FromSlash(u.Path)) {
		return filepath.FromSlash(u.Path), true
	}
	p := urlPath(scriptURL)
	if path.Base(p) == "." || path.Base(p) == "/" {
		return "", false
	}
	return s.folder.file(p)
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

func readSmall(p string) ([]byte, error) {
	b, _, err := readCapped(p, maxSourceBytes)
	return b, err
}

// WhyNoSource says why SourceOf(f, original) has no text, in words for the source view: which
// file was wanted and where it was looked for.
func (s *Set) WhyNoSource(f core.FrameID, original bool) string {
	if s == nil || int(f) >= len(s.tr.Frames) {
		return "no source: the function has no frame"
	}
	tr := s.tr
	where := "no source map folder was named"
	if s.folder != nil {
		where = "it was not found under " + s.folder.root
	}
	if m := s.MapOf(f); original && m != nil {
		shown := tr.Strings.Get(tr.Original.URL[f])
		return fmt.Sprintf("no source: the map of %s has no sourcesContent for %s, and %s",
			path.Base(urlPath(m.ScriptURL)), shown, strings.Replace(where, "it was", shown+" was", 1))
	}
	scriptURL := tr.Strings.Get(tr.Frames[f].URL)
	if scriptURL == "" {
		return "no source: the function has no script (native or built-in code)"
	}
	name := path.Base(urlPath(scriptURL))
	return fmt.Sprintf("no source: the trace does not carry the text of %s, and %s", name,
		strings.Replace(where, "it was", name+" was", 1))
}
