package integrate

import "math"

// merge brings the open JS frames in line with a new stack at time ts (RULES.md §3 "Merging a
// stack"). The new stack is trie path `path`; its pushable frames are the ancestors of profile
// node base (-1 for none). src is what new calls come from: a sample index, or the complement of
// the trace event's index for a trace id.
func (in *integrator) merge(base, path int32, ts float64, src int32) {
	px := in.px
	lock := in.topLock()
	lenQ := px.trie.depth[path]
	m := min(int32(len(in.open)), lenQ)
	i := in.firstMismatch(lock, m, path)
	kept := in.truncate(i, ts)

	// The frames of the new stack from position i up, found by walking up from base. Natives
	// hold no position; positions count down by one per kept ancestor.
	col := in.scratch[:0]
	steps := len(px.stack) // a bound, in case a malformed parent chain loops
	for v := base; v >= 0 && int(v) < len(px.stack) && steps > 0; v = px.p.NodeParent[v] {
		steps--
		if px.native[v] {
			continue
		}
		pos := px.pos[v]
		if pos < i || (len(col) > 0 && pos >= px.pos[col[len(col)-1]]) {
			break
		}
		col = append(col, v)
	}
	rawFrom := int32(-1)
	for j := len(col) - 1; j >= 0; j-- {
		v := col[j]
		if px.meta[v] {
			continue
		}
		if rawFrom < 0 && px.pos[v] != int32(len(in.open)) {
			// A skipped meta frame below this one (malformed profiles only) shifts positions.
			rawFrom = int32(len(in.open))
		}
		in.push(v, src, ts)
	}
	in.scratch = col[:0]

	top := int32(len(in.open))
	if kept == i {
		// Frames lock..i matched the new stack and the ones above came from it: one segment.
		alignedEnd := top
		if rawFrom >= 0 {
			alignedEnd = rawFrom
		}
		if alignedEnd > lock {
			for len(in.segs) > 0 && in.segs[len(in.segs)-1].start >= lock {
				in.segs = in.segs[:len(in.segs)-1]
			}
			in.segs = append(in.segs, segment{start: lock, path: path})
		}
	} else if top > kept {
		rawFrom = kept
	}
	if rawFrom >= 0 && top > rawFrom {
		in.segs = append(in.segs, segment{start: rawFrom, path: -1})
	}
}

// push opens a call of node made by src at ts, which is where calls.ts will say it starts.
func (in *integrator) push(node, src int32, ts float64) {
	c := in.out.add(node, src)
	in.open = append(in.open, openFrame{start: ts, call: c, epoch: in.truncations})
	if !(ts >= in.lastPush) {
		in.out.unsorted = true
	}
	in.lastPush = ts
	if src < 0 {
		in.traceCalls++
	}
}

func (in *integrator) topLock() int32 {
	if len(in.locks) == 0 {
		return 0
	}
	return in.locks[len(in.locks)-1]
}

// truncate cuts the open frames to depth (never below the top lock) and stamps every open frame's
// duration up to t. Frames that stay open are stamped lazily (see finish); it returns the new
// number of open frames.
func (in *integrator) truncate(depth int32, t float64) int32 {
	if l := in.topLock(); l != 0 && depth < l {
		depth = l
	}
	if n := int32(len(in.open)); depth > n {
		depth = n
	}
	if depth < 0 {
		depth = 0
	}
	in.truncations++
	in.lastTruncAt = t
	for _, f := range in.open[depth:] {
		d := max(t-f.start, 0)
		in.out.setDur(f.call, d)
		// As treify will work it out: the call's start plus its duration. NaN sticks.
		if end := f.start + d; !(end <= in.maxEnd) && !math.IsNaN(in.maxEnd) {
			in.maxEnd = end
		}
	}
	in.open = in.open[:depth]
	for len(in.segs) > 0 && in.segs[len(in.segs)-1].start >= depth {
		in.segs = in.segs[:len(in.segs)-1]
	}
	return depth
}

// finish settles the frames still open: they keep the stamp of the last truncation made after
// they were pushed, and 0 when there was none. Nothing is extrapolated past the last sample.
func (in *integrator) finish() {
	for _, f := range in.open {
		if in.truncations != f.epoch {
			in.out.setDur(f.call, max(in.lastTruncAt-f.start, 0))
		}
	}
	in.open = in.open[:0]
	in.segs = in.segs[:0]
}

// firstMismatch returns the first position p in [from, m) where the open frame and the new stack
// (trie path q) differ on their frame key, or m when they agree all the way.
func (in *integrator) firstMismatch(from, m, q int32) int32 {
	if from >= m {
		return from
	}
	t := in.px.trie
	// The segment holding position from: the last one starting at or below it.
	lo, hi := 0, len(in.segs)
	for lo < hi {
		mid := (lo + hi) / 2
		if in.segs[mid].start <= from {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	s := lo - 1
	k := from
	for k < m {
		end := m
		if s+1 < len(in.segs) && in.segs[s+1].start < end {
			end = in.segs[s+1].start
		}
		if s < 0 {
			// Not covered by any segment (cannot happen once frames are open); compare directly.
			if p := in.scanOpen(q, k, end); p < end {
				return p
			}
		} else if path := in.segs[s].path; path >= 0 {
			shared := t.common(path, q)
			if shared > k {
				if shared < end {
					return shared
				}
			} else if p := in.scanPaths(path, q, k, end); p < end {
				// The paths parted below k, yet frames may agree again higher up (the same
				// function at the same depth on two call paths): compare them there.
				return p
			}
		} else if p := in.scanOpen(q, k, end); p < end {
			return p
		}
		k = end
		s++
	}
	return m
}

// scanPaths compares trie paths a and b at positions [from, to) and returns the first position
// where their keys differ, or to. It reads the paths in chunks that double in size, walking down
// from the top of each chunk, so the cost follows the length of the agreeing run.
func (in *integrator) scanPaths(a, b, from, to int32) int32 {
	t := in.px.trie
	chunk := int32(16)
	for lo := from; lo < to; {
		hi := min(to, lo+chunk)
		x, y := t.ancestor(a, hi), t.ancestor(b, hi)
		first := int32(-1)
		for d := hi; d > lo && x != y; d-- {
			if t.key[x] != t.key[y] {
				first = d - 1
			}
			x, y = t.parent[x], t.parent[y]
		}
		if first >= 0 {
			return first
		}
		lo = hi
		chunk *= 2
	}
	return to
}

// scanOpen compares the open frames with trie path q at positions [from, to), one by one.
func (in *integrator) scanOpen(q, from, to int32) int32 {
	t := in.px.trie
	chunk := int32(16)
	for lo := from; lo < to; {
		hi := min(to, lo+chunk)
		y := t.ancestor(q, hi)
		first := int32(-1)
		for d := hi; d > lo; d-- {
			if in.px.key[in.out.at(in.open[d-1].call).node] != t.key[y] {
				first = d - 1
			}
			y = t.parent[y]
		}
		if first >= 0 {
			return first
		}
		lo = hi
		chunk *= 2
	}
	return to
}
