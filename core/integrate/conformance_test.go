package integrate

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"flamedesk/core"
	"flamedesk/core/load"
	"flamedesk/internal/fixtures"
)

// The DevTools references (conformance/golden/*.devtools.json.gz, in testdata or the corpus)
// decoded into just what is compared.
type refDoc struct {
	Input struct {
		File string
	}
	Threads []refThread
}

type refThread struct {
	Pid, Tid int64
	Name     *string
	Entries  []refEntry
}

// refEntry is one reference entry. Url and Line come from the callFrame of a ProfileCall; a
// .cpuprofile's frames are not normalised by DevTools, so lineNumber may be missing there and then
// counts as -1, as in compare_tracks.py. Events have url "" and line -1.
type refEntry struct {
	Kind    string
	Name    string
	Ts, Dur float64
	Depth   int
	URL     string
	Line    int
}

// tolerance is the conformance bound on ts and dur, in µs.
const tolerance = 0.01

func readReference(t *testing.T, path string) *refDoc {
	t.Helper()
	d, err := decodeReference(path)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// readReferenceSlow decodes with encoding/json, to check the fast reader.
func readReferenceSlow(t *testing.T, path string) *refDoc {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var raw struct {
		Input struct {
			File string `json:"file"`
		} `json:"input"`
		Threads []struct {
			Pid     int64   `json:"pid"`
			Tid     int64   `json:"tid"`
			Name    *string `json:"name"`
			Entries []struct {
				Kind      string  `json:"kind"`
				Name      string  `json:"name"`
				Ts        float64 `json:"ts"`
				Dur       float64 `json:"dur"`
				Depth     int     `json:"depth"`
				CallFrame *struct {
					URL        string `json:"url"`
					LineNumber *int   `json:"lineNumber"`
				} `json:"callFrame"`
			} `json:"entries"`
		} `json:"threads"`
	}
	if err := json.NewDecoder(zr).Decode(&raw); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	d := &refDoc{}
	d.Input.File = raw.Input.File
	for _, rt := range raw.Threads {
		th := refThread{Pid: rt.Pid, Tid: rt.Tid, Name: rt.Name}
		for _, re := range rt.Entries {
			e := refEntry{Kind: re.Kind, Name: re.Name, Ts: re.Ts, Dur: re.Dur, Depth: re.Depth, Line: -1}
			if cf := re.CallFrame; cf != nil {
				e.URL = cf.URL
				if cf.LineNumber != nil {
					e.Line = *cf.LineNumber
				}
			}
			th.Entries = append(th.Entries, e)
		}
		d.Threads = append(d.Threads, th)
	}
	return d
}

func TestReferenceReader(t *testing.T) {
	for _, name := range []string{"gen-trace-small", "devtools-basic", "speedscope-chrome70-worker"} {
		path := fixtures.Path(t, "conformance", "golden", name+".devtools.json.gz")
		fast, slow := readReference(t, path), readReferenceSlow(t, path)
		if !reflect.DeepEqual(fast, slow) {
			t.Errorf("%s: the fast reader disagrees with encoding/json", name)
		}
		if len(fast.Threads) == 0 || len(fast.Threads[0].Entries) == 0 {
			t.Errorf("%s: nothing read", name)
		}
	}
}

// fixtureNamed finds the one fixture whose name is stem plus an extension (.json.gz,
// .cpuprofile, .trace.json...), in fixtures/upstream or fixtures/generated.
func fixtureNamed(t *testing.T, stem string) string {
	t.Helper()
	var found []string
	for _, dir := range []string{"upstream", "generated"} {
		for _, root := range []string{fixtures.Testdata(), fixtures.Corpus()} {
			if m, _ := filepath.Glob(filepath.Join(root, "fixtures", dir, stem+".*")); root != "" && len(m) > 0 {
				found = append(found, m...)
				break // testdata's copy stands for the corpus's
			}
		}
	}
	if len(found) != 1 {
		t.Fatalf("want one fixture named %s.*, found %q", stem, found)
	}
	return found[0]
}

func loadAndBuild(t testing.TB, path string) *core.Trace {
	t.Helper()
	tr, err := load.File(context.Background(), path, nil)
	if err != nil {
		t.Fatalf("load %s: %v", path, err)
	}
	Build(tr)
	return tr
}

// ourEntry renders our track entry i like a reference entry, for messages.
func ourEntry(tr *core.Trace, tk *core.Track, i int) refEntry {
	e := refEntry{
		Name:  tr.Strings.Get(tk.NameAt(i)),
		Ts:    tk.StartAt(i),
		Dur:   tk.DurAt(i),
		Depth: int(tk.DepthAt(i)),
		Kind:  "event",
		Line:  -1,
	}
	if tk.KindAt(i) == core.EntryProfileCall {
		e.Kind = "profileCall"
		f := tr.Frames[tk.FrameAt(i)]
		e.URL, e.Line = tr.Strings.Get(f.URL), int(f.Line)
	}
	return e
}

func (e refEntry) String() string {
	s := fmt.Sprintf("%s %q ts=%v dur=%v depth=%d", e.Kind, e.Name, e.Ts, e.Dur, e.Depth)
	if e.Kind == "profileCall" {
		s += fmt.Sprintf(" %s:%d", e.URL, e.Line)
	}
	return s
}

// matches tells whether our entry i equals the reference entry, without allocating.
func matches(tr *core.Trace, tk *core.Track, i int, want *refEntry) bool {
	call := tk.KindAt(i) == core.EntryProfileCall
	if call != (want.Kind == "profileCall") || int(tk.DepthAt(i)) != want.Depth ||
		math.Abs(tk.StartAt(i)-want.Ts) > tolerance || math.Abs(tk.DurAt(i)-want.Dur) > tolerance ||
		tr.Strings.Get(tk.NameAt(i)) != want.Name {
		return false
	}
	if !call {
		return want.Kind == "event" && want.URL == "" && want.Line == -1
	}
	f := &tr.Frames[tk.FrameAt(i)]
	return int(f.Line) == want.Line && tr.Strings.Get(f.URL) == want.URL
}

// compareThread checks our track against one reference thread entry by entry, in pre-order, and
// describes the first differences with some context.
func compareThread(tr *core.Trace, tk *core.Track, ref *refThread) []string {
	var diffs []string
	n := max(tk.Len(), len(ref.Entries))
	for i := 0; i < n && len(diffs) < 5; i++ {
		if i < tk.Len() && i < len(ref.Entries) && matches(tr, tk, i, &ref.Entries[i]) {
			continue
		}
		var ours, want refEntry
		if i < tk.Len() {
			ours = ourEntry(tr, tk, i)
		}
		if i < len(ref.Entries) {
			want = ref.Entries[i]
		}
		msg := fmt.Sprintf("entry %d:\n      ours: %v\n      want: %v", i, ours, want)
		if i >= tk.Len() {
			msg = fmt.Sprintf("entry %d: missing, want %v", i, want)
		} else if i >= len(ref.Entries) {
			msg = fmt.Sprintf("entry %d: extra %v", i, ours)
		}
		if i > 0 && i-1 < len(ref.Entries) {
			msg += fmt.Sprintf("\n      after: %v", ref.Entries[i-1])
		}
		diffs = append(diffs, msg)
		if i < tk.Len() && i < len(ref.Entries) && (ours.Ts != want.Ts || ours.Kind != want.Kind) {
			break // the sequences are out of step; later lines would only repeat it
		}
	}
	if tk.Len() != len(ref.Entries) {
		diffs = append(diffs, fmt.Sprintf("%d entries, want %d", tk.Len(), len(ref.Entries)))
	}
	return diffs
}

func trackFor(tr *core.Trace, pid, tid int64) *core.Track {
	for i := range tr.Tracks {
		th := tr.Threads[tr.Tracks[i].Thread]
		if th.Pid == pid && th.Tid == tid {
			return &tr.Tracks[i]
		}
	}
	return nil
}

// TestConformance runs load + integrate on every fixture that has a DevTools reference and
// requires every reference thread's entries: kind, name, depth, url and line equal, ts and dur
// within 0.01 µs, trace events and ProfileCalls alike.
func TestConformance(t *testing.T) {
	for _, refPath := range fixtures.Glob(t, "conformance/golden/*.devtools.json.gz") {
		name := strings.TrimSuffix(filepath.Base(refPath), ".devtools.json.gz")
		t.Run(name, func(t *testing.T) {
			// Read the reference while the fixture loads: both take seconds on the large files.
			type read struct {
				ref *refDoc
				err error
			}
			done := make(chan read, 1)
			go func() {
				d, err := decodeReference(refPath)
				done <- read{d, err}
			}()
			fixture := fixtureNamed(t, name)
			tr := loadAndBuild(t, fixture)
			r := <-done
			if r.err != nil {
				t.Fatal(r.err)
			}
			ref := r.ref
			if filepath.Base(ref.Input.File) != filepath.Base(fixture) {
				t.Fatalf("the reference was made from %s, not %s", ref.Input.File, fixture)
			}
			compared := 0
			for i := range ref.Threads {
				rt := &ref.Threads[i]
				if len(rt.Entries) == 0 {
					continue
				}
				compared++
				tk := trackFor(tr, rt.Pid, rt.Tid)
				if tk == nil {
					t.Errorf("pid %d tid %d: thread missing (%d reference entries)", rt.Pid, rt.Tid, len(rt.Entries))
					continue
				}
				if diffs := compareThread(tr, tk, rt); len(diffs) > 0 {
					t.Errorf("pid %d tid %d (%v): %d entries\n    %s", rt.Pid, rt.Tid, nameOf(rt.Name), tk.Len(), strings.Join(diffs, "\n    "))
				}
			}
			if compared == 0 {
				// DevTools kept no thread here (a generic trace whose only profile it does not
				// integrate); there is nothing to compare, but the file must still load.
				t.Logf("the reference has no thread with entries; %d tracks built", len(tr.Tracks))
			}
		})
	}
}

func nameOf(s *string) string {
	if s == nil {
		return "unnamed"
	}
	return *s
}

// The engine refuses these files ("No frames found in trace data"): the old whole-profile
// CpuProfile events. They must still open with ProfileCalls under the same rules, so every
// profiled thread must get calls, and they must be exactly what the plain port of the rules
// builds from the same events and samples.
func TestFilesWithoutReference(t *testing.T) {
	for _, name := range []string{"speedscope-chrome65-simple-timeline.json", "speedscope-chrome66-worker.json"} {
		t.Run(name, func(t *testing.T) {
			tr := loadAndBuild(t, fixtures.Path(t, "fixtures", "upstream", name))
			if len(tr.Profiles) == 0 {
				t.Fatal("no profile loaded")
			}
			for i := range tr.Profiles {
				p := &tr.Profiles[i]
				tk := trackFor(tr, p.Pid, p.Tid)
				calls := 0
				if tk != nil {
					for e := range tk.Len() {
						if tk.KindAt(e) == core.EntryProfileCall {
							calls++
						}
					}
				}
				if calls == 0 {
					t.Errorf("profile %d (pid %d tid %d, %d samples): no ProfileCalls", i, p.Pid, p.Tid, len(p.Samples))
				}
			}
			checkAgainstNaive(t, tr)
		})
	}
}

// checkAgainstNaive rebuilds every profiled thread's calls with the plain port and compares.
func checkAgainstNaive(t *testing.T, tr *core.Trace) {
	t.Helper()
	keys := frameKeys(tr)
	for _, j := range traceJobs(tr) {
		if j.profile < 0 {
			continue
		}
		es := j.entries(tr)
		sortEntries(&tr.Events, es)
		p := &tr.Profiles[j.profile]
		got := integrateSamples(context.Background(), tr, es, newProfileIndex(tr, p, keys), nil, nil)
		want := naiveIntegrate(tr, es, p)
		if got.len() != want.len() {
			t.Errorf("thread %d: %d calls, the plain port makes %d", tr.Threads[j.thread].Tid, got.len(), want.len())
			continue
		}
		for i := 0; i < got.len(); i++ {
			g, w := got.at(int32(i)), want.at(int32(i))
			if g.node != w.node || got.ts(g) != want.ts(w) || g.dur != w.dur {
				t.Errorf("thread %d call %d: node %d ts %v dur %v, the plain port has node %d ts %v dur %v",
					tr.Threads[j.thread].Tid, i, g.node, got.ts(g), g.dur, w.node, want.ts(w), w.dur)
				break
			}
		}
	}
}
