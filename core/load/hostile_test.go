package load

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"

	"flamedesk/core"
)

func loadString(t *testing.T, s string) (*core.Trace, error) {
	t.Helper()
	tr, err := Reader(context.Background(), strings.NewReader(s), int64(len(s)), nil)
	if err == nil {
		if cerr := checkTrace(tr); cerr != nil {
			t.Fatalf("invariants: %v", cerr)
		}
	}
	return tr, err
}

func mustLoad(t *testing.T, s string) *core.Trace {
	t.Helper()
	tr, err := loadString(t, s)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	return tr
}

func hasWarning(tr *core.Trace, sub string) bool {
	for _, w := range tr.Warnings.Lines() {
		if strings.Contains(w, sub) {
			return true
		}
	}
	return false
}

func wantWarning(t *testing.T, tr *core.Trace, sub string) {
	t.Helper()
	if !hasWarning(tr, sub) {
		t.Errorf("no warning containing %q; warnings: %q", sub, tr.Warnings.Lines())
	}
}

// profileTrace is a trace with one Profile head and one ProfileChunk holding the given JSON.
func profileTrace(nodes, samples, deltas string) string {
	return `[{"ph":"X","name":"RunTask","pid":1,"tid":1,"ts":900,"dur":500},
{"ph":"P","name":"Profile","pid":1,"tid":1,"id":"0x1","ts":1000,"args":{"data":{"startTime":5}}},
{"ph":"P","name":"ProfileChunk","pid":1,"tid":9,"id":"0x1","ts":1001,"args":{"data":{"cpuProfile":{"nodes":` +
		nodes + `,"samples":` + samples + `},"timeDeltas":` + deltas + `}}}]`
}

func node(id int, parent string, name string) string {
	p := ""
	if parent != "" {
		p = `,"parent":` + parent
	}
	return fmt.Sprintf(`{"id":%d%s,"callFrame":{"functionName":%q,"scriptId":1,"url":"u"}}`, id, p, name)
}

func nodeIDs(m *core.ProfileModel) []int64 { return append([]int64(nil), m.NodeID...) }

func sampleIDs(m *core.ProfileModel) []string {
	var out []string
	for _, s := range m.Samples {
		if s < 0 {
			out = append(out, "hole")
		} else {
			out = append(out, fmt.Sprint(m.NodeID[s]))
		}
	}
	return out
}

func TestCyclicAndDanglingParents(t *testing.T) {
	nodes := "[" + strings.Join([]string{
		node(1, "", "(root)"),
		node(2, "3", "a"), // 2 and 3 point at each other
		node(3, "2", "b"),
		node(4, "4", "self"), // its own parent
		node(5, "1", "c"),
		node(6, "77", "dangling"),
	}, ",") + "]"
	tr := mustLoad(t, profileTrace(nodes, "[2,3,4,5,6,99]", "[1,1,1,1,1,1]"))
	m := &tr.Profiles[0]
	if got := fmt.Sprint(nodeIDs(m)); got != "[1 5]" {
		t.Errorf("model nodes %s, want [1 5]", got)
	}
	if got := fmt.Sprint(sampleIDs(m)); got != "[hole hole hole 5 hole hole]" {
		t.Errorf("samples %s", got)
	}
	wantWarning(t, tr, "4 nodes not connected to the root")
}

func TestChildrenCycles(t *testing.T) {
	// Root lists 2; 2 lists 3; 3 lists 2 and the root: DevTools would loop forever.
	nodes := `[{"id":1,"callFrame":{"functionName":"(root)"},"children":[2]},
{"id":2,"callFrame":{"functionName":"a"},"children":[3]},
{"id":3,"callFrame":{"functionName":"b"},"children":[2,1,3]}]`
	tr := mustLoad(t, profileTrace(nodes, "[3,2]", "[1,1]"))
	m := &tr.Profiles[0]
	if got := fmt.Sprint(nodeIDs(m)); got != "[1 2 3]" {
		t.Errorf("model nodes %s", got)
	}
	if m.NodeDepth[2] != 1 {
		t.Errorf("depth of 3: %d", m.NodeDepth[2])
	}
	wantWarning(t, tr, "3 links to nodes already in the tree")
}

func TestSampleDeltaMismatch(t *testing.T) {
	nodes := "[" + node(1, "", "(root)") + "," + node(2, "1", "a") + "]"
	// Three samples, two deltas: DevTools appends both, logs, and its model keeps as many
	// samples as there are timestamps.
	tr := mustLoad(t, profileTrace(nodes, "[2,2,2]", "[10,10]"))
	m := &tr.Profiles[0]
	if len(m.Samples) != 2 || len(m.Timestamps) != 3 {
		t.Errorf("%d samples, %d timestamps", len(m.Samples), len(m.Timestamps))
	}
	if m.Timestamps[0] != 1010 || m.Timestamps[1] != 1020 || m.Timestamps[2] != 1030 {
		t.Errorf("timestamps %v", m.Timestamps)
	}
	wantWarning(t, tr, "samples and time deltas of different lengths")
	wantWarning(t, tr, "3 samples but 2 timestamps")
}

func TestNonNumericValues(t *testing.T) {
	nodes := "[" + node(1, "", "(root)") + `,{"id":"two","parent":1,"callFrame":{"functionName":"x"}},` + node(3, "1", "a") + "]"
	src := profileTrace(nodes, `[3,"3",null,3.5,3]`, `[1,"1",NaN,-Infinity,1]`)
	src = strings.Replace(src, `"ts":900`, `"ts":"900"`, 1)
	src = strings.TrimSuffix(src, "]") + `,{"ph":"X","name":"A","pid":1,"tid":1,"ts":NaN,"dur":1},{"ph":"X","name":"B","pid":"x","tid":1,"ts":5,"dur":"long"}]`
	tr := mustLoad(t, src)
	m := &tr.Profiles[0]
	if got := fmt.Sprint(sampleIDs(m)); got != "[3 hole hole hole 3]" {
		t.Errorf("samples %s", got)
	}
	// deltas that are not numbers count as 0: 1001, 1001, 1001, 1001, 1002
	if m.Timestamps[4] != 1002 {
		t.Errorf("timestamps %v", m.Timestamps)
	}
	wantWarning(t, tr, "2 × events with a non-numeric ts skipped (the first: event 0)")
	wantWarning(t, tr, "3 × profile samples whose node id is not an integer")
	wantWarning(t, tr, "3 × profile time deltas or timestamps that are not numbers")
	wantWarning(t, tr, "profile nodes whose id or parent is not an integer")
	wantWarning(t, tr, "X events with a non-numeric dur given dur 0")
	wantWarning(t, tr, "pid or tid that is not an integer")
	if tr.Events.Len() != 1 || tr.Strings.Get(tr.Events.Name[0]) != "B" || tr.Events.Dur[0] != 0 {
		t.Errorf("events: %d, first %q", tr.Events.Len(), tr.Strings.Get(tr.Events.Name[0]))
	}
}

func TestInvalidUTF8(t *testing.T) {
	tr := mustLoad(t, "[{\"ph\":\"X\",\"name\":\"bad\xff\xfename\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1},"+
		"{\"ph\":\"X\",\"name\":\"esc\\ud800\\u00e9\",\"pid\":1,\"tid\":1,\"ts\":2,\"dur\":1}]")
	if got := tr.Strings.Get(tr.Events.Name[0]); got != "bad\uFFFD\uFFFDname" {
		t.Errorf("name %q", got)
	}
	if got := tr.Strings.Get(tr.Events.Name[1]); got != "esc\uFFFDé" {
		t.Errorf("name %q", got)
	}
	wantWarning(t, tr, "invalid UTF-8")
}

func TestTruncationAndBrackets(t *testing.T) {
	ev := `{"ph":"X","name":"A","pid":1,"tid":1,"ts":1,"dur":1}`
	for _, c := range []struct {
		name, src string
		events    int
		warning   string
	}{
		{"closed", "[" + ev + "," + ev + "]", 2, ""},
		{"no closing bracket", "[" + ev + ",\n" + ev, 2, ""},
		{"trailing comma", "[" + ev + "," + ev + ",\n", 2, ""},
		{"trailing comma and bracket", "[" + ev + "," + ev + ",]", 2, ""},
		{"cut in an event", "[" + ev + "," + ev + `,{"ph":"X","na`, 2, "ends inside event 2"},
		{"cut in a string", "[" + ev + `,{"ph":"X","name":"abc`, 1, "ends inside event 1"},
		{"cut in a number", "[" + ev + `,{"ts":12`, 1, "ends inside event 1"},
		{"object form", `{"traceEvents":[` + ev + `],"metadata":{"x":[1,2]}}`, 1, ""},
		{"metadata first", `{"metadata":{"source":"x"},"traceEvents":[` + ev + `]}`, 1, ""},
		{"object cut", `{"traceEvents":[` + ev + `,` + ev, 2, ""},
		{"empty array", `[]`, 0, ""},
		{"just a bracket", `[`, 0, ""},
		{"BOM", "\xef\xbb\xbf[" + ev + "]", 1, ""},
		{"spaces everywhere", "[ \n\t" + strings.ReplaceAll(ev, ",", " ,\n ") + " , " + ev + " ] \n", 2, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := mustLoad(t, c.src)
			if tr.Events.Len() != c.events {
				t.Errorf("%d events, want %d", tr.Events.Len(), c.events)
			}
			if c.warning != "" {
				wantWarning(t, tr, c.warning)
			} else if tr.Warnings.Len() != 0 {
				t.Errorf("warnings %q", tr.Warnings.Lines())
			}
		})
	}
}

func TestGzipTruncated(t *testing.T) {
	var src strings.Builder
	src.WriteString("[")
	for i := range 20000 {
		fmt.Fprintf(&src, `{"ph":"X","name":"E%d","pid":1,"tid":1,"ts":%d,"dur":1},`+"\n", i%7, i)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(src.String()))
	zw.Close()
	cut := gz.Bytes()[:gz.Len()/2]
	tr, err := Reader(context.Background(), bytes.NewReader(cut), int64(len(cut)), nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := tr.Events.Len(); n < 1000 || n >= 20000 {
		t.Errorf("%d events from half a gzip stream", n)
	}
	wantWarning(t, tr, "gzip stream is cut short")
	for i := range tr.Events.Len() {
		if tr.Events.Ts[i] != float64(i) {
			t.Fatalf("event %d has ts %v", i, tr.Events.Ts[i])
		}
	}
}

func TestErrorsNameTheOffset(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{``, "empty"},
		{"   \n ", "empty"},
		{`hello`, "not a Chrome trace"},
		{"\x00\x01binary", "not a Chrome trace"},
		{`{}`, "none of traceEvents"},
		{`{"a":1}`, "none of traceEvents"},
		{`[{"ph": x}]`, "event 0: byte 8"},
		{`[` + strings.Repeat(`{"args":`, 3) + strings.Repeat("[", 20000), "nested deeper than 10000"},
		{`{"nodes":[{"id":1}],"head":` + strings.Repeat(`{"children":[`, 20000), "nested deeper than 10000"},
		{`{"nodes":`, "profile has no nodes"},
		{`[1,2]`, "event 0: byte 1: expected an event object"},
	} {
		_, err := loadString(t, c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.40q: error %v, want one containing %q", c.src, err, c.want)
		}
	}
}

func TestMalformedEventAfterGoodOnes(t *testing.T) {
	tr := mustLoad(t, `[{"ph":"X","name":"A","pid":1,"tid":1,"ts":1,"dur":1},{"ts":x}]`)
	if tr.Events.Len() != 1 {
		t.Errorf("%d events", tr.Events.Len())
	}
	wantWarning(t, tr, "event 1: byte 60: expected a value, found 'x'; the rest of the file could not be read")
}

func TestMalformedEventsAreSkipped(t *testing.T) {
	src := "[\n" + `{"ph":"X","name":"A","pid":1,"tid":1,"ts":1,"dur":1},` + "\n" +
		`{"ph":"X","name":"B",,"pid":1}` + "\n" +
		`{"ph":"X","name":"C","pid":1,"tid":1,"ts":3,"dur":1}` + "\n" +
		`{"ph" "X"},` + "\n" +
		`{"ph":"X","name":"D","pid":1,"tid":1,"ts":4,"dur":1}` + "\n]"
	tr := mustLoad(t, src)
	var names []string
	for i := range tr.Events.Len() {
		names = append(names, tr.Strings.Get(tr.Events.Name[i]))
	}
	if fmt.Sprint(names) != "[A C D]" {
		t.Errorf("events %v", names)
	}
	wantWarning(t, tr, "2 × events with malformed JSON skipped (the first: event 1, byte")
}

func TestOrphanChunksAndProfileChoice(t *testing.T) {
	nodes := "[" + node(1, "", "(root)") + "," + node(2, "1", "a") + "]"
	chunk := func(pid, id string) string {
		return `{"ph":"P","name":"ProfileChunk","pid":` + pid + `,"tid":9,"id":"` + id + `","ts":1,"args":{"data":{"cpuProfile":{"nodes":` + nodes + `,"samples":[2,2]},"timeDeltas":[1,1]}}}`
	}
	head := func(pid, tid, id, source string) string {
		return `{"ph":"P","name":"Profile","pid":` + pid + `,"tid":` + tid + `,"id":"` + id + `","ts":100,"args":{"data":{"source":"` + source + `"}}}`
	}
	src := "[" + strings.Join([]string{
		chunk("7", "0x1"), // no head anywhere: dropped
		head("3", "1", "0x1", "SelfProfiling"), chunk("3", "0x1"),
		head("3", "1", "0x2", "Inspector"), chunk("3", "0x2"),
		head("3", "1", "0x3", "Internal"), chunk("3", "0x3"), // Internal wins on thread 1
		head("3", "2", "0x4", ""),                    // no chunk: no nodes, skipped
		head("4", "1", "0x1", ""), chunk("4", "0x1"), // same id, other process: its own profile
	}, ",") + "]"
	tr := mustLoad(t, src)
	var got []string
	for _, m := range tr.Profiles {
		got = append(got, fmt.Sprintf("%d/%d/%s", m.Pid, m.Tid, tr.Strings.Get(m.ProfileID)))
	}
	if fmt.Sprint(got) != "[3/1/0x3 4/1/0x1]" {
		t.Errorf("profiles %v", got)
	}
	wantWarning(t, tr, "ProfileChunk with no Profile head (pid 7, id 0x1): 2 samples skipped")
	wantWarning(t, tr, "profile 0x4 (pid 3, tid 2) has no nodes")
	wantWarning(t, tr, "2 more profiles of thread 1 (pid 3)")
	if len(tr.Chunks.Kind) != 10 {
		t.Errorf("%d raw chunk records, want 10", len(tr.Chunks.Kind))
	}
}

// endless yields a prefix, then whitespace for ever.
type endless struct {
	prefix string
	n      int64
}

func (e *endless) Read(p []byte) (int, error) {
	n := copy(p, e.prefix)
	e.prefix = e.prefix[n:]
	for i := n; i < len(p); i++ {
		p[i] = ' '
	}
	e.n += int64(len(p))
	return len(p), nil
}

func TestWhitespaceFloodStaysBounded(t *testing.T) {
	size := int64(256 << 20)
	if raceEnabled || testing.Short() {
		size = 32 << 20
	}
	ev := `{"ph":"X","name":"A","pid":1,"tid":1,"ts":1,"dur":1}`
	src := io.MultiReader(strings.NewReader("["+ev+","),
		io.LimitReader(&endless{}, size),
		strings.NewReader(`,`+ev+`]`))
	l := newLoader(context.Background(), src, nil)
	if err := l.read(); err != nil {
		t.Fatal(err)
	}
	if l.tr.Events.Len() != 2 {
		t.Errorf("%d events", l.tr.Events.Len())
	}
	if c := cap(l.s.buf); c > 4*readSize {
		t.Errorf("the window grew to %d bytes over whitespace", c)
	}

	// The same through gzip: a small file that inflates to a lot of nothing.
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestSpeed)
	io.Copy(zw, io.MultiReader(strings.NewReader("["), io.LimitReader(&endless{}, size), strings.NewReader(ev+"]")))
	zw.Close()
	l2, err := func() (*loader, error) {
		inf, err := newInflater(context.Background(), bufio.NewReader(bytes.NewReader(gz.Bytes())))
		if err != nil {
			return nil, err
		}
		defer inf.Close()
		l := newLoader(context.Background(), inf, nil)
		return l, l.read()
	}()
	if err != nil {
		t.Fatal(err)
	}
	if l2.tr.Events.Len() != 1 || cap(l2.s.buf) > 4*readSize {
		t.Errorf("%d events, window %d bytes", l2.tr.Events.Len(), cap(l2.s.buf))
	}
}

func TestCancelStopsPromptly(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := Reader(ctx, &endless{prefix: "["}, -1, nil)
		done <- err
	}()
	time.Sleep(50 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("error %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the load did not stop within 5 s of cancel")
	}

	// Through gzip as well.
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	io.Copy(zw, io.MultiReader(strings.NewReader("["), io.LimitReader(&endless{}, 64<<20)))
	zw.Close()
	ctx2, cancel2 := context.WithCancel(context.Background())
	cancel2()
	if _, err := Reader(ctx2, bytes.NewReader(gz.Bytes()), int64(gz.Len()), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled gzip load: %v", err)
	}
}

func TestProgressCountsFileBytes(t *testing.T) {
	src := profileTrace("["+node(1, "", "(root)")+"]", "[1]", "[1]")
	var p core.Progress
	if _, err := Reader(context.Background(), strings.NewReader(src), int64(len(src)), &p); err != nil {
		t.Fatal(err)
	}
	if p.Done.Load() != int64(len(src)) || p.Total.Load() != int64(len(src)) || p.Fraction() != 1 {
		t.Errorf("progress %d of %d", p.Done.Load(), p.Total.Load())
	}
}

func TestSelfProfileHostile(t *testing.T) {
	src := `{"frames":[{"name":"a","resourceId":0,"line":1,"column":1},{"name":"b","resourceId":9}],
"resources":["https://x/a.js"],
"stacks":[{"frameId":0},{"frameId":1,"parentId":0},{"frameId":0,"parentId":3},{"frameId":5,"parentId":2},{"frameId":1,"parentId":1},{"frameId":0,"parentId":99}],
"samples":[{"timestamp":2,"stackId":1},{"timestamp":1,"stackId":4},{"timestamp":3},{"timestamp":"x","stackId":0},{"timestamp":4,"stackId":77},{"timestamp":5,"stackId":3}]}`
	tr := mustLoad(t, src)
	if tr.Kind != core.InputSelfProfile {
		t.Fatalf("kind %v", tr.Kind)
	}
	m := &tr.Profiles[0]
	// Stacks 2 and 3 are each other's parents and stack 5's parent does not exist: all three are
	// left out. Samples are sorted by time; the idle node comes after the last stack.
	if got := fmt.Sprint(sampleIDs(m)); got != "[5 2 7 hole hole]" {
		t.Errorf("samples %s (nodes %v)", got, m.NodeID)
	}
	if m.Timestamps[0] != 1000 || m.Timestamps[3] != 4000 {
		t.Errorf("timestamps %v", m.Timestamps)
	}
	if m.IdleNode < 0 || m.NodeID[m.IdleNode] != 7 {
		t.Errorf("idle node %d", m.IdleNode)
	}
	wantWarning(t, tr, "self-profile stacks whose parentId is unknown")
	wantWarning(t, tr, "self-profile samples whose stackId is unknown")
	wantWarning(t, tr, "self-profile samples without a numeric timestamp")
	wantWarning(t, tr, "self-profile stacks whose frameId is unknown")
	wantWarning(t, tr, "3 nodes not connected to the root")
	for i, id := range m.NodeID {
		f := tr.Frames[m.NodeFrame[i]]
		if id == 1 && (tr.Strings.Get(f.URL) != "https://x/a.js" || f.Line != 0 || f.Column != 0) {
			t.Errorf("frame of stack 0: %+v", f)
		}
		if id == 2 && (tr.Strings.Get(f.URL) != "" || f.Line != -1 || tr.Strings.Get(f.FunctionName) != "b") {
			t.Errorf("frame of stack 1 (unknown resource, no position): %+v", f)
		}
	}
}

func TestWholeProfileEventVariants(t *testing.T) {
	// The ph X CpuProfile event that DevTools synthesizes for a .cpuprofile, inside a trace.
	src := `[{"ph":"X","name":"CpuProfile","pid":5,"tid":6,"id":"0x1","ts":100,"dur":10,"args":{"data":{"cpuProfile":
{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"},"children":[2]},{"id":2,"callFrame":{"functionName":"f","lineNumber":3}}],
"samples":[2,2,2],"timeDeltas":[5,5,-2],"startTime":100,"endTime":120}}}}]`
	tr := mustLoad(t, src)
	m := &tr.Profiles[0]
	if m.Pid != 5 || m.Tid != 6 || len(m.Samples) != 3 {
		t.Fatalf("profile %+v", m)
	}
	// deltas 5, 5, -2 give 105, 110, 108: sorted 105, 108, 110, then 110 + (110-105)/2
	want := []float64{105, 108, 110, 112.5}
	for i, w := range want {
		if math.Abs(m.Timestamps[i]-w) > 1e-9 {
			t.Errorf("timestamps %v, want %v", m.Timestamps, want)
			break
		}
	}
}

// Sample ids and time deltas that do not fit 4 bytes (core.Narrow) come back exactly: to the
// model, and to Lighthouse, which reads the chunks as written.
func TestWideSamplesAndDeltas(t *testing.T) {
	nodes := "[" + node(1, "", "(root)") + "," + node(2, "1", "a") + "," + node(3000000000, "1", "b") + "]"
	tr := mustLoad(t, profileTrace(nodes, "[2,3000000000,2,3000000000]", "[0.5,-0,2147483648,3]"))
	c := &tr.Chunks
	chunk := -1
	for i := range c.Len() {
		if c.Kind[i] == core.ChunkData {
			chunk = i
		}
	}
	if chunk < 0 {
		t.Fatal("no ProfileChunk record")
	}
	if got := fmt.Sprint(c.AppendSamples(nil, chunk)); got != "[2 3000000000 2 3000000000]" {
		t.Errorf("chunk samples %s", got)
	}
	deltas := c.AppendTimeDeltas(nil, chunk)
	if fmt.Sprint(deltas) != "[0.5 -0 2.147483648e+09 3]" || !math.Signbit(deltas[1]) {
		t.Errorf("chunk deltas %v", deltas)
	}
	m := &tr.Profiles[0]
	if got := fmt.Sprint(sampleIDs(m)); got != "[2 3000000000 2 3000000000]" {
		t.Errorf("model samples %s", got)
	}
	if want := []float64{1000.5, 1000.5, 1000.5 + 2147483648, 1003.5 + 2147483648}; !slices.Equal(m.Timestamps[:4], want) {
		t.Errorf("timestamps %v, want %v", m.Timestamps[:4], want)
	}
}
