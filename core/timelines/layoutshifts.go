package timelines

import (
	"math"
	"sort"

	"github.com/valyala/fastjson"

	"flamedesk/core"
	"flamedesk/internal/background"
)

// LayoutShifts is the Layout shifts track: the shifts (diamonds) and their clusters (session
// windows), each levelled from the track's first row.
type LayoutShifts struct {
	Shifts   []LayoutShift  `json:"shifts"`
	Clusters []ShiftCluster `json:"clusters"`
}

// LayoutShift is one LayoutShift event without recent input.
type LayoutShift struct {
	Ts             float64 `json:"ts"`
	Score          any     `json:"score"` // args.data.weighted_score_delta as written
	Cluster        int     `json:"cluster"`
	ScoreInCluster Num     `json:"scoreInCluster"` // the cluster's running sum up to this shift
	Pid            int64   `json:"pid"`
	Frame          any     `json:"frame"`
	Level          int     `json:"level"`
	// Event indexes tr.Events.
	Event int32 `json:"-"`
}

// ShiftCluster is a session window of shifts.
type ShiftCluster struct {
	ID           int     `json:"id"`
	Ts           float64 `json:"ts"`
	Dur          Num     `json:"dur"` // the drawn bar: last shift − first + 1 s
	End          Num     `json:"end"` // the session window's end
	Score        Num     `json:"score"`
	Shifts       int     `json:"shifts"`
	WorstShiftTs Num     `json:"worstShiftTs"`
	NavigationID any     `json:"navigationId"`
	Level        int     `json:"level"`
}

const (
	maxClusterDur = 5e6 // µs: a session window lasts at most 5 s
	maxShiftGap   = 1e6 // µs: and ends after 1 s without a shift
	noNavigation  = "NO_NAVIGATION"
)

// buildLayoutShifts clusters the LayoutShift events (of every process) that have no recent input.
func buildLayoutShifts(tr *core.Trace, m *Meta) LayoutShifts {
	var out LayoutShifts
	name, ok := tr.Strings.Lookup("LayoutShift")
	if !ok {
		return out
	}
	ev := &tr.Events
	a := &args{tr: tr}
	type shiftEv struct {
		i      int32
		data   bool
		score  float64 // NaN when not a number
		raw    any
		frame  any
		hasRaw bool
	}
	var shifts []shiftEv
	for i, n := range ev.Name {
		background.YieldEvery(i)
		if n != name {
			continue
		}
		v := a.parse(i)
		data := v.Get("data")
		if truthy(data, "had_recent_input") {
			continue
		}
		s := shiftEv{i: int32(i), score: math.NaN(), frame: jsonScalar(v.Get("frame"))}
		if data != nil && data.Type() == fastjson.TypeObject {
			s.data = true
			if x := data.Get("weighted_score_delta"); x != nil {
				s.raw, s.hasRaw = jsonScalar(x), true
				if x.Type() == fastjson.TypeNumber {
					s.score, _ = x.Float64()
				}
			}
		}
		shifts = append(shifts, s)
	}
	if len(shifts) == 0 {
		return out
	}
	sort.SliceStable(shifts, func(x, y int) bool { return ev.Ts[shifts[x].i] < ev.Ts[shifts[y].i] })

	var navs []Navigation
	for _, k := range m.NavigationsByFrame[m.MainFrameID] {
		navs = append(navs, m.Navigations[k])
	}
	type cluster struct {
		c       ShiftCluster
		winMin  float64
		winMax  float64
		score   float64
		members []int // indexes into out.Shifts
	}
	var clusters []*cluster
	first, last := ev.Ts[shifts[0].i], ev.Ts[shifts[0].i]
	lastNav := -2 // none yet (the engine's null differs from every index)
	noData := 0
	for _, s := range shifts {
		ts := ev.Ts[s.i]
		tooLong := ts-first > maxClusterDur
		gap := ts-last > maxShiftGap
		nav := nearestIndex(len(navs), func(k int) bool { return navs[k].Ts < ts }, true)
		navigated := nav != lastNav && nav >= 0
		if tooLong || gap || navigated || len(clusters) == 0 {
			end := math.Inf(1)
			if tooLong {
				end = min(end, first+maxClusterDur)
			}
			if gap {
				end = min(end, last+maxShiftGap)
			}
			if navigated {
				end = min(end, navs[nav].Ts)
			}
			if len(clusters) > 0 {
				clusters[len(clusters)-1].winMax = end
			}
			c := &cluster{winMin: ts, winMax: ts, c: ShiftCluster{NavigationID: noNavigation}}
			if nav >= 0 {
				c.c.NavigationID = nil
				if id := navs[nav].NavigationID; id != "" {
					c.c.NavigationID = id
				}
			}
			clusters = append(clusters, c)
			first = ts
		}
		c := clusters[len(clusters)-1]
		if !s.data {
			noData++
			continue
		}
		if s.hasRaw {
			c.score += s.score
		} else {
			c.score = math.NaN()
		}
		th := tr.Threads[ev.Thread[s.i]]
		c.members = append(c.members, len(out.Shifts))
		out.Shifts = append(out.Shifts, LayoutShift{Ts: ts, Score: s.raw, Cluster: len(clusters) - 1,
			ScoreInCluster: Num(c.score), Pid: th.Pid, Frame: s.frame, Event: s.i})
		c.winMax = ts
		last = ts
		lastNav = nav
	}
	tr.Warnings.Add("LayoutShift events without args.data (not drawn)", noData)

	// Clusters whose shifts all lack data have no first shift: the engine fails on them; we leave
	// them out.
	kept := clusters[:0]
	for _, c := range clusters {
		if len(c.members) > 0 {
			kept = append(kept, c)
		}
	}
	if len(kept) < len(clusters) {
		tr.Warnings.Add("layout shift clusters without any shift that has data (left out)", len(clusters)-len(kept))
	}
	// Renumber the clusters after any dropped ones.
	for k, c := range kept {
		for _, j := range c.members {
			out.Shifts[j].Cluster = k
		}
	}
	for k, c := range kept {
		if k == len(kept)-1 && c == clusters[len(clusters)-1] {
			next := nearestIndex(len(navs), func(j int) bool { return navs[j].Ts > c.winMax }, false)
			nextTs := math.Inf(1)
			if next > 0 { // the engine tests the index for truth: the first navigation never counts
				nextTs = navs[next].Ts
			}
			c.winMax = min(c.winMin+maxClusterDur, c.winMax+maxShiftGap, float64(m.Bounds.Max), nextTs)
		}
		worst, largest := -1, 0.0
		for _, j := range c.members {
			if sc, ok := out.Shifts[j].Score.(float64); ok && sc > largest {
				largest, worst = sc, j
			}
		}
		firstTs := out.Shifts[c.members[0]].Ts
		lastIdx := c.members[len(c.members)-1]
		lastEnd := out.Shifts[lastIdx].Ts + rawDur(ev, out.Shifts[lastIdx].Event)
		c.c.ID, c.c.Ts, c.c.End, c.c.Score, c.c.Shifts = k, firstTs, Num(c.winMax), Num(c.score), len(c.members)
		c.c.Dur = Num(lastEnd - firstTs + maxShiftGap)
		c.c.WorstShiftTs = Num(math.NaN())
		if worst >= 0 {
			c.c.WorstShiftTs = Num(out.Shifts[worst].Ts)
		}
	}
	var clusterRows, shiftRows rows
	for _, c := range kept {
		c.c.Level = clusterRows.place(c.c.Ts, float64(c.c.Dur))
		out.Clusters = append(out.Clusters, c.c)
	}
	for _, c := range kept {
		for _, j := range c.members {
			out.Shifts[j].Level = shiftRows.place(out.Shifts[j].Ts, 0)
		}
	}
	return out
}
