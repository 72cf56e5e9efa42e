// Tests of the load's collector pacing: late enough not to collect a small heap over and over,
// and always undone.
package load

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// gcPercent reads the collector's setting without changing it.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

func TestPaceGCLowersOnlyOnceTheLiveHeapIsLarge(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	restore := paceGC()
	runtime.GC()
	runtime.GC()
	if got := gcPercent(); got != 100 {
		restore()
		t.Fatalf("GOGC %d with a small live heap, want the setting before the load (100)", got)
	}
	live := make([]byte, paceFromLive+4<<20)
	for i := range live {
		live[i] = byte(i)
	}
	paced := false
	for try := 0; try < 200 && !paced; try++ {
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
		paced = gcPercent() == loadGCPercent
	}
	runtime.KeepAlive(live)
	restore()
	if !paced {
		t.Errorf("GOGC never became %d with %d MB live", loadGCPercent, len(live)>>20)
	}
	if got := gcPercent(); got != 100 {
		t.Errorf("GOGC %d after the load, want 100 back", got)
	}
}

func TestPaceGCLeavesALowerSettingAlone(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	restore := paceGC()
	if got := gcPercent(); got != -1 {
		t.Errorf("GOGC %d during the load, want off as set", got)
	}
	restore()
	if got := gcPercent(); got != -1 {
		t.Errorf("GOGC %d after the load, want off as set", got)
	}
}
