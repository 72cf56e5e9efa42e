package load

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/valyala/fastjson"

	"flamedesk/internal/fixtures"
)

func TestSnapshotTextFindsTheFirstTopLevelMember(t *testing.T) {
	for _, c := range []struct {
		args, want string // want "" when there is no plain top-level snapshot string
	}{
		{`{"snapshot":"QUJD"}`, "QUJD"},
		{` { "source_id" : "0x1" , "snapshot" : "QUJD" } `, "QUJD"},
		{`{"frame":{"snapshot":"no","x":[1,"]}",{"a":"}"}]},"n":-1.5e3,"t":true,"snapshot":"QUJD"}`, "QUJD"},
		{`{"snapshot":"QUJD","snapshot":"RUZH"}`, "QUJD"},
		{`{"data":{"snapshot":"QUJD"}}`, ""},
		{`{"snapshot":1}`, ""},
		{`{"snapshot":null}`, ""},
		{`{"snapshot":"QU\/D"}`, ""},
		{`{"snap\u0073hot":"RUZH","snapshot":"QUJD"}`, ""},
		{`{"snapshot":"QUJD`, ""},
		{`["snapshot","QUJD"]`, ""},
		{`{"n":1}`, ""},
		{`{}`, ""},
		{``, ""},
	} {
		from, to, ok := snapshotText([]byte(c.args))
		got := ""
		if ok {
			got = c.args[from:to]
		}
		if got != c.want {
			t.Errorf("snapshotText(%s) = %q, want %q", c.args, got, c.want)
		}
	}
}

// screenshotTrace is a trace of one Screenshot event whose args are args.
func screenshotTrace(args string) string {
	return `{"traceEvents":[{"name":"Screenshot","ph":"O","ts":5,"pid":1,"tid":1,"cat":"disabled-by-default-devtools.screenshot","id":"0x1","args":` + args + `}]}`
}

// TestOnlyCanonicalSnapshotsAreDecoded loads screenshots whose text is canonical padded base64,
// and texts that a lenient reader decodes to the same image but that encoding it would not give
// back: only the first are kept as bytes, and either way the args read back as they were written.
func TestOnlyCanonicalSnapshotsAreDecoded(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	image := make([]byte, 301) // not a multiple of 3: the text ends with padding
	for i := range image {
		image[i] = byte(rng.IntN(256))
	}
	canonical := base64.StdEncoding.EncodeToString(image)
	urlSafe := base64.URLEncoding.EncodeToString(image)
	if urlSafe == canonical {
		t.Fatal("the image encodes alike in both alphabets; pick another seed")
	}
	// The last character before the padding carries 4 unused bits: setting one gives a text that
	// decodes leniently to the same image.
	pad := strings.IndexByte(canonical, '=')
	last := strings.IndexByte("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", canonical[pad-1])
	loose := canonical[:pad-1] + string("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"[last|1]) + canonical[pad:]
	for _, c := range []struct {
		name, text string
		decoded    bool
	}{
		{"canonical", canonical, true},
		{"unpadded", strings.TrimRight(canonical, "="), false},
		{"url alphabet", urlSafe, false},
		{"escaped slash", strings.ReplaceAll(canonical, "/", `\/`), !strings.Contains(canonical, "/")},
		{"escaped newline", canonical[:40] + `\n` + canonical[40:], false},
		{"unused bits set", loose, false},
		{"short", canonical[:minSnapshotText-4], false},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := `{"snapshot":"` + c.text + `","source_id":"0x2"}`
			tr := mustLoad(t, screenshotTrace(args))
			e := &tr.Events
			got, decoded := e.Snapshot(0)
			if decoded != c.decoded {
				t.Fatalf("decoded %v, want %v", decoded, c.decoded)
			}
			if decoded && !bytes.Equal(got, image) {
				t.Fatalf("the image kept differs from the one encoded")
			}
			kept := e.ArgsJSON(0)
			if decoded {
				from, to, ok := snapshotText(kept)
				if !ok || from != to {
					t.Fatalf("args kept %s: want an empty snapshot", kept)
				}
				kept = []byte(string(kept[:from]) + base64.StdEncoding.EncodeToString(got) + string(kept[to:]))
			}
			if string(kept) != args {
				t.Fatalf("args read back as\n%s\nwant\n%s", kept, args)
			}
		})
	}
}

// TestFixtureSnapshotsReadBack loads the committed traces that have screenshots and checks each
// Screenshot's args against the file's own, read by encoding/json: a decoded image encodes to the
// text the file holds, and the other members are kept as they were.
func TestFixtureSnapshotsReadBack(t *testing.T) {
	decodedAll := 0
	for _, name := range []string{"devtools-nested-interactions.json.gz", "devtools-cls-multiple-frames.json.gz", "devtools-web-sockets.json.gz"} {
		t.Run(name, func(t *testing.T) {
			tr := loadFixture(t, "upstream", name)
			want := screenshotArgsOf(t, name)
			shot, _ := tr.Strings.Lookup("Screenshot")
			var got []map[string]any
			for i, n := range tr.Events.Name {
				if n != shot {
					continue
				}
				var args map[string]any
				if err := json.Unmarshal(tr.Events.ArgsJSON(i), &args); err != nil {
					t.Fatalf("event %d: args kept are not JSON: %v", i, err)
				}
				if image, ok := tr.Events.Snapshot(i); ok {
					decodedAll++
					if args["snapshot"] != "" {
						t.Fatalf("event %d: decoded, yet its args hold the snapshot text", i)
					}
					args["snapshot"] = base64.StdEncoding.EncodeToString(image)
				}
				got = append(got, args)
			}
			if len(got) == 0 || !reflect.DeepEqual(got, want) {
				t.Fatalf("%d screenshots whose args differ from the file's %d", len(got), len(want))
			}
		})
	}
	if decodedAll == 0 {
		t.Fatal("no screenshot of the fixtures was decoded")
	}
}

// screenshotArgsOf reads the args of the Screenshot events of fixture name with encoding/json.
func screenshotArgsOf(t *testing.T, name string) []map[string]any {
	data := fixtures.ReadHead(t, 1<<30, "fixtures", "upstream", name)
	var doc struct {
		TraceEvents []struct {
			Name string         `json:"name"`
			Args map[string]any `json:"args"`
		} `json:"traceEvents"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		var list []struct {
			Name string         `json:"name"`
			Args map[string]any `json:"args"`
		}
		if err2 := json.Unmarshal(data, &list); err2 != nil {
			t.Fatal(fmt.Errorf("%s: %v", name, err))
		}
		doc.TraceEvents = list
	}
	var out []map[string]any
	for _, e := range doc.TraceEvents {
		if e.Name == "Screenshot" {
			out = append(out, e.Args)
		}
	}
	return out
}

// BenchmarkSplitSnapshot is the cost per byte of args of keeping a screenshot decoded.
func BenchmarkSplitSnapshot(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	image := make([]byte, 60<<10)
	for i := range image {
		image[i] = byte(rng.IntN(256))
	}
	args := []byte(`{"snapshot":"` + base64.StdEncoding.EncodeToString(image) + `","source_id":"0x2"}`)
	l := &loader{}
	b.SetBytes(int64(len(args)))
	for b.Loop() {
		if _, _, ok := l.splitSnapshot(args); !ok {
			b.Fatal("not split")
		}
	}
}

// FuzzSnapshotText checks the member scan against fastjson on any args that are valid JSON: where
// it finds a "snapshot" text, fastjson reads the same string as the object's "snapshot" member;
// where fastjson finds a plain string there (and no key before it has escapes), so does the scan.
func FuzzSnapshotText(f *testing.F) {
	f.Add([]byte(`{"snapshot":"QUJD","source_id":"0x1"}`))
	f.Add([]byte(`{"frame":{"snapshot":"no","x":[1,"]}",{"a":"}"}]},"n":-1.5e3,"t":true,"snapshot":"QUJD"}`))
	f.Add([]byte(`{"snap\u0073hot":"RUZH","snapshot":"QUJD"}`))
	f.Add([]byte(`{"snapshot":"QU\/D"}`))
	f.Fuzz(func(t *testing.T, args []byte) {
		var p fastjson.Parser
		v, err := p.ParseBytes(args)
		if err != nil || v.Type() != fastjson.TypeObject {
			return
		}
		from, to, ok := snapshotText(args)
		x := v.Get("snapshot")
		if ok {
			if x == nil || x.Type() != fastjson.TypeString || string(x.GetStringBytes()) != string(args[from:to]) {
				t.Fatalf("scan found %q, fastjson %v", args[from:to], x)
			}
			return
		}
		if x == nil || x.Type() != fastjson.TypeString || bytes.ContainsRune(args, '\\') {
			return // nothing to find, or escapes, which the scan leaves alone
		}
		t.Fatalf("scan found nothing in %s, fastjson %q", args, x.GetStringBytes())
	})
}
