package timeline

import (
	"strings"
	"testing"

	"flamedesk/core"
)

// TestEventTitlesOnARealTrace checks that a real trace's tasks read as DevTools shows them, that a
// search for a title finds exactly the events of that name, and that ProfileCalls keep the
// function's own name even when it looks like an event.
func TestEventTitlesOnARealTrace(t *testing.T) {
	tr := loadFixture(t, "generated", "gen-trace-small.json.gz")
	m := New(tr)
	counts := map[string]int{}
	for ti := range m.Tracks {
		ct := m.Tracks[ti].Core
		for e := range ct.Len() {
			ref := EntryRef{Track: TrackID(ti), Entry: int32(e)}
			raw := m.NameString(m.EntryNameID(ref))
			got := m.EntryName(ref)
			if ct.KindAt(e) == core.EntryProfileCall {
				if got != raw {
					t.Fatalf("ProfileCall %q shown as %q", raw, got)
				}
				continue
			}
			counts[raw]++
			if want, ok := eventTitles[raw]; ok && got != want && !strings.HasPrefix(got, want+": ") {
				t.Fatalf("%s shown as %q, want %q", raw, got, want)
			}
			if _, ok := eventTitles[raw]; !ok && got != raw {
				t.Fatalf("%s has no title but is shown as %q", raw, got)
			}
		}
	}
	for _, c := range []struct{ raw, query string }{
		{"RunTask", "Task"}, {"TimerFire", "timer fired"}, {"RunMicrotasks", "run microtasks"},
	} {
		if counts[c.raw] == 0 {
			t.Fatalf("the fixture has no %s event", c.raw)
		}
		r := m.Search(c.query)
		n := 0
		for _, ref := range r.Matches {
			if m.NameString(m.EntryNameID(ref)) == c.raw {
				n++
			}
		}
		if n != counts[c.raw] {
			t.Errorf("search %q found %d of the %d %s events", c.query, n, counts[c.raw], c.raw)
		}
	}
}

// TestEventDispatchNamesItsEvent checks on a real DevTools trace that every EventDispatch with a
// DOM event type in its args is shown as "Event: TYPE", as DevTools shows it.
func TestEventDispatchNamesItsEvent(t *testing.T) {
	tr := loadFixture(t, "upstream", "devtools-web-dev.json.gz")
	m := New(tr)
	types := map[string]int{}
	compact := 0 // EventDispatch entries on compact tracks, whose event rows are counted, not read one by one
	for ti := range m.Tracks {
		ct := m.Tracks[ti].Core
		for e := range ct.Len() {
			ref := EntryRef{Track: TrackID(ti), Entry: int32(e)}
			if ct.KindAt(e) == core.EntryProfileCall || m.NameString(m.EntryNameID(ref)) != "EventDispatch" {
				continue
			}
			if ct.Compact {
				compact++
			}
			args := string(tr.Events.ArgsJSON(int(ct.RefAt(e))))
			got := m.EntryName(ref)
			typ, ok := strings.CutPrefix(got, "Event: ")
			if !ok || !strings.Contains(args, `"type":"`+typ+`"`) {
				t.Fatalf("EventDispatch with args %s shown as %q", args, got)
			}
			types[typ]++
		}
	}
	if len(types) == 0 || compact == 0 {
		t.Fatalf("the fixture shows %d EventDispatch types, %d on compact tracks; it tests nothing", len(types), compact)
	}
	t.Logf("event types: %v (%d on compact tracks)", types, compact)
}
