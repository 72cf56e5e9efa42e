package load

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"
)

// Bombs are small files that describe far more data than the machine can hold. They are made
// here, not committed: a member of gzip compressing a repeated unit is written many times over
// (concatenated members are one stream), so a file of a few MB inflates to gigabytes at the cost
// of compressing one member.

// gzipBomb writes head, then unit repeated until about inflated bytes, then tail, all gzipped.
func gzipBomb(t testing.TB, w io.Writer, head, unit, tail string, inflated int64) {
	t.Helper()
	const member = 4 << 20
	write := func(s string) {
		zw, _ := gzip.NewWriterLevel(w, gzip.BestSpeed)
		if _, err := io.WriteString(zw, s); err != nil {
			t.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
	}
	write(head)
	var block bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&block, gzip.BestCompression)
	reps := max(member/len(unit), 1)
	zw.Write(bytes.Repeat([]byte(unit), reps))
	zw.Close()
	for n := int64(0); n < inflated; n += int64(reps * len(unit)) {
		if _, err := w.Write(block.Bytes()); err != nil {
			t.Fatal(err)
		}
	}
	write(tail)
}

// bombKinds are the shapes of the bombs: each inflates to gigabytes of one valid thing.
var bombKinds = map[string]struct{ head, unit, tail string }{
	"events": {"[", `{"ph":"X","name":"A","cat":"c","pid":1,"tid":1,"ts":1,"dur":1},` + "\n", "{}]"},
	// Events with a new name each time would be dearer still, but compress poorly; a
	// repeated name costs the columns alone.
	"cpuprofile-samples":  {`{"nodes":[{"id":1,"callFrame":{"functionName":"(root)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1}}],"startTime":0,"endTime":1,"samples":[`, "1,", `1],"timeDeltas":[1]}`},
	"cpuprofile-nodes":    {`{"nodes":[`, `{"id":1,"callFrame":{"functionName":"f","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1}},`, `{"id":2,"callFrame":{"functionName":"f","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1}}],"samples":[1],"timeDeltas":[1]}`},
	"selfprofile-frames":  {`{"resources":[],"stacks":[],"samples":[],"frames":[`, `{"name":"f"},`, `{"name":"g"}]}`},
	"selfprofile-samples": {`{"resources":[],"frames":[{"name":"f"}],"stacks":[{"frameId":0}],"samples":[`, `{"timestamp":1,"stackId":0},`, `{"timestamp":2,"stackId":0}]}`},
}

// TestBombsEndInCleanError loads each bomb in a child process limited to 1 GB of address space
// (ulimit -v through setrlimit in the child) and wants exit by ErrMemoryBudget, not "fatal error:
// out of memory", in bounded time. The race detector reserves terabytes of address space, so the
// test runs without it only.
func TestBombsEndInCleanError(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector cannot run under an address-space limit")
	}
	if runtime.GOOS != "linux" {
		t.Skip("the budget reads the address-space limit on Linux only")
	}
	if testing.Short() {
		t.Skip("inflates gigabytes")
	}
	dir := t.TempDir()
	for _, name := range []string{"events", "cpuprofile-samples", "selfprofile-samples"} {
		t.Run(name, func(t *testing.T) {
			k := bombKinds[name]
			path := filepath.Join(dir, name+".gz")
			f, err := os.Create(path)
			if err != nil {
				t.Fatal(err)
			}
			gzipBomb(t, f, k.head, k.unit, k.tail, 4<<30)
			f.Close()
			st, _ := os.Stat(path)
			out, err := runLimited(t, path, 1<<30)
			if err != nil {
				t.Fatalf("child: %v\n%s", err, out)
			}
			t.Logf("%s: %d KB: %s", name, st.Size()>>10, strings.TrimSpace(out))
			if !strings.Contains(out, "bomb-result: budget") {
				t.Fatalf("%s (%d KB) did not end in the memory budget's error:\n%s", name, st.Size()>>10, out)
			}
		})
	}
}

// runLimited runs TestBombChild on path in a child whose address space is capped at limit.
func runLimited(t *testing.T, path string, limit int64) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	kb := strconv.FormatInt(limit>>10, 10)
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", `ulimit -v `+kb+` && exec "$0" -test.run '^TestBombChild$' -test.v`, os.Args[0])
	cmd.Env = append(os.Environ(), "FLAMEDESK_BOMB_FILE="+path, "GOMEMLIMIT=off")
	b, err := cmd.CombinedOutput()
	return string(b), err
}

// TestBombChild is the child of TestBombsEndInCleanError: it loads $FLAMEDESK_BOMB_FILE and says
// how the load ended.
func TestBombChild(t *testing.T) {
	path := os.Getenv("FLAMEDESK_BOMB_FILE")
	if path == "" {
		t.Skip("run by TestBombsEndInCleanError")
	}
	FitMemoryLimit()
	start := time.Now()
	tr, err := File(context.Background(), path, nil)
	switch {
	case errors.Is(err, ErrMemoryBudget):
		fmt.Printf("bomb-result: budget after %v: %v\n", time.Since(start), err)
	case err != nil:
		fmt.Printf("bomb-result: error after %v: %v\n", time.Since(start), err)
	default:
		fmt.Printf("bomb-result: loaded %d events, %d samples after %v\n", tr.Events.Len(), tr.Stats.Samples, time.Since(start))
	}
}

// TestWriteBombs writes every bomb into $FLAMEDESK_BOMB_DIR, to try them on the command line or
// in the window:
//
//	FLAMEDESK_BOMB_DIR=/tmp/bombs go test -run TestWriteBombs ./core/load
func TestWriteBombs(t *testing.T) {
	dir := os.Getenv("FLAMEDESK_BOMB_DIR")
	if dir == "" {
		t.Skip("FLAMEDESK_BOMB_DIR not set")
	}
	for name, k := range bombKinds {
		f, err := os.Create(filepath.Join(dir, name+".json.gz"))
		if err != nil {
			t.Fatal(err)
		}
		gzipBomb(t, f, k.head, k.unit, k.tail, 16<<30)
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
