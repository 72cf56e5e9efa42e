package timeline

import (
	"strings"
	"testing"

	"flamedesk/core"
	"flamedesk/internal/fixtures"
)

// mainFrameNavigationURL reads, from a DevTools reference, the URL the main frame navigated to.
func mainFrameNavigationURL(t *testing.T, name string) string {
	t.Helper()
	var ref struct {
		Navigations []struct {
			URL         string
			IsMainFrame bool
		}
	}
	fixtures.DecodeGzipJSON(t, &ref, "conformance", "golden", name+".timelines.json.gz")
	for _, n := range ref.Navigations {
		if n.IsMainFrame {
			return n.URL
		}
	}
	t.Fatalf("%s: the reference has no main-frame navigation", name)
	return ""
}

// The main frame's main thread is the first track, named "Main — URL" after the page it showed:
// react-console-timestamp starts on about:blank and navigates to localhost, and the panel names
// the thread after localhost.
func TestMainThreadNamedAfterThePage(t *testing.T) {
	for _, name := range []string{"devtools-react-console-timestamp", "devtools-web-dev", "devtools-timings-track"} {
		m := New(loadFixture(t, "upstream", name+".json.gz"))
		want := "Main — " + mainFrameNavigationURL(t, name)
		if len(m.Tracks) == 0 || m.Tracks[0].Title != want || m.Tracks[0].Hidden {
			got := ""
			if len(m.Tracks) > 0 {
				got = m.Tracks[0].Title
			}
			t.Errorf("%s: first track %q, want %q shown", name, got, want)
		}
	}
}

// A thread whose every entry the panel draws elsewhere (the "pid 0" process that holds only
// GlobalFirstContentfulPaint markers) gets no track; the panel's hidden threads (the compositor,
// the I/O thread, the browser process) are kept but hidden, so that "show hidden" brings them back.
func TestThreadsThePanelDoesNotShow(t *testing.T) {
	tr := loadFixture(t, "upstream", "devtools-web-dev.json.gz")
	pid0 := false
	for i := range tr.Tracks {
		if tr.Tracks[i].Len() > 0 && tr.Threads[tr.Tracks[i].Thread].Pid == 0 {
			pid0 = true
		}
	}
	if !pid0 {
		t.Fatal("devtools-web-dev has no pid 0 thread any more: the test needs another trace")
	}
	m := New(tr)
	shown := 0
	for _, tk := range m.Tracks {
		th := tr.Threads[tk.Thread]
		if th.Pid == 0 {
			t.Errorf("pid 0 / tid %d has a track (%q)", th.Tid, tk.Title)
		}
		name := tr.Strings.Get(th.Name)
		if (name == "Compositor" || name == "Chrome_ChildIOThread" || name == "CrBrowserMain") && !tk.Hidden {
			t.Errorf("%s shown; the panel leaves it out", name)
		}
		if !tk.Hidden {
			shown++
		}
		if strings.HasPrefix(name, "CompositorTileWorker") && !tk.Hidden && !strings.HasPrefix(tk.Title, "Rasterizer thread ") {
			t.Errorf("raster thread titled %q", tk.Title)
		}
	}
	if shown < 2 {
		t.Errorf("only %d tracks shown", shown)
	}
}

// The chart leaves out the entries the panel does not draw (the scheduler's
// ThreadControllerImpl::RunTask wrappers) and puts their children on their row; the core track,
// which the dump writes, keeps them.
func TestHiddenWrappersLeaveTheirRowToTheirChildren(t *testing.T) {
	tr := loadFixture(t, "upstream", "devtools-react-console-timestamp.json.gz")
	m := New(tr)
	wrapper, ok := tr.Strings.Lookup("ThreadControllerImpl::RunTask")
	if !ok {
		t.Fatal("no ThreadControllerImpl::RunTask in the trace")
	}
	inCore, moved := 0, 0
	for ti := range m.Tracks {
		tk := &m.Tracks[ti]
		ct := tk.Core
		for e := 0; e < ct.Len(); e++ {
			if ct.NameAt(e) != wrapper || ct.KindAt(e) == core.EntryProfileCall {
				continue
			}
			inCore++
			if tk.Row(int32(e)) >= 0 {
				t.Fatalf("%s: a ThreadControllerImpl::RunTask is drawn on row %d", tk.Title, tk.Row(int32(e)))
			}
		}
		for lv := range tk.Levels {
			for _, e := range tk.Levels[lv].Entries {
				if ct.NameAt(int(e)) == wrapper {
					t.Fatalf("%s: a wrapper in level %d", tk.Title, lv)
				}
				if p := ct.ParentAt(int(e)); p >= 0 && ct.NameAt(int(p)) == wrapper {
					if tk.Row(p) >= 0 || lv != int(ct.DepthAt(int(e)))-1-hiddenAbove(tk, p) {
						t.Fatalf("%s: child of a wrapper on row %d, depth %d", tk.Title, lv, ct.DepthAt(int(e)))
					}
					moved++
				}
			}
		}
	}
	if inCore == 0 || moved == 0 {
		t.Fatalf("%d wrappers in the core tracks, %d children moved up", inCore, moved)
	}
}

// hiddenAbove counts the entries from e up to its root that the chart leaves out, e excluded.
func hiddenAbove(tk *Track, e int32) int {
	n := 0
	for p := tk.Core.ParentAt(int(e)); p >= 0; p = tk.Core.ParentAt(int(p)) {
		if tk.Row(p) < 0 {
			n++
		}
	}
	return n
}
