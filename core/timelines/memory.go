package timelines

import (
	"bytes"
	"math"
	"sort"
	"strconv"

	"github.com/valyala/fastjson"

	"flamedesk/core"
	"flamedesk/internal/background"
)

// memoryCounters are the counters the panel's memory graph draws, in its order.
var memoryCounters = [...]string{"jsHeapSizeUsed", "documents", "nodes", "jsEventListeners", "gpuMemoryUsedKB"}

// Memory is the counter graph's data: per pid (as text, the JSON key), per counter, [ts, value]
// steps by time.
type Memory map[string]map[string][][2]float64

// buildMemory reads every UpdateCounters event (any phase) per process, by ts (file order on ties),
// keeping a point only when its value differs from the counter's previous one: the graph draws
// steps. gpuMemoryUsedKB is listed only when some event has it.
func buildMemory(tr *core.Trace) Memory {
	out := Memory{}
	name, ok := tr.Strings.Lookup("UpdateCounters")
	if !ok {
		return out
	}
	ev := &tr.Events
	// Each event's args are found beside it: the events and the args column are both in event
	// order, and one walk over both replaced a search of the args per event (a third of the
	// time on gen-trace-large's 66 K counters).
	type counterEvent struct {
		event int32
		args  []byte
	}
	byPid := map[int64][]counterEvent{}
	k := 0
	for i, n := range ev.Name {
		background.YieldEvery(i)
		if n != name {
			continue
		}
		for k < len(ev.Args) && int(ev.Args[k].Event) < i {
			k++
		}
		var raw []byte
		if k < len(ev.Args) && int(ev.Args[k].Event) == i {
			raw = ev.ArgsAt(ev.Args[k].Span)
		}
		pid := tr.Threads[ev.Thread[i]].Pid
		byPid[pid] = append(byPid[pid], counterEvent{int32(i), raw})
	}
	var parser fastjson.Parser
	noData := 0
	for pid, list := range byPid {
		sort.SliceStable(list, func(x, y int) bool { return ev.Ts[list[x].event] < ev.Ts[list[y].event] })
		// By memoryCounters index; the map is made at the end.
		var series [len(memoryCounters)][][2]float64
		for k, c := range list {
			// A counter's args are parsed: a few µs each, so a Yield every 256.
			if k&0xff == 0xff {
				background.Yield()
			}
			i, raw := c.event, c.args
			var vals [len(memoryCounters)]float64
			var has [len(memoryCounters)]bool
			if !engineCounters(raw, &vals, &has) && !parsedCounters(&parser, raw, &vals, &has) {
				noData++
				continue
			}
			for k, v := range vals {
				if !has[k] || math.IsInf(v, 0) {
					continue
				}
				s := series[k]
				if len(s) > 0 && s[len(s)-1][1] == v {
					continue
				}
				series[k] = append(s, [2]float64{ev.Ts[i], v})
			}
		}
		byName := make(map[string][][2]float64, len(memoryCounters))
		for k, c := range memoryCounters {
			switch {
			case series[k] != nil:
				byName[c] = series[k]
			case k < 4: // the panel lists the first four even without points
				byName[c] = [][2]float64{}
			}
		}
		out[strconv.FormatInt(pid, 10)] = byName
	}
	tr.Warnings.Add("UpdateCounters events without args.data (no memory counters)", noData)
	return out
}

// parsedCounters reads the memory counters of an event's raw args through p into vals, has[k]
// telling whether args.data has memoryCounters[k] as a number; false when the args are no object
// with a data object.
func parsedCounters(p *fastjson.Parser, raw []byte, vals *[len(memoryCounters)]float64, has *[len(memoryCounters)]bool) bool {
	if raw == nil {
		return false
	}
	v, err := p.ParseBytes(raw)
	if err != nil || v.Type() != fastjson.TypeObject {
		return false
	}
	data := v.Get("data")
	if data == nil || data.Type() != fastjson.TypeObject {
		return false
	}
	for k, c := range memoryCounters {
		vals[k], has[k] = num(data, c)
	}
	return true
}

// engineCounters is parsedCounters for args in the form the engine writes them, read without
// fastjson: {"data":{...}} without whitespace, whose members all have keys without escapes and
// non-negative integer values of up to 15 digits (exact as float64s). Most of buildMemory's time
// on a large trace went into parsing and walking such objects with fastjson. It reports false for
// anything else, which the caller reads through fastjson as before: a member's first occurrence
// counts, as fastjson's Get finds it.
func engineCounters(raw []byte, vals *[len(memoryCounters)]float64, has *[len(memoryCounters)]bool) bool {
	const open = `{"data":{`
	if !bytes.HasPrefix(raw, []byte(open)) {
		return false
	}
	s := raw[len(open):]
	if len(s) > 0 && s[0] == '}' {
		return string(s) == "}}"
	}
	// Each member takes at least 4 bytes off s.
	for {
		if len(s) == 0 || s[0] != '"' {
			return false
		}
		end := bytes.IndexByte(s[1:], '"')
		if end < 0 {
			return false
		}
		key := s[1 : 1+end]
		if bytes.IndexByte(key, '\\') >= 0 {
			return false
		}
		s = s[2+end:]
		if len(s) == 0 || s[0] != ':' {
			return false
		}
		s = s[1:]
		n := 0
		for n < len(s) && s[n] >= '0' && s[n] <= '9' {
			n++
		}
		if n == 0 || n > 15 || s[0] == '0' && n > 1 {
			return false
		}
		var x int64
		for _, c := range s[:n] {
			x = x*10 + int64(c-'0')
		}
		s = s[n:]
		if k := counterIndex(key); k >= 0 && !has[k] {
			vals[k], has[k] = float64(x), true
		}
		switch {
		case len(s) == 0:
			return false
		case s[0] == ',':
			s = s[1:]
		case s[0] == '}':
			return string(s) == "}}"
		default:
			return false
		}
	}
}

// counterIndex is key's index in memoryCounters, -1 for another key.
func counterIndex(key []byte) int {
	switch string(key) {
	case "jsHeapSizeUsed":
		return 0
	case "documents":
		return 1
	case "nodes":
		return 2
	case "jsEventListeners":
		return 3
	case "gpuMemoryUsedKB":
		return 4
	}
	return -1
}
