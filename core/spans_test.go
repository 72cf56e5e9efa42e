package core

import (
	"math"
	"math/rand/v2"
	"testing"
)

// SpansWhole reads what StartAt and DurAt read, bit for bit, wherever it says the times are
// whole µs; it says so for tracks whose times are all plain whole µs, and not for a run that
// holds a time through the milliseconds detour, a fraction or -0, in a plain or a Compact track.
func TestSpansWholeReadsWhatStartAtReads(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 9))
	// detour is a time near x that the milliseconds detour made a hair off a whole µs: a column
	// keeps it as a flagged offset.
	detour := func(x float64) float64 {
		for k := 1.0; k < 1e6; k++ {
			if v := (x + k) / 1000 * 1000; v != x+k {
				return v
			}
		}
		t.Fatal("no time near", x, "comes off the detour fractional")
		return 0
	}
	for round := range 60 {
		n := 1 + rng.IntN(700)
		compact := round%2 == 0
		spoil := round%3 == 0 // one time that is not a plain whole µs
		tk := randomWholeTrack(rng, n, compact)
		spoilt := -1
		if spoil {
			spoilt = rng.IntN(n)
			switch {
			case !compact && rng.IntN(2) == 0:
				tk.Start.Set(spoilt, detour(tk.StartAt(spoilt)))
			case !compact || tk.NodePlus1.At(spoilt) == 0:
				tk.Dur.Set(spoilt, detour(0))
			default:
				// A call made from a trace event's sample: its start is read from CallStart.
				r := int(tk.Refs.At(spoilt))
				if r < tk.SampleStart.Len() {
					tk.SampleStart.Set(r, detour(tk.SampleStart.At(r)))
				} else {
					tk.CallStart[r-tk.SampleStart.Len()] = math.Copysign(0, -1)
				}
			}
			if tk.Start.IsWide() || tk.Dur.IsWide() || tk.SampleStart.IsWide() {
				t.Fatalf("round %d: a detoured time widened its column", round)
			}
		}
		lo := rng.IntN(n)
		entries := make([]int32, 0, n)
		every := round%4 == 0 // consecutive entries, which a Compact track decodes a run at a time
		for i := lo; i < n; i++ {
			if every || rng.IntN(3) != 0 || i == spoilt {
				entries = append(entries, int32(i))
			}
		}
		starts, ends := make([]float64, len(entries)), make([]float64, len(entries))
		whole := tk.SpansWhole(entries, starts, ends)
		// Every time but the spoilt one is a plain whole µs, and the spoilt one is not whole or -0.
		want := true
		for _, i := range entries {
			s, d := tk.StartAt(int(i)), tk.DurAt(int(i))
			if s != math.Trunc(s) || math.Signbit(s) || d != math.Trunc(d) {
				want = false
			}
		}
		if whole != want {
			t.Fatalf("round %d: whole %v, want %v (spoilt entry %d, run from %d)", round, whole, want, spoilt, lo)
		}
		if !whole {
			continue
		}
		for k, i := range entries {
			start, end := tk.StartAt(int(i)), tk.StartAt(int(i))
			if d := tk.DurAt(int(i)); d > 0 {
				end += d
			}
			if math.Float64bits(starts[k]) != math.Float64bits(start) || math.Float64bits(ends[k]) != math.Float64bits(end) {
				t.Fatalf("round %d entry %d: spans %v..%v, want %v..%v", round, i, starts[k], ends[k], start, end)
			}
			if start != math.Trunc(start) || end != math.Trunc(end) {
				t.Fatalf("round %d entry %d: %v..%v called whole", round, i, start, end)
			}
		}
	}
}

// randomWholeTrack makes a track of n entries whose times are all whole µs: durations from -5 to
// 40 µs, starts far from 0; a Compact one mixes events, sampled ProfileCalls and calls made from
// trace events.
func randomWholeTrack(rng *rand.Rand, n int, compact bool) *Track {
	const origin = 100000 // where the detour can make fractions
	// Offsets from -5 µs: a negative duration is no offset from 0.
	tk := &Track{Depth: make([]uint16, n), Dur: NewTimes(-5, n), Compact: compact}
	for i := range n {
		tk.Dur.Set(i, float64(rng.IntN(46)-5))
	}
	if !compact {
		tk.Start = NewTimes(origin, n)
		for i := range n {
			tk.Start.Set(i, origin+float64(10*i+rng.IntN(5)))
		}
		return tk
	}
	const samples = 50
	tk.SampleStart = NewTimes(origin, samples)
	for s := range samples {
		tk.SampleStart.Set(s, origin+float64(100*s))
	}
	tk.NodePlus1 = NewPacked(n, 9)
	tk.Refs = NewPacked(n, 1<<12)
	events := 0
	for i := range n {
		switch rng.IntN(3) {
		case 0: // an event
			tk.Refs.Set(i, uint64(events))
			tk.EventStart.Append(origin + float64(3*i))
			events++
		case 1: // a sampled ProfileCall
			tk.NodePlus1.Set(i, uint64(1+rng.IntN(9)))
			tk.Refs.Set(i, uint64(rng.IntN(samples)))
		default: // a call made from a trace event
			tk.NodePlus1.Set(i, uint64(1+rng.IntN(9)))
			tk.Refs.Set(i, uint64(samples+len(tk.CallStart)))
			tk.CallStart = append(tk.CallStart, origin+float64(7*i))
		}
	}
	return tk
}
