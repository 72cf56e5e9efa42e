package load

import (
	"strings"
	"testing"

	"flamedesk/core"
)

// TestRepeatedCallFramesReadAsWhenFirstSeen loads call frame objects that repeat byte for byte,
// which the loader reads once and remembers, in the cases where remembering could go wrong: a
// frame repaired for invalid UTF-8 (counted at each reading), a node with two callFrame members
// (the second completes the first), a '}' inside a string (the first '}' is not the end) and an
// escape.
func TestRepeatedCallFramesReadAsWhenFirstSeen(t *testing.T) {
	plain := `{"codeType":"JS","columnNumber":4,"functionName":"f","lineNumber":3,"scriptId":7,"url":"a.js"}`
	bad := "{\"functionName\":\"b\xffd\",\"scriptId\":7,\"url\":\"a.js\"}"
	brace := `{"functionName":"g}","scriptId":7,"url":"b}.js"}`
	escaped := `{"functionName":"h\"q","scriptId":7,"url":"c.js"}`
	urlOnly := `{"url":"only.js"}`
	nodes := []string{
		`{"id":1,"callFrame":{"functionName":"(root)","scriptId":0}}`,
		`{"id":2,"parent":1,"callFrame":` + plain + `}`,
		`{"id":3,"parent":2,"callFrame":` + plain + `}`,
		`{"id":4,"parent":1,"callFrame":` + bad + `}`,
		`{"id":5,"parent":4,"callFrame":` + bad + `}`,
		`{"id":6,"parent":1,"callFrame":` + brace + `}`,
		`{"id":7,"parent":6,"callFrame":` + brace + `}`,
		`{"id":8,"parent":1,"callFrame":` + escaped + `}`,
		`{"id":9,"parent":8,"callFrame":` + escaped + `}`,
		`{"id":10,"parent":1,"callFrame":` + urlOnly + `}`,
		`{"id":11,"parent":1,"callFrame":` + urlOnly + `,"callFrame":{"functionName":"late"}}`,
		`{"id":12,"parent":1,"callFrame":{"functionName":"early","url":"e.js"},"callFrame":` + urlOnly + `}`,
	}
	tr := mustLoad(t, profileTrace("["+strings.Join(nodes, ",")+"]", "[2,3,5,7,9,11,12]", "[1,1,1,1,1,1,1]"))
	if len(tr.Profiles) != 1 {
		t.Fatalf("%d profiles", len(tr.Profiles))
	}
	m := &tr.Profiles[0]
	frameOf := map[int64]core.CallFrame{}
	for i, id := range m.NodeID {
		frameOf[id] = tr.Frames[m.NodeFrame[i]]
	}
	str := tr.Strings.Get
	for _, c := range []struct {
		node          int64
		fn, url       string
		line, column  int32
		sameFrameAsID int64
	}{
		{2, "f", "a.js", 3, 4, 3},
		{4, "b\uFFFDd", "a.js", -1, -1, 5},
		{6, "g}", "b}.js", -1, -1, 7},
		{8, `h"q`, "c.js", -1, -1, 9},
		{10, "", "only.js", -1, -1, 10},
		{11, "late", "only.js", -1, -1, 11},
		{12, "early", "only.js", -1, -1, 12},
	} {
		f, ok := frameOf[c.node]
		if !ok {
			t.Errorf("node %d missing", c.node)
			continue
		}
		if str(f.FunctionName) != c.fn || str(f.URL) != c.url || f.Line != c.line || f.Column != c.column || str(f.ScriptID) != "7" && c.node < 10 {
			t.Errorf("node %d: frame %q %q %d:%d script %q, want %q %q %d:%d", c.node,
				str(f.FunctionName), str(f.URL), f.Line, f.Column, str(f.ScriptID), c.fn, c.url, c.line, c.column)
		}
		if frameOf[c.sameFrameAsID] != f {
			t.Errorf("nodes %d and %d have the same call frame but different frames", c.node, c.sameFrameAsID)
		}
	}
	msgs, counts := tr.Warnings.Entries()
	repaired := 0
	for i, m := range msgs {
		if strings.Contains(m, "invalid UTF-8") {
			repaired = counts[i]
		}
	}
	if repaired != 2 {
		t.Errorf("%d strings counted as repaired, want 2 (one per reading); warnings %q", repaired, msgs)
	}
}
