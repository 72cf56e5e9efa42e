package core

import (
	"fmt"
	"reflect"
	"testing"
)

func TestStringsInternOnce(t *testing.T) {
	s := NewStrings()
	if s.Get(0) != "" || s.Len() != 1 {
		t.Fatalf("a new table must hold only the empty string as id 0")
	}
	a := s.InternBytes([]byte("RunTask"))
	b := s.Intern("RunTask")
	c := s.Intern("FunctionCall")
	if a != b || a == c || s.Get(a) != "RunTask" || s.Get(c) != "FunctionCall" {
		t.Fatalf("interning gave ids %d, %d, %d", a, b, c)
	}
	if id, ok := s.Lookup("FunctionCall"); !ok || id != c {
		t.Fatalf("Lookup = %d, %v", id, ok)
	}
	if _, ok := s.Lookup("missing"); ok || s.Len() != 3 {
		t.Fatalf("Lookup must not add: len %d", s.Len())
	}
	if s.Get(StrID(99)) != "" {
		t.Fatal("an id out of range must read as the empty string")
	}
}

func TestWarningsCountInFirstSeenOrder(t *testing.T) {
	var w Warnings
	w.Add("events with a non-numeric ts skipped", 36)
	w.Addf("ProfileChunk with no Profile head (pid %d, id %s)", 7, "0x1")
	w.Add("events with a non-numeric ts skipped", 1)
	w.Add("nothing", 0)
	want := []string{"37 × events with a non-numeric ts skipped", "ProfileChunk with no Profile head (pid 7, id 0x1)"}
	if got := w.Lines(); !reflect.DeepEqual(got, want) || w.Len() != 2 {
		t.Fatalf("Lines() = %q, want %q", got, want)
	}
}

// AddAll merges warnings as Add would: counts of a message in both add up where it first
// occurred in w, new messages follow in from's order, and from is left as it was.
func TestWarningsAddAll(t *testing.T) {
	var w, from Warnings
	w.Add("a", 2)
	w.Add("b", 1)
	from.Add("c", 3)
	from.Add("a", 1)
	from.Add("d", 1)
	w.AddAll(&from)
	want := []string{"3 × a", "b", "3 × c", "d"}
	if got := w.Lines(); !reflect.DeepEqual(got, want) {
		t.Fatalf("after AddAll: %q, want %q", got, want)
	}
	if got := from.Lines(); !reflect.DeepEqual(got, []string{"3 × c", "a", "d"}) {
		t.Fatalf("from changed: %q", got)
	}
}

func TestProgressFraction(t *testing.T) {
	var p Progress
	if p.Fraction() != 0 {
		t.Fatal("an unknown total must read as 0")
	}
	p.Total.Store(200)
	p.Done.Store(50)
	if p.Fraction() != 0.25 {
		t.Fatalf("Fraction = %v", p.Fraction())
	}
	p.Done.Store(500)
	if p.Fraction() != 1 {
		t.Fatalf("Fraction past the total = %v, want 1", p.Fraction())
	}
	p.SetStage("building tracks")
	if p.Stage() != "building tracks" {
		t.Fatalf("Stage = %q", p.Stage())
	}
	// Two stages placed one after the other on one bar: the second starts where the first ended.
	// When the first ends, its count is cleared before the second's part is set (pipeline's
	// nextPhase): a bar read in between stays where it was.
	for _, step := range []struct {
		what string
		set  func()
		want float64
	}{
		{"half-way through the first half", func() { p.SetPhase(0, 0.5); p.Done.Store(100) }, 0.25},
		{"at the end of the first half", func() { p.Done.Store(200) }, 0.5},
		{"with the count cleared before the next phase", func() { p.Done.Store(0) }, 0.5},
		{"at the start of the second half", func() { p.SetPhase(0.5, 0.5); p.Total.Store(10) }, 0.5},
		{"at the end", func() { p.Done.Store(10) }, 1},
	} {
		step.set()
		if got := p.Overall(); got != step.want {
			t.Fatalf("Overall %s = %v, want %v", step.what, got, step.want)
		}
	}
	var nilP *Progress
	nilP.SetPhase(0, 1)
	nilP.SetStage("x") // a nil progress is allowed everywhere and ignored
	if nilP.Stage() != "" || nilP.Fraction() != 0 {
		t.Fatal("a nil progress must read as empty")
	}
}

// TestSparseEventLookups reads args and sampleTraceIds back through Events' accessors for every
// event of a trace where only some have them, the first and last events included.
func TestSparseEventLookups(t *testing.T) {
	const n = 1000
	e := Events{Ts: make([]float64, n)}
	wantArgs, wantIDs := map[int]string{}, map[int]int64{}
	for i := 0; i < n; i++ {
		if i%5 == 0 || i == n-1 {
			s := fmt.Sprintf(`{"i":%d}`, i)
			e.Args = append(e.Args, EventArgs{Event: int32(i), Span: Span{Off: uint32(len(e.ArgsArena)), Len: uint32(len(s))}})
			e.ArgsArena = append(e.ArgsArena, s...)
			wantArgs[i] = s
		}
		if i%3 == 1 {
			e.SampleTraceIDs = append(e.SampleTraceIDs, EventTraceID{Event: int32(i), ID: int64(i) << 40})
			wantIDs[i] = int64(i) << 40
		}
	}
	for i := -1; i <= n; i++ {
		if got := e.ArgsJSON(i); string(got) != wantArgs[i] || (got == nil) != (wantArgs[i] == "") {
			t.Fatalf("ArgsJSON(%d) = %q, want %q", i, got, wantArgs[i])
		}
		if got := e.SampleTraceID(i); got != wantIDs[i] {
			t.Fatalf("SampleTraceID(%d) = %d, want %d", i, got, wantIDs[i])
		}
	}
}
