package timelines

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"flamedesk/core"
	"flamedesk/core/integrate"
	"flamedesk/core/load"
)

// buildFrom loads a trace written inline and builds its timelines, as `flamedesk dump` does.
func buildFrom(t testing.TB, trace string) (*core.Trace, *Timelines, []byte) {
	t.Helper()
	tr, err := load.Reader(context.Background(), strings.NewReader(trace), int64(len(trace)), nil)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	integrate.Build(tr)
	tl := Build(tr)
	b, err := json.Marshal(tl)
	if err != nil {
		t.Fatalf("the timelines do not marshal: %v", err)
	}
	return tr, tl, b
}

func warned(tr *core.Trace, part string) bool {
	for _, l := range tr.Warnings.Lines() {
		if strings.Contains(l, part) {
			return true
		}
	}
	return false
}

// A page with one frame, so that navigations and requests have somewhere to belong.
const page = `{"name":"TracingStartedInBrowser","ph":"I","ts":1000,"pid":1,"tid":1,"args":{"data":{"frames":[
  {"frame":"F","url":"https://a.test/","processId":2,"isOutermostMainFrame":true,"isInPrimaryMainFrame":true}]}}},
 {"name":"thread_name","ph":"M","pid":2,"tid":3,"args":{"name":"CrRendererMain"}},
 {"name":"RunTask","ph":"X","ts":1100,"dur":50,"pid":2,"tid":3},
 {"name":"navigationStart","ph":"R","ts":1200,"pid":2,"tid":3,"args":{"frame":"F","data":{"navigationId":"N1","documentLoaderURL":"https://a.test/"}}}`

// Every new kind meets bad input with a counted warning or the engine's own default, never a panic:
// a send without a finish, requests without data, without a url or with one the URL parser
// refuses, a timing object of wrong types, paints without a navigationId, an LCP without its index.
func TestBadInputIsWarnedAbout(t *testing.T) {
	trace := `[` + page + `,
 {"name":"ResourceSendRequest","ph":"I","ts":2000,"pid":2,"tid":3,"args":{"data":{"requestId":"r1","url":"https://a.test/x.js","priority":"High"}}},
 {"name":"ResourceReceiveResponse","ph":"I","ts":2500,"pid":2,"tid":3,"args":{"data":{"requestId":"r1","statusCode":"200","timing":{"requestTime":"x","sendStart":null,"dnsStart":true}}}},
 {"name":"ResourceSendRequest","ph":"I","ts":2100,"pid":2,"tid":3,"args":{"data":{"requestId":"r2"}}},
 {"name":"ResourceSendRequest","ph":"I","ts":2200,"pid":2,"tid":3,"args":{"data":{"requestId":"r3","url":"https://"}}},
 {"name":"ResourceFinish","ph":"I","ts":2300,"pid":2,"tid":3,"args":{}},
 {"name":"ResourceFinish","ph":"I","ts":2400,"pid":2,"tid":3,"args":{"data":{"requestId":7,"finishTime":"soon"}}},
 {"name":"WebSocketSend","ph":"I","ts":2600,"pid":2,"tid":3,"args":{"data":{"identifier":5}}},
 {"name":"WebSocketCreate","ph":"I","ts":2700,"pid":2,"tid":3,"args":{"data":{"identifier":6,"frame":"F","url":42}}},
 {"name":"firstContentfulPaint","ph":"R","ts":3000,"pid":2,"tid":3,"args":{"frame":"F","data":{}}},
 {"name":"largestContentfulPaint::Candidate","ph":"R","ts":3100,"pid":2,"tid":3,"args":{"frame":"F","data":{"navigationId":"N1"}}},
 {"name":"MarkDOMContent","ph":"R","ts":3200,"pid":2,"tid":3,"args":{"data":{}}},
 {"name":"MarkLoad","ph":"R","ts":3300,"pid":2,"tid":3,"args":{"data":{"frame":"F"}}}
]`
	tr, tl, _ := buildFrom(t, trace)
	// r1: sent, answered with nonsense timing, never finished: kept, its end is its send.
	if len(tl.Network) != 1 || tl.Network[0].RequestID.String() != "r1" {
		t.Fatalf("requests %+v, want r1 alone", tl.Network)
	}
	r := tl.Network[0]
	if r.Ts != 2000 || r.Dur != 0 || r.Finished || !r.HasResponse || string(r.StatusCode) != `"200"` {
		t.Errorf("r1: ts %v dur %v finished %v response %v status %s", r.Ts, r.Dur, r.Finished, r.HasResponse, r.StatusCode)
	}
	for _, want := range []string{
		"network events without args.data",
		"ResourceSendRequest has no url",
		"invalid url",
		"without args.data.navigationId",
		"without args.data.frame",
		"without a candidateIndex",
	} {
		if !warned(tr, want) {
			t.Errorf("no warning %q in %q", want, tr.Warnings.Lines())
		}
	}
	// The socket whose first event names no frame is dropped; the other keeps a url of "" for 42.
	if len(tl.WebSockets) != 1 || string(tl.WebSockets[0].Identifier) != "6" || tl.WebSockets[0].URL != "" {
		t.Errorf("web sockets %+v", tl.WebSockets)
	}
	// Only the load marker survives: it has its frame, and its navigation gives the time since.
	if len(tl.Timings.PageLoad) != 2 || tl.Timings.PageLoad[1].Kind != "L" || tl.Timings.PageLoad[1].SinceNavigation != 2100 {
		t.Errorf("page load %+v", tl.Timings.PageLoad)
	}
}

// A network request's timing breakdown on an input built so that every answer is known: requestTime
// 0.002 s (2000 µs) after a WillSendRequest at 1900 µs, DNS 1-3 ms, connect 3-8 ms with SSL 5-8 ms,
// send 8-9 ms, headers at 20 ms, finished at 0.030 s, the Finish event at 31000 µs.
func TestRequestTimingsFromAKnownInput(t *testing.T) {
	trace := `[` + page + `,
 {"name":"ResourceWillSendRequest","ph":"I","ts":1900,"pid":2,"tid":3,"args":{"data":{"requestId":"r"}}},
 {"name":"ResourceSendRequest","ph":"I","ts":1950,"pid":2,"tid":3,"args":{"data":{"requestId":"r","url":"https://a.test/","priority":"Low","renderBlocking":"blocking","frame":"F"}}},
 {"name":"ResourceChangePriority","ph":"I","ts":1960,"pid":2,"tid":3,"args":{"data":{"requestId":"r","priority":"High"}}},
 {"name":"ResourceReceiveResponse","ph":"I","ts":20500,"pid":2,"tid":3,"args":{"data":{"requestId":"r","statusCode":200,"mimeType":"text/html",
   "timing":{"requestTime":0.002,"dnsStart":1,"dnsEnd":3,"connectStart":3,"connectEnd":8,"sslStart":5,"sslEnd":8,"sendStart":8,"sendEnd":9,"receiveHeadersEnd":20,"proxyStart":-1,"proxyEnd":-1}}}},
 {"name":"ResourceFinish","ph":"I","ts":31000,"pid":2,"tid":3,"args":{"data":{"requestId":"r","finishTime":0.030,"encodedDataLength":100,"decodedBodyLength":300}}}
]`
	_, tl, _ := buildFrom(t, trace)
	if len(tl.Network) != 1 {
		t.Fatalf("requests %+v", tl.Network)
	}
	r := tl.Network[0]
	near := func(name string, got Num, want float64) {
		if d := float64(got) - want; d > 0.01 || d < -0.01 {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	near("ts", r.Ts, 1900)
	near("dur", r.Dur, 31000-1900)
	near("sendStartTime", r.SendStartTime, 2000+8000)
	near("downloadStart", r.DownloadStart, 2000+20000)
	near("finishTime", r.FinishTime, 30000)
	near("queueing", r.Queueing, 2000-1900)
	near("stalled", r.Stalled, 1000) // the first positive of dnsStart, connectStart, sendStart
	near("dnsLookup", r.DNSLookup, 2000)
	near("initialConnection", r.InitialConnection, 5000)
	near("ssl", r.SSL, 3000)
	near("requestSent", r.RequestSent, 1000)
	near("waiting", r.Waiting, 11000)
	near("download", r.Download, 30000-22000)
	near("networkDuration", r.NetworkDuration, 30000-1900)
	near("processingDuration", r.ProcessingDuration, 1000)
	near("totalTime", r.TotalTime, 30000-1900+1000)
	if r.Priority.String() != "High" || r.InitialPriority.String() != "Low" || !r.IsRenderBlocking || r.IsPushedResource != true {
		t.Errorf("priority %s/%s, render blocking %v, pushed %v", r.Priority, r.InitialPriority, r.IsRenderBlocking, r.IsPushedResource)
	}
}

// FuzzBuild runs hostile traces through the loader, the tracks and every timelines list: whatever
// the input, Build must not panic and its result must marshal.
func FuzzBuild(f *testing.F) {
	f.Add([]byte(`[` + page + `]`))
	f.Add([]byte(`[` + page + `,{"name":"ResourceSendRequest","ph":"I","ts":5,"pid":2,"tid":3,"args":{"data":{"requestId":1,"url":"http://x/"}}},
{"name":"ResourceReceiveResponse","ph":"I","ts":6,"pid":2,"tid":3,"args":{"data":{"requestId":1,"timing":{"requestTime":1e308,"sendStart":1e308}}}},
{"name":"ResourceFinish","ph":"I","ts":7,"pid":2,"tid":3,"args":{"data":{"requestId":1,"finishTime":-1e308}}},
{"name":"WebSocketDestroy","ph":"I","ts":8,"pid":2,"tid":3,"args":{"data":{"identifier":"w","workerId":"W"}}},
{"name":"largestContentfulPaint::CandidateForSoftNavigation","ph":"R","ts":9,"pid":2,"tid":3,"args":{"frame":"F","data":{"candidateIndex":2,"performanceTimelineNavigationId":3}}},
{"name":"SoftNavigationStart","ph":"R","ts":8,"pid":2,"tid":3,"args":{"frame":"F","context":{"performanceTimelineNavigationId":3}}},
{"name":"performance.mark","cat":"blink.user_timing","ph":"R","ts":10,"pid":2,"tid":3,"args":{"data":{"detail":"{\"devtools\":{\"track\":\"t\"}}"}}},
{"name":"m","cat":"blink.user_timing","ph":"b","id":"1","ts":10,"pid":2,"tid":3,"args":{}},
{"name":"m","cat":"blink.user_timing","ph":"e","id":"1","ts":9,"pid":2,"tid":3,"args":{}},
{"name":"EventTiming","ph":"b","id":"e","ts":11,"pid":2,"tid":3,"args":{"data":{"duration":5,"interactionId":3,"type":"click"}}},
{"name":"LayoutShift","ph":"I","ts":12,"pid":2,"tid":3,"args":{"data":{"weighted_score_delta":"x"}}},
{"name":"Screenshot","ph":"O","ts":13,"pid":2,"tid":3,"args":{"snapshot":"!!notbase64","source_id":1}},
{"name":"UpdateCounters","ph":"I","ts":14,"pid":2,"tid":3,"args":{"data":{"jsHeapSizeUsed":"big"}}}]`))
	// One broken event of each kind of the other lists, and the edge-case trace of every kind.
	f.Add([]byte(hostileTrace))
	if b, err := os.ReadFile(filepath.Join("testdata", "edge-kinds.json")); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := load.Reader(context.Background(), bytes.NewReader(data), int64(len(data)), nil)
		if err != nil {
			return
		}
		integrate.Build(tr)
		tl := Build(tr)
		if _, err := json.Marshal(tl); err != nil {
			t.Fatalf("the timelines do not marshal: %v", err)
		}
		if tr.Kind == core.InputTrace {
			ThreadTracks(tr, tl.Meta)
		}
	})
}
