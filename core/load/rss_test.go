package load

import (
	"context"
	"os"
	"runtime"
	"testing"
	"time"

	"flamedesk/core"
)

// TestLoadFromEnv loads $FLAMEDESK_LOAD_FILE and prints what the load measured. It exists to
// measure peak RSS of a full load from outside:
//
//	go test -c -o /tmp/load.test ./core/load
//	FLAMEDESK_LOAD_FILE=big.json /usr/bin/time -v /tmp/load.test -test.run TestLoadFromEnv -test.v
func TestLoadFromEnv(t *testing.T) {
	path := os.Getenv("FLAMEDESK_LOAD_FILE")
	if path == "" {
		t.Skip("FLAMEDESK_LOAD_FILE not set")
	}
	start := time.Now()
	tr, err := File(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("loaded in %v: %+v", time.Since(start), tr.Stats)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("args arena %d MB; chunks: %d nodes, %d samples, %d deltas", (len(tr.Events.ArgsArena)+len(tr.Events.ArgsMore)*core.ArgsBlockSize)>>20, len(tr.Chunks.NodeID), tr.Chunks.SampleIDs.Len(), tr.Chunks.Deltas.Len())
	t.Logf("heap in use %d MB, sys %d MB; %d events, %d profiles, %d strings, %d frames",
		ms.HeapInuse>>20, ms.Sys>>20, tr.Events.Len(), len(tr.Profiles), tr.Strings.Len(), len(tr.Frames))
	for _, w := range tr.Warnings.Lines() {
		t.Log("warning:", w)
	}
	runtime.KeepAlive(tr)
}
