package cache

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"
	"unsafe"

	"flamedesk/core"
)

// FormatVersion changes whenever the file layout below changes (the model's own changes are
// caught by the schema fingerprint).
const FormatVersion = 5

// magic opens every cache file; a reader on a big-endian machine sees it reversed and misses.
const magic = uint64(0x31454843_4b534446) // "FDSKCHE1" little-endian

// DefaultMaxBytes bounds a cache directory: past it, the least recently used files go first.
const DefaultMaxBytes = 2 << 30

// suffix names cache files, so that eviction never touches anything else in the directory.
const suffix = ".fdcache"

// Key is what a cache entry was made from: the source file as it was when it was loaded.
type Key struct {
	Path    string // absolute
	Size    int64
	ModTime int64 // UnixNano
}

// KeyOf stats path.
func KeyOf(path string) (Key, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return Key{}, err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return Key{}, err
	}
	return Key{Path: abs, Size: fi.Size(), ModTime: fi.ModTime().UnixNano()}, nil
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// crcWriter checksums what passes through it.
type crcWriter struct {
	w   io.Writer
	crc uint32
}

func (c *crcWriter) Write(b []byte) (int, error) {
	c.crc = crc32.Update(c.crc, castagnoli, b)
	return c.w.Write(b)
}

// Write writes tr under key: a header (magic, format version, schema fingerprint, key), the body
// of column blocks, and a trailer with the body's length and CRC-32C.
func Write(w io.Writer, tr *core.Trace, key Key) error {
	return Snapshot(tr).write(w, key)
}

// Snap is a trace frozen for writing: its string table and warnings copied as they are now, so
// that it can be written on another goroutine while the layers above keep interning strings and
// adding warnings to the trace (they never change its columns).
type Snap struct {
	trace    core.Trace
	strings  []string
	warnings core.Warnings
}

// Snapshot freezes tr for writing; it copies no column.
func Snapshot(tr *core.Trace) *Snap {
	s := &Snap{trace: *tr}
	if tr.Strings != nil {
		list := tr.Strings.All()
		s.strings = list[:len(list):len(list)]
	}
	s.warnings.AddAll(&tr.Warnings)
	return s
}

// AddLate completes a snapshot taken while late tracks were to come (core.LateTracks), once they
// are in: it adds the warnings of their build (w) as core.Warnings.Add would have added them to
// the trace, and leaves out the place of a late thread whose track came out empty, which a build
// without late tracks does not make.
func (s *Snap) AddLate(w *core.Warnings) {
	s.warnings.AddAll(w)
	s.trace.Tracks = slices.DeleteFunc(slices.Clone(s.trace.Tracks), func(t core.Track) bool { return t.Len() == 0 })
}

func (s *Snap) write(w io.Writer, key Key) error {
	if schemaErr != nil {
		return schemaErr
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	head := &encoder{w: bw}
	head.u64(magic)
	head.u64(FormatVersion)
	head.u64(schemaFingerprint)
	head.str(key.Path)
	head.u64(uint64(key.Size))
	head.u64(uint64(key.ModTime))
	if head.err != nil {
		return head.err
	}
	sum := &crcWriter{w: bw}
	body := &encoder{w: sum, snap: s}
	body.value(reflect.ValueOf(&s.trace).Elem())
	if body.err != nil {
		return body.err
	}
	tail := &encoder{w: bw}
	tail.u64(uint64(body.n))
	tail.u64(uint64(sum.crc))
	if tail.err != nil {
		return tail.err
	}
	return bw.Flush()
}

// ErrMiss is wrapped by every reason a cache file cannot be used.
var ErrMiss = errors.New("cache miss")

// Decode reads a trace written by Write for key from data, which must start 8-byte aligned
// (ReadFile's buffers do). The trace's columns alias data.
func Decode(data []byte, key Key) (*core.Trace, error) { return decode(data, key, nil) }

// checkChunk is how much of a file the checksum reads before it hands those pages back (a
// multiple of any page size).
const checkChunk = 8 << 20

// decode is Decode; drop, when set, is handed each checkChunk-aligned part of data once the
// checksum has read it, so that a mapped file is never resident whole while it is checked.
func decode(data []byte, key Key, drop func([]byte)) (*core.Trace, error) {
	if schemaErr != nil {
		return nil, fmt.Errorf("%w: %v", ErrMiss, schemaErr)
	}
	if len(data) > 0 && uintptr(unsafe.Pointer(unsafe.SliceData(data)))%8 != 0 {
		return nil, fmt.Errorf("%w: unaligned buffer", ErrMiss)
	}
	d := &decoder{buf: data}
	if d.u64() != magic || d.u64() != FormatVersion || d.u64() != schemaFingerprint {
		return nil, fmt.Errorf("%w: another format", ErrMiss)
	}
	got := Key{Path: d.str(), Size: int64(d.u64()), ModTime: int64(d.u64())}
	if d.err != nil || got != key {
		return nil, fmt.Errorf("%w: stale (the file changed)", ErrMiss)
	}
	if len(data)-d.off < 16 {
		return nil, fmt.Errorf("%w: truncated", ErrMiss)
	}
	trailer := data[len(data)-16:]
	bodyLen := binary.LittleEndian.Uint64(trailer)
	if bodyLen != uint64(len(data)-16-d.off) {
		return nil, fmt.Errorf("%w: truncated", ErrMiss)
	}
	body := data[d.off : len(data)-16]
	// The checksum and the body's checks each read the whole file, and take about as long: they
	// run at once, and the trace counts only when both pass. Reading the body before its checksum
	// is known is safe, as the body reader is made for hostile bytes (FuzzDecode); neither writes
	// to data, so the checksum may hand pages back while the body's checks still read them.
	sum := make(chan uint32, 1)
	go func() { sum <- checksum(data, d.off, len(data)-16, drop) }()
	tr, err := decodeBody(body)
	if uint64(<-sum) != binary.LittleEndian.Uint64(trailer[8:]) {
		return nil, fmt.Errorf("%w: checksum", ErrMiss)
	}
	return tr, err
}

// checksum is the CRC-32C of data[from:to], read in checkChunk pieces; drop, when set, gets each
// piece from its checkChunk-aligned start once it is read.
func checksum(data []byte, from, to int, drop func([]byte)) uint32 {
	var crc uint32
	for pos := from; pos < to; {
		next := min((pos/checkChunk+1)*checkChunk, to)
		crc = crc32.Update(crc, castagnoli, data[pos:next])
		if drop != nil {
			drop(data[pos/checkChunk*checkChunk : next])
		}
		pos = next
	}
	return crc
}

// decodeBody reads the body blocks and checks that the columns agree in length.
func decodeBody(body []byte) (*core.Trace, error) {
	tr := new(core.Trace)
	d := &decoder{buf: body}
	d.value(reflect.ValueOf(tr).Elem())
	if d.err == nil && d.off != len(body) {
		d.fail()
	}
	if d.err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMiss, d.err)
	}
	if err := consistent(tr); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMiss, err)
	}
	return tr, nil
}

// consistent checks that the columns of each table have one length, so that a damaged file that
// slipped past the checksum still cannot make the layers above index out of range.
func consistent(tr *core.Trace) error {
	if tr.Strings == nil {
		return errDamaged
	}
	if err := sameLengths(reflect.ValueOf(&tr.Events).Elem(), "AsyncIDs", "ArgsArena", "ArgsMore", "Args", "SampleTraceIDs", "Snapshots"); err != nil {
		return err
	}
	for _, list := range [][]core.EventArgs{tr.Events.Args, tr.Events.Snapshots} {
		for _, a := range list {
			if a.Len > 0 && tr.Events.ArgsAt(a.Span) == nil {
				return fmt.Errorf("args span %d+%d past the args kept", a.Off, a.Len)
			}
		}
	}
	for i := range tr.Tracks {
		if err := trackLengths(&tr.Tracks[i]); err != nil {
			return err
		}
	}
	return nil
}

// trackLengths checks a track's columns: KindColumn and FrameColumn may be absent (they follow from the
// node then), NodeFrame and NodeName are per node, the times are in one of their two forms, and a
// Compact track's packed columns hold one value per row that lands in its per-event and per-sample
// columns.
func trackLengths(t *core.Track) error {
	n := t.Len()
	rows, compactRows := n, 0
	if t.Compact {
		rows, compactRows = 0, n
	}
	events := len(t.EventRef)
	// A compact track of a bare profile may keep its durations as the samples that end its calls.
	durRows := n
	if t.EndRefs.N > 0 {
		durRows = 0
		if !t.Compact || t.SampleStart.IsWide() || events != 0 || len(t.CallStart) != 0 {
			return errors.New("track with the ends of its calls is not a compact track of a bare profile")
		}
	}
	for _, c := range []struct {
		name string
		len  int
		ok   bool
	}{
		{"Name", len(t.Name), len(t.Name) == rows},
		{"Parent", len(t.Parent), len(t.Parent) == rows},
		{"Ref", len(t.Ref), len(t.Ref) == rows},
		{"Node", len(t.Node), len(t.Node) == rows},
		{"ParentFarTo", len(t.ParentFarTo), len(t.ParentFarTo) == len(t.ParentFar)},
		{"NodePlus1", t.NodePlus1.Len(), packed(&t.NodePlus1, compactRows)},
		{"Refs", t.Refs.Len(), packed(&t.Refs, compactRows)},
		{"KindColumn", len(t.KindColumn), t.KindColumn == nil || len(t.KindColumn) == n},
		{"FrameColumn", len(t.FrameColumn), t.FrameColumn == nil || len(t.FrameColumn) == n},
		{"Start", t.Start.Len(), t.Start.Len() == rows && wellFormed(&t.Start)},
		{"Dur", t.Dur.Len(), t.Dur.Len() == durRows && wellFormed(&t.Dur)},
		{"EndRefs", t.EndRefs.Len(), packed(&t.EndRefs, n-durRows)},
		{"EventName", len(t.EventName), len(t.EventName) == events},
		{"EventStart", t.EventStart.Len(), t.EventStart.Len() == events && wellFormed(&t.EventStart)},
		{"SampleStart", t.SampleStart.Len(), wellFormed(&t.SampleStart)},
		{"SampleOf", len(t.SampleOf), t.SampleOf == nil || (t.Compact && len(t.SampleOf) == t.SampleStart.Len() && increasing(t.SampleOf))},
	} {
		if !c.ok {
			return fmt.Errorf("track column %s has %d entries, which does not fit its %d rows", c.name, c.len, n)
		}
	}
	for _, p := range t.Parent {
		if p >= int32(n) {
			return fmt.Errorf("track parent %d past its %d entries", p, n)
		}
	}
	if !t.Compact {
		return nil
	}
	if t.KindColumn != nil || t.FrameColumn != nil {
		return errors.New("compact track with a kind or frame column")
	}
	// A row's parent is the row before when that is one level up, none at depth 0, and else
	// listed in ParentFar.
	listed := func(i int) bool {
		return t.Depth[i] != 0 && (i == 0 || t.Depth[i-1]+1 != t.Depth[i])
	}
	for k, row := range t.ParentFar {
		if (k > 0 && row <= t.ParentFar[k-1]) || row < 0 || int(row) >= n || !listed(int(row)) || t.ParentFarTo[k] >= row || t.ParentFarTo[k] < 0 {
			return fmt.Errorf("track far parent %d of row %d out of order", t.ParentFarTo[k], row)
		}
	}
	far := 0
	for i := range n {
		if listed(i) {
			far++
		}
	}
	if far != len(t.ParentFar) {
		return fmt.Errorf("track has %d far parents, lists %d", far, len(t.ParentFar))
	}
	if row := compactRowPastColumns(t, events, durRows == 0); row >= 0 {
		return fmt.Errorf("track row %d refers past its columns", row)
	}
	return nil
}

// compactRowPastColumns returns the first row of a compact track whose event, node, sample or
// call, or the sample that ends it (withEnds), lies past those columns, or -1. A reopen checks
// every row, millions in a large trace's main thread, so the packed columns are unpacked a block
// at a time.
func compactRowPastColumns(t *core.Track, events int, withEnds bool) int {
	const block = 512
	var nodes, refs, ends [block]uint64
	samples := uint64(t.SampleStart.Len())
	sampledLimit := samples + uint64(len(t.CallStart))
	maxNode := uint64(len(t.NodeName))
	n := t.Len()
	for lo := 0; lo < n; lo += block {
		k := min(block, n-lo)
		t.NodePlus1.Run(lo, nodes[:k])
		t.Refs.Run(lo, refs[:k])
		if withEnds {
			t.EndRefs.Run(lo, ends[:k])
		}
		for j := range k {
			// A row without a node is an event's; one with a node is a sample's or a call's.
			limit := sampledLimit
			if nodes[j] == 0 {
				limit = uint64(events)
			}
			if nodes[j] > maxNode || refs[j] >= limit || (withEnds && ends[j] > samples) {
				return lo + j
			}
		}
	}
	return -1
}

// increasing says that s's values rise from 0 or more.
func increasing(s []int32) bool {
	for i, v := range s {
		if v < 0 || (i > 0 && v <= s[i-1]) {
			return false
		}
	}
	return true
}

// packed says that c holds n values in the words it should.
func packed(c *core.Packed, n int) bool {
	if n == 0 && c.Words == nil {
		return c.N == 0
	}
	return c.N == n && c.Bits <= 64 && len(c.Words) == core.PackedWords(n, c.Bits)
}

// wellFormed says that a times column is in one of its two forms.
func wellFormed(c *core.Times) bool { return c.Wide == nil || c.Off == nil }

// sameLengths checks that every slice field of struct v but those named in except has one length.
func sameLengths(v reflect.Value, except ...string) error {
	n := -1
	for i := range v.NumField() {
		f := v.Field(i)
		if f.Kind() != reflect.Slice || slices.Contains(except, v.Type().Field(i).Name) {
			continue
		}
		if n < 0 {
			n = f.Len()
		} else if f.Len() != n {
			return fmt.Errorf("%s.%s has %d entries, want %d", v.Type().Name(), v.Type().Field(i).Name, f.Len(), n)
		}
	}
	return nil
}

// readAligned reads a whole file into an 8-byte-aligned buffer with one read.
func readAligned(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	words := make([]uint64, (fi.Size()+7)/8)
	buf := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), fi.Size())
	if _, err := io.ReadFull(f, buf); err != nil {
		return nil, err
	}
	return buf, nil
}

// Dir is a cache directory holding at most MaxBytes of cache files (DefaultMaxBytes when 0).
type Dir struct {
	Path     string
	MaxBytes int64
}

// DefaultDir is the user's cache directory for flamedesk (e.g. ~/.cache/flamedesk on Linux).
func DefaultDir() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(base, "flamedesk"), nil
}

// entry is the cache file of the source with absolute path abs.
func (c Dir) entry(abs string) string {
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(c.Path, hex.EncodeToString(sum[:16])+suffix)
}

// Load returns the cached trace of the source key names. A file that cannot be used (stale,
// damaged, another version) is removed, so that the load that follows writes a fresh one.
func (c Dir) Load(key Key) (*core.Trace, error) {
	if c.Path == "" {
		return nil, fmt.Errorf("%w: no cache directory", ErrMiss)
	}
	name := c.entry(key.Path)
	data, mapped, err := readCacheFile(name)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMiss, err)
	}
	var drop func([]byte)
	if mapped {
		drop = dropResident
	}
	tr, err := decode(data, key, drop)
	if err != nil {
		// A damaged file's mapping goes now, not with the process.
		if mapped {
			unmap(data)
		}
		os.Remove(name)
		return nil, err
	}
	if mapped {
		// Checking the checksum and the columns read every page of the file; the trace's
		// users read far fewer (a zoomed-out chart only what its binary searches visit), so
		// the pages go from the process now, before anything wrote to them, and come back
		// from the page cache where they are read.
		dropResident(data)
		remember(tr, data)
	}
	// The modification time of a cache file is its last use, which eviction goes by.
	now := time.Now()
	os.Chtimes(name, now, now)
	return tr, nil
}

// Store writes tr as the cache of the source key names: into a temporary file renamed into place,
// so that a reader never sees half a file, then evicts the least recently used files past the bound.
func (c Dir) Store(key Key, tr *core.Trace) error {
	return c.StoreSnapshot(key, Snapshot(tr))
}

// StoreSnapshot is Store of a snapshot, which may run on another goroutine than the trace's users.
func (c Dir) StoreSnapshot(key Key, snap *Snap) error {
	if c.Path == "" {
		return fmt.Errorf("cache: no cache directory")
	}
	if err := os.MkdirAll(c.Path, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(c.Path, "write-*.tmp")
	if err != nil {
		return err
	}
	err = snap.write(tmp, key)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), c.entry(key.Path))
	}
	if err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return c.evict()
}

// evict removes cache files, least recently used first, until the directory holds at most
// MaxBytes, and temporary files left by a writer that died more than an hour ago.
func (c Dir) evict() error {
	limit := c.MaxBytes
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	entries, err := os.ReadDir(c.Path)
	if err != nil {
		return err
	}
	type file struct {
		name string
		size int64
		used time.Time
	}
	var files []file
	var total int64
	for _, e := range entries {
		fi, err := e.Info()
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		name := filepath.Join(c.Path, e.Name())
		switch {
		case strings.HasSuffix(e.Name(), ".tmp") && strings.HasPrefix(e.Name(), "write-"):
			if time.Since(fi.ModTime()) > time.Hour {
				os.Remove(name)
			}
		case strings.HasSuffix(e.Name(), suffix):
			files = append(files, file{name, fi.Size(), fi.ModTime()})
			total += fi.Size()
		}
	}
	slices.SortFunc(files, func(a, b file) int { return a.used.Compare(b.used) })
	for _, f := range files {
		if total <= limit {
			break
		}
		if err := os.Remove(f.name); err == nil {
			total -= f.size
		}
	}
	return nil
}
