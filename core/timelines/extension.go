package timelines

import (
	"sort"
	"strconv"

	"flamedesk/core"
)

// groupExtension sorts the extension entries and groups them as the panel draws them: by track
// group (else by track) in the order of their first entry; within a group, tracks in the order a
// JavaScript object lists its keys (integer-like names first, ascending, then as they came); each
// track levelled from its own first row.
func groupExtension(tr *core.Trace, entries []extEntry) []ExtensionGroup {
	sort.SliceStable(entries, func(a, b int) bool {
		x, y := &entries[a], &entries[b]
		return startsBefore(x.ts, x.ts+x.dur, y.ts, y.ts+y.dur) < 0
	})
	type group struct {
		ExtensionGroup
		byTrack map[string]int
	}
	var groups []*group
	byKey := map[string]*group{}
	for _, e := range entries {
		key := e.group
		if key == "" {
			key = "track-name-" + e.track
		}
		g := byKey[key]
		if g == nil {
			name := e.group
			if name == "" {
				name = e.track
			}
			g = &group{ExtensionGroup: ExtensionGroup{Name: name, IsTrackGroup: e.group != ""}, byTrack: map[string]int{}}
			byKey[key] = g
			groups = append(groups, g)
		}
		k, ok := g.byTrack[e.track]
		if !ok {
			k = len(g.Tracks)
			g.byTrack[e.track] = k
			g.Tracks = append(g.Tracks, ExtensionTrack{Name: e.track})
		}
		th := tr.Threads[e.thread]
		g.Tracks[k].Entries = append(g.Tracks[k].Entries, ExtensionEntry{Name: e.name, Ts: e.ts, Dur: Num(e.dur), Pid: th.Pid,
			Tid: th.Tid, Source: e.source, Color: e.color, TooltipText: e.tooltip})
	}
	out := make([]ExtensionGroup, 0, len(groups))
	for _, g := range groups {
		sort.SliceStable(g.Tracks, func(a, b int) bool {
			x, xi := arrayIndex(g.Tracks[a].Name)
			y, yi := arrayIndex(g.Tracks[b].Name)
			switch {
			case xi && yi:
				return x < y
			case xi != yi:
				return xi
			}
			return false
		})
		for k := range g.Tracks {
			var r rows
			list := g.Tracks[k].Entries
			for j := range list {
				list[j].Level = r.place(list[j].Ts, float64(list[j].Dur))
			}
		}
		out = append(out, g.ExtensionGroup)
	}
	return out
}

// arrayIndex tells a property name that JavaScript treats as an array index ("0", "17", not "01").
func arrayIndex(s string) (uint64, bool) {
	if s == "" || (len(s) > 1 && s[0] == '0') {
		return 0, false
	}
	n, err := strconv.ParseUint(s, 10, 32)
	if err != nil || n == 1<<32-1 {
		return 0, false
	}
	return n, true
}
