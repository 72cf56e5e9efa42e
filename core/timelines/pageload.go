package timelines

import (
	"sort"

	"github.com/valyala/fastjson"

	"flamedesk/core"
	"flamedesk/internal/background"
)

// PageLoadMarker is one of the page-load markers the Timings track and the vertical markers show:
// navigationStart, FP, FCP, DCL, L, LCP and their soft-navigation kinds (RULES.md §7 "Page-load
// markers").
type PageLoadMarker struct {
	Kind         string `json:"kind"` // navigationStart, softNavigationStart, FP, FCP, DCL, L, LCP, softLCP
	Name         string `json:"name"`
	Ts           Num    `json:"ts"`
	Pid          int64  `json:"pid"`
	NavigationID Raw    `json:"navigationId"`
	// SinceNavigation is the time the panel prints: ts minus its navigation's, else minus the
	// trace's start.
	SinceNavigation Num `json:"sinceNavigation"`
	// PanelMarker tells the markers the panel draws as vertical lines over every track (not FP,
	// nor the soft-navigation kinds).
	PanelMarker bool  `json:"panelMarker"`
	Event       int32 `json:"-"` // index into tr.Events
}

// The page-load events, in the order of pageLoadNames.
const (
	plNavigationStart = iota
	plSoftNavigationStart
	plFP
	plFCP
	plDCL
	plL
	plLCP
	plSoftLCP
	plInteractive
)

var pageLoadNames = []string{
	"navigationStart", "SoftNavigationStart", "firstPaint", "firstContentfulPaint", "MarkDOMContent",
	"MarkLoad", "largestContentfulPaint::Candidate", "largestContentfulPaint::CandidateForSoftNavigation",
	"InteractiveTime",
}

var pageLoadKinds = []string{"navigationStart", "softNavigationStart", "FP", "FCP", "DCL", "L", "LCP", "softLCP", ""}

// pageLoadEvent is what one page-load event contributes, read once from its args.
type pageLoadEvent struct {
	event        int32
	which        int
	ts           float64
	pid          int64
	frame        string // args.frame, or args.data.frame for DCL and L
	navigationID Raw
	// navigation is the event's navigation: -1 none, else an index into Meta.Navigations, or into
	// soft (ts of SoftNavigationStart events) when isSoft.
	navigation int
	navTs      float64
	candidate  float64 // LCP candidateIndex
}

// buildPageLoad finds the page-load markers of the main frame: per (frame, navigation) the LCP
// candidate with the highest candidateIndex, and every other marker event, sorted by ts.
func buildPageLoad(tr *core.Trace, m *Meta) []PageLoadMarker {
	names := lookupNames(tr, pageLoadNames...)
	if names.empty() {
		return nil
	}
	a := &args{tr: tr}
	ev := &tr.Events
	var list []pageLoadEvent
	softNavTs := map[string]float64{}
	var noNavID, noFrame, noCandidate int
	for i, name := range ev.Name {
		background.YieldEvery(i)
		which, ok := names.find(name)
		if !ok {
			continue
		}
		v := a.parse(i)
		if which == plNavigationStart {
			if u, ok := str(v, "data", "documentLoaderURL"); ok && u == "" {
				continue // not a navigation for the engine
			}
		}
		p := pageLoadEvent{event: int32(i), which: which, ts: ev.Ts[i], pid: tr.Threads[ev.Thread[i]].Pid, navigation: -1}
		p.frame, _ = key(v, "frame")
		if which == plDCL || which == plL {
			if !truthy(v, "data", "frame") {
				noFrame++
				continue
			}
			p.frame, _ = key(v, "data", "frame")
		}
		p.navigationID = raw(v, "data", "navigationId")
		if c := v.Get("data", "candidateIndex"); c != nil {
			p.candidate = jsNum(v, "data", "candidateIndex")
		}
		switch which {
		case plSoftNavigationStart:
			if id, ok := key(v, "context", "performanceTimelineNavigationId"); ok {
				softNavTs[id] = p.ts
			}
		case plFCP, plFP, plLCP:
			if !truthy(v, "data", "navigationId") {
				noNavID++
				continue
			}
		case plSoftLCP:
			if !truthy(v, "data", "performanceTimelineNavigationId") && !truthy(v, "data", "navigationId") {
				noNavID++
				continue
			}
		}
		if (which == plLCP || which == plSoftLCP) && !(p.candidate != 0 && p.candidate == p.candidate) {
			noCandidate++
			continue
		}
		list = append(list, p)
	}
	tr.Warnings.Add("FCP, FP or LCP events without args.data.navigationId (DevTools refuses such a trace): not shown", noNavID)
	tr.Warnings.Add("DOMContentLoaded or load markers without args.data.frame (DevTools refuses such a trace): not shown", noFrame)
	tr.Warnings.Add("LCP candidates without a candidateIndex (DevTools refuses such a trace): not shown", noCandidate)

	sort.SliceStable(list, func(x, y int) bool { return list[x].ts < list[y].ts })

	// The LCP candidate of each (frame, navigation): the one with the highest candidateIndex. The
	// engine stores metrics per frame, then per navigation, each in first-stored order.
	type navKey struct {
		nav  int
		soft bool
	}
	best := map[string]map[navKey]int{}
	var frameOrder []string
	navOrder := map[string][]navKey{}
	for k := range list {
		p := &list[k]
		nav, soft := m.pageLoadNavigation(a, p, softNavTs)
		if nav < 0 || p.which == plNavigationStart || p.which == plSoftNavigationStart {
			continue
		}
		if !m.frameShownBy(p.frame, p.pid) {
			continue
		}
		byNav := best[p.frame]
		if byNav == nil {
			byNav = map[navKey]int{}
			best[p.frame] = byNav
			frameOrder = append(frameOrder, p.frame)
		}
		key := navKey{nav, soft}
		prev, seen := byNav[key]
		if !seen {
			byNav[key] = -1
			prev = -1
			navOrder[p.frame] = append(navOrder[p.frame], key)
		}
		if p.which != plLCP && p.which != plSoftLCP {
			continue
		}
		if prev < 0 || list[prev].candidate < p.candidate {
			byNav[key] = k
		}
	}
	var markers []*pageLoadEvent
	for _, frame := range frameOrder {
		for _, key := range navOrder[frame] {
			if k := best[frame][key]; k >= 0 {
				markers = append(markers, &list[k])
			}
		}
	}
	for k := range list {
		if w := list[k].which; w != plLCP && w != plSoftLCP && w != plInteractive {
			markers = append(markers, &list[k])
		}
	}
	out := make([]PageLoadMarker, 0, len(markers))
	for _, p := range markers {
		if p.frame != m.MainFrameID {
			continue
		}
		p.navTs = m.sinceNavigationBase(a.parse(int(p.event)), p.which, p.ts, softNavTs)
		out = append(out, PageLoadMarker{
			Kind: pageLoadKinds[p.which], Name: tr.Strings.Get(ev.Name[p.event]), Ts: Num(p.ts), Pid: p.pid,
			NavigationID: p.navigationID, SinceNavigation: Num(p.ts - p.navTs),
			PanelMarker: p.which == plNavigationStart || p.which == plLCP || p.which == plFCP || p.which == plDCL || p.which == plL,
			Event:       p.event,
		})
	}
	sort.SliceStable(out, func(x, y int) bool { return out[x].Ts < out[y].Ts })
	return out
}

// pageLoadNavigation is the navigation a page-load event belongs to, as the engine looks it up:
// by navigationId for paints (by the soft navigation's id for a soft LCP), by the frame's last
// navigation at or before the event for DCL, load and InteractiveTime. soft tells a soft navigation.
func (m *Meta) pageLoadNavigation(a *args, p *pageLoadEvent, softNavTs map[string]float64) (nav int, soft bool) {
	switch p.which {
	case plFCP, plFP, plLCP, plSoftLCP:
		v := a.parse(int(p.event))
		if p.which == plSoftLCP && truthy(v, "data", "performanceTimelineNavigationId") {
			id, _ := key(v, "data", "performanceTimelineNavigationId")
			if _, ok := softNavTs[id]; !ok {
				return -1, false
			}
			return softIndex(softNavTs, id), true
		}
		id, _ := key(v, "data", "navigationId")
		if n, ok := m.NavigationByID[id]; ok {
			return n, false
		}
		return -1, false
	case plSoftNavigationStart:
		return -1, false // stored against itself, but never a metric
	case plDCL, plL, plInteractive:
		return m.frameNavigationAt(p.frame, p.ts), false
	}
	return -1, false
}

// softIndex gives each soft navigation id a stable small number, for use as a map key.
func softIndex(softNavTs map[string]float64, id string) int {
	keys := sortedKeys(softNavTs)
	return sort.SearchStrings(keys, id)
}

// frameNavigationAt is the frame's last navigation that started at or before ts, -1 when none.
func (m *Meta) frameNavigationAt(frame string, ts float64) int {
	if frame == "" {
		return -1
	}
	navs := m.NavigationsByFrame[frame]
	for k := len(navs) - 1; k >= 0; k-- {
		if float64(m.Navigations[navs[k]].Ts) <= ts {
			return navs[k]
		}
	}
	return -1
}

// frameShownBy tells whether the process pid showed the frame (its metrics count only then).
func (m *Meta) frameShownBy(frame string, pid int64) bool {
	for _, p := range m.FrameProcesses[frame] {
		if p.Pid == pid {
			return true
		}
	}
	return false
}

// sinceNavigationBase is the time the panel counts a marker from: its soft navigation for a soft
// LCP, its navigation by id, else the frame's navigation at its time, else the trace's start.
func (m *Meta) sinceNavigationBase(v *fastjson.Value, which int, ts float64, softNavTs map[string]float64) float64 {
	base := float64(m.Bounds.Min)
	switch {
	case which == plSoftLCP && truthy(v, "data", "performanceTimelineNavigationId"):
		id, _ := key(v, "data", "performanceTimelineNavigationId")
		if t, ok := softNavTs[id]; ok {
			base = t
		}
	case truthy(v, "data", "navigationId"):
		id, _ := key(v, "data", "navigationId")
		if n, ok := m.NavigationByID[id]; ok {
			base = float64(m.Navigations[n].Ts)
		}
	case truthy(v, "data", "frame"):
		f, _ := key(v, "data", "frame")
		if n := m.frameNavigationAt(f, ts); n >= 0 {
			base = float64(m.Navigations[n].Ts)
		}
	}
	return base
}
