package load

import (
	"bufio"
	"context"
	"io"
	"sync"

	"flamedesk/internal/background"
)

// inflateBlock is the size of the blocks handed from the inflating goroutine to the parser. They
// are kept small and few: every megabyte a load maps costs page faults, which on virtual
// machines cost more than inflating it.
const inflateBlock = 256 << 10

// inflater decompresses gzip in its own goroutine, a few blocks ahead of the parser, so that
// inflating and parsing run on two cores at once. It uses klauspost/compress, whose inflate is a
// maintained drop-in for compress/flate and markedly faster than it (it matters here: inflating
// the 238 MB benchmark trace is a large part of the load); gunzip reads the members around it.
type inflater struct {
	full  chan inflated
	free  chan []byte
	stop  chan struct{}
	once  sync.Once
	wg    sync.WaitGroup
	cur   []byte
	off   int
	err   error
	owned []byte
}

type inflated struct {
	b   []byte
	err error
}

func newInflater(ctx context.Context, r *bufio.Reader) (*inflater, error) {
	zr, err := newGunzip(r)
	if err != nil {
		return nil, err
	}
	const ahead = 3
	in := &inflater{
		full: make(chan inflated, ahead),
		free: make(chan []byte, ahead+2),
		stop: make(chan struct{}),
	}
	for range ahead + 2 {
		in.free <- make([]byte, inflateBlock)
	}
	in.wg.Add(1)
	go func() {
		defer in.wg.Done()
		background.Lower()
		defer zr.Close()
		for {
			var b []byte
			select {
			case b = <-in.free:
			case <-in.stop:
				return
			case <-ctx.Done():
				in.send(inflated{err: ctx.Err()})
				return
			}
			background.Yield()
			n, err := readBlock(zr, b)
			if n > 0 || err != nil {
				if !in.send(inflated{b: b[:n], err: err}) {
					return
				}
			}
			if err != nil {
				return
			}
		}
	}()
	return in, nil
}

func (in *inflater) send(x inflated) bool {
	select {
	case in.full <- x:
		return true
	case <-in.stop:
		return false
	}
}

// Read implements io.Reader. The scanner takes whole blocks instead (nextBlock); a reader uses one
// way or the other, not both.
func (in *inflater) Read(p []byte) (int, error) {
	for in.off >= len(in.cur) {
		if in.err != nil {
			return 0, in.err
		}
		if in.owned != nil {
			in.free <- in.owned[:cap(in.owned)]
			in.owned = nil
		}
		x := <-in.full
		in.cur, in.off, in.err, in.owned = x.b, 0, x.err, x.b
	}
	n := copy(p, in.cur[in.off:])
	in.off += n
	return n, nil
}

// nextBlock hands over the next inflated block, which is the caller's until it gives it back
// with releaseBlock; the scanner reads it in place, without copying it as Read does. err is the
// end of the stream (io.EOF) or its failure, with the last data or after it.
func (in *inflater) nextBlock() ([]byte, error) {
	if in.err != nil {
		return nil, in.err
	}
	x := <-in.full
	in.err = x.err
	return x.b, x.err
}

// releaseBlock gives a block from nextBlock back to be filled again.
func (in *inflater) releaseBlock(b []byte) {
	if cap(b) > 0 {
		in.free <- b[:cap(b)]
	}
}

// Close stops the goroutine and waits for it.
func (in *inflater) Close() {
	in.once.Do(func() { close(in.stop) })
	in.wg.Wait()
}

// readBlock fills b from r, returning r's own error: unlike io.ReadFull, a gzip stream cut short
// (io.ErrUnexpectedEOF from the gzip reader) stays distinct from a short last block (io.EOF).
func readBlock(r io.Reader, b []byte) (int, error) {
	n := 0
	for n < len(b) {
		m, err := r.Read(b[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}
