package load

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"flamedesk/core"
	"flamedesk/internal/fixtures"
)

// The references hold, per profile DevTools chose, the assembled chunk data and the
// CPUProfileDataModel's view of it. Only the fields compared here are decoded.
type goldenFile struct {
	Input struct {
		File string `json:"file"`
	} `json:"input"`
	Profiles []goldenProfile `json:"profiles"`
}

type goldenProfile struct {
	ProfileID anyString `json:"profileId"` // a number when the trace's id was one
	Pid       int64     `json:"pid"`
	Tid       int64     `json:"tid"`
	Raw       struct {
		StartTime  float64 `json:"startTime"`
		EndTime    float64 `json:"endTime"`
		Nodes      int     `json:"nodes"`
		Samples    int     `json:"samples"`
		TimeDeltas int     `json:"timeDeltas"`
		Lines      int     `json:"lines"`
		TraceIDs   int     `json:"traceIds"`
	} `json:"raw"`
	Model struct {
		StartMs   float64 `json:"profileStartTimeMs"`
		EndMs     float64 `json:"profileEndTimeMs"`
		MaxDepth  int     `json:"maxDepth"`
		RootID    int64   `json:"rootId"`
		ProgramID *int64  `json:"programNodeId"`
		IdleID    *int64  `json:"idleNodeId"`
		GCID      *int64  `json:"gcNodeId"`
	} `json:"model"`
	RawNodes []struct {
		ID           int64           `json:"id"`
		Parent       *int64          `json:"parent"`
		FunctionName string          `json:"functionName"`
		URL          *string         `json:"url"`
		ScriptID     json.RawMessage `json:"scriptId"`
		LineNumber   *float64        `json:"lineNumber"`
		ColumnNumber *float64        `json:"columnNumber"`
	} `json:"rawNodes"`
	RawSamples        []*int64   `json:"rawSamples"`
	RawTimeDeltas     []float64  `json:"rawTimeDeltas"`
	ModelSamples      []*int64   `json:"modelSamples"`
	ModelTimestampsUs []*float64 `json:"modelTimestampsUs"`
	ModelNodes        []struct {
		ID           int64  `json:"id"`
		Parent       *int64 `json:"parent"`
		Depth        int32  `json:"depth"`
		FunctionName string `json:"functionName"`
	} `json:"modelNodes"`
}

// anyString decodes a JSON string or number as its text (String(x) in JavaScript).
type anyString string

func (a *anyString) UnmarshalJSON(b []byte) error {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*a = anyString(fmt.Sprint(v))
	return nil
}

// readGolden decodes a reference's input and profiles. The oracle writes "input" near the start
// and "profiles" as the last member, after the threads that make up most of the file (180 MB for
// gen-trace-medium-reload): the test decodes only those two, which keeps it fast under the race
// detector too. Inside JSON strings a quote is always escaped, so the raw bytes ,"profiles":[
// can only be structure, and their last occurrence is the top-level member.
func readGolden(t *testing.T, path string) *goldenFile {
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
	pat := []byte(`,"profiles":[`)
	var g goldenFile
	var tail, carry []byte
	buf := make([]byte, 1<<20)
	first := true
	for {
		n, rerr := io.ReadFull(zr, buf)
		if first {
			first = false
			i := bytes.Index(buf[:n], []byte(`"input":`))
			if i < 0 {
				t.Fatalf("%s: no input member at the start", path)
			}
			if err := json.NewDecoder(bytes.NewReader(buf[i+len(`"input":`) : n])).Decode(&g.Input); err != nil {
				t.Fatalf("%s: input: %v", path, err)
			}
		}
		chunk := buf[:n]
		// A match across the previous chunk's end, then the last match inside this chunk.
		edge := append(carry, chunk[:min(n, len(pat)-1)]...)
		if i := lastIndex(edge, pat); i >= 0 {
			tail = append(tail[:0], edge[i:len(carry)]...)
		}
		if i := lastIndex(chunk, pat); i >= 0 {
			tail = append(tail[:0], chunk[i:]...)
		} else if tail != nil {
			tail = append(tail, chunk...)
		}
		carry = append(carry[:0], chunk[max(0, n-len(pat)+1):]...)
		if rerr == io.EOF || rerr == io.ErrUnexpectedEOF {
			break
		}
		if rerr != nil {
			t.Fatal(rerr)
		}
	}
	if tail == nil {
		t.Fatalf("%s: no profiles member", path)
	}
	tail[0] = '{' // the comma before "profiles"; the document's closing brace ends it
	var p struct {
		Profiles []goldenProfile `json:"profiles"`
	}
	if err := json.Unmarshal(tail, &p); err != nil {
		t.Fatalf("%s: profiles: %v", path, err)
	}
	g.Profiles = p.Profiles
	return &g
}

// lastIndex is bytes.LastIndex through the vectorised bytes.Index.
func lastIndex(b, pat []byte) int {
	last := -1
	for off := 0; ; {
		i := bytes.Index(b[off:], pat)
		if i < 0 {
			return last
		}
		last = off + i
		off = last + 1
	}
}

// fixtureFor finds the fixture a reference was made from.
func fixtureFor(t *testing.T, name string) string {
	t.Helper()
	base := filepath.Base(name)
	for _, dir := range []string{"upstream", "generated"} {
		if p := fixtures.Find("fixtures", dir, base); p != "" {
			return p
		}
	}
	t.Fatalf("no fixture named %s", base)
	return ""
}

// diffs collects the first differences of one comparison, so that a failure shows enough to
// act on without flooding the log.
type diffs struct {
	t     *testing.T
	where string
	n     int
}

func (d *diffs) errorf(format string, args ...any) {
	d.t.Helper()
	d.n++
	if d.n <= 12 {
		d.t.Errorf("%s: "+format, append([]any{d.where}, args...)...)
	} else if d.n == 13 {
		d.t.Errorf("%s: more differences not shown", d.where)
	}
}

// sameTime compares µs values that both sides computed with the same float operations in the
// same order: they must be equal to the last bit (JSON round-trips float64 exactly).
func sameTime(a, b float64) bool {
	return a == b || (a != a && b != b)
}

func TestGoldenAssemblyAndModel(t *testing.T) {
	keepRawSamples = true
	defer func() { keepRawSamples = false }()
	refs := fixtures.Glob(t, "conformance/golden/*.devtools.json.gz")
	for _, ref := range refs {
		name := strings.TrimSuffix(filepath.Base(ref), ".devtools.json.gz")
		t.Run(name, func(t *testing.T) {
			g := readGolden(t, ref)
			tr, err := File(context.Background(), fixtureFor(t, g.Input.File), nil)
			if err != nil {
				t.Fatalf("load: %v", err)
			}
			asm := Assemble(tr)
			if len(asm) != len(tr.Profiles) {
				t.Fatalf("Assemble gave %d profiles, the load %d", len(asm), len(tr.Profiles))
			}
			if len(g.Profiles) != len(tr.Profiles) {
				var ours []string
				for _, m := range tr.Profiles {
					ours = append(ours, fmt.Sprintf("%s pid %d tid %d", tr.Strings.Get(m.ProfileID), m.Pid, m.Tid))
				}
				t.Errorf("profiles: reference has %d, we have %d: %v", len(g.Profiles), len(tr.Profiles), ours)
			}
			for i := range g.Profiles {
				gp := &g.Profiles[i]
				found := false
				for j := range tr.Profiles {
					if tr.Profiles[j].Pid == gp.Pid && tr.Profiles[j].Tid == gp.Tid {
						found = true
						d := &diffs{t: t, where: fmt.Sprintf("profile %s pid %d tid %d", gp.ProfileID, gp.Pid, gp.Tid)}
						if j != i {
							d.errorf("listed at %d, the reference lists it at %d", j, i)
						}
						compareAssembled(d, tr, &asm[j], gp)
						compareModel(d, tr, &tr.Profiles[j], gp)
					}
				}
				if !found {
					t.Errorf("profile %s pid %d tid %d missing", gp.ProfileID, gp.Pid, gp.Tid)
				}
			}
		})
	}
}

func compareAssembled(d *diffs, tr *core.Trace, a *Assembled, g *goldenProfile) {
	c := &tr.Chunks
	if id := tr.Strings.Get(a.ID); id != string(g.ProfileID) {
		d.errorf("profile id %q, want %q", id, g.ProfileID)
	}
	if !sameTime(a.StartTime, g.Raw.StartTime) || !sameTime(a.EndTime, g.Raw.EndTime) {
		d.errorf("raw start/end %v/%v, want %v/%v", a.StartTime, a.EndTime, g.Raw.StartTime, g.Raw.EndTime)
	}
	if len(a.Lines) != g.Raw.Lines {
		d.errorf("raw lines %d, want %d", len(a.Lines), g.Raw.Lines)
	}
	if len(a.TraceIDs) != g.Raw.TraceIDs {
		d.errorf("raw trace ids %d, want %d", len(a.TraceIDs), g.Raw.TraceIDs)
	}
	if len(a.Nodes) != len(g.RawNodes) {
		d.errorf("raw nodes %d, want %d", len(a.Nodes), len(g.RawNodes))
	}
	for k := range min(len(a.Nodes), len(g.RawNodes)) {
		n, gn := int(a.Nodes[k]), &g.RawNodes[k]
		f := tr.Frames[c.NodeFrame[n]]
		parent := c.NodeParent[n]
		if c.NodeFlags[n]&core.NodeHasParent == 0 {
			parent = core.NoNode
		}
		wantParent := core.NoNode
		if gn.Parent != nil {
			wantParent = *gn.Parent
		}
		// .cpuprofile references keep the frames as written (DevTools normalises only chunk
		// nodes); ours always carry the defaults, so apply them to the reference.
		wantURL := ""
		if gn.URL != nil {
			wantURL = *gn.URL
		}
		wantLine, wantCol := int32(-1), int32(-1)
		if gn.LineNumber != nil {
			wantLine = int32(*gn.LineNumber)
		}
		if gn.ColumnNumber != nil {
			wantCol = int32(*gn.ColumnNumber)
		}
		wantScript := missingScriptID
		switch {
		case len(gn.ScriptID) > 0 && gn.ScriptID[0] == '"':
			wantScript = string(gn.ScriptID[1 : len(gn.ScriptID)-1])
		case len(gn.ScriptID) > 0 && string(gn.ScriptID) != "null":
			wantScript = string(gn.ScriptID)
		}
		if c.NodeID[n] != gn.ID || parent != wantParent || tr.Strings.Get(f.FunctionName) != gn.FunctionName ||
			tr.Strings.Get(f.URL) != wantURL || tr.Strings.Get(f.ScriptID) != wantScript || f.Line != wantLine || f.Column != wantCol {
			d.errorf("raw node %d: id %d parent %d %q %q script %q %d:%d, want id %d parent %d %q %q script %q %d:%d", k,
				c.NodeID[n], parent, tr.Strings.Get(f.FunctionName), tr.Strings.Get(f.URL), tr.Strings.Get(f.ScriptID), f.Line, f.Column,
				gn.ID, wantParent, gn.FunctionName, wantURL, wantScript, wantLine, wantCol)
		}
	}
	if len(a.Samples) != len(g.RawSamples) || len(a.Samples) != g.Raw.Samples {
		d.errorf("raw samples %d, want %d", len(a.Samples), len(g.RawSamples))
	}
	for k := range min(len(a.Samples), len(g.RawSamples)) {
		want := core.NoNode
		if g.RawSamples[k] != nil {
			want = *g.RawSamples[k]
		}
		if a.Samples[k] != want {
			d.errorf("raw sample %d: %d, want %d", k, a.Samples[k], want)
		}
	}
	if len(a.TimeDeltas) != len(g.RawTimeDeltas) || len(a.TimeDeltas) != g.Raw.TimeDeltas {
		d.errorf("raw time deltas %d, want %d", len(a.TimeDeltas), len(g.RawTimeDeltas))
	}
	for k := range min(len(a.TimeDeltas), len(g.RawTimeDeltas)) {
		if a.TimeDeltas[k] != g.RawTimeDeltas[k] {
			d.errorf("raw time delta %d: %v, want %v", k, a.TimeDeltas[k], g.RawTimeDeltas[k])
		}
	}
}

func compareModel(d *diffs, tr *core.Trace, m *core.ProfileModel, g *goldenProfile) {
	if len(m.NodeID) != len(g.ModelNodes) {
		d.errorf("model nodes %d, want %d", len(m.NodeID), len(g.ModelNodes))
	}
	maxDepth := int32(-1)
	for k := range min(len(m.NodeID), len(g.ModelNodes)) {
		gn := &g.ModelNodes[k]
		parent := int64(-1 << 62)
		if p := m.NodeParent[k]; p >= 0 {
			parent = m.NodeID[p]
		}
		wantParent := int64(-1 << 62)
		if gn.Parent != nil {
			wantParent = *gn.Parent
		}
		name := tr.Strings.Get(tr.Frames[m.NodeFrame[k]].FunctionName)
		if m.NodeID[k] != gn.ID || parent != wantParent || m.NodeDepth[k] != gn.Depth || name != gn.FunctionName {
			d.errorf("model node %d: id %d parent %d depth %d %q, want id %d parent %d depth %d %q",
				k, m.NodeID[k], parent, m.NodeDepth[k], name, gn.ID, wantParent, gn.Depth, gn.FunctionName)
		}
		maxDepth = max(maxDepth, m.NodeDepth[k])
	}
	// DevTools' maxDepth counts one level below the deepest node.
	if int(maxDepth)+1 != g.Model.MaxDepth {
		d.errorf("max depth %d, want %d", maxDepth+1, g.Model.MaxDepth)
	}
	if m.RootNode != 0 || m.NodeID[0] != g.Model.RootID {
		d.errorf("root node %d (id %d), want id %d", m.RootNode, m.NodeID[m.RootNode], g.Model.RootID)
	}
	for _, meta := range []struct {
		what string
		got  int32
		want *int64
	}{{"program", m.ProgramNode, g.Model.ProgramID}, {"idle", m.IdleNode, g.Model.IdleID}, {"gc", m.GCNode, g.Model.GCID}} {
		gotID, wantID := "none", "none"
		if meta.got >= 0 {
			gotID = fmt.Sprint(m.NodeID[meta.got])
		}
		if meta.want != nil {
			wantID = fmt.Sprint(*meta.want)
		}
		if gotID != wantID {
			d.errorf("%s node %s, want %s", meta.what, gotID, wantID)
		}
	}
	if len(m.Samples) != len(g.ModelSamples) {
		d.errorf("model samples %d, want %d", len(m.Samples), len(g.ModelSamples))
	}
	for k := range min(len(m.Samples), len(g.ModelSamples)) {
		got, want := int64(-1<<62), int64(-1<<62) // holes
		if s := m.Samples[k]; s >= 0 {
			got = m.NodeID[s]
		}
		if g.ModelSamples[k] != nil {
			want = *g.ModelSamples[k]
		}
		if got != want {
			d.errorf("model sample %d: %d, want %d (%d: hole)", k, got, want, int64(-1<<62))
		}
	}
	if len(m.Timestamps) != len(g.ModelTimestampsUs) {
		d.errorf("model timestamps %d, want %d", len(m.Timestamps), len(g.ModelTimestampsUs))
	}
	for k := range min(len(m.Timestamps), len(g.ModelTimestampsUs)) {
		want := math.NaN()
		if g.ModelTimestampsUs[k] != nil {
			want = *g.ModelTimestampsUs[k]
		}
		if !sameTime(m.Timestamps[k], want) {
			d.errorf("model timestamp %d: %v, want %v", k, m.Timestamps[k], want)
		}
	}
	if !sameTime(m.StartTime, g.Model.StartMs*1000) || !sameTime(m.EndTime, g.Model.EndMs*1000) {
		d.errorf("model start/end %v/%v µs, want %v/%v", m.StartTime, m.EndTime, g.Model.StartMs*1000, g.Model.EndMs*1000)
	}
	for k := 1; k < len(m.Timestamps)-1; k++ {
		if m.Timestamps[k] < m.Timestamps[k-1] {
			d.errorf("model timestamps not sorted at %d", k)
			break
		}
	}
}
