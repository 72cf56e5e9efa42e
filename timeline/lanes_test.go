package timeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"flamedesk/core"
	"flamedesk/core/pipeline"
	"flamedesk/core/timelines"
	"flamedesk/internal/fixtures"
)

// goldenNetwork reads the requests of a DevTools timelines reference.
func goldenNetwork(t *testing.T, name string) []struct {
	URL     string
	Ts, Dur float64
	Level   int
} {
	t.Helper()
	var ref struct {
		Network []struct {
			URL     string
			Ts, Dur float64
			Level   int
		}
	}
	fixtures.DecodeGzipJSON(t, &ref, "conformance", "golden", name+".timelines.json.gz")
	return ref.Network
}

// The network lane sits on top, above the threads; a point in the middle of the reference's
// longest request, on the row the reference puts it, hits that request; the lanes collapse and
// hide, moving the threads up; a search finds requests by URL.
func TestNetworkLaneHitCollapseSearch(t *testing.T) {
	const name = "devtools-web-dev"
	ref := goldenNetwork(t, name)
	longest := 0
	for i := range ref {
		if ref[i].Dur > ref[longest].Dur {
			longest = i
		}
	}
	m := New(loadFixture(t, "upstream", name+".json.gz"))
	threadsY := m.Tracks[m.ShownTracks()[0]].Y
	m.AddPanelLanes()
	if len(m.Lanes) == 0 || m.Lanes[0].Kind != LaneNetwork {
		t.Fatalf("first lane is not the network: %d lanes", len(m.Lanes))
	}
	if m.Tracks[m.ShownTracks()[0]].Y != threadsY+m.LanesHeight() || m.LanesHeight() <= 0 {
		t.Errorf("threads start at %v, want below the lanes' %v", m.Tracks[m.ShownTracks()[0]].Y, m.LanesHeight())
	}
	lo, hi := m.Bounds()
	vp := NewViewport(lo, hi)
	vp.SetSize(1600, 1000)
	r := ref[longest]
	x := vp.TimeToPx(r.Ts + r.Dur/2)
	y := m.LaneRowTop(0, r.Level) + m.Style.RowHeight/2
	h := m.HitTest(vp, x, y, 3)
	if h.Kind != HitLaneItem || h.Lane.Lane != 0 {
		t.Fatalf("hit at (%.0f, %.0f) = %+v, want the network lane", x, y, h)
	}
	if got := m.Lanes[0].Label[h.Lane.Item]; got != r.URL {
		t.Errorf("hit %q, want the reference's longest request %q", got, r.URL)
	}
	if h := m.HitTest(vp, 100, m.Lanes[0].Y+1, 3); h.Kind != HitLaneHeader || h.Lane.Lane != 0 {
		t.Errorf("header hit = %+v", h)
	}

	// Search: every request whose URL holds the query, as the reference counts them.
	query := "IMGIX"
	want := 0
	for _, r := range ref {
		if strings.Contains(strings.ToLower(r.URL), strings.ToLower(query)) {
			want++
		}
	}
	got := 0
	for _, ref := range m.SearchLanes(query) {
		if ref.Lane == 0 {
			got++
		}
	}
	if want == 0 || got != want {
		t.Errorf("search %q: %d requests, want %d", query, got, want)
	}
	res := m.Search(query)
	if len(res.Lanes) != len(m.SearchLanes(query)) || !res.ContainsLane(res.Lanes[0]) || res.ContainsLane(LaneRef{Lane: 0, Item: int32(m.Lanes[0].Len())}) {
		t.Errorf("Search: %d lane matches", len(res.Lanes))
	}

	full := m.LanesHeight()
	m.SetLaneCollapsed(0, true)
	if d := full - m.LanesHeight(); d != float64(m.Lanes[0].Rows)*m.Style.RowHeight+m.Style.TrackPadding {
		t.Errorf("collapsing the network saves %v px", d)
	}
	if h := m.HitTest(vp, x, m.Lanes[0].RowsY+1, 3); h.Kind == HitLaneItem && h.Lane.Lane == 0 {
		t.Errorf("a collapsed lane's item was hit")
	}
	m.SetLaneHidden(0, true)
	if m.Lanes[0].Shown || m.Lanes[1].Y != 0 {
		t.Errorf("hidden network: shown %v, next lane at %v", m.Lanes[0].Shown, m.Lanes[1].Y)
	}
}

// A generic trace (the reference says traceIsGeneric) and a profile have no lanes: the panel shows only their threads.
func TestNoLanesWithoutDevTools(t *testing.T) {
	for _, f := range [][]string{{"upstream", "speedscope-chrome141-no-arg-data.json"}, {"upstream", "devtools-basic.cpuprofile.gz"}} {
		m := New(loadFixture(t, f...))
		m.AddPanelLanes()
		if len(m.Lanes) != 0 {
			t.Errorf("%s: %d lanes", f[1], len(m.Lanes))
		}
	}
}

// devtools-web-dev's requests have the resource type "Other" (the trace has none): the network lane
// colours them by MIME type, as the panel does, so its images, scripts and its document are not
// all "other".
func TestNetworkColoursByMimeType(t *testing.T) {
	m := New(loadFixture(t, "upstream", "devtools-web-dev.json.gz"))
	m.AddPanelLanes()
	var l *Lane
	for i := range m.Lanes {
		if m.Lanes[i].Kind == LaneNetwork {
			l = &m.Lanes[i]
		}
	}
	if l == nil {
		t.Fatal("no network lane")
	}
	want := map[string]ItemStyle{"image/": NetImage, "text/javascript": NetScript, "text/html": NetDocument, "font/": NetFont}
	seen := map[ItemStyle]int{}
	for i := range l.Start {
		if l.Style[i] >= NetWebSocket {
			continue
		}
		q := &m.Panel.Network[l.Ref[i]]
		if rt := strings.Trim(q.ResourceType.String(), `"`); rt != "" && rt != "Other" {
			continue
		}
		mime := strings.Trim(q.MimeType.String(), `"`)
		for prefix, st := range want {
			if strings.HasPrefix(mime, prefix) {
				seen[st]++
				if l.Style[i] != st {
					t.Errorf("%s (%s) drawn as style %d, want %d", q.URL, mime, l.Style[i], st)
				}
			}
		}
	}
	if len(seen) < len(want) {
		t.Errorf("the fixture's requests without a resource type cover only %v", seen)
	}
}

// A request's tooltip gives what the DevTools reference records of it: method, status, MIME
// type, protocol, priority, the timing phases and the transferred size.
func TestNetworkTooltipDetails(t *testing.T) {
	var ref struct {
		Network []struct {
			URL, MimeType, Priority, Protocol, RequestMethod string
			StatusCode, EncodedDataLength                    float64
			Queueing, Download                               float64
		}
	}
	fixtures.DecodeGzipJSON(t, &ref, "conformance", "golden", "devtools-web-dev.timelines.json.gz")
	m := New(loadFixture(t, "upstream", "devtools-web-dev.json.gz"))
	m.AddPanelLanes()
	li := -1
	for i := range m.Lanes {
		if m.Lanes[i].Kind == LaneNetwork {
			li = i
		}
	}
	l := &m.Lanes[li]
	checked := 0
	for i := range l.Start {
		if l.Style[i] >= NetWebSocket {
			continue
		}
		r := ref.Network[l.Ref[i]]
		if r.URL != l.Label[i] || r.StatusCode == 0 {
			continue
		}
		text := strings.Join(m.LaneTooltip(LaneRef{Lane: int32(li), Item: int32(i)}), "\n")
		ms := func(us float64) string { return fmt.Sprintf("%.1f ms", us/1000) }
		for _, want := range []string{r.RequestMethod, fmt.Sprintf("Status %.0f", r.StatusCode), r.MimeType, r.Protocol,
			"Priority " + r.Priority, "Queueing " + ms(r.Queueing), "content download " + ms(r.Download)} {
			if !strings.Contains(text, want) {
				t.Errorf("%s: the tooltip lacks %q:\n%s", r.URL, want, text)
			}
		}
		if r.EncodedDataLength >= 1024 && !strings.Contains(text, fmt.Sprintf("Transferred %.1f kB", r.EncodedDataLength/1024)) {
			t.Errorf("%s: the tooltip lacks the size %.0f B:\n%s", r.URL, r.EncodedDataLength, text)
		}
		checked++
	}
	if checked < 10 {
		t.Fatalf("only %d requests checked", checked)
	}
}

// NewWithPanelLanes builds the same model as New and AddPanelLanes one after the other: the same
// lanes, laid out the same, above the same tracks.
func TestNewWithPanelLanesIsNewThenAddPanelLanes(t *testing.T) {
	for _, name := range []string{"devtools-web-dev", "devtools-extension-tracks-and-marks"} {
		tr := loadFixture(t, "upstream", name+".json.gz")
		want := New(tr)
		want.AddPanelLanes()
		got := NewWithPanelLanes(tr)
		if len(got.Lanes) == 0 || len(got.Lanes) != len(want.Lanes) || got.ContentHeight() != want.ContentHeight() {
			t.Fatalf("%s: %d lanes, height %v; want %d, %v", name, len(got.Lanes), got.ContentHeight(), len(want.Lanes), want.ContentHeight())
		}
		for i := range got.Lanes {
			g, w := &got.Lanes[i], &want.Lanes[i]
			if g.Kind != w.Kind || g.Name != w.Name || g.Len() != w.Len() || g.Y != w.Y || g.Height != w.Height {
				t.Fatalf("%s: lane %d is %v %q (%d items at %v), want %v %q (%d at %v)", name, i, g.Kind, g.Name, g.Len(), g.Y, w.Kind, w.Name, w.Len(), w.Y)
			}
		}
		for i := range got.Tracks {
			if got.Tracks[i].Y != want.Tracks[i].Y || len(got.Tracks[i].Levels) != len(want.Tracks[i].Levels) {
				t.Fatalf("%s: track %d at %v with %d levels, want %v with %d", name, i, got.Tracks[i].Y, len(got.Tracks[i].Levels), want.Tracks[i].Y, len(want.Tracks[i].Levels))
			}
		}
	}
	if m := NewWithPanelLanes(loadFixture(t, "generated", "gen-cpuprofile-prettier-format.cpuprofile")); len(m.Lanes) != 0 || len(m.Tracks) == 0 {
		t.Fatalf("a profile got %d lanes and %d tracks", len(m.Lanes), len(m.Tracks))
	}
}

// The window's build counts every entry it lays out, and a cancelled one gives up with the
// context's error instead of a model.
func TestNewWithPanelLanesContextProgressAndCancel(t *testing.T) {
	tr := loadFixture(t, "generated", "gen-trace-medium-reload.json.gz")
	entries := 0
	for i := range tr.Tracks {
		entries += tr.Tracks[i].Len()
	}
	p := new(core.Progress)
	m, err := NewWithPanelLanesContext(context.Background(), tr, p)
	if err != nil || m == nil || len(m.Lanes) == 0 {
		t.Fatalf("model %v, error %v", m != nil, err)
	}
	if laidOut := p.Done.Load(); laidOut != p.Total.Load() || laidOut > int64(entries) || laidOut < int64(entries)/2 {
		t.Fatalf("progress %d of %d, the trace has %d entries", laidOut, p.Total.Load(), entries)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if m, err := NewWithPanelLanesContext(ctx, tr, nil); m != nil || !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: model %v, error %v", m != nil, err)
	}
}

// The window's model counts each warning of the events that name the trace's frames once, as
// the panel's lists alone do: the thread tracks read the same events (timelines.BuildMeta) and
// counted those warnings a second time.
func TestPanelLanesCountTheMetaWarningsOnce(t *testing.T) {
	const unknown = "TracingStartedInBrowser events without args.data"
	var events []string
	const starts = 3
	for i := range starts {
		events = append(events, fmt.Sprintf(`{"name":"TracingStartedInBrowser","ph":"I","s":"t","pid":1,"tid":1,"ts":%d,"cat":"disabled-by-default-devtools.timeline","args":{}}`, i+1))
	}
	events = append(events,
		`{"name":"thread_name","ph":"M","pid":2,"tid":2,"ts":0,"cat":"__metadata","args":{"name":"CrRendererMain"}}`,
		`{"name":"RunTask","ph":"X","pid":2,"tid":2,"ts":10,"dur":100,"cat":"disabled-by-default-devtools.timeline"}`,
		`{"name":"FunctionCall","ph":"X","pid":2,"tid":2,"ts":20,"dur":50,"cat":"devtools.timeline"}`)
	path := filepath.Join(t.TempDir(), "trace.json")
	if err := os.WriteFile(path, []byte(`{"traceEvents":[`+strings.Join(events, ",\n")+`]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	counted := func(build func(*core.Trace)) int {
		tr, err := pipeline.OpenFile(path)
		if err != nil {
			t.Fatal(err)
		}
		build(tr)
		n := 0
		messages, counts := tr.Warnings.Entries()
		for i, m := range messages {
			if strings.HasPrefix(m, unknown) {
				n += counts[i]
			}
		}
		return n
	}
	lists := counted(func(tr *core.Trace) { timelines.BuildEarly(tr).Warn(tr) })
	window := counted(func(tr *core.Trace) { NewWithPanelLanes(tr) })
	if lists != starts || window != lists {
		t.Fatalf("%d events without args.data: the lists count %d, the window's model %d", starts, lists, window)
	}
}
