package load

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"flamedesk/core"
)

// TestArgsArenaBlocks fills the args arena past several blocks, with values up to a whole block,
// and reads every one back through core.Events.ArgsAt, the way the layers above do.
func TestArgsArenaBlocks(t *testing.T) {
	mem := &budget{limit: 1 << 40}
	var a argsArena
	r := rand.New(rand.NewPCG(1, 2))
	var want [][]byte
	var spans []core.Span
	for i := range 3000 {
		n := r.IntN(3000)
		switch i {
		case 700:
			n = core.ArgsBlockSize // fills a block alone
		case 1500:
			n = core.ArgsBlockSize - 1
		}
		v := make([]byte, n)
		for k := range v {
			v[k] = byte(r.Uint32())
		}
		s, ok := a.add(mem, v)
		if !ok {
			t.Fatalf("value %d (%d bytes) not kept", i, n)
		}
		want, spans = append(want, v), append(spans, s)
	}
	if len(a.more) < 3 {
		t.Fatalf("%d blocks after the first: the test should cross several", len(a.more))
	}
	if _, ok := a.add(mem, make([]byte, core.ArgsBlockSize+1)); ok {
		t.Error("a value over a block was kept")
	}
	e := core.Events{ArgsArena: a.first, ArgsMore: a.more}
	for i, s := range spans {
		got := e.ArgsAt(s)
		if len(want[i]) == 0 {
			if got != nil {
				t.Errorf("value %d: empty, read back %d bytes", i, len(got))
			}
			continue
		}
		if !bytes.Equal(got, want[i]) {
			t.Fatalf("value %d (%d bytes at %#x): read back %d different bytes", i, len(want[i]), s.Off, len(got))
		}
	}
	for _, blk := range a.more {
		if cap(blk) > core.ArgsBlockSize {
			t.Errorf("a block of %d bytes", cap(blk))
		}
	}
	if len(a.first) > core.ArgsBlockSize {
		t.Errorf("first block of %d bytes", len(a.first))
	}
}

// TestColumnTake checks that a column spread over blocks comes back whole, in order and
// exactly sized, and that the budget is charged for what is kept only.
func TestColumnTake(t *testing.T) {
	mem := &budget{limit: 1 << 40}
	var c column[float64]
	const n = 3*blockBytes/8 + 12345
	for i := range n {
		c.push(mem, float64(i))
	}
	if c.Len() != n {
		t.Fatalf("Len %d, want %d", c.Len(), n)
	}
	out := c.take(mem)
	if len(out) != n || cap(out) != n {
		t.Fatalf("len %d cap %d, want %d", len(out), cap(out), n)
	}
	for i, v := range out {
		if v != float64(i) {
			t.Fatalf("[%d] = %v", i, v)
		}
	}
	if used := mem.used.Load(); used != 8*n {
		t.Errorf("budget holds %d bytes, want %d", used, 8*n)
	}
}

// TestColumnTakeSparse checks that a column spread over blocks comes back as the indexes and
// values of its non-zero elements only, in order and exactly sized, with the budget charged for
// those only.
func TestColumnTakeSparse(t *testing.T) {
	mem := &budget{limit: 1 << 40}
	var c column[int64]
	const n = 3*blockBytes/8 + 12345
	want := map[int32]int64{}
	for i := range n {
		var v int64
		if i%7 == 3 || i == n-1 {
			v = int64(i)*31 - 5
			want[int32(i)] = v
		}
		c.push(mem, v)
	}
	out := takeSparse(&c, mem, func(k int32, v int64) core.EventTraceID { return core.EventTraceID{Event: k, ID: v} })
	if len(out) != len(want) || cap(out) != len(want) {
		t.Fatalf("len %d cap %d, want %d", len(out), cap(out), len(want))
	}
	for k, p := range out {
		if k > 0 && p.Event <= out[k-1].Event {
			t.Fatalf("[%d] event %d after %d", k, p.Event, out[k-1].Event)
		}
		if w, ok := want[p.Event]; !ok || w != p.ID {
			t.Fatalf("[%d] = %+v, want id %d (present %v)", k, p, w, ok)
		}
	}
	if c.Len() != 0 {
		t.Errorf("the column still holds %d elements", c.Len())
	}
	if used, size := mem.used.Load(), int64(len(out))*16; used != size {
		t.Errorf("budget holds %d bytes, want %d", used, size)
	}
}
