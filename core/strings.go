package core

// The string table. A trace can bring hundreds of thousands of distinct names and URLs, and a
// table of Go strings and a map[string]StrID made each of them an object of its own with two
// pointers to it: the collector, which a load runs with a low target (load/gcpace.go), marked
// them all at every cycle, half of the load's CPU on such a trace. Here the bytes live in a few
// large blocks and the table holds offsets and ids only, so a cycle has next to nothing to scan.

import (
	"hash/maphash"
	"unsafe"
)

// StrID names a string interned in Strings. StrID 0 is always the empty string.
type StrID uint32

// Strings interns every name, category, URL and id of a trace exactly once.
type Strings struct {
	refs   []strRef // by id
	hashes []uint32 // by id: the low bits of the string's hash, to grow slots without rehashing
	slots  []StrID  // open addressing, linear probing; 0 is a free slot ("" is never in it)
	blocks [][]byte // the bytes; a block is never reallocated, only filled up to its capacity
	fill   int      // the block being filled, -1 before the first
	seed   maphash.Seed
}

// strRef is where a string's bytes are.
type strRef struct{ block, off, len uint32 }

const (
	firstBlock = 4 << 10
	maxBlock   = 1 << 20
)

// NewStrings returns a table that already holds "" as StrID 0.
func NewStrings() *Strings {
	return &Strings{refs: []strRef{{}}, hashes: []uint32{0}, fill: -1, seed: maphash.MakeSeed()}
}

// InternBytes returns the id of b, adding it when new. Looking up an existing string does not allocate.
func (s *Strings) InternBytes(b []byte) StrID {
	if len(b) == 0 {
		return 0
	}
	h := maphash.Bytes(s.seed, b)
	if id, _ := s.find(unsafe.String(unsafe.SliceData(b), len(b)), h); id != 0 {
		return id
	}
	return s.add(b, h)
}

// Intern returns the id of str, adding it when new.
func (s *Strings) Intern(str string) StrID {
	if str == "" {
		return 0
	}
	h := maphash.String(s.seed, str)
	if id, _ := s.find(str, h); id != 0 {
		return id
	}
	return s.add(unsafe.Slice(unsafe.StringData(str), len(str)), h)
}

// Lookup returns the id of str without adding it.
func (s *Strings) Lookup(str string) (StrID, bool) {
	if str == "" {
		return 0, true
	}
	id, _ := s.find(str, maphash.String(s.seed, str))
	return id, id != 0
}

// find returns the id of str, whose hash is h, or 0 and the free slot where it would go.
func (s *Strings) find(str string, h uint64) (StrID, int) {
	if len(s.slots) == 0 {
		return 0, -1
	}
	mask := len(s.slots) - 1
	// Every slot is free or holds an id, and the table is at most half full: the probe ends.
	for i := int(h) & mask; ; i = (i + 1) & mask {
		id := s.slots[i]
		if id == 0 {
			return 0, i
		}
		if s.hashes[id] == uint32(h) && s.Get(id) == str {
			return id, i
		}
	}
}

// add stores b under the next id; b is not in the table, or is to keep a second id (StringsFrom).
func (s *Strings) add(b []byte, h uint64) StrID {
	id := StrID(len(s.refs))
	if 2*(len(s.refs)+1) > len(s.slots) {
		s.grow()
	}
	s.refs = append(s.refs, s.store(b))
	s.hashes = append(s.hashes, uint32(h))
	s.place(id)
	return id
}

// place puts id in the first free slot from its hash on.
func (s *Strings) place(id StrID) {
	mask := len(s.slots) - 1
	i := int(s.hashes[id]) & mask
	for s.slots[i] != 0 {
		i = (i + 1) & mask
	}
	s.slots[i] = id
}

// grow doubles the slots and places every id again. Slots are indexed by the low 32 bits of
// the hash, which is enough for up to 2³² slots, as many as StrID can name.
func (s *Strings) grow() {
	s.slots = make([]StrID, max(2*len(s.slots), 64))
	for id := 1; id < len(s.refs); id++ {
		s.place(StrID(id))
	}
}

// store copies b into the blocks. A string of more than a quarter of a block gets a block of its
// own, so that the blocks waste little.
func (s *Strings) store(b []byte) strRef {
	n := len(b)
	if s.fill >= 0 {
		if cur := s.blocks[s.fill]; cap(cur)-len(cur) >= n {
			s.blocks[s.fill] = append(cur, b...)
			return strRef{uint32(s.fill), uint32(len(cur)), uint32(n)}
		}
	}
	size := firstBlock
	if s.fill >= 0 {
		size = min(2*cap(s.blocks[s.fill]), maxBlock)
	}
	if n > size/4 {
		s.blocks = append(s.blocks, append([]byte(nil), b...))
		return strRef{uint32(len(s.blocks) - 1), 0, uint32(n)}
	}
	s.blocks = append(s.blocks, append(make([]byte, 0, size), b...))
	s.fill = len(s.blocks) - 1
	return strRef{uint32(s.fill), 0, uint32(n)}
}

// Get returns the string behind id ("" for an id out of range).
func (s *Strings) Get(id StrID) string {
	if int(id) >= len(s.refs) {
		return ""
	}
	r := s.refs[id]
	if r.len == 0 {
		return ""
	}
	return unsafe.String(&s.blocks[r.block][r.off], int(r.len))
}

// Len is the number of interned strings, "" included.
func (s *Strings) Len() int { return len(s.refs) }

// All returns the interned strings in id order ("" first), as core/cache writes them out. The
// strings share the table's memory; the slice is made for the call.
func (s *Strings) All() []string {
	list := make([]string, len(s.refs))
	for id := range list {
		list[id] = s.Get(StrID(id))
	}
	return list
}

// StringsFrom rebuilds a table from All's output (list[0] must be ""), as core/cache reads it
// back. A string listed twice keeps both ids; looking it up gives the first, which probing from
// their common hash always meets before the later one.
func StringsFrom(list []string) *Strings {
	s := NewStrings()
	s.refs = make([]strRef, 1, len(list))
	s.hashes = make([]uint32, 1, len(list))
	for _, str := range list[min(1, len(list)):] {
		s.add(unsafe.Slice(unsafe.StringData(str), len(str)), maphash.String(s.seed, str))
	}
	return s
}
