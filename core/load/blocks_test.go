// Tests that reading a source block by block, in place, gives what reading it whole gives,
// wherever the blocks cut the values.
package load

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand"
	"strings"
	"testing"
)

// cutSource hands out data in blocks of the sizes it is given, in turn, and checks that every
// block is given back once and not touched after: it scribbles over a block when it comes back,
// so a window that still read it would read garbage.
type cutSource struct {
	data  []byte
	sizes []int
	next  int
	out   map[*byte]bool
	err   error // given with the last block, as the inflater gives io.EOF
}

func (c *cutSource) nextBlock() ([]byte, error) {
	if len(c.data) == 0 {
		return nil, c.err
	}
	n := min(c.sizes[c.next%len(c.sizes)], len(c.data))
	c.next++
	b := append(make([]byte, 0, n+8), c.data[:n]...) // spare capacity, as the inflater's blocks have
	c.data = c.data[n:]
	c.out[&b[:1][0]] = true
	if len(c.data) == 0 {
		return b, c.err
	}
	return b, nil
}

func (c *cutSource) releaseBlock(b []byte) {
	if cap(b) == 0 {
		return
	}
	p := &b[:1][0]
	if !c.out[p] {
		panic("a block given back twice, or never handed out")
	}
	delete(c.out, p)
	b = b[:cap(b)]
	for i := range b {
		b[i] = '#'
	}
}

func (c *cutSource) Read([]byte) (int, error) { panic("the scanner reads a blockSource by blocks") }

// TestBlocksReadAsOneStream reads real traces and profiles through a blockSource cut into blocks
// of many sizes, from one byte (every token cut, stitched again and again) to past stitchSize,
// and checks that what is read is exactly what reading the same bytes in one piece gives.
func TestBlocksReadAsOneStream(t *testing.T) {
	files := [][]string{
		{"upstream", "devtools-mainWasm_profile.json.gz"},
	}
	// Values longer than the stitch: a name and kept args of a few times stitchSize.
	long := strings.Repeat("abcdefghij", 3*stitchSize/10)
	longValues := []byte(`[{"ph":"X","name":"` + long + `","pid":1,"tid":1,"ts":1,"dur":1},` +
		`{"ph":"M","name":"thread_name","pid":1,"tid":1,"ts":0,"args":{"name":"main","x":"` + long + `"}},` +
		`{"ph":"X","name":"after","pid":1,"tid":1,"ts":2,"dur":1}]`)
	r := rand.New(rand.NewSource(7))
	for _, name := range append(files, []string{"long values"}) {
		data := longValues
		if len(name) > 1 {
			data = inflatedFixture(t, name...)
		}
		want := readWhole(t, bytes.NewReader(data))
		random := make([]int, 64)
		for i := range random {
			random[i] = 1 + r.Intn(3*stitchSize)
		}
		for _, sizes := range [][]int{{1}, {2, 3, 5}, {17, 4096}, {stitchSize - 1, 1, stitchSize + 1}, random} {
			src := &cutSource{data: data, sizes: sizes, out: map[*byte]bool{}, err: io.EOF}
			got := readWhole(t, src)
			if got != want {
				t.Errorf("%s in blocks of %v: what was read differs from reading it whole", name[len(name)-1], sizes[:min(len(sizes), 3)])
			}
			if len(src.out) > 1 {
				t.Errorf("%s: %d blocks held at the end", name[len(name)-1], len(src.out))
			}
		}
	}
}

// readWhole runs the reader over src and returns what it read, printed: compared with
// reflect.DeepEqual, the missing times (NaN) would never be equal.
func readWhole(t *testing.T, src io.Reader) string {
	t.Helper()
	l := newLoader(context.Background(), src, nil)
	if err := l.read(); err != nil {
		t.Fatal(err)
	}
	// The string table is printed as its strings in id order rather than its address (its
	// layout in blocks and its hash seed differ from one table to the next).
	tr := *l.tr
	tr.Strings = nil
	return fmt.Sprintf("%q %+v", l.tr.Strings.All(), tr)
}
