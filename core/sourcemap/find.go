// Package sourcemap maps the call frames of a loaded trace back to the sources a bundler started
// from, with the source maps found on the user's own machine: maps embedded in the trace's metadata
// (DevTools' "include script content and source maps"), maps that a script's sourceMappingURL names
// (a data: URL, or a file found in the folder the user named), and NAME.js.map files in that folder.
//
// Apply fills core.Trace.Original: columns beside the engine's frames, which stay untouched, so
// every view can show either. The Set it returns also answers what the source view needs: per-line
// self time of a function (lines.go), the text of a source and where it is on disk (source.go).
//
// Bad maps never stop a load: each one costs a counted warning and its frames keep their
// generated names. Decoding is github.com/go-sourcemap/sourcemap's.
package sourcemap

import (
	"encoding/base64"
	"encoding/json"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"flamedesk/core"
)

// Origin says where a map was found.
type Origin uint8

const (
	// FromMetadata: the trace's metadata.sourceMaps.
	FromMetadata Origin = iota + 1
	// FromDataURL: a data: URL in the script's sourceMappingURL.
	FromDataURL
	// FromFolder: a file in the folder the user named.
	FromFolder
	// FromScriptFile: the sourceMappingURL of a script that is on this disk (a file:// URL, as
	// node writes in a .cpuprofile), and the map beside it.
	FromScriptFile
)

func (o Origin) String() string {
	switch o {
	case FromMetadata:
		return "trace metadata"
	case FromDataURL:
		return "data: URL"
	case FromFolder:
		return "folder"
	case FromScriptFile:
		return "script file"
	}
	return "none"
}

// script is what the trace says about one script URL: its sourceMappingURL and its text, from the
// ScriptCatchup events that an enhanced trace carries.
type script struct {
	mapURL string
	text   string
}

// scriptsOf collects, per script URL, the map URL and source text of the trace's ScriptCatchup
// events. The two kinds of event (URL and source) are joined by isolate and script id; a source
// too large for one event comes as LargeScriptCatchup parts.
func scriptsOf(tr *core.Trace) map[string]*script {
	type key struct{ isolate, id string }
	type scriptData struct {
		Isolate    json.RawMessage `json:"isolate"`
		ScriptID   json.RawMessage `json:"scriptId"`
		URL        string          `json:"url"`
		MapURL     string          `json:"sourceMapUrl"`
		SourceText *string         `json:"sourceText"`
		SplitIndex *int            `json:"splitIndex"`
		SplitCount int             `json:"splitCount"`
	}
	urls := map[key]string{}
	mapURLs := map[key]string{}
	texts := map[key]string{}
	parts := map[key][]string{}
	catchup, _ := tr.Strings.Lookup("ScriptCatchup")
	large, _ := tr.Strings.Lookup("LargeScriptCatchup")
	if catchup == 0 && large == 0 {
		return nil
	}
	for i := range tr.Events.Len() {
		name := tr.Events.Name[i]
		if name == 0 || (name != catchup && name != large) {
			continue
		}
		raw := tr.Events.ArgsJSON(i)
		if raw == nil {
			continue
		}
		var args struct {
			Data scriptData `json:"data"`
		}
		if json.Unmarshal(raw, &args) != nil {
			continue
		}
		d := &args.Data
		k := key{strings.Trim(string(d.Isolate), `"`), strings.Trim(string(d.ScriptID), `"`)}
		switch {
		case d.SourceText != nil && d.SplitIndex != nil:
			if d.SplitCount <= 0 || d.SplitCount > 1<<16 || *d.SplitIndex < 0 || *d.SplitIndex >= d.SplitCount {
				continue
			}
			if len(parts[k]) != d.SplitCount {
				parts[k] = make([]string, d.SplitCount)
			}
			parts[k][*d.SplitIndex] = *d.SourceText
		case d.SourceText != nil:
			texts[k] = *d.SourceText
		default:
			if d.URL != "" {
				urls[k] = d.URL
			}
			if d.MapURL != "" {
				mapURLs[k] = d.MapURL
			}
		}
	}
	for k, p := range parts {
		texts[k] = strings.Join(p, "")
	}
	out := map[string]*script{}
	for k, u := range urls {
		s := out[u]
		if s == nil {
			s = &script{}
			out[u] = s
		}
		if m := mapURLs[k]; m != "" {
			s.mapURL = m
		}
		if t, ok := texts[k]; ok && t != "" {
			s.text = t
			if s.mapURL == "" {
				s.mapURL = sourceMappingURL(t)
			}
		}
	}
	return out
}

// sourceMappingURL returns the URL of the last "//# sourceMappingURL=" comment of a script.
func sourceMappingURL(text string) string {
	for _, marker := range []string{"//# sourceMappingURL=", "//@ sourceMappingURL="} {
		if i := strings.LastIndex(text, marker); i >= 0 {
			rest := text[i+len(marker):]
			if j := strings.IndexAny(rest, " \t\r\n"); j >= 0 {
				rest = rest[:j]
			}
			return rest
		}
	}
	return ""
}

// decodeDataURL returns the payload of a data: URL (base64 or percent-encoded).
func decodeDataURL(u string) ([]byte, bool) {
	if !strings.HasPrefix(u, "data:") {
		return nil, false
	}
	comma := strings.IndexByte(u, ',')
	if comma < 0 {
		return nil, false
	}
	meta, payload := u[len("data:"):comma], u[comma+1:]
	if strings.HasSuffix(meta, ";base64") {
		b, err := base64.StdEncoding.DecodeString(payload)
		if err != nil {
			b, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(payload, "="))
		}
		return b, err == nil
	}
	s, err := url.PathUnescape(payload)
	return []byte(s), err == nil
}

// embeddedMaps reads metadata.sourceMaps: [{url, sourceMapUrl, sourceMap}], keyed by both URLs.
func embeddedMaps(tr *core.Trace, w *core.Warnings) map[string]json.RawMessage {
	if len(tr.Metadata) == 0 {
		return nil
	}
	var meta struct {
		SourceMaps []struct {
			URL       string          `json:"url"`
			MapURL    string          `json:"sourceMapUrl"`
			SourceMap json.RawMessage `json:"sourceMap"`
		} `json:"sourceMaps"`
	}
	if err := json.Unmarshal(tr.Metadata, &meta); err != nil {
		w.Add("trace metadata is not readable JSON (embedded source maps ignored)", 1)
		return nil
	}
	out := map[string]json.RawMessage{}
	for _, m := range meta.SourceMaps {
		if len(m.SourceMap) == 0 {
			continue
		}
		if m.URL != "" {
			out[m.URL] = m.SourceMap
		}
		if m.MapURL != "" {
			out["map:"+m.MapURL] = m.SourceMap
		}
	}
	return out
}

// folder indexes the files under the directory the user named by base name: maps are looked up
// there, and so are sources that a map names without carrying their text.
type folder struct {
	root   string
	byBase map[string][]string // base name → slash paths relative to root, sorted
}

func indexFolder(dir string, w *core.Warnings) *folder {
	if dir == "" {
		return nil
	}
	f := &folder{root: dir, byBase: map[string][]string{}}
	skipped := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			skipped++
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if name := d.Name(); name == "node_modules" || (strings.HasPrefix(name, ".") && p != dir) {
				return fs.SkipDir
			}
			return nil
		}
		if rel, err := filepath.Rel(dir, p); err == nil {
			f.byBase[d.Name()] = append(f.byBase[d.Name()], filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		w.Add("source map folder not readable: "+err.Error(), 1)
	}
	w.Add("entries of the source map folder not readable", skipped)
	for _, ps := range f.byBase {
		sort.Strings(ps)
	}
	return f
}

// lookup finds the map file for a script URL (whose sourceMappingURL is mapURL, maybe ""): a file
// named after the sourceMappingURL, else NAME.js.map. When several files have that name, the one
// whose folders match the end of the URL's path best wins (…/esbuild/bundle.js picks
// esbuild/bundle.js.map over rollup/bundle.js.map).
func (f *folder) lookup(scriptURL, mapURL string) (string, bool) {
	if f == nil {
		return "", false
	}
	scriptPath := urlPath(scriptURL)
	var want []string
	if mapURL != "" && !strings.HasPrefix(mapURL, "data:") {
		want = append(want, path.Base(urlPath(mapURL)))
	}
	if base := path.Base(scriptPath); base != "." && base != "/" {
		want = append(want, base+".map")
	}
	for _, name := range want {
		cands := f.byBase[name]
		if len(cands) == 0 {
			continue
		}
		return f.best(cands, path.Dir(scriptPath)), true
	}
	return "", false
}

// best picks, among files of one name, the one whose folders match the end of dir best.
func (f *folder) best(cands []string, dir string) string {
	best, bestScore := cands[0], -1
	for _, c := range cands {
		if s := commonDirSuffix(path.Dir(c), dir); s > bestScore {
			best, bestScore = c, s
		}
	}
	return filepath.Join(f.root, filepath.FromSlash(best))
}

// file finds a source file by a slash path such as "src/text.ts".
func (f *folder) file(slashPath string) (string, bool) {
	if f == nil {
		return "", false
	}
	cands := f.byBase[path.Base(slashPath)]
	if len(cands) == 0 {
		return "", false
	}
	return f.best(cands, path.Dir(slashPath)), true
}

// commonDirSuffix counts the trailing folder names two slash paths share.
func commonDirSuffix(a, b string) int {
	as, bs := strings.Split(a, "/"), strings.Split(b, "/")
	n := 0
	for n < len(as) && n < len(bs) && as[len(as)-1-n] == bs[len(bs)-1-n] && as[len(as)-1-n] != "." {
		n++
	}
	return n
}

// urlPath is the path part of a URL, or the string itself when it is not one.
func urlPath(u string) string {
	if p, err := url.Parse(u); err == nil && p.Path != "" {
		return p.Path
	}
	return filepath.ToSlash(u)
}

// readCapped reads a file of at most limit bytes.
func readCapped(p string, limit int64) ([]byte, int64, error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, 0, err
	}
	if st.Size() > limit {
		return nil, st.Size(), errTooLarge
	}
	b, err := os.ReadFile(p)
	return b, int64(len(b)), err
}
