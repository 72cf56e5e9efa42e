package load

import (
	"testing"

	"flamedesk/core"
)

// The async id is DevTools' extractId (id, else id2.global, else id2.local), kept for the phases
// that pair by id and for Screenshot events; the args of User Timing and console.time events are
// kept by category.
func TestAsyncIDs(t *testing.T) {
	tr := mustLoad(t, `[
{"name":"m","cat":"blink.user_timing","ph":"b","ts":10,"pid":1,"tid":1,"id":"0x1","args":{"detail":"{}"}},
{"name":"m","cat":"blink.user_timing","ph":"e","ts":20,"pid":1,"tid":1,"id2":{"local":"0x2","global":7},"args":{}},
{"name":"m","cat":"blink.console","ph":"n","ts":20,"pid":1,"tid":1,"id2":{"local":"0x3"},"args":{"a":1}},
{"name":"X","cat":"x","ph":"X","ts":20,"dur":1,"pid":1,"tid":1,"id":"0x9","args":{"a":1}},
{"name":"Screenshot","cat":"x","ph":"O","ts":20,"pid":1,"tid":1,"id":null,"args":{"snapshot":"AAAA"}},
{"name":"Screenshot","cat":"x","ph":"O","ts":20,"pid":1,"tid":1,"args":{"snapshot":"AAAA"}},
{"name":"T","cat":"x","ph":"S","ts":20,"pid":1,"tid":1,"id":12.5}
]`)
	type want struct {
		id  string
		src core.IDSource
	}
	wants := []want{{"0x1", core.IDField}, {"7", core.IDGlobal}, {"0x3", core.IDLocal}, {"", core.NoID},
		{"", core.IDUnreadable}, {"", core.NoID}, {"12.5", core.IDField}}
	if tr.Events.Len() != len(wants) {
		t.Fatalf("%d events, want %d", tr.Events.Len(), len(wants))
	}
	for i, w := range wants {
		id, src := tr.Events.AsyncIDOf(i)
		if tr.Strings.Get(id) != w.id || src != w.src {
			t.Errorf("event %d: id %q from %d, want %q from %d", i, tr.Strings.Get(id), src, w.id, w.src)
		}
	}
	for i, keep := range []bool{true, true, true, false, true, true, false} {
		if got := tr.Events.ArgsJSON(i) != nil; got != keep {
			t.Errorf("event %d: args kept %v, want %v", i, got, keep)
		}
	}
}
