package timelines

import (
	"math"
	"sort"
	"strings"

	"github.com/valyala/fastjson"

	"flamedesk/core"
	"flamedesk/internal/background"
)

// Request is one network request as the engine synthesises it from its Resource* events
// (RULES.md §7 "Network"). Times are µs on the trace's clock; a time the engine computes as NaN
// (a timing field missing) is NaN here too and written as null. The fields typed Raw are passed
// through from the events' args as they were written.
type Request struct {
	RequestID Raw    `json:"requestId"`
	URL       string `json:"url"`
	Pid       int64  `json:"pid"`
	Tid       int64  `json:"tid"`
	Frame     Raw    `json:"frame"`
	Ts        Num    `json:"ts"`
	Dur       Num    `json:"dur"`
	// Level is the request's row in the Network track.
	Level int `json:"level"`
	// SendTs is the ts of the last ResourceSendRequest.
	SendTs Num `json:"sendTs"`
	// The bar: a whisker from Ts to SendStartTime, a light box to DownloadStart, a solid box to
	// FinishTime and a whisker to Ts+Dur.
	SendStartTime       Num        `json:"sendStartTime"`
	DownloadStart       Num        `json:"downloadStart"`
	FinishTime          Num        `json:"finishTime"`
	Queueing            Num        `json:"queueing"`
	Stalled             Num        `json:"stalled"`
	DNSLookup           Num        `json:"dnsLookup"`
	InitialConnection   Num        `json:"initialConnection"`
	SSL                 Num        `json:"ssl"`
	ProxyNegotiation    Num        `json:"proxyNegotiation"`
	RequestSent         Num        `json:"requestSent"`
	Waiting             Num        `json:"waiting"`
	ServerResponseTime  Num        `json:"serverResponseTime"`
	Download            Num        `json:"download"`
	RedirectionDuration Num        `json:"redirectionDuration"`
	NetworkDuration     Num        `json:"networkDuration"`
	ProcessingDuration  Num        `json:"processingDuration"`
	TotalTime           Num        `json:"totalTime"`
	Priority            Raw        `json:"priority"`
	InitialPriority     Raw        `json:"initialPriority"`
	FetchPriorityHint   Raw        `json:"fetchPriorityHint"`
	ResourceType        Raw        `json:"resourceType"`
	RequestMethod       Raw        `json:"requestMethod"`
	MimeType            Raw        `json:"mimeType"`
	StatusCode          Raw        `json:"statusCode"`
	Protocol            Raw        `json:"protocol"`
	FromServiceWorker   Raw        `json:"fromServiceWorker"`
	IsDiskCached        bool       `json:"isDiskCached"`
	IsMemoryCached      bool       `json:"isMemoryCached"`
	IsPushedResource    bool       `json:"isPushedResource"`
	IsLinkPreload       bool       `json:"isLinkPreload"`
	RenderBlocking      Raw        `json:"renderBlocking"`
	IsRenderBlocking    bool       `json:"isRenderBlocking"` // drawn with a warning triangle
	EncodedDataLength   Raw        `json:"encodedDataLength"`
	DecodedBodyLength   Raw        `json:"decodedBodyLength"`
	Finished            bool       `json:"finished"`
	Failed              Raw        `json:"failed"`
	HasResponse         bool       `json:"hasResponse"`
	Redirects           []Redirect `json:"redirects"`
	// Event is the last ResourceSendRequest, an index into tr.Events.
	Event int32 `json:"-"`
}

// Redirect is one hop of a redirected request.
type Redirect struct {
	URL Raw `json:"url"`
	Ts  Num `json:"ts"`
	Dur Num `json:"dur"`
}

// WebSocket is one WebSocket connection: a synthetic bar from its creation to its destruction
// (the trace's bounds where either is missing) and its events, all on the connection's row.
type WebSocket struct {
	Identifier Raw              `json:"identifier"`
	URL        string           `json:"url"`
	Pid        int64            `json:"pid"`
	Ts         Num              `json:"ts"`
	Dur        Num              `json:"dur"`
	Level      int              `json:"level"`
	Frame      Raw              `json:"frame"`
	WorkerID   Raw              `json:"workerId"`
	Events     []WebSocketEvent `json:"events"`
}

// WebSocketEvent is one WebSocket* event of a connection.
type WebSocketEvent struct {
	Name  string `json:"name"`
	Ts    Num    `json:"ts"`
	Level int    `json:"level"`
	Event int32  `json:"-"` // index into tr.Events
}

// requestEvents are the events of one requestId, as event indexes in file order.
type requestEvents struct {
	id                                             Raw
	willSend, send, renderBlockingChanges          []int32
	response, finish, markAsCached, changePriority int32
}

// networkNames are the events the network lists read, in the order of the constants below.
var networkNames = []string{
	"ResourceChangePriority", "ResourceWillSendRequest", "ResourceSendRequest", "ResourceReceiveResponse",
	"ResourceFinish", "ResourceMarkAsCached", "PreloadRenderBlockingStatusChange",
	"WebSocketCreate", "WebSocketSendHandshakeRequest", "WebSocketReceiveHandshakeResponse",
	"WebSocketDestroy", "WebSocketSend", "WebSocketReceive",
}

const (
	nChangePriority = iota
	nWillSend
	nSend
	nResponse
	nFinish
	nMarkAsCached
	nRenderBlocking
	nWSCreate
	nWSSendHandshake
	nWSReceiveHandshake
	nWSDestroy
	nWSSend
	nWSReceive
)

// buildNetwork groups the Resource* events by requestId and the WebSocket* events by identifier
// in one pass, synthesises each request and connection, and places them on the Network track's rows.
func buildNetwork(tr *core.Trace, m *Meta) ([]Request, []WebSocket) {
	names := lookupNames(tr, networkNames...)
	if names.empty() {
		return nil, nil
	}
	a := &args{tr: tr}
	ev := &tr.Events
	byID := map[string]*requestEvents{}
	var order []*requestEvents
	wsByID := map[string]*WebSocket{}
	var sockets []*WebSocket
	var noData, noID int
	for i, name := range ev.Name {
		background.YieldEvery(i)
		which, ok := names.find(name)
		if !ok {
			continue
		}
		v := a.parse(i)
		data := v.Get("data")
		if data == nil || data.Type() != fastjson.TypeObject {
			noData++
			continue
		}
		if which >= nWSCreate {
			m.noteWebSocketEvent(tr, i, data, wsByID, &sockets)
			continue
		}
		id, ok := typedKey(data, "requestId")
		if !ok {
			noID++
		}
		r := byID[id]
		if r == nil {
			r = &requestEvents{id: raw(data, "requestId"), response: -1, finish: -1, markAsCached: -1, changePriority: -1}
			byID[id] = r
			order = append(order, r)
		}
		switch which {
		case nChangePriority:
			r.changePriority = int32(i)
		case nWillSend:
			r.willSend = append(r.willSend, int32(i))
		case nSend:
			r.send = append(r.send, int32(i))
		case nResponse:
			r.response = int32(i)
		case nFinish:
			r.finish = int32(i)
		case nMarkAsCached:
			r.markAsCached = int32(i)
		case nRenderBlocking:
			r.renderBlockingChanges = append(r.renderBlockingChanges, int32(i))
		}
	}
	tr.Warnings.Add("network events without args.data (DevTools refuses such a trace): skipped", noData)
	tr.Warnings.Add("network events without a requestId (grouped as one request)", noID)

	requests := make([]Request, 0, len(order))
	var bad badRequests
	for _, r := range order {
		if req, ok := synthesize(tr, a, r, &bad); ok {
			requests = append(requests, req)
		}
	}
	bad.warn(tr)

	out := make([]WebSocket, len(sockets))
	for k, s := range sockets {
		s.finish(tr, a, m)
		out[k] = *s
	}
	placeNetwork(requests, out)
	return requests, out
}

// typedKey is the value at path as a key that keeps JavaScript's Map apart: the number 1 and the
// string "1" are different keys, and an absent value is its own key.
func typedKey(v *fastjson.Value, path ...string) (string, bool) {
	x := v.Get(path...)
	if x == nil {
		return "u", false
	}
	switch x.Type() {
	case fastjson.TypeString:
		return "s" + string(x.GetStringBytes()), true
	case fastjson.TypeNumber:
		k, _ := key(v, path...)
		return "n" + k, true
	}
	return "j" + string(x.MarshalTo(nil)), true
}

// badRequests counts the requests the engine cannot synthesise (it throws on them and refuses the
// trace); we leave each out and say how many.
type badRequests struct{ noURL, badURL int }

func (b *badRequests) warn(tr *core.Trace) {
	tr.Warnings.Add("network requests whose ResourceSendRequest has no url (DevTools refuses such a trace): skipped", b.noURL)
	tr.Warnings.Add("network requests with an invalid url (DevTools refuses such a trace): skipped", b.badURL)
}

// firstPositive is the first value greater than 0, else 0.
func firstPositive(vals ...float64) float64 {
	for _, v := range vals {
		if v > 0 {
			return v
		}
	}
	return 0
}

// orZero is JavaScript's `x || y` for a number: y when x is 0 or NaN.
func orElse(x, y float64) float64 {
	if x == 0 || math.IsNaN(x) {
		return y
	}
	return x
}

var allowedSchemes = []string{"blob:", "file:", "filesystem:", "http:", "https:"}

var nonBlocking = map[string]bool{"non_blocking": true, "dynamically_injected_non_blocking": true, "potentially_blocking": true}

// synthesize builds one request from its events, as NetworkRequestsHandler.finalize does; ok is
// false for a request the engine leaves out.
func synthesize(tr *core.Trace, a *args, r *requestEvents, bad *badRequests) (Request, bool) {
	if len(r.send) == 0 {
		return Request{}, false
	}
	ev := &tr.Events
	ts := func(i int32) float64 { return ev.Ts[i] }
	// The first and the last ResourceSendRequest's data; read both now, as the parser is reused.
	first := a.parse(int(r.send[0])).Get("data")
	firstURL, ok1 := str(first, "url")
	last := a.parse(int(r.send[len(r.send)-1])).Get("data")
	url, ok := str(last, "url")
	if !ok || !ok1 {
		bad.noURL++
		return Request{}, false
	}
	if strings.HasPrefix(url, "data:") {
		return Request{}, false
	}
	allowed := false
	for _, p := range allowedSchemes {
		allowed = allowed || strings.HasPrefix(firstURL, p)
	}
	if !allowed {
		return Request{}, false
	}
	if !validURL(url) {
		bad.badURL++
		return Request{}, false
	}
	lastIdx := r.send[len(r.send)-1]
	th := tr.Threads[ev.Thread[lastIdx]]
	req := Request{
		RequestID:         r.id,
		URL:               url,
		Pid:               th.Pid,
		Tid:               th.Tid,
		Frame:             raw(last, "frame"),
		SendTs:            Num(ts(lastIdx)),
		InitialPriority:   raw(last, "priority"),
		Priority:          raw(last, "priority"),
		FetchPriorityHint: rawOr(last, `"auto"`, "fetchPriorityHint"),
		ResourceType:      rawOr(last, `"Other"`, "resourceType"),
		RequestMethod:     raw(last, "requestMethod"),
		IsLinkPreload:     truthy(last, "isLinkPreload"),
		RenderBlocking:    rawOr(last, `"non_blocking"`, "renderBlocking"),
		Event:             lastIdx,
	}

	// Redirects: one per ResourceSendRequest but the last, timed by the WillSendRequests where both
	// ends have one. Their URLs are read one event at a time.
	for k := 0; k+1 < len(r.send); k++ {
		rd := Redirect{Ts: Num(ts(r.send[k])), Dur: Num(ts(r.send[k+1]) - ts(r.send[k]))}
		if k+1 < len(r.willSend) {
			rd.Ts, rd.Dur = Num(ts(r.willSend[k])), Num(ts(r.willSend[k+1])-ts(r.willSend[k]))
		}
		rd.URL = raw(a.parse(int(r.send[k])).Get("data"), "url")
		req.Redirects = append(req.Redirects, rd)
	}
	if req.Redirects == nil {
		req.Redirects = []Redirect{}
	}
	if r.changePriority >= 0 {
		req.Priority = raw(a.parse(int(r.changePriority)), "data", "priority")
	}
	if n := len(r.renderBlockingChanges); n > 0 {
		if v := a.parse(int(r.renderBlockingChanges[n-1])); !nullish(v, "data", "renderBlocking") {
			req.RenderBlocking = raw(v, "data", "renderBlocking")
		}
	}
	rb := req.RenderBlocking.String()
	req.IsRenderBlocking = !(len(req.RenderBlocking) > 0 && req.RenderBlocking[0] == '"' && nonBlocking[rb])

	start := ts(r.send[0])
	endRedirect := ts(lastIdx)
	if len(r.willSend) > 0 {
		start, endRedirect = ts(r.willSend[0]), ts(r.willSend[len(r.willSend)-1])
	}

	// ResourceFinish.
	end := endRedirect
	finishTime := math.NaN()
	req.IsPushedResource = true
	req.Failed = Raw("false")
	req.EncodedDataLength, req.DecodedBodyLength = Raw("0"), Raw("0")
	if r.finish >= 0 {
		fin := a.parse(int(r.finish)).Get("data")
		end = ts(r.finish)
		if truthy(fin, "finishTime") {
			finishTime = jsNum(fin, "finishTime") * 1e6
		}
		if x := fin.Get("encodedDataLength"); x != nil && x.Type() == fastjson.TypeNumber {
			f, _ := x.Float64()
			req.IsPushedResource = f != 0
		}
		req.EncodedDataLength, req.DecodedBodyLength = raw(fin, "encodedDataLength"), raw(fin, "decodedBodyLength")
		req.Failed = rawOr(fin, "false", "didFail")
		req.Finished = true
	}
	if math.IsNaN(finishTime) {
		finishTime = end
	}
	req.IsMemoryCached = r.markAsCached >= 0

	// ResourceReceiveResponse, read last: timing stays a live value of the parser from here on.
	var resp, timing *fastjson.Value
	respTs := math.NaN()
	if r.response >= 0 {
		resp = a.parse(int(r.response)).Get("data")
		respTs = ts(r.response)
		req.HasResponse = true
		req.FromServiceWorker = raw(resp, "fromServiceWorker")
		req.MimeType = rawOr(resp, `""`, "mimeType")
		req.Protocol = rawOr(resp, `"unknown"`, "protocol")
		req.StatusCode = rawOr(resp, "0", "statusCode")
		req.IsDiskCached = truthy(resp, "fromCache") && !truthy(resp, "fromServiceWorker") && !req.IsPushedResource
		if !req.IsMemoryCached && truthy(resp, "timing") {
			timing = resp.Get("timing")
		}
	} else {
		req.MimeType, req.Protocol, req.StatusCode = Raw(`""`), Raw(`"unknown"`), Raw("0")
	}

	req.Ts, req.Dur = Num(start), Num(end-start)
	req.FinishTime = Num(finishTime)
	req.ProcessingDuration = Num(end - orElse(finishTime, end))
	req.RedirectionDuration = Num(endRedirect - start)
	ms := func(k string) float64 { return jsNum(timing, k) * 1000 }
	if timing != nil {
		requestTime := jsNum(timing, "requestTime") * 1e6
		req.NetworkDuration = Num(orElse(finishTime, endRedirect) - endRedirect)
		q := requestTime - endRedirect
		if !math.IsNaN(q) {
			q = max(q, 0)
		}
		req.Queueing = Num(q)
		respGap := math.NaN()
		if resp != nil {
			respGap = respTs - endRedirect
		}
		req.Stalled = Num(firstPositive(ms("dnsStart"), ms("connectStart"), ms("sendStart"), respGap))
		req.SendStartTime = Num(requestTime + ms("sendStart"))
		req.Waiting = Num((jsNum(timing, "receiveHeadersEnd") - jsNum(timing, "sendEnd")) * 1000)
		headers := jsNum(timing, "receiveHeadersEnd")
		if !nullish(timing, "receiveHeadersStart") {
			headers = jsNum(timing, "receiveHeadersStart")
		}
		req.ServerResponseTime = Num((headers - jsNum(timing, "sendEnd")) * 1000)
		req.DownloadStart = Num(requestTime + ms("receiveHeadersEnd"))
		req.Download = Num(orElse(finishTime, float64(req.DownloadStart)) - float64(req.DownloadStart))
		pair := func(from, to string) Num {
			return Num((jsNum(timing, to) - jsNum(timing, from)) * 1000)
		}
		req.DNSLookup = pair("dnsStart", "dnsEnd")
		req.SSL = pair("sslStart", "sslEnd")
		req.ProxyNegotiation = pair("proxyStart", "proxyEnd")
		req.RequestSent = pair("sendStart", "sendEnd")
		req.InitialConnection = pair("connectStart", "connectEnd")
	} else {
		req.SendStartTime, req.DownloadStart = Num(start), Num(start)
		if resp != nil {
			req.Stalled = Num(respTs - start)
			req.Download = Num(end - respTs)
		}
	}
	req.TotalTime = req.NetworkDuration + req.ProcessingDuration
	return req, true
}

// noteWebSocketEvent files a WebSocket* event under its connection. A connection opens with its
// first event that names a frame or a worker; events before that are dropped, as the engine does.
func (m *Meta) noteWebSocketEvent(tr *core.Trace, i int, data *fastjson.Value, byID map[string]*WebSocket, list *[]*WebSocket) {
	id, _ := typedKey(data, "identifier")
	s := byID[id]
	if s == nil {
		s = &WebSocket{Identifier: raw(data, "identifier")}
		switch {
		case truthy(data, "frame"):
			s.Frame = raw(data, "frame")
		case truthy(data, "workerId"):
			s.WorkerID = raw(data, "workerId")
		default:
			return
		}
		byID[id] = s
		*list = append(*list, s)
	}
	s.Events = append(s.Events, WebSocketEvent{Name: tr.Strings.Get(tr.Events.Name[i]), Ts: Num(tr.Events.Ts[i]), Event: int32(i)})
}

// finish makes the connection's bar: from the last WebSocketCreate (else the trace's start) to the
// last WebSocketDestroy (else the trace's end), named after the first of those that exists.
func (s *WebSocket) finish(tr *core.Trace, a *args, m *Meta) {
	create, destroy := -1, -1
	for k, e := range s.Events {
		switch e.Name {
		case "WebSocketCreate":
			create = k
		case "WebSocketDestroy":
			destroy = k
		}
	}
	start, end := float64(m.Bounds.Min), float64(m.Bounds.Max)
	if create >= 0 {
		start = float64(s.Events[create].Ts)
	}
	if destroy >= 0 {
		end = float64(s.Events[destroy].Ts)
	}
	main := 0
	switch {
	case create >= 0:
		main = create
	case destroy >= 0:
		main = destroy
	}
	ei := s.Events[main].Event
	s.Pid = tr.Threads[tr.Events.Thread[ei]].Pid
	if u, ok := str(a.parse(int(ei)), "data", "url"); ok {
		s.URL = u
	}
	s.Ts, s.Dur = Num(start), Num(end-start)
}

// placeNetwork finds each item's row as the Network track lays them out: every connection and its
// events first (all on the row the connection got), then the requests in first-seen order.
func placeNetwork(requests []Request, sockets []WebSocket) {
	var r rows
	for k := range sockets {
		s := &sockets[k]
		s.Level = r.place(float64(s.Ts), float64(s.Dur))
		for j := range s.Events {
			s.Events[j].Level = s.Level
		}
		sort.SliceStable(s.Events, func(x, y int) bool {
			if s.Events[x].Ts != s.Events[y].Ts {
				return s.Events[x].Ts < s.Events[y].Ts
			}
			return s.Events[x].Name < s.Events[y].Name
		})
	}
	for k := range requests {
		requests[k].Level = r.place(float64(requests[k].Ts), float64(requests[k].Dur))
	}
}
