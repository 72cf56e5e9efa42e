package core

import "math/bits"

// Packed is a column of small non-negative integers, each stored in the fewest bits that hold the
// largest value the column was made for: a track's node and ref columns need 17-21 bits per row
// rather than 32.
type Packed struct {
	Bits uint8
	N    int
	// Words holds the values from bit 0 up; one word more than they fill, so that a read can
	// always take two.
	Words []uint64
}

// NewPacked returns a column of n zeros with room for values up to maxValue.
func NewPacked(n int, maxValue uint64) Packed {
	b := uint8(bits.Len64(maxValue))
	return Packed{Bits: b, N: n, Words: make([]uint64, PackedWords(n, b))}
}

// PackedWords is the length of Words for n values of b bits.
func PackedWords(n int, b uint8) int { return max((n*int(b)+63)/64+1, 2) }

// Len is the number of values.
func (p *Packed) Len() int { return p.N }

// At returns value i.
func (p *Packed) At(i int) uint64 {
	bit := uint(i) * uint(p.Bits)
	w, s := bit>>6, bit&63
	// Shifts below 64 as in Run: for s == 0 the second word adds nothing.
	v := p.Words[w]>>s | p.Words[w+1]<<(63-s)<<1
	return v & (1<<p.Bits - 1)
}

// Run sets vals[k] to At(lo+k) for each k: a run of values decoded in one pass.
func (p *Packed) Run(lo int, vals []uint64) {
	b := uint(p.Bits)
	mask := uint64(1)<<b - 1
	bit := uint(lo) * b
	words := p.Words
	for k := range vals {
		w, s := bit>>6, bit&63
		// The shifts are by amounts below 64, which compile to a bare shift instruction (Go's
		// rule that a shift by 64 or more gives 0 costs a compare and a mask each, and made a
		// reopen's check of every row a third slower); the second word's two shifts give 0 for
		// s == 0, where it adds nothing.
		vals[k] = (words[w]>>s | words[w+1]<<(63-s)<<1) & mask
		bit += b
	}
}

// Set stores v (which must fit) as value i.
func (p *Packed) Set(i int, v uint64) {
	bit := uint(i) * uint(p.Bits)
	w, s := bit>>6, bit&63
	m := uint64(1)<<p.Bits - 1
	v &= m
	p.Words[w] = p.Words[w]&^(m<<s) | v<<s
	// The bits that spill into the next word; none for s == 0, where the shifts by 64 give 0.
	hi := 64 - s
	p.Words[w+1] = p.Words[w+1]&^(m>>hi) | v>>hi
}

// Put stores v (which must fit) as value i, where value i and the ones after it are still 0: a
// column filled in order writes each word without clearing bits first.
func (p *Packed) Put(i int, v uint64) {
	bit := uint(i) * uint(p.Bits)
	w, s := bit>>6, bit&63
	v &= 1<<p.Bits - 1
	p.Words[w] |= v << s
	p.Words[w+1] |= v >> (64 - s) // nothing for s == 0, where the shift by 64 gives 0
}

// Truncate keeps the first n values and lets go of the words past them.
func (p *Packed) Truncate(n int) {
	p.N = n
	if w := PackedWords(n, p.Bits); w < len(p.Words) {
		p.Words = append([]uint64(nil), p.Words[:w]...)
	}
}
