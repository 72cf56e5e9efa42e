package core

import (
	"fmt"
	"strings"
	"testing"
)

// Many distinct strings, some long enough for a block of their own: each keeps its id in the
// order it came, reads back as it went in, and is found again, from a string or from bytes,
// without allocating.
func TestStringsManyDistinct(t *testing.T) {
	s := NewStrings()
	const n = 50_000
	name := func(i int) string {
		if i%997 == 0 {
			return fmt.Sprintf("long-%d-%s", i, strings.Repeat("x", 3000))
		}
		return fmt.Sprintf("http://host%d.example/p/%d.js", i%31, i)
	}
	for i := 0; i < n; i++ {
		if id := s.Intern(name(i)); id != StrID(i+1) {
			t.Fatalf("string %d got id %d, want %d", i, id, i+1)
		}
	}
	for i := 0; i < n; i++ {
		want := name(i)
		if got := s.Get(StrID(i + 1)); got != want {
			t.Fatalf("id %d reads %.40q, want %.40q", i+1, got, want)
		}
		if id, ok := s.Lookup(want); !ok || id != StrID(i+1) {
			t.Fatalf("Lookup(%.40q) = %d, %v", want, id, ok)
		}
	}
	b := []byte(name(123))
	if allocs := testing.AllocsPerRun(10, func() { s.InternBytes(b) }); allocs != 0 {
		t.Errorf("InternBytes of a known string allocates %.0f times", allocs)
	}
	if s.Intern("") != 0 || s.InternBytes(nil) != 0 || s.Len() != n+1 {
		t.Fatalf("the empty string must stay id 0 and nothing be added: len %d", s.Len())
	}
}

// The table holds its strings in a few large blocks, not one object each: the collector, which
// a load runs with a low target, then has almost nothing to mark however many distinct names a
// trace has. A table of Go strings and a map made two allocations a string (100 K here) and
// took half the CPU of loading a trace with 1.4 M distinct names and URLs (4.8 -> 1.5 CPU-s).
func TestStringsAreNotAnObjectEach(t *testing.T) {
	const n = 100_000
	names := make([][]byte, n)
	for i := range names {
		names[i] = fmt.Appendf(nil, "Task_%d_%x", i, i*7919)
	}
	allocs := testing.AllocsPerRun(1, func() {
		s := NewStrings()
		for _, b := range names {
			s.InternBytes(b)
		}
	})
	// The blocks (about 2 MB of bytes, in blocks of up to 1 MB), and the id, hash and slot
	// columns grown by doubling: about 100.
	if allocs > 500 {
		t.Errorf("%.0f allocations to intern %d distinct strings, want at most 500", allocs, n)
	}
}

// A cache's string list can name one string twice; the table keeps both ids and finds the first.
func TestStringsFromKeepsDuplicates(t *testing.T) {
	s := StringsFrom([]string{"", "a", "b", "a", ""})
	if s.Len() != 5 || s.Get(3) != "a" || s.Get(4) != "" {
		t.Fatalf("table of %d: %q", s.Len(), s.All())
	}
	if id, ok := s.Lookup("a"); !ok || id != 1 {
		t.Fatalf("Lookup(a) = %d, %v; want the first, 1", id, ok)
	}
	if id := s.Intern("c"); id != 5 || s.Get(5) != "c" {
		t.Fatalf("Intern(c) = %d", id)
	}
	if got := StringsFrom(s.All()).All(); fmt.Sprint(got) != fmt.Sprint(s.All()) {
		t.Fatalf("a round trip through All gives %q", got)
	}
	// Through the table's growth too: every string listed twice, far apart.
	list := []string{""}
	for range 2 {
		for i := range 1000 {
			list = append(list, fmt.Sprint("s", i))
		}
	}
	big := StringsFrom(list)
	for i := range 1000 {
		if id, ok := big.Lookup(fmt.Sprint("s", i)); !ok || id != StrID(1+i) {
			t.Fatalf("Lookup(s%d) = %d, %v; want the first, %d", i, id, ok, 1+i)
		}
	}
}
