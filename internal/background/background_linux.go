package background

import "golang.org/x/sys/unix"

// lowerThread sets the calling thread's nice value: on Linux PRIO_PROCESS with a thread id
// applies to that thread alone.
func lowerThread(nice int) {
	_ = unix.Setpriority(unix.PRIO_PROCESS, unix.Gettid(), nice)
}
