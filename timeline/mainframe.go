package timeline

import (
	"github.com/valyala/fastjson"

	"flamedesk/core"
)

// mainFrameURLs finds the renderer processes that showed an outermost main frame, with the frame's
// URL, from the events Chrome writes when tracing starts and when a frame commits a navigation.
// It reads only what the loader kept of their args; a trace without them gives an empty map, and
// New then falls back to the thread names.
func mainFrameURLs(tr *core.Trace) map[int64]string {
	out := map[int64]string{}
	ev := &tr.Events
	var wanted [2]core.StrID
	var ok [2]bool
	wanted[0], ok[0] = tr.Strings.Lookup("TracingStartedInBrowser")
	wanted[1], ok[1] = tr.Strings.Lookup("FrameCommittedInBrowser")
	if !ok[0] && !ok[1] {
		return out
	}
	var p fastjson.Parser
	for i, name := range ev.Name {
		if !(ok[0] && name == wanted[0]) && !(ok[1] && name == wanted[1]) {
			continue
		}
		raw := ev.ArgsJSON(i)
		if raw == nil {
			continue
		}
		v, err := p.ParseBytes(raw)
		if err != nil {
			continue
		}
		data := v.Get("data")
		if data == nil {
			continue
		}
		if frames := data.GetArray("frames"); frames != nil {
			for _, f := range frames {
				noteMainFrame(out, f)
			}
		} else {
			noteMainFrame(out, data)
		}
	}
	return out
}

// noteMainFrame records f's process when f is an outermost main frame: one that says so, or, in
// traces older than that flag, one without a parent.
func noteMainFrame(out map[int64]string, f *fastjson.Value) {
	pidV := f.Get("processId")
	if pidV == nil {
		return
	}
	pid, err := pidV.Int64()
	if err != nil {
		return
	}
	if flag := f.Get("isOutermostMainFrame"); flag != nil {
		if flag.Type() != fastjson.TypeTrue {
			return
		}
	} else if f.Exists("parent") {
		return
	}
	url := string(f.GetStringBytes("url"))
	// The last navigation's URL wins: it is what the renderer showed when tracing stopped.
	if _, seen := out[pid]; !seen || url != "" {
		out[pid] = url
	}
}
