// Merging a lane's profile records (split.go) into the load's RawChunks.

package load

import (
	"math"
	"slices"

	"flamedesk/core"
	"flamedesk/internal/background"
)

// resetChunks empties a lane's RawChunks for its next segment, keeping their capacity. Each arena
// starts with one unused element, so that a span the lane sets never starts at 0 and only the
// spans left unset are the zero Span: mergeRecord moves the first and keeps the others.
func resetChunks(c *core.RawChunks) {
	*c = core.RawChunks{
		Kind: c.Kind[:0], Event: c.Event[:0], Ph: c.Ph[:0], Pid: c.Pid[:0], Tid: c.Tid[:0],
		ID: c.ID[:0], IDIsString: c.IDIsString[:0], Ts: c.Ts[:0],
		DataStartTime: c.DataStartTime[:0], DataEndTime: c.DataEndTime[:0],
		ProfileStartTime: c.ProfileStartTime[:0], ProfileEndTime: c.ProfileEndTime[:0],
		Source: c.Source[:0], Nodes: c.Nodes[:0], Samples: c.Samples[:0], HasSamples: c.HasSamples[:0],
		TimeDeltas: c.TimeDeltas[:0], HasTimeDeltas: c.HasTimeDeltas[:0],
		ProfileTimeDeltas: c.ProfileTimeDeltas[:0], HasProfileTimeDeltas: c.HasProfileTimeDeltas[:0],
		Timestamps: c.Timestamps[:0], HasTimestamps: c.HasTimestamps[:0],
		Lines: c.Lines[:0], HasLines: c.HasLines[:0], Columns: c.Columns[:0], HasColumns: c.HasColumns[:0],
		TraceIDs: c.TraceIDs[:0],
		NodeID:   c.NodeID[:0], NodeParent: c.NodeParent[:0], NodeFrame: c.NodeFrame[:0], NodeFlags: c.NodeFlags[:0],
		NodeChildren: c.NodeChildren[:0], NodeTicks: c.NodeTicks[:0],
		Children:    append(c.Children[:0], 0),
		SampleIDs:   resetNarrow(&c.SampleIDs),
		Deltas:      resetNarrow(&c.Deltas),
		Stamps:      append(c.Stamps[:0], 0),
		Positions:   append(c.Positions[:0], 0),
		TraceIDKey:  append(c.TraceIDKey[:0], 0),
		TraceIDNode: append(c.TraceIDNode[:0], 0),
	}
}

// resetNarrow empties a lane's arena as resetChunks does, halved again unless it was widened.
func resetNarrow[T int64 | float64](n *core.Narrow[T]) core.Narrow[T] {
	if n.Small != nil {
		return core.Narrow[T]{Small: append(n.Small[:0], 0), WideAt: n.WideAt[:0], Wide: n.Wide[:0]}
	}
	return core.Narrow[T]{Half: append(n.Half[:0], 0), HalfBias: core.AppendBias, WideAt: n.WideAt[:0], Wide: n.Wide[:0]}
}

// chunkEnd is where the next record's data would begin.
func chunkEnd(c *core.RawChunks) chunkMark {
	return chunkMark{
		nodes: len(c.NodeID), children: len(c.Children), samples: c.SampleIDs.Len(),
		deltas: c.Deltas.Len(), stamps: len(c.Stamps), positions: len(c.Positions), traceIDs: len(c.TraceIDKey),
	}
}

// recordFits reports whether the lane's record i fits in the load's arenas (maxArena); when it
// does not, the load reads it in one pass, to fail as it does there.
func (sp *splitter) recordFits(ln *lane, i int) bool {
	ls, dst := ln.l.lane, sp.l.ch
	from := ls.records[i].data
	to := chunkEnd(ln.l.ch)
	if i+1 < len(ls.records) {
		to = ls.records[i+1].data
	}
	at := chunkEnd(dst)
	const room = maxArena - 2
	return at.nodes+to.nodes-from.nodes < room && at.children+to.children-from.children < room &&
		at.samples+to.samples-from.samples < room && at.deltas+to.deltas-from.deltas < room &&
		at.stamps+to.stamps-from.stamps < room && at.positions+to.positions-from.positions < room &&
		at.traceIDs+to.traceIDs-from.traceIDs < room
}

// mergeRecord appends the lane's record r, whose data lie in [from, to) of the lane's arenas.
func (sp *splitter) mergeRecord(ln *lane, r int, from, to chunkMark) {
	l, src, dst := sp.l, ln.l.ch, sp.l.ch
	mem := l.mem
	at := chunkEnd(dst)

	dst.Kind = push(mem, dst.Kind, src.Kind[r])
	dst.Event = push(mem, dst.Event, int32(min(int64(src.Event[r])+int64(l.nEvents), math.MaxInt32)))
	dst.Ph = push(mem, dst.Ph, src.Ph[r])
	dst.Pid = push(mem, dst.Pid, src.Pid[r])
	dst.Tid = push(mem, dst.Tid, src.Tid[r])
	dst.ID = push(mem, dst.ID, ln.strMap[src.ID[r]])
	dst.IDIsString = push(mem, dst.IDIsString, src.IDIsString[r])
	dst.Ts = push(mem, dst.Ts, src.Ts[r])
	dst.DataStartTime = push(mem, dst.DataStartTime, src.DataStartTime[r])
	dst.DataEndTime = push(mem, dst.DataEndTime, src.DataEndTime[r])
	dst.ProfileStartTime = push(mem, dst.ProfileStartTime, src.ProfileStartTime[r])
	dst.ProfileEndTime = push(mem, dst.ProfileEndTime, src.ProfileEndTime[r])
	dst.Source = push(mem, dst.Source, ln.strMap[src.Source[r]])

	nodes := src.Nodes[r]
	nodes.Off += uint32(at.nodes - from.nodes)
	dst.Nodes = push(mem, dst.Nodes, nodes)
	dst.Samples = push(mem, dst.Samples, moved(src.Samples[r], at.samples-from.samples))
	dst.HasSamples = push(mem, dst.HasSamples, src.HasSamples[r])
	dst.TimeDeltas = push(mem, dst.TimeDeltas, moved(src.TimeDeltas[r], at.deltas-from.deltas))
	dst.HasTimeDeltas = push(mem, dst.HasTimeDeltas, src.HasTimeDeltas[r])
	dst.ProfileTimeDeltas = push(mem, dst.ProfileTimeDeltas, moved(src.ProfileTimeDeltas[r], at.deltas-from.deltas))
	dst.HasProfileTimeDeltas = push(mem, dst.HasProfileTimeDeltas, src.HasProfileTimeDeltas[r])
	dst.Timestamps = push(mem, dst.Timestamps, moved(src.Timestamps[r], at.stamps-from.stamps))
	dst.HasTimestamps = push(mem, dst.HasTimestamps, src.HasTimestamps[r])
	dst.Lines = push(mem, dst.Lines, moved(src.Lines[r], at.positions-from.positions))
	dst.HasLines = push(mem, dst.HasLines, src.HasLines[r])
	dst.Columns = push(mem, dst.Columns, moved(src.Columns[r], at.positions-from.positions))
	dst.HasColumns = push(mem, dst.HasColumns, src.HasColumns[r])
	dst.TraceIDs = push(mem, dst.TraceIDs, moved(src.TraceIDs[r], at.traceIDs-from.traceIDs))

	dst.NodeID = appendRange(mem, dst.NodeID, src.NodeID[from.nodes:to.nodes])
	dst.NodeParent = appendRange(mem, dst.NodeParent, src.NodeParent[from.nodes:to.nodes])
	dst.NodeFlags = appendRange(mem, dst.NodeFlags, src.NodeFlags[from.nodes:to.nodes])
	dst.NodeFrame = grow(mem, dst.NodeFrame, to.nodes-from.nodes)
	for _, f := range src.NodeFrame[from.nodes:to.nodes] {
		dst.NodeFrame = append(dst.NodeFrame, ln.frameMap[f])
	}
	for n := from.nodes; n < min(to.nodes, len(src.NodeChildren)); n++ {
		if s := src.NodeChildren[n]; s != (core.Span{}) {
			dst.NodeChildren = setSpan(mem, dst.NodeChildren, at.nodes+n-from.nodes, moved(s, at.children-from.children))
		}
	}
	for n := from.nodes; n < min(to.nodes, len(src.NodeTicks)); n++ {
		if s := src.NodeTicks[n]; s != (core.Span{}) {
			dst.NodeTicks = setSpan(mem, dst.NodeTicks, at.nodes+n-from.nodes, moved(s, at.positions-from.positions))
		}
	}
	dst.Children = appendRange(mem, dst.Children, src.Children[from.children:to.children])
	appendNarrow(mem, &dst.SampleIDs, &src.SampleIDs, from.samples, to.samples, core.NarrowInt)
	appendNarrow(mem, &dst.Deltas, &src.Deltas, from.deltas, to.deltas, core.NarrowFloat)
	dst.Stamps = appendRange(mem, dst.Stamps, src.Stamps[from.stamps:to.stamps])
	dst.Positions = appendRange(mem, dst.Positions, src.Positions[from.positions:to.positions])
	dst.TraceIDKey = appendRange(mem, dst.TraceIDKey, src.TraceIDKey[from.traceIDs:to.traceIDs])
	dst.TraceIDNode = appendRange(mem, dst.TraceIDNode, src.TraceIDNode[from.traceIDs:to.traceIDs])
}

// moved returns span s of a lane's arena where it lands in the load's, by moving it by d; the zero
// Span is a span never set, and stays.
func moved(s core.Span, d int) core.Span {
	if s != (core.Span{}) {
		s.Off = uint32(int(s.Off) + d)
	}
	return s
}

// appendRange appends vs to dst, charged.
func appendRange[T any](b *budget, dst, vs []T) []T {
	dst = grow(b, dst, len(vs))
	n := len(dst)
	dst = dst[:n+len(vs)]
	background.Copy(dst[n:], vs)
	return dst
}

// appendNarrow appends src's values [from, to) to dst as reading them in one pass would have
// (pushNarrow): a copy of each stretch up to dst's next widening check where both are halved
// around one bias, else value by value.
func appendNarrow[T int64 | float64](b *budget, dst, src *core.Narrow[T], from, to int, fit func(T) (int32, bool)) {
	k, _ := slices.BinarySearch(src.WideAt, uint32(from))
	for i := from; i < to; {
		if dst.Small == nil && src.Small == nil && (dst.Len() == 0 || dst.HalfBias == src.HalfBias) {
			if dst.Len() == 0 {
				dst.HalfBias = src.HalfBias
			}
			next := min(to, i+widenCheck-dst.Len()%widenCheck)
			shift := uint32(dst.Len() - i)
			dst.Half = appendRange(b, dst.Half, src.Half[i:next])
			for ; k < len(src.WideAt) && int(src.WideAt[k]) < next; k++ {
				dst.WideAt = push(b, dst.WideAt, src.WideAt[k]+shift)
				dst.Wide = push(b, dst.Wide, src.Wide[k])
			}
			checkWiden(b, dst, fit)
			i = next
			continue
		}
		var v T
		if src.Small != nil && src.Small[i] != core.NarrowEscape {
			v = T(src.Small[i])
		} else if src.Small == nil && src.Half[i] != core.HalfEscape {
			v = T(src.HalfBias + int64(src.Half[i]))
		} else {
			v = src.Wide[k]
			k++
		}
		pushNarrow(b, dst, v, fit)
		i++
	}
}
