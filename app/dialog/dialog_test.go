package dialog

import (
	"context"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"flamedesk/internal/fixtures"
)

func TestPathFromURI(t *testing.T) {
	tests := []struct {
		uri     string
		windows bool
		want    string
	}{
		{"file:///home/ann/trace.json", false, "/home/ann/trace.json"},
		{"file:///home/ann/My%20Traces/a%2Bb%25.json.gz", false, "/home/ann/My Traces/a+b%.json.gz"},
		// A raw '+' is a plus: QueryUnescape would have made it a space.
		{"file:///tmp/a+b.cpuprofile", false, "/tmp/a+b.cpuprofile"},
		{"file://localhost/tmp/x.json", false, "/tmp/x.json"},
		{"FILE:///tmp/x.json", false, "/tmp/x.json"},
		{"file:/tmp/x.json", false, "/tmp/x.json"},
		{"file:///tmp/%E2%80%94%20em%20dash.json", false, "/tmp/— em dash.json"},
		{"file:///tmp/%23hash%3Fq.json", false, "/tmp/#hash?q.json"},
		{"file:///C:/Users/ann/trace.json", true, `C:\Users\ann\trace.json`},
		{"file:///c:/a%20b/x.json", true, `c:\a b\x.json`},
		{"file://server/share/x.json", true, `\\server\share\x.json`},
	}
	for _, tt := range tests {
		got, err := pathFromURI(tt.uri, tt.windows)
		if err != nil || got != tt.want {
			t.Errorf("pathFromURI(%q, windows=%v) = %q, %v; want %q", tt.uri, tt.windows, got, err, tt.want)
		}
	}
}

func TestPathFromURIRefusesWhatIsNotALocalFile(t *testing.T) {
	for _, uri := range []string{
		"",
		"/tmp/x.json",
		"https://example.org/x.json",
		"file://otherhost/tmp/x.json", // another host, not Windows
		"file:///tmp/x.json#frag",
		"file:///tmp/x.json?q",
		"file:///tmp/%zz.json",
		"file:///tmp/a%00b.json",
		"file://",
		"file:///",
		"file:tmp/x.json",
	} {
		if got, err := pathFromURI(uri, false); err == nil {
			t.Errorf("pathFromURI(%q) = %q, want an error", uri, got)
		}
	}
}

// The portal builds its URIs the way net/url does; every name must survive the round trip.
func TestPathFromURIRoundTrip(t *testing.T) {
	for _, p := range []string{"/a b/c+d.json", "/x/%41.json", "/ü/ñ.cpuprofile.gz", "/q?/h#/s;/c,/e=.json", "/t/'quote\".json"} {
		u := url.URL{Scheme: "file", Path: p}
		got, err := pathFromURI(u.String(), false)
		if err != nil || got != p {
			t.Errorf("round trip of %q via %q = %q, %v", p, u.String(), got, err)
		}
	}
}

func TestFilterMatches(t *testing.T) {
	traces := TraceFilters[0]
	names, err := filepath.Glob(filepath.Join(filepath.Dir(fixtures.Path(t, "fixtures", "MANIFEST.md")), "*", "*"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	// Every real fixture is a trace or a profile and must pass the default filter.
	for _, n := range names {
		if !traces.Matches(filepath.Base(n)) {
			t.Errorf("%s does not pass %q", filepath.Base(n), traces.Name)
		}
	}
	for _, n := range []string{"TRACE.JSON", "Profile.CPUPROFILE.GZ", "x.gz"} {
		if !traces.Matches(n) {
			t.Errorf("%s should pass %q", n, traces.Name)
		}
	}
	for _, n := range []string{"notes.txt", "trace.json.bak", "json", "x.jsonl"} {
		if traces.Matches(n) {
			t.Errorf("%s should not pass %q", n, traces.Name)
		}
	}
	if !TraceFilters[1].Matches("notes.txt") || !TraceFilters[1].showsAll() || traces.showsAll() {
		t.Errorf("the second filter should show every file, the first should not")
	}
	if got, want := traces.extensions(), []string{"json", "gz", "cpuprofile"}; !slices.Equal(got, want) {
		t.Errorf("extensions = %q, want %q", got, want)
	}
}

func TestPlan(t *testing.T) {
	has := func(cmds ...string) func(string) bool {
		return func(c string) bool { return slices.Contains(cmds, c) }
	}
	tests := []struct {
		goos, forced string
		has          func(string) bool
		want         []Backend
	}{
		{"linux", "", has("zenity", "kdialog"), []Backend{Portal, Zenity, KDialog, Builtin}},
		{"linux", "", has("kdialog"), []Backend{Portal, KDialog, Builtin}},
		{"linux", "", has(), []Backend{Portal, Builtin}},
		{"freebsd", "", has("zenity"), []Backend{Portal, Zenity, Builtin}},
		{"linux", "zenity", has(), []Backend{Zenity}}, // forced: tried even if missing, so it fails loudly
		{"linux", " builtin ", has("zenity"), []Backend{Builtin}},
		{"linux", "portal", has(), []Backend{Portal}},
		{"windows", "", has(), []Backend{Win32}},
		{"windows", "win32", has(), []Backend{Win32}},
		{"darwin", "", has("osascript"), []Backend{OSAScript}},
		{"darwin", "", has(), nil},
	}
	for _, tt := range tests {
		got, err := plan(tt.goos, tt.forced, tt.has)
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("plan(%s, %q) = %v, %v; want %v", tt.goos, tt.forced, got, err, tt.want)
		}
	}
	for _, bad := range []struct{ goos, forced string }{{"linux", "gtk"}, {"linux", "win32"}, {"windows", "zenity"}, {"darwin", "portal"}} {
		if got, err := plan(bad.goos, bad.forced, has("zenity")); err == nil || !strings.Contains(err.Error(), EnvBackend) {
			t.Errorf("plan(%s, %q) = %v, %v; want an error naming %s", bad.goos, bad.forced, got, err, EnvBackend)
		}
	}
}

func TestOpenWithUnknownForcedBackendFailsWithoutShowingAnything(t *testing.T) {
	t.Setenv(EnvBackend, "no-such-chooser")
	_, err := Open(context.Background(), Options{})
	if err == nil || !strings.Contains(err.Error(), "no-such-chooser") {
		t.Fatalf("Open = %v, want an error naming the bad backend", err)
	}
}

func TestForcedMissingChooserIsUnavailable(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("zenity is a backend on Linux only")
	}
	t.Setenv(EnvBackend, "zenity")
	t.Setenv("PATH", t.TempDir())
	_, err := Open(context.Background(), Options{})
	if !errors.Is(err, ErrUnavailable) || errors.Is(err, ErrCancelled) {
		t.Fatalf("Open with no zenity on PATH = %v, want ErrUnavailable", err)
	}
}

// fakeChooser writes a shell script standing in for zenity or kdialog: it records its arguments,
// prints out and exits with code.
func fakeChooser(t *testing.T, name, out string, code int) (argsFile string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("needs a POSIX shell")
	}
	dir := t.TempDir()
	argsFile = filepath.Join(dir, "args")
	script := "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\" >> '" + argsFile + "'; done\n" +
		"printf '%s' '" + out + "'\nexit " + string(rune('0'+code)) + "\n"
	if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	return argsFile
}

func TestZenityBackend(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("zenity is a backend on Linux only")
	}
	fixture := fixtures.Path(t, "fixtures", "generated", "gen-cpuprofile-prettier-format.cpuprofile")
	argsFile := fakeChooser(t, "zenity", fixture+"\n", 0)
	t.Setenv(EnvBackend, "zenity")
	got, err := Open(context.Background(), Options{Title: "Pick one", ParentX11: 0x2a00007, Dir: "/tmp"})
	if err != nil || got != fixture {
		t.Fatalf("Open = %q, %v; want %q", got, err, fixture)
	}
	args, _ := os.ReadFile(argsFile)
	want := "--file-selection\n--title=Pick one\n" +
		"--file-filter=Traces and profiles | *.json *.json.gz *.cpuprofile *.cpuprofile.gz *.gz\n" +
		"--file-filter=All files | *\n--filename=/tmp/\n--modal\n--attach=44040199\n"
	if string(args) != want {
		t.Errorf("zenity got arguments\n%s\nwant\n%s", args, want)
	}
}

func TestChooserCancelAndFailure(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("zenity and kdialog are backends on Linux only")
	}
	fakeChooser(t, "zenity", "", 1)
	t.Setenv(EnvBackend, "zenity")
	if _, err := Open(context.Background(), Options{}); !errors.Is(err, ErrCancelled) {
		t.Errorf("zenity exit 1: Open = %v, want ErrCancelled", err)
	}
	fakeChooser(t, "kdialog", "", 2)
	t.Setenv(EnvBackend, "kdialog")
	if _, err := Open(context.Background(), Options{}); err == nil || errors.Is(err, ErrCancelled) || !errors.Is(err, ErrUnavailable) {
		t.Errorf("kdialog exit 2: Open = %v, want a failure that is not a cancel", err)
	}
	fakeChooser(t, "kdialog", "", 0)
	if _, err := Open(context.Background(), Options{}); err == nil {
		t.Errorf("kdialog printing nothing with success: Open succeeded, want an error")
	}
}

func TestKDialogArgs(t *testing.T) {
	got := kdialogArgs(Options{Title: "T", ParentX11: 99, Filters: TraceFilters})
	want := []string{"--title", "T", "--attach", "99", "--getopenfilename", ".",
		"*.json *.json.gz *.cpuprofile *.cpuprofile.gz *.gz|Traces and profiles\n*|All files"}
	if !slices.Equal(got, want) {
		t.Errorf("kdialogArgs = %q, want %q", got, want)
	}
}

func TestOSAScriptArgs(t *testing.T) {
	got := osascriptArgs(Options{Title: `Open "it"`, Filters: TraceFilters, Dir: `/Users/a\b`})
	want := []string{"-e", `POSIX path of (choose file with prompt "Open \"it\"" of type {"json", "gz", "cpuprofile"} default location (POSIX file "/Users/a\\b"))`}
	if !slices.Equal(got, want) {
		t.Errorf("osascriptArgs = %q, want %q", got, want)
	}
	all := osascriptArgs(Options{Title: "x", Filters: TraceFilters[1:]})
	if strings.Contains(all[1], "of type") {
		t.Errorf("an all-files filter should not restrict types: %q", all[1])
	}
	if !osascriptCancelled(1, "0:63: execution error: User canceled. (-128)\n") || osascriptCancelled(1, "syntax error") {
		t.Errorf("osascriptCancelled misreads AppleScript's cancel")
	}
}

func TestWin32FilterString(t *testing.T) {
	got := win32FilterString(TraceFilters)
	want := "Traces and profiles\x00*.json;*.json.gz;*.cpuprofile;*.cpuprofile.gz;*.gz\x00All files\x00*.*\x00\x00"
	if s := string(utf16.Decode(got)); s != want {
		t.Errorf("win32FilterString = %q, want %q", s, want)
	}
	if win32FilterString(nil) != nil {
		t.Errorf("no filters should give no filter string")
	}
}

func TestCancelledContextStopsAChooser(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("zenity is a backend on Linux only")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "zenity"), []byte("#!/bin/sh\nexec sleep 30\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv(EnvBackend, "zenity")
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := Open(ctx, Options{})
		errc <- err
	}()
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("Open after cancel = %v, want context.Canceled", err)
	}
}

func TestFolderModeCommandLines(t *testing.T) {
	opts := Options{Title: "Maps", ParentX11: 99, Dir: "/src", Folder: true}
	if got, want := zenityArgs(opts), []string{"--file-selection", "--title=Maps", "--directory", "--filename=/src/", "--modal", "--attach=99"}; !slices.Equal(got, want) {
		t.Errorf("zenityArgs(folder) = %q, want %q", got, want)
	}
	if got, want := kdialogArgs(opts), []string{"--title", "Maps", "--attach", "99", "--getexistingdirectory", "/src"}; !slices.Equal(got, want) {
		t.Errorf("kdialogArgs(folder) = %q, want %q", got, want)
	}
	want := []string{"-e", `POSIX path of (choose folder with prompt "Maps" default location (POSIX file "/src"))`}
	if got := osascriptArgs(Options{Title: "Maps", Dir: "/src", Folder: true, Filters: TraceFilters}); !slices.Equal(got, want) {
		t.Errorf("osascriptArgs(folder) = %q, want %q", got, want)
	}
}

func TestZenityFolderBackend(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("zenity is a backend on Linux only")
	}
	// zenity prints the folder without a separator; a chooser that adds one (AppleScript does) is
	// cleaned, so the caller gets the same path either way.
	folder := t.TempDir()
	argsFile := fakeChooser(t, "zenity", folder+"/\n", 0)
	t.Setenv(EnvBackend, "zenity")
	got, err := Open(context.Background(), Options{Folder: true, Filters: TraceFilters})
	if err != nil || got != folder {
		t.Fatalf("Open(folder) = %q, %v; want %q", got, err, folder)
	}
	args, _ := os.ReadFile(argsFile)
	if want := "--file-selection\n--title=Choose a folder\n--directory\n"; string(args) != want {
		t.Errorf("zenity got arguments\n%s\nwant (no file filters)\n%s", args, want)
	}
}
