package load

import (
	"math"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// physicalMemory is the machine's RAM in bytes, 0 when unknown.
func physicalMemory() int64 {
	var si syscall.Sysinfo_t
	if err := syscall.Sysinfo(&si); err != nil {
		return 0
	}
	return int64(si.Totalram) * int64(si.Unit)
}

// processLimits are the limits on this process's memory: ulimit -v and -d, and the cgroup's
// memory.max (cgroup v2) or memory.limit_in_bytes (v1).
func processLimits() []processLimit {
	var out []processLimit
	for _, r := range []struct {
		name string
		res  int
	}{{"address space left under ulimit -v", syscall.RLIMIT_AS}, {"data limit (ulimit -d)", syscall.RLIMIT_DATA}} {
		var rl syscall.Rlimit
		if syscall.Getrlimit(r.res, &rl) != nil || rl.Cur >= math.MaxInt64 {
			continue
		}
		left := int64(rl.Cur)
		if r.res == syscall.RLIMIT_AS {
			// The Go runtime reserves much address space up front (0.7 to 1.2 GB, more than the
			// heap it maps), and what is mapped stays mapped: what counts is what is left.
			if vm := statusBytes("VmSize:"); vm > 0 {
				left = max(left-vm, 0)
			}
		}
		out = append(out, processLimit{r.name, left})
	}
	for _, p := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		if b, err := os.ReadFile(p); err == nil {
			if v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && v > 0 {
				out = append(out, processLimit{"cgroup memory limit", v})
			}
		}
	}
	return out
}

// statusBytes reads a "kB" field of /proc/self/status, 0 when unknown.
func statusBytes(field string) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, field); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}
