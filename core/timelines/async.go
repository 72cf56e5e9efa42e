package timelines

import (
	"sort"

	"flamedesk/core"
)

// asyncPair is an async begin matched with its end (or, without an end, with the instants of its
// id), as the engine's createMatchedSortedSyntheticEvents builds them for measures, console
// timings and animations.
type asyncPair struct {
	Begin, End int32   // event indexes; End is -1 when the pair closed on instants only
	Instants   []int32 // the nestable instants ('n') that went with it
	Ts, Dur    float64
	Thread     core.ThreadID // the end's thread, else the begin's
}

// asyncKey is the engine's synthetic id "cat:id:name".
type asyncKey struct {
	cat, id, name core.StrID
}

// pairAsync pairs the given events (any order) by category, async id and name: 'b' pushes, 'e'
// pops the latest 'b' of its key, 'n' are collected; other phases never pair. Events without an
// id are left out. The pairs come sorted by start, longer first. unpaired counts the begins and
// ends left alone.
func pairAsync(tr *core.Trace, list []int32) (pairs []asyncPair, unpaired int) {
	ev := &tr.Events
	sortEvents(ev, list)
	type match struct {
		begin, end int32
		instants   []int32
	}
	// Every end makes at most one match, and every match at most one pair: made to measure, the
	// two lists do not grow by doubling, which for a million measures left some 300 MB of old
	// copies behind (a few more matches come after the loop, from begins closed by instants).
	ends := 0
	for _, i := range list {
		if ev.Ph[i] == 'e' {
			ends++
		}
	}
	matches := make([]match, 0, ends)
	// The open begins of each key are a stack: top holds, by key, the position in list of the
	// latest open begin (-1 when none), and under, by position, the begin below it. Keys are
	// numbered in the order of their first begin. A map of keys to slices made a slice, an
	// allocation, for each key: a million of them for a million measures with ids of their own.
	keyOf := map[asyncKey]int32{}
	var top []int32
	var under []int32
	instants := map[asyncKey][]int32{}
	for pos, i := range list {
		id, src := ev.AsyncIDOf(int(i))
		if src == core.NoID || src == core.IDUnreadable {
			continue
		}
		k := asyncKey{ev.Cat[i], id, ev.Name[i]}
		switch ev.Ph[i] {
		case 'b':
			if under == nil {
				under = make([]int32, len(list))
			}
			ki, ok := keyOf[k]
			if !ok {
				ki = int32(len(top))
				keyOf[k] = ki
				top = append(top, -1)
			}
			under[pos] = top[ki]
			top[ki] = int32(pos)
		case 'n':
			instants[k] = append(instants[k], i)
		case 'e':
			ki, ok := keyOf[k]
			if !ok || top[ki] < 0 {
				unpaired++
				continue
			}
			b := list[top[ki]]
			top[ki] = under[top[ki]]
			// The engine takes instants from the back of the list while the front one starts at or
			// after the begin: copied as it is.
			var mine []int32
			if len(instants) > 0 {
				inst := instants[k]
				for len(inst) > 0 && ev.Ts[inst[0]] >= ev.Ts[b] {
					mine = append(mine, inst[len(inst)-1])
					inst = inst[:len(inst)-1]
				}
				if len(mine) > 0 {
					instants[k] = inst
				}
			}
			matches = append(matches, match{b, i, mine})
		}
	}
	if len(top) > 0 {
		keys := make([]asyncKey, len(top))
		for k, ki := range keyOf {
			keys[ki] = k
		}
		for ki, t := range top {
			if t < 0 {
				continue
			}
			for p := t; p >= 0; p = under[p] {
				unpaired++
			}
			if inst := instants[keys[ki]]; len(inst) > 0 {
				unpaired--
				matches = append(matches, match{list[t], -1, inst})
			}
		}
	}
	pairs = make([]asyncPair, 0, len(matches))
	for _, m := range matches {
		if m.end < 0 && len(m.instants) == 0 {
			continue
		}
		if id, _ := ev.AsyncIDOf(int(m.begin)); tr.Strings.Get(id) == "" {
			continue // the engine's key is then falsy, and the pair is dropped
		}
		p := asyncPair{Begin: m.begin, End: m.end, Instants: m.instants, Ts: ev.Ts[m.begin], Thread: ev.Thread[m.begin]}
		if m.end >= 0 {
			p.Dur = ev.Ts[m.end] - ev.Ts[m.begin]
			p.Thread = ev.Thread[m.end]
		}
		if p.Dur < 0 {
			unpaired++
			continue
		}
		pairs = append(pairs, p)
	}
	sort.SliceStable(pairs, func(a, b int) bool {
		x, y := &pairs[a], &pairs[b]
		return startsBefore(x.Ts, x.Ts+x.Dur, y.Ts, y.Ts+y.Dur) < 0
	})
	return pairs, unpaired
}
