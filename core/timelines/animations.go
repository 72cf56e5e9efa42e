package timelines

import (
	"strings"

	"flamedesk/core"
	"flamedesk/internal/background"
)

// Animation is one paired Animation of the Animations track.
type Animation struct {
	Name          string  `json:"name"` // the begin's args.data.displayName, else "Animation"
	Ts            float64 `json:"ts"`
	Dur           Num     `json:"dur"`
	Pid           int64   `json:"pid"`
	Tid           int64   `json:"tid"`
	ID            any     `json:"id"`            // the begin's args.data.id as written (string or number), nil when absent
	NonComposited bool    `json:"nonComposited"` // an instant reported a compositing failure: a warning triangle
	Level         int     `json:"level"`
}

// buildAnimations pairs the Animation events whose category has devtools.timeline like measures,
// and levels them in start order.
func buildAnimations(tr *core.Trace) []Animation {
	name, ok := tr.Strings.Lookup("Animation")
	if !ok {
		return nil
	}
	ev := &tr.Events
	catOK := map[core.StrID]bool{}
	var list []int32
	for i, n := range ev.Name {
		background.YieldEvery(i)
		if n != name {
			continue
		}
		c := ev.Cat[i]
		ok, seen := catOK[c]
		if !seen {
			ok = strings.Contains(tr.Strings.Get(c), "devtools.timeline")
			catOK[c] = ok
		}
		if ok {
			list = append(list, int32(i))
		}
	}
	pairs, unpaired := pairAsync(tr, list)
	tr.Warnings.Add("Animation events without their other half (not drawn)", unpaired)
	a := &args{tr: tr}
	var r rows
	out := make([]Animation, 0, len(pairs))
	for _, p := range pairs {
		th := tr.Threads[p.Thread]
		an := Animation{Name: "Animation", Ts: p.Ts, Dur: Num(p.Dur), Pid: th.Pid, Tid: th.Tid, Level: r.place(p.Ts, p.Dur)}
		begin := a.parse(int(p.Begin))
		if n, ok := str(begin, "data", "displayName"); ok && n != "" {
			an.Name = n
		}
		if x := begin.Get("data", "id"); x != nil {
			an.ID = jsonScalar(x)
		}
		for _, i := range p.Instants {
			if truthy(a.parse(int(i)), "data", "compositeFailed") {
				an.NonComposited = true
				break
			}
		}
		out = append(out, an)
	}
	return out
}
