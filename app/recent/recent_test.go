package recent

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"flamedesk/internal/fixtures"
)

// realFiles returns the paths of the real fixtures, the kind of files the list remembers.
func realFiles(t *testing.T) []string {
	t.Helper()
	paths := fixtures.Glob(t, "fixtures/*/*")
	if len(paths) < MaxEntries+2 {
		t.Fatalf("need at least %d fixtures, have %d", MaxEntries+2, len(paths))
	}
	return paths
}

func paths(entries []Entry) []string {
	var out []string
	for _, e := range entries {
		out = append(out, e.Path)
	}
	return out
}

func TestMissingFileIsAnEmptyList(t *testing.T) {
	if got := LoadFile(filepath.Join(t.TempDir(), "nope", "recent.json")); len(got) != 0 {
		t.Errorf("LoadFile of a missing file = %v", got)
	}
}

func TestAddKeepsTheNewestTenNewestFirst(t *testing.T) {
	file := filepath.Join(t.TempDir(), "flamedesk", "recent.json")
	files := realFiles(t)[:MaxEntries+2]
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for i, f := range files {
		if err := AddToFile(file, f, start.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	got := LoadFile(file)
	want := slices.Clone(files[2:])
	slices.Reverse(want)
	if !slices.Equal(paths(got), want) {
		t.Fatalf("list = %q\nwant %q", paths(got), want)
	}
	for i, e := range got {
		if !e.Available {
			t.Errorf("%s exists but is marked unavailable", e.Path)
		}
		if wantTime := start.Add(time.Duration(len(files)-1-i) * time.Minute); !e.Opened.Equal(wantTime) {
			t.Errorf("%s opened %v, want %v", e.Path, e.Opened, wantTime)
		}
	}

	// Opening a listed file again moves it to the top without duplicating it.
	again := files[5]
	if err := AddToFile(file, again, start.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	got = LoadFile(file)
	if len(got) != MaxEntries || got[0].Path != again || slices.Index(paths(got)[1:], again) >= 0 {
		t.Errorf("after reopening %s: %q", again, paths(got))
	}
	if got[1].Path != want[0] {
		t.Errorf("the others should keep their order: second is %s, want %s", got[1].Path, want[0])
	}
}

func TestRelativePathsAreStoredAbsolute(t *testing.T) {
	fixture := realFiles(t)[0]
	t.Chdir(filepath.Dir(fixture))
	file := filepath.Join(t.TempDir(), "recent.json")
	if err := AddToFile(file, filepath.Base(fixture), time.Now()); err != nil {
		t.Fatal(err)
	}
	if got := LoadFile(file); len(got) != 1 || got[0].Path != fixture || !got[0].Available {
		t.Errorf("list = %+v, want %s available", got, fixture)
	}
	if err := AddToFile(file, "", time.Now()); err == nil {
		t.Errorf("adding an empty path succeeded")
	}
}

func TestGoneFilesAreUnavailable(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "recent.json")
	fixture := realFiles(t)[0]
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	copied := filepath.Join(dir, filepath.Base(fixture))
	if err := os.WriteFile(copied, data, 0o644); err != nil {
		t.Fatal(err)
	}
	folder := filepath.Join(dir, "a-folder.json")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fixture, copied, folder} {
		if err := AddToFile(file, p, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Remove(copied); err != nil {
		t.Fatal(err)
	}
	avail := map[string]bool{}
	for _, e := range LoadFile(file) {
		avail[e.Path] = e.Available
	}
	if len(avail) != 3 || !avail[fixture] || avail[copied] || avail[folder] {
		t.Errorf("availability = %v; want only %s available", avail, fixture)
	}
}

func TestCorruptContentIsIgnoredAndReplaced(t *testing.T) {
	fixture := realFiles(t)[0]
	for name, content := range map[string]string{
		"empty":         "",
		"garbage":       "\x00\xff not json",
		"truncated":     `{"version":1,"files":[{"path":"` + fixture + `","opened":"2026-01-0`,
		"wrong shape":   `{"version":1,"files":{"path":"/x"}}`,
		"wrong types":   `{"version":1,"files":[{"path":42,"opened":"yesterday"}]}`,
		"array":         `["/a/b.json"]`,
		"later version": `{"version":2,"files":[{"path":"` + fixture + `","opened":"2026-01-01T00:00:00Z"}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "recent.json")
			if err := os.WriteFile(file, []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
			if got := LoadFile(file); len(got) != 0 {
				t.Errorf("LoadFile = %v, want nothing", got)
			}
			if err := AddToFile(file, fixture, time.Now()); err != nil {
				t.Fatal(err)
			}
			if got := LoadFile(file); len(got) != 1 || got[0].Path != fixture {
				t.Errorf("after Add over corrupt content: %v", got)
			}
		})
	}
}

func TestUnsoundEntriesAreDropped(t *testing.T) {
	files := realFiles(t)
	var list []string
	list = append(list, `{"path":"relative/x.json","opened":"2026-01-01T00:00:00Z"}`)
	list = append(list, `{"path":"","opened":"2026-01-01T00:00:00Z"}`)
	list = append(list, fmt.Sprintf(`{"path":%q,"opened":"2026-01-01T00:00:00Z"}`, files[0]+"/../"+filepath.Base(files[0])))
	for _, f := range files[:MaxEntries+1] {
		// Each twice: only the first copy counts.
		e := fmt.Sprintf(`{"path":%q,"opened":"2026-01-01T00:00:00Z"}`, f)
		list = append(list, e, e)
	}
	file := filepath.Join(t.TempDir(), "recent.json")
	content := `{"version":1,"files":[` + strings.Join(list, ",") + `],"extra":true}`
	if err := os.WriteFile(file, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := paths(LoadFile(file)); !slices.Equal(got, files[:MaxEntries]) {
		t.Errorf("list = %q\nwant %q", got, files[:MaxEntries])
	}
}

func TestWriteIsAtomicAndLeavesNoTemporaryFiles(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "recent.json")
	for _, f := range realFiles(t)[:3] {
		if err := AddToFile(file, f, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	names, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != 1 || names[0].Name() != "recent.json" {
		t.Errorf("folder holds %v, want only recent.json", names)
	}
	if runtime.GOOS != "windows" {
		info, err := os.Stat(file)
		if err != nil || info.Mode().Perm() != 0o600 {
			t.Errorf("recent.json mode %v (%v), want 0600: the list names the user's files", info.Mode(), err)
		}
	}
	// A folder where the list should be cannot be replaced: the error must say so, and the
	// folder must survive.
	blocked := filepath.Join(dir, "blocked")
	if err := os.Mkdir(blocked, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := AddToFile(blocked, realFiles(t)[0], time.Now()); err == nil {
		t.Errorf("writing the list over a folder succeeded")
	}
	if info, err := os.Stat(blocked); err != nil || !info.IsDir() {
		t.Errorf("the folder in the way was damaged: %v", err)
	}
}

func TestForget(t *testing.T) {
	file := filepath.Join(t.TempDir(), "recent.json")
	files := realFiles(t)[:3]
	for _, f := range files {
		if err := AddToFile(file, f, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	if err := ForgetInFile(file, files[1]); err != nil {
		t.Fatal(err)
	}
	if got := paths(LoadFile(file)); !slices.Equal(got, []string{files[2], files[0]}) {
		t.Errorf("after Forget: %q", got)
	}
	if err := ForgetInFile(file, "/not/listed.json"); err != nil {
		t.Errorf("forgetting an unlisted file: %v", err)
	}
}

// Load and Add use the user's configuration folder; XDG_CONFIG_HOME moves it on Linux and BSD.
func TestLoadAndAddUseTheConfigFolder(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" || runtime.GOOS == "ios" || runtime.GOOS == "plan9" {
		t.Skip("XDG_CONFIG_HOME decides os.UserConfigDir on Unix only")
	}
	config := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", config)
	if got, err := File(); err != nil || got != filepath.Join(config, "flamedesk", "recent.json") {
		t.Fatalf("File = %q, %v", got, err)
	}
	if got := Load(); got != nil {
		t.Errorf("Load with no list = %v", got)
	}
	fixture := realFiles(t)[0]
	if err := Add(fixture); err != nil {
		t.Fatal(err)
	}
	if got := Load(); len(got) != 1 || got[0].Path != fixture || !got[0].Available {
		t.Errorf("Load = %+v", got)
	}
	if err := Forget(fixture); err != nil {
		t.Fatal(err)
	}
	if got := Load(); len(got) != 0 {
		t.Errorf("Load after Forget = %+v", got)
	}
}

// A comparison is remembered with its second file and alignment; opening the first file alone
// afterwards forgets them, and a gone second file makes the entry unavailable.
func TestComparisonEntry(t *testing.T) {
	files := realFiles(t)
	dir := t.TempDir()
	list := filepath.Join(dir, "recent.json")
	b := filepath.Join(dir, "b.json")
	if err := os.WriteFile(b, []byte("[]"), 0o600); err != nil {
		t.Fatal(err)
	}
	align := []byte(`{"method":"mark","name":"work-start","offset":-1500}`)
	if err := AddComparisonToFile(list, files[0], b, align, time.Unix(10, 0)); err != nil {
		t.Fatal(err)
	}
	got := LoadFile(list)
	if len(got) != 1 || got[0].Compare != b || string(got[0].Align) != string(align) || !got[0].Available {
		t.Fatalf("entries %+v", got)
	}
	if err := os.Remove(b); err != nil {
		t.Fatal(err)
	}
	if got := LoadFile(list); got[0].Available {
		t.Error("a comparison whose second file is gone is available")
	}
	if err := AddToFile(list, files[0], time.Unix(20, 0)); err != nil {
		t.Fatal(err)
	}
	if got := LoadFile(list); got[0].Compare != "" || got[0].Align != nil {
		t.Errorf("opened alone, the entry still compares: %+v", got[0])
	}
}
