package load

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
	"math"
	"strings"
	"testing"

	"github.com/klauspost/compress/flate"
)

// The second round of hostile input: gzip headers and trailers, text after the document, files
// that are not files.

const oneEvent = `[{"ph":"X","name":"A","pid":1,"tid":1,"ts":1,"dur":1}]`

// gzipMember builds a gzip member by hand, with a file name and comment of any length and the
// given CRC (the right one when crc is nil).
func gzipMember(data, name, comment string, crc *uint32) []byte {
	flg := byte(0)
	if name != "" {
		flg |= 8
	}
	if comment != "" {
		flg |= 16
	}
	out := []byte{0x1f, 0x8b, 8, flg, 0, 0, 0, 0, 0, 0xff}
	if name != "" {
		out = append(append(out, name...), 0)
	}
	if comment != "" {
		out = append(append(out, comment...), 0)
	}
	var b bytes.Buffer
	fw, _ := flate.NewWriter(&b, flate.BestCompression)
	fw.Write([]byte(data))
	fw.Close()
	out = append(out, b.Bytes()...)
	sum := crc32.ChecksumIEEE([]byte(data))
	if crc != nil {
		sum = *crc
	}
	out = binary.LittleEndian.AppendUint32(out, sum)
	return binary.LittleEndian.AppendUint32(out, uint32(len(data)))
}

func TestGzipLongNameAndComment(t *testing.T) {
	// gzip -t accepts these; the library's reader stopped at 512 bytes.
	for _, c := range []struct{ name, comment string }{
		{strings.Repeat("n", 100000), ""},
		{"", strings.Repeat("c", 100000)},
		{strings.Repeat("n", 70000), strings.Repeat("c", 70000)},
	} {
		b := gzipMember(oneEvent, c.name, c.comment, nil)
		tr, err := Reader(context.Background(), bytes.NewReader(b), int64(len(b)), nil)
		if err != nil {
			t.Fatalf("name %d, comment %d bytes: %v", len(c.name), len(c.comment), err)
		}
		if tr.Events.Len() != 1 || tr.Warnings.Len() != 0 {
			t.Errorf("%d events, warnings %q", tr.Events.Len(), tr.Warnings.Lines())
		}
	}
}

func TestGzipBadChecksumIsReported(t *testing.T) {
	bad := uint32(12345)
	b := gzipMember(oneEvent, "", "", &bad)
	tr, err := Reader(context.Background(), bytes.NewReader(b), int64(len(b)), nil)
	if err != nil {
		t.Fatal(err)
	}
	wantWarning(t, tr, "checksum mismatch")
	// Two members, the first damaged: the loss is told wherever it is.
	b = append(gzipMember(oneEvent[:len(oneEvent)-1]+",", "", "", &bad), gzipMember(oneEvent[1:], "", "", nil)...)
	tr, err = Reader(context.Background(), bytes.NewReader(b), int64(len(b)), nil)
	if err != nil {
		t.Fatal(err)
	}
	wantWarning(t, tr, "checksum mismatch")
}

func TestTextAfterTheDocumentIsCounted(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{oneEvent + oneEvent, "a second JSON document after the end of the JSON (bytes 54 to 108"},
		{`{"traceEvents":` + oneEvent + "}\n" + `{"traceEvents":[]}`, "a second JSON document"},
		{oneEvent + " garbage", "text after the end of the JSON (bytes 55 to 62, starting with 'g')"},
		{`{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"}}],"samples":[1],"timeDeltas":[1],"startTime":0,"endTime":2}{}`, "a second JSON document"},
	} {
		tr := mustLoad(t, c.in)
		wantWarning(t, tr, c.want)
	}
	// Whitespace after the document is no loss.
	if tr := mustLoad(t, oneEvent+"\n\n  \t"); tr.Warnings.Len() != 0 {
		t.Errorf("warnings %q", tr.Warnings.Lines())
	}
}

func TestTimesOutOfRangeAreRefusedAtLoad(t *testing.T) {
	tr := mustLoad(t, `[{"ph":"X","name":"A","pid":1,"tid":1,"ts":1000,"dur":500},
{"ph":"X","name":"far","pid":1,"tid":1,"ts":1e308,"dur":1e308},
{"ph":"X","name":"farNeg","pid":1,"tid":1,"ts":-1e20},
{"ph":"X","name":"B","pid":1,"tid":1,"ts":2000,"dur":1e308},
{"ph":"I","name":"C","pid":1,"tid":1,"ts":3000,"dur":9007199254740000}]`)
	if tr.Events.Len() != 3 {
		t.Fatalf("%d events, want A, B and C", tr.Events.Len())
	}
	wantWarning(t, tr, "2 × events whose ts is beyond ±9007199254740992 µs")
	wantWarning(t, tr, "2 × events ending beyond 9007199254740992 µs (2^53) given dur 0")
	if tr.MinTs != 1000 || tr.MaxTs != 3000 {
		t.Errorf("bounds %g..%g, want 1000..3000", tr.MinTs, tr.MaxTs)
	}
	for i := range tr.Events.Len() {
		if d := tr.Events.Dur[i]; d > 500 {
			t.Errorf("event %d keeps dur %g", i, d)
		}
	}

	// Time deltas that add up past float64's range: every sample is kept, at the edge.
	deltas := strings.Repeat("1,", 100) + strings.Repeat("1e308,", 99) + "1e308"
	samples := strings.TrimSuffix(strings.Repeat("2,", 200), ",")
	tr = mustLoad(t, `{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"},"children":[2]},{"id":2,"callFrame":{"functionName":"f"}}],
"startTime":0,"endTime":1000,"samples":[`+samples+`],"timeDeltas":[`+deltas+`]}`)
	m := &tr.Profiles[0]
	if len(m.Samples) != 200 {
		t.Fatalf("%d samples", len(m.Samples))
	}
	for i, ts := range m.Timestamps {
		if math.IsInf(ts, 0) || math.Abs(ts) > maxTime {
			t.Fatalf("timestamp %d is %g", i, ts)
		}
	}
	wantWarning(t, tr, "100 sample times beyond ±9007199254740992 µs")
}

// A file that ends in NUL bytes (a crash, a sparse or preallocated file) stops at the first of
// them instead of searching gigabytes of them for the next event.
func TestNULBytesStopReading(t *testing.T) {
	tr := mustLoad(t, `[{"ph":"X","name":"A","pid":1,"tid":1,"ts":1,"dur":1},`+"\n"+strings.Repeat("\x00", 1<<20))
	if tr.Events.Len() != 1 {
		t.Errorf("%d events", tr.Events.Len())
	}
	wantWarning(t, tr, "reading stopped at byte 55 of the JSON: NUL bytes")
	// Inside a damaged event too.
	tr = mustLoad(t, `[{"ph":"X","name":"A","pid":1,"tid":1,"ts":1,"dur":1},`+"\n"+`{"ph":"X","name":"B","pid":1,"tid":1,"ts":2,"dur":1},{"ph":"X","name":"C",`+"\x00\n"+strings.Repeat("\x00", 1<<20))
	if tr.Events.Len() != 2 {
		t.Errorf("%d events", tr.Events.Len())
	}
	wantWarning(t, tr, "NUL bytes")
	if _, err := loadString(t, "["+strings.Repeat("\x00", 1<<20)); err == nil || !strings.Contains(err.Error(), "NUL bytes") {
		t.Errorf("only NULs: %v", err)
	}
}
