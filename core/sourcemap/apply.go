package sourcemap

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/go-sourcemap/sourcemap"

	"flamedesk/core"
)

// DefaultMaxMapBytes caps the size of one source map: bigger ones are skipped with a warning, so a
// stray 1 GB file cannot exhaust memory.
const DefaultMaxMapBytes = 128 << 20

var errTooLarge = errors.New("too large")

// Options says where to look for maps besides the trace itself.
type Options struct {
	// Dir is the folder the user named (--sourcemaps DIR); "" for none. It is searched
	// recursively for NAME.js.map and for the files that scripts' sourceMappingURLs name.
	Dir string
	// MaxMapBytes caps one map's size; 0 means DefaultMaxMapBytes.
	MaxMapBytes int64
}

// Map is one source map applied to one script.
type Map struct {
	ScriptURL string
	Origin    Origin
	// Path is the map file on disk for FromFolder, "" otherwise.
	Path string
	// Frames is how many distinct frames of the script it mapped.
	Frames int

	c *sourcemap.Consumer
	// lineStarts caches the byte offset of every line of a source's sourcesContent.
	lineStarts map[string][]int
	// texts caches the sources' texts by the name the map uses.
	texts map[string]string
	// rawSource maps a cleaned source name (as shown) to the name the map uses.
	rawSource map[string]string
}

// Set is the result of Apply: the maps applied, and what the source view asks of them. Its methods
// may be called from several goroutines.
type Set struct {
	// mu guards the maps' caches of source texts.
	mu     sync.Mutex
	tr     *core.Trace
	folder *folder
	Maps   []Map
	// scriptMap is the index in Maps of each script URL's map.
	scriptMap map[core.StrID]int32
	scripts   map[string]*script
	// frameMap is the index in Maps of each mapped frame's map, -1 for others.
	frameMap []int32
	// unmappedScripts counts the scripts with frames that no map applied to.
	unmappedScripts int
}

// Apply finds the maps of the scripts that tr's frames name and fills tr.Original. Call it after
// core/integrate and before the trace is shared (it interns the original names); it never fails: what cannot be read is counted in tr.Warnings and its frames
// keep the engine's names. When no map applies, tr.Original stays nil.
func Apply(tr *core.Trace, opts Options) *Set {
	if opts.MaxMapBytes <= 0 {
		opts.MaxMapBytes = DefaultMaxMapBytes
	}
	w := &tr.Warnings
	set := &Set{tr: tr, scriptMap: map[core.StrID]int32{}}
	set.scripts = scriptsOf(tr)
	embedded := embeddedMaps(tr, w)
	dir := indexFolder(opts.Dir, w)
	set.folder = dir

	// The frames of each script URL.
	framesOf := map[core.StrID][]core.FrameID{}
	var urls []core.StrID
	for f, cf := range tr.Frames {
		if cf.URL == 0 || cf.Line < 0 {
			continue
		}
		if _, ok := framesOf[cf.URL]; !ok {
			urls = append(urls, cf.URL)
		}
		framesOf[cf.URL] = append(framesOf[cf.URL], core.FrameID(f))
	}
	var orig *core.OriginalFrames
	for _, u := range urls {
		scriptURL := tr.Strings.Get(u)
		m, ok := set.find(scriptURL, embedded, dir, opts.MaxMapBytes, w)
		if !ok {
			continue
		}
		if orig == nil {
			n := len(tr.Frames)
			orig = &core.OriginalFrames{
				Mapped: make([]bool, n), Name: make([]core.StrID, n), URL: make([]core.StrID, n),
				Line: make([]int32, n), Column: make([]int32, n),
			}
			set.frameMap = make([]int32, n)
			for i := range set.frameMap {
				set.frameMap[i] = -1
			}
		}
		idx := int32(len(set.Maps))
		misses := 0
		for _, f := range framesOf[u] {
			if set.mapFrame(orig, &m, f) {
				set.frameMap[f] = idx
				m.Frames++
			} else {
				misses++
			}
		}
		if misses > 0 {
			w.Add(fmt.Sprintf("frames that their script's source map does not cover (%s)", path.Base(urlPath(scriptURL))), misses)
		}
		set.scriptMap[u] = idx
		set.Maps = append(set.Maps, m)
	}
	if orig != nil {
		tr.Original = orig
	}
	set.unmappedScripts = len(urls) - len(set.Maps)
	if note := set.FolderNote(); note != "" {
		w.Add(note, 1)
	}
	return set
}

// Dir is the folder the maps were searched in, "" when none was named.
func (s *Set) Dir() string {
	if s == nil || s.folder == nil {
		return ""
	}
	return s.folder.root
}

// FolderNote says that the folder named for the maps held none that applied, while some scripts
// stayed unmapped: the user likely chose the wrong folder. It is "" otherwise.
func (s *Set) FolderNote() string {
	if s == nil || s.folder == nil || s.unmappedScripts == 0 {
		return ""
	}
	for _, m := range s.Maps {
		if m.Origin == FromFolder {
			return ""
		}
	}
	if s.unmappedScripts == 1 {
		return fmt.Sprintf("no source map under %s matched the one script", s.folder.root)
	}
	return fmt.Sprintf("no source map under %s matched any of the %d scripts", s.folder.root, s.unmappedScripts)
}

// find locates and parses the map of one script: embedded in the trace first, then a data: URL in
// its sourceMappingURL, then the folder.
func (s *Set) find(scriptURL string, embedded map[string]json.RawMessage, dir *folder, limit int64, w *core.Warnings) (Map, bool) {
	sc := s.scripts[scriptURL]
	mapURL := ""
	if sc != nil {
		mapURL = sc.mapURL
	}
	try := func(origin Origin, where string, b []byte) (Map, bool) {
		c, err := parse(scriptURL, b)
		if err != nil {
			w.Add(fmt.Sprintf("source maps not usable (%s from %s): %v", path.Base(urlPath(scriptURL)), origin, err), 1)
			return Map{}, false
		}
		return Map{ScriptURL: scriptURL, Origin: origin, Path: where, c: c, rawSource: map[string]string{}}, true
	}
	if raw, ok := embedded[scriptURL]; ok {
		if m, ok := try(FromMetadata, "", raw); ok {
			return m, true
		}
	}
	if mapURL != "" {
		if raw, ok := embedded["map:"+resolveURL(scriptURL, mapURL)]; ok {
			if m, ok := try(FromMetadata, "", raw); ok {
				return m, true
			}
		}
		if b, ok := decodeDataURL(mapURL); ok {
			if int64(len(b)) > limit {
				w.Add(fmt.Sprintf("source maps over %d MB skipped", limit>>20), 1)
			} else if m, ok := try(FromDataURL, "", b); ok {
				return m, true
			}
		}
	}
	if m, ok := s.fromScriptFile(scriptURL, limit, w, try); ok {
		return m, true
	}
	if p, ok := dir.lookup(scriptURL, mapURL); ok {
		b, size, err := readCapped(p, limit)
		switch {
		case errors.Is(err, errTooLarge):
			w.Add(fmt.Sprintf("source maps over %d MB skipped (%s: %d MB)", limit>>20, filepath.Base(p), size>>20), 1)
		case err != nil:
			w.Add(fmt.Sprintf("source map files not readable: %v", err), 1)
		default:
			if m, ok := try(FromFolder, p, b); ok {
				return m, true
			}
		}
	}
	return Map{}, false
}

// fromScriptFile reads the sourceMappingURL of a script at a file:// URL that exists here, and the
// map it names: a data: URL, or a file relative to the script.
func (s *Set) fromScriptFile(scriptURL string, limit int64, w *core.Warnings, try func(Origin, string, []byte) (Map, bool)) (Map, bool) {
	u, err := url.Parse(scriptURL)
	if err != nil || u.Scheme != "file" {
		return Map{}, false
	}
	script := filepath.FromSlash(u.Path)
	text, _, err := readCapped(script, limit)
	if err != nil {
		return Map{}, false
	}
	ref := sourceMappingURL(string(text))
	if ref == "" {
		return Map{}, false
	}
	if b, ok := decodeDataURL(ref); ok {
		return try(FromScriptFile, "", b)
	}
	r, err := url.Parse(ref)
	if err != nil || (r.Scheme != "" && r.Scheme != "file") {
		return Map{}, false
	}
	p := filepath.FromSlash(r.Path)
	if !filepath.IsAbs(p) {
		p = filepath.Join(filepath.Dir(script), p)
	}
	b, size, err := readCapped(p, limit)
	switch {
	case errors.Is(err, errTooLarge):
		w.Add(fmt.Sprintf("source maps over %d MB skipped (%s: %d MB)", limit>>20, filepath.Base(p), size>>20), 1)
		return Map{}, false
	case err != nil:
		return Map{}, false
	}
	return try(FromScriptFile, p, b)
}

// parse decodes a map; the library may panic on some malformed input (a source index past the
// sources list, say), which becomes an error here.
func parse(scriptURL string, b []byte) (c *sourcemap.Consumer, err error) {
	defer func() {
		if r := recover(); r != nil {
			c, err = nil, fmt.Errorf("malformed map: %v", r)
		}
	}()
	if err := checkMappings(b); err != nil {
		return nil, err
	}
	// The map's own URL is not passed: sources stay as the bundler wrote them, which is what
	// people recognise and what the folder search matches.
	return sourcemap.Parse("", b)
}

// checkMappings rejects mappings with characters that are not base64 VLQ digits or separators:
// the decoder reads them as digits of some value, which would map frames to nonsense.
func checkMappings(b []byte) error {
	var m struct {
		Mappings string `json:"mappings"`
		Sections []struct {
			Map struct {
				Mappings string `json:"mappings"`
			} `json:"map"`
		} `json:"sections"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	all := []string{m.Mappings}
	for _, s := range m.Sections {
		all = append(all, s.Map.Mappings)
	}
	for _, mp := range all {
		for i := 0; i < len(mp); i++ {
			c := mp[i]
			ok := c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' ||
				c == '+' || c == '/' || c == ',' || c == ';'
			if !ok {
				return fmt.Errorf("mappings hold %q at offset %d, not a base64 VLQ digit", c, i)
			}
		}
	}
	return nil
}

// lookup asks the map for a 1-based generated line and 0-based column.
func lookup(c *sourcemap.Consumer, line, col int) (source, name string, oline, ocol int, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			ok = false
		}
	}()
	source, name, oline, ocol, ok = c.Source(line, col)
	if ok && (oline < 1 || ocol < 0 || source == "") {
		ok = false
	}
	return
}

// mapFrame fills the original columns of frame f. V8 places a function at the "(" that opens its
// parameters, right after its name, so the name is looked up where the engine's name starts: a
// minifier maps that token to the original name.
func (s *Set) mapFrame(o *core.OriginalFrames, m *Map, f core.FrameID) bool {
	tr := s.tr
	cf := tr.Frames[f]
	genName := tr.Strings.Get(cf.FunctionName)
	line, col := int(cf.Line)+1, max(int(cf.Column), 0)
	source, name, oline, ocol, ok := lookup(m.c, line, col)
	if !ok {
		return false
	}
	if name == "" && genName != "" && col >= len(genName) {
		if _, n, _, _, ok := lookup(m.c, line, col-len(genName)); ok {
			name = n
		}
	}
	if name == "" {
		// A minifier that turned a declaration into an expression leaves the function without a
		// name at all; the original text at the mapped position still says "function NAME".
		name = s.nameInSource(m, source, oline-1, ocol)
	}
	if name == "" {
		name = genName
	}
	shown := cleanSource(source)
	if _, ok := m.rawSource[shown]; !ok {
		m.rawSource[shown] = source
	}
	o.Mapped[f] = true
	o.Name[f] = tr.Strings.Intern(name)
	o.URL[f] = tr.Strings.Intern(shown)
	o.Line[f] = int32(oline - 1)
	o.Column[f] = int32(ocol)
	return true
}

// cleanSource turns a map's source name into the file people know: bundler schemes and project
// names go (webpack://project/./src/a.ts → src/a.ts), and so do leading ./ and ../ (which are
// relative to the map, not to anything the reader sees).
func cleanSource(src string) string {
	s := src
	for _, scheme := range []string{"webpack://", "webpack-internal://", "rollup://", "vite://"} {
		if strings.HasPrefix(s, scheme) {
			s = s[len(scheme):]
			// webpack://NAMESPACE/./src/a.ts: the namespace is the project's name.
			if i := strings.IndexByte(s, '/'); i >= 0 {
				s = s[i+1:]
			}
			break
		}
	}
	if strings.HasPrefix(s, "file://") {
		if u, err := url.Parse(s); err == nil {
			s = u.Path
		}
	}
	if strings.Contains(s, "://") {
		return s // a URL of its own (a CDN's library, say): shown as is
	}
	s = path.Clean(s)
	for strings.HasPrefix(s, "../") {
		s = s[3:]
	}
	if s == "." || s == ".." || s == "" {
		return src
	}
	return s
}

// resolveURL resolves ref against base as a browser would.
func resolveURL(base, ref string) string {
	b, err := url.Parse(base)
	if err != nil {
		return ref
	}
	r, err := url.Parse(ref)
	if err != nil {
		return ref
	}
	return b.ResolveReference(r).String()
}
