package timelines

import (
	"math"
	"sort"
	"strconv"

	"github.com/valyala/fastjson"

	"flamedesk/core"
)

// memoryCounters are the counters the panel's memory graph draws, in its order.
var memoryCounters = []string{"jsHeapSizeUsed", "documents", "nodes", "jsEventListeners", "gpuMemoryUsedKB"}

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
	byPid := map[int64][]int32{}
	for i, n := range ev.Name {
		if n == name {
			pid := tr.Threads[ev.Thread[i]].Pid
			byPid[pid] = append(byPid[pid], int32(i))
		}
	}
	a := &args{tr: tr}
	noData := 0
	for pid, list := range byPid {
		sort.SliceStable(list, func(x, y int) bool { return ev.Ts[list[x]] < ev.Ts[list[y]] })
		series := map[string][][2]float64{}
		for _, c := range memoryCounters[:4] {
			series[c] = [][2]float64{}
		}
		for _, i := range list {
			data := a.parse(int(i)).Get("data")
			if data == nil || data.Type() != fastjson.TypeObject {
				noData++
				continue
			}
			for _, c := range memoryCounters {
				v, ok := num(data, c)
				if !ok || math.IsInf(v, 0) {
					continue
				}
				s := series[c]
				if len(s) > 0 && s[len(s)-1][1] == v {
					continue
				}
				series[c] = append(s, [2]float64{ev.Ts[i], v})
			}
		}
		out[strconv.FormatInt(pid, 10)] = series
	}
	tr.Warnings.Add("UpdateCounters events without args.data (no memory counters)", noData)
	return out
}
