package load

import (
	"iter"
	"math"
	"unsafe"

	"flamedesk/core"
	"flamedesk/internal/background"
)

// blockBytes is the size a column's blocks grow to: big enough that filling one costs nothing
// next to its contents, small enough that the last one's unused part is noise.
const blockBytes = 1 << 20

// column is a column that is filled without ever moving: it grows by adding blocks (doubling
// from small up to blockBytes, then all of that size) and is copied once, exactly sized, into the
// slice the model keeps (take). A slice grown by doubling copies everything it holds at each
// growth and ends with up to half its capacity unused, which costs both time (the copies and the
// page faults of each fresh block) and memory (the slack, and the old copies until collected).
type column[T any] struct {
	full [][]T // filled blocks
	cur  []T
	n    int // elements in full
}

// Len is the number of elements pushed.
func (c *column[T]) Len() int { return c.n + len(c.cur) }

// push appends v.
func (c *column[T]) push(b *budget, v T) {
	if len(c.cur) == cap(c.cur) {
		c.next(b)
	}
	c.cur = append(c.cur, v)
}

// next starts a new block, charged to b.
func (c *column[T]) next(b *budget) {
	var zero T
	size := int(unsafe.Sizeof(zero))
	most := max(blockBytes/max(size, 1), 1)
	n := min(max(2*cap(c.cur), 1024/max(size, 1)), most)
	if c.cur != nil {
		c.full = append(c.full, c.cur)
		c.n += len(c.cur)
	}
	c.cur = makeSlice[T](b, 0, n)
}

// take returns the elements in one slice of exactly their number and empties the column. The
// blocks are released as they are copied.
func (c *column[T]) take(b *budget) []T {
	var zero T
	size := int64(unsafe.Sizeof(zero))
	if len(c.full) == 0 {
		out := c.cur
		*c = column[T]{}
		return out
	}
	out := makeSlice[T](b, c.Len(), c.Len())
	at := 0
	for i, blk := range c.full {
		background.Yield()
		at += background.Copy(out[at:], blk)
		b.release(int64(cap(blk)) * size)
		c.full[i] = nil
	}
	background.Copy(out[at:], c.cur)
	b.release(int64(cap(c.cur)) * size)
	*c = column[T]{}
	return out
}

// argsArena is core.Events' ArgsArena and ArgsMore while they fill: the first block grows by
// doubling up to core.ArgsBlockSize (a small trace keeps a small arena), the next ones are made
// whole and never move.
type argsArena struct {
	first []byte
	more  [][]byte
}

// maxArgsBlocks keeps every offset within a Span's 32 bits.
const maxArgsBlocks = math.MaxUint32>>core.ArgsBlockShift - 1

// add keeps args and returns where; ok is false when the arena is full (4 GB).
func (a *argsArena) add(b *budget, args []byte) (s core.Span, ok bool) {
	n := len(args)
	if n > core.ArgsBlockSize {
		return core.Span{}, false
	}
	if len(a.more) == 0 && len(a.first)+n <= core.ArgsBlockSize {
		if cap(a.first)-len(a.first) < n {
			c := min(max(2*cap(a.first), len(a.first)+n, 4096), core.ArgsBlockSize)
			nb := makeSlice[byte](b, len(a.first), c)
			copy(nb, a.first)
			b.release(int64(cap(a.first)))
			a.first = nb
		}
		s = core.Span{Off: uint32(len(a.first)), Len: uint32(n)}
		a.first = append(a.first, args...)
		return s, true
	}
	last := len(a.more) - 1
	if last < 0 || len(a.more[last])+n > core.ArgsBlockSize {
		if len(a.more) >= maxArgsBlocks {
			return core.Span{}, false
		}
		a.more = append(a.more, makeSlice[byte](b, 0, core.ArgsBlockSize))
		last++
	}
	blk := a.more[last]
	s = core.Span{Off: uint32(last+1)<<core.ArgsBlockShift | uint32(len(blk)), Len: uint32(n)}
	a.more[last] = append(blk, args...)
	return s, true
}

// takeSparse returns, in order, pair(k, v) for each element v at index k that is not the zero
// value, exactly sized, and empties the column: for columns that few events fill (core.Events'
// Args and SampleTraceIDs). The blocks are released once read.
func takeSparse[T comparable, S any](c *column[T], b *budget, pair func(k int32, v T) S) []S {
	var zero T
	size := int64(unsafe.Sizeof(zero))
	blocks := append(c.full, c.cur)
	n := 0
	for _, blk := range blocks {
		for _, v := range blk {
			if v != zero {
				n++
			}
		}
	}
	out := makeSlice[S](b, n, n)[:0]
	k := int32(0)
	for i, blk := range blocks {
		for _, v := range blk {
			if v != zero {
				out = append(out, pair(k, v))
			}
			k++
		}
		b.release(int64(cap(blk)) * size)
		blocks[i] = nil
	}
	*c = column[T]{}
	return out
}

// prefix yields the blocks that hold the first n elements, the last one cut to end at n.
func (c *column[T]) prefix(n int) iter.Seq[[]T] {
	return func(yield func([]T) bool) {
		for i := 0; i <= len(c.full) && n > 0; i++ {
			blk := c.cur
			if i < len(c.full) {
				blk = c.full[i]
			}
			blk = blk[:min(n, len(blk))]
			n -= len(blk)
			if !yield(blk) {
				return
			}
		}
	}
}

// reset empties the column, keeping its last block to fill again.
func (c *column[T]) reset(b *budget) {
	var zero T
	size := int64(unsafe.Sizeof(zero))
	for i, blk := range c.full {
		b.release(int64(cap(blk)) * size)
		c.full[i] = nil
	}
	c.full, c.cur, c.n = c.full[:0], c.cur[:0], 0
}

// bytes returns the args kept at s.
func (a *argsArena) bytes(s core.Span) []byte {
	blk := a.first
	if n := s.Off >> core.ArgsBlockShift; n > 0 {
		blk = a.more[n-1]
	}
	off := s.Off & (core.ArgsBlockSize - 1)
	return blk[off : off+s.Len]
}

// reset empties the arena, keeping its first block.
func (a *argsArena) reset(b *budget) {
	for _, blk := range a.more {
		b.release(int64(cap(blk)))
	}
	a.first, a.more = a.first[:0], nil
}

// reset empties the columns, keeping a block of each to fill again (a lane's, split.go).
func (c *eventColumns) reset(b *budget) {
	c.ph.reset(b)
	c.name.reset(b)
	c.cat.reset(b)
	c.ts.reset(b)
	c.dur.reset(b)
	c.thread.reset(b)
	c.args.reset(b)
	c.arena.reset(b)
	c.sampleTraceID.reset(b)
	c.snapshots = c.snapshots[:0]
}

// pushAll appends vs.
func (c *column[T]) pushAll(b *budget, vs []T) {
	for len(vs) > 0 {
		if len(c.cur) == cap(c.cur) {
			c.next(b)
		}
		n := min(len(vs), cap(c.cur)-len(c.cur))
		c.cur = append(c.cur, vs[:n]...)
		vs = vs[n:]
	}
}

// appendFirst appends the first n elements of src.
func (c *column[T]) appendFirst(b *budget, src *column[T], n int) {
	for blk := range src.prefix(n) {
		c.pushAll(b, blk)
	}
}

// appendMapped appends table[v] for each of the first n elements v of src.
func appendMapped[T ~uint32](b *budget, dst, src *column[T], n int, table []T) {
	for blk := range src.prefix(n) {
		for _, v := range blk {
			dst.push(b, table[v])
		}
	}
}
