package integrate

import (
	"unsafe"

	"flamedesk/internal/background"
)

// The largest trace makes millions of calls and track rows: hundreds of megabytes written once.
// Most of that time goes to the kernel mapping fresh pages on first touch (4-16 µs a page in a
// VM). So big jobs ask for huge pages where the system offers them (adviseHuge), and touch the
// pages of memory that will be written later on another core while this one computes.

// bigJob is the size (entries plus samples) from which a thread's memory is pre-touched.
const bigJob = 1 << 18

const pageSize = 4096

// touch writes the zero value into one element per page of s, so that every page is mapped.
func touch[T any](s []T) {
	var zero T
	step := max(pageSize/int(unsafe.Sizeof(zero)), 1)
	for i := 0; i < len(s); i += step {
		s[i] = zero
	}
}

// blockSource hands out call blocks whose pages are already mapped, made ahead on a goroutine.
type blockSource struct {
	ch   chan *callBlock
	stop chan struct{}
}

func newBlockSource(nodeBits, srcBits uint64) *blockSource {
	s := &blockSource{ch: make(chan *callBlock, 2), stop: make(chan struct{})}
	go func() {
		background.Lower()
		for {
			background.Yield()
			b := newCallBlock(nodeBits, srcBits)
			touch(b.dur.Off)
			touch(b.node.Words)
			touch(b.src.Words)
			select {
			case s.ch <- b:
			case <-s.stop:
				return
			}
		}
	}()
	return s
}

func (s *blockSource) next() *callBlock {
	return <-s.ch
}

// close stops the goroutine; blocks made ahead are left to the garbage collector.
func (s *blockSource) close() {
	close(s.stop)
}
