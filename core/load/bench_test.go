package load

import (
	"bytes"
	"context"
	"io"
	"os"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"

	"flamedesk/internal/fixtures"
)

// inflatedJSON holds each gzipped fixture inflated once, for the benchmarks that measure parsing
// alone: gen-trace-large is 238 MB of JSON, gen-trace-medium-reload (the trace of issue #18's
// speed goal) 52 MB.
var inflatedJSON sync.Map // path -> func() ([]byte, error)

func inflatedFixture(tb testing.TB, elems ...string) []byte {
	tb.Helper()
	path := fixtures.Path(tb, append([]string{"fixtures"}, elems...)...)
	load, _ := inflatedJSON.LoadOrStore(path, sync.OnceValues(func() ([]byte, error) {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		zr, err := gzip.NewReader(f)
		if err != nil {
			return nil, err
		}
		return io.ReadAll(zr)
	}))
	raw, err := load.(func() ([]byte, error))()
	if err != nil {
		tb.Fatal(err)
	}
	return raw
}

// benchReadAssemble loads raw over and over, checking that at least minEvents events and a
// profile came out each time.
func benchReadAssemble(b *testing.B, raw []byte, minEvents int) {
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for range b.N {
		tr, err := Reader(context.Background(), bytes.NewReader(raw), int64(len(raw)), nil)
		if err != nil {
			b.Fatal(err)
		}
		if tr.Events.Len() < minEvents || len(tr.Profiles) == 0 {
			b.Fatalf("%d events, %d profiles", tr.Events.Len(), len(tr.Profiles))
		}
	}
	reportCPU(b, cpu0, int64(len(raw)))
}

// BenchmarkReadAssembleLarge measures reading plus chunk assembly plus the CPU profile models on
// the uncompressed JSON of gen-trace-large (MB/s of JSON). Run it with -cpu 1 for the per-core
// figure.
func BenchmarkReadAssembleLarge(b *testing.B) {
	benchReadAssemble(b, inflatedFixture(b, "generated", "gen-trace-large.json.gz"), 600000)
}

// cpuTime is the CPU time the process has used, all threads (GC included).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU adds MB of JSON per CPU-second: wall-clock MB/s mean little on a machine shared with
// other work, CPU time does not depend on it.
func reportCPU(b *testing.B, cpu0 time.Duration, bytesPerOp int64) {
	if cpu := cpuTime() - cpu0; cpu > 0 {
		b.ReportMetric(float64(bytesPerOp)*float64(b.N)/1e6/cpu.Seconds(), "MB/cpu-s")
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkFileLarge measures the whole load of gen-trace-large.json.gz from disk, gzip included
// (inflated concurrently); MB/s are of uncompressed JSON.
func BenchmarkFileLarge(b *testing.B) {
	benchFile(b, fixtures.Path(b, "fixtures", "generated", "gen-trace-large.json.gz"))
}

// benchFile loads the file at path over and over.
func benchFile(b *testing.B, path string) {
	b.ReportAllocs()
	var jsonBytes int64
	cpu0 := cpuTime()
	for range b.N {
		tr, err := File(context.Background(), path, nil)
		if err != nil {
			b.Fatal(err)
		}
		jsonBytes = tr.Stats.JSONBytes
	}
	b.SetBytes(jsonBytes)
	reportCPU(b, cpu0, jsonBytes)
}

// BenchmarkReadAssembleMedium is BenchmarkReadAssembleLarge on gen-trace-medium-reload.
func BenchmarkReadAssembleMedium(b *testing.B) {
	benchReadAssemble(b, inflatedFixture(b, "generated", "gen-trace-medium-reload.json.gz"), 100000)
}

// BenchmarkFileMedium is BenchmarkFileLarge on gen-trace-medium-reload, the trace of issue #18's
// load goal.
func BenchmarkFileMedium(b *testing.B) {
	benchFile(b, fixtures.Path(b, "fixtures", "generated", "gen-trace-medium-reload.json.gz"))
}
