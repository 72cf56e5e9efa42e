// Whole-µs spans of a track's entries, read a run at a time: what timeline's levels read of every
// entry, decoded without going through StartAt's and DurAt's per-entry branches.

package core

import "math"

// wholeLimit bounds the starts and durations SpansWhole accepts, µs (about 35 years): below it
// an end, and the difference of two ends or starts, are exact float64s, so a reader may skip the
// exactness checks it makes of arbitrary times.
const wholeLimit = 1 << 50

// SpansWhole sets starts[k] and ends[k] to the start of entry entries[k] and its end (start plus
// its duration where that is above 0, else start) for every k, the same float64s StartAt and
// DurAt give, and reports whether every one of them is a whole number of µs, not -0, with starts
// and durations of magnitude below 2^50. When it reports false the values are unspecified: the
// caller reads those entries through StartAt and DurAt. starts and ends must be as long as
// entries.
func (t *Track) SpansWhole(entries []int32, starts, ends []float64) bool {
	starts, ends = starts[:len(entries)], ends[:len(entries)]
	if t.EndRefs.N > 0 {
		return false // durations through milliseconds are seldom whole
	}
	if !t.Compact {
		if !plainOffsets(&t.Start, entries, starts) {
			return false
		}
	} else if !t.compactStarts(entries, starts) {
		return false
	}
	dur := &t.Dur
	if dur.Wide != nil || !wholeBase(dur.Base) {
		return false
	}
	for k, i := range entries {
		o := dur.Off[i]
		if o&detoured != 0 {
			return false
		}
		end := starts[k]
		if d := dur.Base + float64(o); d > 0 {
			end += d
		}
		ends[k] = end
	}
	return true
}

// wholeBase reports whether a Times base keeps its values whole and within wholeLimit.
func wholeBase(b float64) bool {
	return b == math.Trunc(b) && math.Abs(b) < wholeLimit-detoured && math.Float64bits(b) != 1<<63
}

// plainOffsets sets dst[k] to value entries[k] of c as At gives it, false when c keeps float64s
// or one of the values went through the milliseconds detour.
func plainOffsets(c *Times, entries []int32, dst []float64) bool {
	if c.Wide != nil || !wholeBase(c.Base) {
		return false
	}
	for k, i := range entries {
		o := c.Off[i]
		if o&detoured != 0 {
			return false
		}
		dst[k] = c.Base + float64(o)
	}
	return true
}

// compactStarts is SpansWhole's starts for a Compact track: an event's from EventStart, a
// ProfileCall's from SampleStart or CallStart, as StartAt reads them. Runs of consecutive
// entries, which are most of what timeline's levels ask for, have their packed refs and nodes
// decoded a run at a time (Packed.Run) rather than a value at a time.
func (t *Track) compactStarts(entries []int32, starts []float64) bool {
	ev, sm := &t.EventStart, &t.SampleStart
	if ev.Wide != nil || sm.Wide != nil || !wholeBase(ev.Base) || !wholeBase(sm.Base) {
		return false
	}
	var refs, nodes [decodeRun]uint64
	for len(entries) > 0 {
		n := min(len(entries), decodeRun)
		run, out := entries[:n], starts[:n]
		entries, starts = entries[n:], starts[n:]
		if consecutive(run) {
			t.Refs.Run(int(run[0]), refs[:n])
			t.NodePlus1.Run(int(run[0]), nodes[:n])
		} else {
			for k, i := range run {
				refs[k], nodes[k] = t.Refs.At(int(i)), t.NodePlus1.At(int(i))
			}
		}
		if !t.compactStartsOf(refs[:n], nodes[:n], out) {
			return false
		}
	}
	return true
}

// decodeRun is how many entries' refs and nodes compactStarts decodes at once.
const decodeRun = 256

// consecutive reports whether entries are i, i+1, i+2 and so on.
func consecutive(entries []int32) bool {
	for k, i := range entries {
		if i != entries[0]+int32(k) {
			return false
		}
	}
	return true
}

// compactStartsOf sets starts[k] to the start of the entry whose Refs and NodePlus1 values are
// refs[k] and nodes[k], false when one is not a whole µs as SpansWhole wants.
func (t *Track) compactStartsOf(refs, nodes []uint64, starts []float64) bool {
	ev, sm := &t.EventStart, &t.SampleStart
	samples := len(sm.Off)
	nodes, starts = nodes[:len(refs)], starts[:len(refs)]
	for k, ref := range refs {
		r := int(ref)
		var o uint32
		var base float64
		switch {
		case nodes[k] == 0:
			o, base = ev.Off[r], ev.Base
		case r < samples:
			o, base = sm.Off[r], sm.Base
		default:
			v := t.CallStart[r-samples]
			if v != math.Trunc(v) || !(math.Abs(v) < wholeLimit) || math.Float64bits(v) == 1<<63 {
				return false
			}
			starts[k] = v
			continue
		}
		if o&detoured != 0 {
			return false
		}
		starts[k] = base + float64(o)
	}
	return true
}
