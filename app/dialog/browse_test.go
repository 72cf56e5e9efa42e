package dialog

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"flamedesk/internal/fixtures"
)

// browseTree makes a folder holding a mix of what a user's trace folder holds, plus links to a
// real fixture, and returns it.
func browseTree(t *testing.T) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	root := t.TempDir()
	for _, d := range []string{"b-runs", "A-old", ".cache"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"notes.txt", "z.cpuprofile", "Alpha.JSON", "trace.json.gz", ".hidden.json", "b-runs/inner.json"} {
		if err := os.WriteFile(filepath.Join(root, f), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fixture := fixtures.Path(t, "fixtures", "upstream", "devtools-basic.cpuprofile.gz")
	for link, target := range map[string]string{
		"linked.cpuprofile.gz": fixture,
		"broken.json":          filepath.Join(root, "gone.json"),
		"to-runs":              filepath.Join(root, "b-runs"),
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func entryNames(b *browser) []string {
	var names []string
	for _, e := range b.entries {
		n := e.name
		if e.dir {
			n += "/"
		}
		names = append(names, n)
	}
	return names
}

func TestBrowserListsFoldersThenMatchingFiles(t *testing.T) {
	root := browseTree(t)
	b := newBrowser(root, TraceFilters, false)
	if b.dir != root || b.problem != "" {
		t.Fatalf("browser opened %q (problem %q), want %q", b.dir, b.problem, root)
	}
	want := []string{"A-old/", "b-runs/", "to-runs/", "Alpha.JSON", "linked.cpuprofile.gz", "trace.json.gz", "z.cpuprofile"}
	if got := entryNames(b); !slices.Equal(got, want) {
		t.Errorf("with %q: %q, want %q", TraceFilters[0].Name, got, want)
	}
	b.nextFilter()
	want = []string{"A-old/", "b-runs/", "to-runs/", "Alpha.JSON", "linked.cpuprofile.gz", "notes.txt", "trace.json.gz", "z.cpuprofile"}
	if got := entryNames(b); !slices.Equal(got, want) {
		t.Errorf("with %q: %q, want %q", b.filter().Name, got, want)
	}
	b.nextFilter()
	if b.filterIdx != 0 {
		t.Errorf("filters should wrap around, at %d", b.filterIdx)
	}
}

func TestBrowserActivateAndSubmit(t *testing.T) {
	root := browseTree(t)
	b := newBrowser(root, TraceFilters, false)

	i := slices.Index(entryNames(b), "linked.cpuprofile.gz")
	if got := b.activate(i); got != filepath.Join(root, "linked.cpuprofile.gz") {
		t.Errorf("activating a file chose %q", got)
	}
	if got := b.activate(slices.Index(entryNames(b), "to-runs/")); got != "" || b.dir != filepath.Join(root, "to-runs") {
		t.Errorf("activating a linked folder chose %q and shows %q", got, b.dir)
	}
	if got := entryNames(b); !slices.Equal(got, []string{"inner.json"}) {
		t.Errorf("inside to-runs: %q", got)
	}
	b.up()
	if b.dir != root {
		t.Errorf("up went to %q, want %q", b.dir, root)
	}
	if got := b.activate(99); got != "" || b.dir != root {
		t.Errorf("activating a row that does not exist did something: %q in %q", got, b.dir)
	}

	if got := b.submit("b-runs"); got != "" || b.dir != filepath.Join(root, "b-runs") {
		t.Errorf("typing a folder name chose %q and shows %q", got, b.dir)
	}
	if got := b.submit("  inner.json "); got != filepath.Join(root, "b-runs", "inner.json") {
		t.Errorf("typing a relative file name chose %q", got)
	}
	fixture := fixtures.Path(t, "fixtures", "generated", "gen-selfprofile-small.json")
	if got := b.submit(fixture); got != fixture {
		t.Errorf("typing an absolute path chose %q, want %q", got, fixture)
	}
	// A typed name is taken as typed, whatever the filter shows.
	if got := b.submit("../notes.txt"); got != filepath.Join(root, "notes.txt") {
		t.Errorf("typing ../notes.txt chose %q", got)
	}
	if got := b.submit("../missing.json"); got != "" || !strings.Contains(b.problem, "does not exist") {
		t.Errorf("typing a missing file chose %q with problem %q", got, b.problem)
	}
	if got := b.submit("../broken.json"); got != "" || b.problem == "" {
		t.Errorf("typing a broken link chose %q with problem %q", got, b.problem)
	}
}

func TestBrowserSubmitEmptyOpensSelection(t *testing.T) {
	root := browseTree(t)
	b := newBrowser(root, TraceFilters, false)
	if got := b.submit(""); got != "" {
		t.Errorf("Enter with nothing typed or selected chose %q", got)
	}
	b.move(-5)
	if b.selected != 0 {
		t.Errorf("moving up from nothing selected the row %d, want 0", b.selected)
	}
	b.move(100)
	if b.selected != len(b.entries)-1 {
		t.Errorf("moving far down selected %d, want the last row %d", b.selected, len(b.entries)-1)
	}
	if got := b.submit(""); got != filepath.Join(root, "z.cpuprofile") {
		t.Errorf("Enter on the last row chose %q", got)
	}
}

func TestBrowserFallsBackToWorkingDirectory(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{"", filepath.Join(t.TempDir(), "missing")} {
		if b := newBrowser(dir, nil, false); b.dir != wd || len(b.filters) != 1 {
			t.Errorf("newBrowser(%q) shows %q with %d filters, want %q with one", dir, b.dir, len(b.filters), wd)
		}
	}
}

func TestBrowserKeepsFolderItCannotEnter(t *testing.T) {
	if runtime.GOOS == "windows" || os.Geteuid() == 0 {
		t.Skip("needs a user that permissions apply to")
	}
	root := browseTree(t)
	locked := filepath.Join(root, "A-old")
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(locked, 0o755) })
	b := newBrowser(root, TraceFilters, false)
	b.activate(0)
	if b.dir != root || b.problem == "" {
		t.Errorf("entering an unreadable folder: shows %q, problem %q", b.dir, b.problem)
	}
}

func TestResolveTyped(t *testing.T) {
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skip("no home directory")
	}
	base := filepath.FromSlash("/data/traces")
	tests := map[string]string{
		"x.json":     filepath.Join(base, "x.json"),
		"../y.json":  filepath.FromSlash("/data/y.json"),
		"~":          home,
		"~/t/z.json": filepath.Join(home, "t", "z.json"),
		"~user/x":    filepath.Join(base, "~user", "x"),
	}
	for typed, want := range tests {
		if got := resolveTyped(base, typed); got != want {
			t.Errorf("resolveTyped(%q) = %q, want %q", typed, got, want)
		}
	}
}

func TestFolderBrowserListsAndChoosesFolders(t *testing.T) {
	root := browseTree(t)
	b := newBrowser(root, TraceFilters, true)
	want := []string{"A-old/", "b-runs/", "to-runs/"}
	if got := entryNames(b); !slices.Equal(got, want) {
		t.Errorf("folder browser lists %q, want only the folders %q", got, want)
	}
	if got := b.chooseFolder(); got != root {
		t.Errorf("with nothing selected chooseFolder = %q, want the folder shown %q", got, root)
	}
	b.selected = 1
	if got, want := b.chooseFolder(), filepath.Join(root, "b-runs"); got != want {
		t.Errorf("with b-runs selected chooseFolder = %q, want %q", got, want)
	}
	if p := b.submit("trace.json.gz"); p != "" || !strings.Contains(b.problem, "not a folder") {
		t.Errorf("typing a file's name in a folder browser chose %q (problem %q), want a 'not a folder' problem", p, b.problem)
	}
	if p := b.submit("A-old"); p != "" || b.dir != filepath.Join(root, "A-old") {
		t.Errorf("typing a folder's name should enter it: chose %q, shows %q", p, b.dir)
	}
}
