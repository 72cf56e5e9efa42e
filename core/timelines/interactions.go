package timelines

import (
	"sort"

	"github.com/valyala/fastjson"

	"flamedesk/core"
	"flamedesk/internal/background"
)

// Interaction is a user interaction (INP) built from an EventTiming begin/end pair. Nested ones
// (hidden under a longer interaction of the same kind that ends at the same time) are not drawn.
type Interaction struct {
	Type               string  `json:"type"`
	InteractionID      Num     `json:"interactionId"`
	Ts                 float64 `json:"ts"`
	Dur                float64 `json:"dur"`
	ProcessingStart    Num     `json:"processingStart"`
	ProcessingEnd      Num     `json:"processingEnd"`
	InputDelay         Num     `json:"inputDelay"`
	MainThreadHandling Num     `json:"mainThreadHandling"`
	PresentationDelay  Num     `json:"presentationDelay"`
	Pid                int64   `json:"pid"`
	Tid                int64   `json:"tid"`
	Nested             bool    `json:"nested"`
	Level              Row     `json:"level"`

	end float64 // the end event's ts
}

// phases recomputes the three phases from the processing span.
func (in *Interaction) phases() {
	in.InputDelay = in.ProcessingStart - Num(in.Ts)
	in.MainThreadHandling = in.ProcessingEnd - in.ProcessingStart
	in.PresentationDelay = Num(in.end) - in.ProcessingEnd
}

// interactionCategory groups event types the way nesting does: pointer, keyboard, other.
func interactionCategory(t string) int {
	switch t {
	case "pointerdown", "touchstart", "pointerup", "touchend", "mousedown", "mouseup", "click":
		return 0
	case "keydown", "keypress", "keyup":
		return 1
	}
	return 2
}

// buildInteractions pairs the EventTiming events into interactions and marks the nested ones.
func buildInteractions(tr *core.Trace) []Interaction {
	name, ok := tr.Strings.Lookup("EventTiming")
	if !ok {
		return nil
	}
	ev := &tr.Events
	a := &args{tr: tr}
	var begins, ends []int32
	for i, n := range ev.Name {
		background.YieldEvery(i)
		if n != name {
			continue
		}
		switch ev.Ph[i] {
		case 'e':
			ends = append(ends, int32(i))
		case 'b':
			data := a.parse(i).Get("data")
			if data == nil || !truthy(data) {
				continue
			}
			if d := data.Get("duration"); d != nil {
				if f, ok := jsNumeric(d); ok && f < 1 {
					continue
				}
			}
			id := data.Get("interactionId")
			if id == nil {
				continue
			}
			if f, ok := jsNumeric(id); ok && f == 0 && id.Type() == fastjson.TypeNumber {
				continue
			}
			begins = append(begins, int32(i))
		}
	}
	// Merge the two lists (each in file order) by time; of two that compare equal only the begin
	// is kept, as the engine's mergeOrdered does.
	merged := make([]int32, 0, len(begins)+len(ends))
	i, j := 0, 0
	for i < len(begins) && j < len(ends) {
		b, e := begins[i], ends[j]
		c := startsBefore(ev.Ts[b], ev.Ts[b]+rawDur(ev, b), ev.Ts[e], ev.Ts[e]+rawDur(ev, e))
		if c <= 0 {
			merged = append(merged, b)
			i++
		} else {
			merged = append(merged, e)
		}
		if c >= 0 {
			j++
		}
	}
	merged = append(merged, begins[i:]...)
	merged = append(merged, ends[j:]...)

	// Pair by the raw "id" field (events without one share a key).
	const noID = core.StrID(^uint32(0))
	idOf := func(k int32) core.StrID {
		if id, src := ev.AsyncIDOf(int(k)); src == core.IDField {
			return id
		}
		return noID
	}
	open := map[core.StrID][]int32{}
	var out []Interaction
	incomplete := 0
	for _, k := range merged {
		if ev.Ph[k] == 'b' {
			id := idOf(k)
			open[id] = append(open[id], k)
			continue
		}
		id := idOf(k)
		list := open[id]
		if len(list) == 0 {
			continue
		}
		b := list[len(list)-1]
		open[id] = list[:len(list)-1]
		data := a.parse(int(b)).Get("data")
		typ, _ := str(data, "type")
		iid, _ := num(data, "interactionId")
		stamp, ok1 := num(data, "timeStamp")
		ps, ok2 := num(data, "processingStart")
		pe, ok3 := num(data, "processingEnd")
		if typ == "" || !truthy(data, "interactionId") || !ok1 || !ok2 || !ok3 || stamp == 0 || ps == 0 || pe == 0 {
			incomplete++
			continue
		}
		th := tr.Threads[ev.Thread[b]]
		in := Interaction{Type: typ, InteractionID: Num(iid), Ts: ev.Ts[b], Dur: ev.Ts[k] - ev.Ts[b],
			ProcessingStart: Num((ps*1000 - stamp*1000) + ev.Ts[b]), ProcessingEnd: Num((pe*1000 - stamp*1000) + ev.Ts[b]),
			Pid: th.Pid, Tid: th.Tid, end: ev.Ts[k], Level: noRow}
		in.phases()
		out = append(out, in)
	}
	tr.Warnings.Add("EventTiming pairs without type, interactionId, timeStamp or processing times (not interactions)", incomplete)
	sort.SliceStable(out, func(x, y int) bool {
		p, q := &out[x], &out[y]
		return startsBefore(p.Ts, p.Ts+p.Dur, q.Ts, q.Ts+q.Dur) < 0
	})
	markNested(out)
	return out
}

// markNested keeps, per category and end time, the interaction that starts first (of two that
// start together with the same interactionId, the one with the longer processing), widening the
// processing span of the stored one to cover the others. After a replacement the engine widens the
// one it replaced (now nested) instead of the kept one: copied. The kept ones are levelled in start
// order.
func markNested(list []Interaction) {
	type slot struct {
		byEnd map[float64]int
		order []float64
	}
	var cats [3]slot
	for c := range cats {
		cats[c].byEnd = map[float64]int{}
	}
	for k := range list {
		in := &list[k]
		s := &cats[interactionCategory(in.Type)]
		end := in.Ts + in.Dur
		cur, ok := s.byEnd[end]
		if !ok {
			s.byEnd[end] = k
			s.order = append(s.order, end)
			continue
		}
		stored := &list[cur]
		if in.Ts < stored.Ts {
			s.byEnd[end] = k
		} else if in.Ts == stored.Ts && in.InteractionID == stored.InteractionID {
			if in.ProcessingEnd-in.ProcessingStart > stored.ProcessingEnd-stored.ProcessingStart {
				s.byEnd[end] = k
			}
		}
		if in.ProcessingStart < stored.ProcessingStart {
			stored.ProcessingStart = in.ProcessingStart
			stored.phases()
		}
		if in.ProcessingEnd > stored.ProcessingEnd {
			stored.ProcessingEnd = in.ProcessingEnd
			stored.phases()
		}
	}
	var kept []int
	for c := range cats {
		for _, end := range cats[c].order {
			kept = append(kept, cats[c].byEnd[end])
		}
	}
	sort.SliceStable(kept, func(x, y int) bool { return list[kept[x]].Ts < list[kept[y]].Ts })
	for k := range list {
		list[k].Nested = true
	}
	var r rows
	for _, k := range kept {
		list[k].Nested = false
		list[k].Level = Row(r.place(list[k].Ts, list[k].Dur))
	}
}

// jsNumeric is the number a JSON value compares as in JavaScript (null is 0); ok is false for
// values that compare as NaN.
func jsNumeric(v *fastjson.Value) (float64, bool) {
	switch v.Type() {
	case fastjson.TypeNumber:
		f, err := v.Float64()
		return f, err == nil
	case fastjson.TypeNull, fastjson.TypeFalse:
		return 0, true
	case fastjson.TypeTrue:
		return 1, true
	}
	return 0, false
}
