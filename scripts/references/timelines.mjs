// The `.timelines` reference: what the DevTools engine's handlers hold for the tracks the panel draws
// beside the thread flame charts (bounds, navigations, network, Timings, extension tracks,
// interactions, layout shifts, frames, screenshots, animations, memory counters), in the shape
// shared/conformance/README.md "timelines" documents and core/timelines reads. Where the panel, not
// the engine, decides something (the row an item is drawn on, a screenshot's span), it is worked
// out here by the panel's rules as conformance/RULES.md §7 states them.
import * as Trace from '@paulirish/trace_engine';
import * as FilmStrip from '@paulirish/trace_engine/models/trace/extras/FilmStrip.js';

const {Types, Helpers} = Trace;

const nullIfUndefined = v => (v === undefined ? null : v);

// RowPacker puts each item, in the order given, on the first row whose last item has ended by the
// item's start; rows are counted from `first`.
class RowPacker {
  constructor(first = 0) {
    this.first = first;
    this.ends = [];
  }

  place(ts, dur) {
    let row = this.ends.findIndex(end => ts >= end);
    if (row < 0) row = this.ends.length;
    this.ends[row] = ts + (dur || 0);
    return this.first + row;
  }

  // next is the first row below every row used so far.
  get next() {
    return this.first + this.ends.length;
  }
}

// rowsFor packs events in their given order from row `first` into rows, a Map event → row, and
// returns the first free row after them.
function rowsFor(events, first, rows) {
  const packer = new RowPacker(first);
  for (const e of events) rows.set(e, packer.place(e.ts, e.dur));
  return packer.next;
}

// Lists may come in any order to the readers; they are sorted by ts (for spans, longer first), then
// by their JSON text, only so that a remade reference differs from the old one where the engine's
// answer does.
function byTime(list, longerFirst = false) {
  return list.map(item => [item.ts ?? -Infinity, longerFirst ? -(item.dur ?? 0) : 0, JSON.stringify(item), item])
      .sort((a, b) => (a[0] - b[0]) || (a[1] - b[1]) || (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0))
      .map(x => x[3]);
}

function navigations(data) {
  const main = new Set(data.Meta.mainFrameNavigations);
  return byTime([...data.Meta.navigationsByNavigationId].map(([navigationId, e]) => ({
    navigationId, ts: e.ts, pid: e.pid, frame: e.args.frame,
    url: e.args.data?.documentLoaderURL ?? null, isMainFrame: main.has(e),
  })));
}

const timingKeys = ['queueing', 'stalled', 'dnsLookup', 'initialConnection', 'ssl', 'proxyNegotiation',
  'requestSent', 'waiting', 'serverResponseTime', 'download', 'redirectionDuration', 'networkDuration',
  'processingDuration', 'totalTime'];

// network gives the requests and WebSockets. The network track lays its entries out in one pass:
// each WebSocket's connection bar and events first, then the requests in the handler's order; all
// events of one WebSocket share the row its first one got.
function network(data) {
  const nr = data.NetworkRequests;
  const drawn = [];
  for (const ws of nr.webSocket) {
    if (ws.syntheticConnection) drawn.push(ws.syntheticConnection);
    drawn.push(...ws.events);
  }
  drawn.push(...nr.byTime);
  const packer = new RowPacker();
  const rows = new Map();
  const socketRow = new Map();
  for (const e of drawn) {
    const id = e.args?.data?.identifier;
    const isSocketEvent = id !== undefined && Types.Events.isWebSocketEvent(e);
    if (isSocketEvent && socketRow.has(id)) {
      rows.set(e, socketRow.get(id) || 0);
      continue;
    }
    const row = packer.place(e.ts, e.dur);
    rows.set(e, row);
    if (isSocketEvent) socketRow.set(id, row);
  }

  const requests = nr.byTime.map(req => {
    const d = req.args.data;
    const s = d.syntheticData;
    const out = {requestId: d.requestId, url: d.url, pid: req.pid, tid: req.tid, frame: nullIfUndefined(d.frame),
      ts: req.ts, dur: req.dur, level: rows.get(req), sendTs: req.rawSourceEvent.ts,
      sendStartTime: s.sendStartTime, downloadStart: s.downloadStart, finishTime: s.finishTime};
    for (const k of timingKeys) out[k] = s[k];
    Object.assign(out, {
      priority: d.priority, initialPriority: d.initialPriority, fetchPriorityHint: d.fetchPriorityHint,
      resourceType: d.resourceType, requestMethod: nullIfUndefined(d.requestMethod), mimeType: d.mimeType,
      statusCode: d.statusCode, protocol: d.protocol, fromServiceWorker: nullIfUndefined(d.fromServiceWorker),
      isDiskCached: s.isDiskCached, isMemoryCached: s.isMemoryCached, isPushedResource: s.isPushedResource,
      isLinkPreload: d.isLinkPreload, renderBlocking: d.renderBlocking,
      isRenderBlocking: Helpers.Network.isSyntheticNetworkRequestEventRenderBlocking(req),
      encodedDataLength: nullIfUndefined(d.encodedDataLength), decodedBodyLength: nullIfUndefined(d.decodedBodyLength),
      finished: d.finished, failed: d.failed, hasResponse: d.hasResponse,
      redirects: d.redirects.map(r => ({url: r.url, ts: r.ts, dur: r.dur})),
    });
    return out;
  });

  const webSockets = nr.webSocket.map(ws => {
    const c = ws.syntheticConnection;
    return {identifier: ws.webSocketIdentifier, url: c?.args.data.url ?? '', pid: c?.pid ?? null,
      ts: c?.ts ?? null, dur: c?.dur ?? null, level: c ? rows.get(c) : null,
      frame: nullIfUndefined(ws.frame), workerId: nullIfUndefined(ws.workerId),
      events: byTime(ws.events.map(e => ({name: e.name, ts: e.ts, level: rows.get(e)})))};
  });
  return {requests: byTime(requests), webSockets: byTime(webSockets)};
}

// The page-load markers: the name the panel prints for each kind, and the kinds it also draws as
// vertical lines across every track.
function pageLoadKinds() {
  const N = Types.Events.Name;
  return {
    label: new Map([[N.NAVIGATION_START, 'navigationStart'], [N.SOFT_NAVIGATION_START, 'softNavigationStart'],
      [N.MARK_FIRST_PAINT, 'FP'], [N.MARK_FCP, 'FCP'], [N.MARK_DOM_CONTENT, 'DCL'], [N.MARK_LOAD, 'L'],
      [N.MARK_LCP_CANDIDATE, 'LCP'], [N.MARK_LCP_CANDIDATE_FOR_SOFT_NAVIGATION, 'softLCP']]),
    vertical: new Set([N.NAVIGATION_START, N.MARK_LCP_CANDIDATE, N.MARK_FCP, N.MARK_DOM_CONTENT, N.MARK_LOAD]),
  };
}

// timings gives the Timings track. Its rows: extension markers alone on the first row (when there
// are any), then blocks for marks, measures, console.timeStamps and console.time, each block below
// the one before. Items that carry an extension payload go to an extension track instead (no row).
function timings(data) {
  const ut = data.UserTimings;
  const ext = Trace.Handlers.ModelHandlers.ExtensionTraceData;
  const toExtensionTiming = e => Boolean(ext.extensionDataInPerformanceTiming(e).devtoolsObj);
  const toExtensionStamp = e => Boolean(ext.extensionDataInConsoleTimeStamp(e).devtoolsObj);
  const markers = data.ExtensionTraceData.extensionMarkers;

  const rows = new Map();
  let next = markers.length ? 1 : 0;
  for (const m of markers) rows.set(m, 0);
  next = rowsFor(ut.performanceMarks.filter(e => !toExtensionTiming(e)), next, rows);
  next = rowsFor(ut.performanceMeasures.filter(e => !toExtensionTiming(e)), next, rows);
  next = rowsFor(ut.timestampEvents.filter(e => !toExtensionStamp(e)), next, rows);
  rowsFor(ut.consoleTimings, next, rows);
  const row = e => (rows.has(e) ? rows.get(e) : null);
  const span = e => ({name: e.name, ts: e.ts, dur: e.dur, pid: e.pid, tid: e.tid, level: row(e)});

  const kinds = pageLoadKinds();
  const meta = data.Meta;
  return {
    marks: byTime(ut.performanceMarks.map(e => ({kind: 'performance.mark', name: e.name, ts: e.ts, pid: e.pid,
      tid: e.tid, level: row(e)}))),
    measures: byTime(ut.performanceMeasures.map(span), true),
    consoleTimings: byTime(ut.consoleTimings.map(span), true),
    timestamps: byTime(ut.timestampEvents.map(e => {
      const d = e.args?.data;
      return {name: String(d?.name ?? d?.message ?? ''), ts: e.ts, pid: e.pid, tid: e.tid,
        start: nullIfUndefined(d?.start), end: nullIfUndefined(d?.end), track: d?.track ? String(d.track) : null,
        level: row(e)};
    })),
    pageLoad: byTime(data.PageLoadMetrics.allMarkerEvents.map(e => ({
      kind: kinds.label.get(e.name) ?? e.name, name: e.name, ts: e.ts, pid: e.pid,
      navigationId: nullIfUndefined(e.args?.data?.navigationId),
      sinceNavigation: Helpers.Timing.timeStampForEventAdjustedByClosestNavigation(e, meta.traceBounds,
          meta.navigationsByNavigationId, meta.softNavigationsById, meta.navigationsByFrameId),
      panelMarker: kinds.vertical.has(e.name),
    }))),
    extensionMarkers: byTime(markers.map(e => ({name: e.name, ts: e.ts, pid: e.pid, tid: e.tid,
      color: nullIfUndefined(e.devtoolsObj.color), tooltipText: nullIfUndefined(e.devtoolsObj.tooltipText), level: 0}))),
  };
}

function sourceOf(raw) {
  if (Types.Events.isConsoleTimeStamp(raw)) return 'console.timeStamp';
  return Types.Events.isPerformanceMark(raw) ? 'performance.mark' : 'performance.measure';
}

// extension gives the custom tracks in the panel's order; the tracks of a group in Object.entries
// order, which is what the panel iterates (integer-like names first).
function extension(data) {
  return data.ExtensionTraceData.extensionTrackData.map(group => ({
    name: group.name,
    isTrackGroup: group.isTrackGroup,
    tracks: Object.entries(group.entriesByTrack).map(([name, entries]) => {
      const rows = new Map();
      rowsFor(entries, 0, rows);
      return {name, entries: byTime(entries.map(e => ({
        name: e.name, ts: e.ts, dur: e.dur ?? 0, pid: e.pid, tid: e.tid, level: rows.get(e),
        source: sourceOf(e.rawSourceEvent), color: nullIfUndefined(e.devtoolsObj.color),
        tooltipText: nullIfUndefined(e.devtoolsObj.tooltipText),
      })), true)};
    }),
  }));
}

// interactions: the panel draws only the interactions not nested in another.
function interactions(data) {
  const ui = data.UserInteractions;
  const rows = new Map();
  rowsFor(ui.interactionEventsWithNoNesting, 0, rows);
  return byTime(ui.interactionEvents.map(e => ({
    type: e.type, interactionId: e.interactionId, ts: e.ts, dur: e.dur,
    processingStart: e.processingStart, processingEnd: e.processingEnd, inputDelay: e.inputDelay,
    mainThreadHandling: e.mainThreadHandling, presentationDelay: e.presentationDelay,
    pid: e.pid, tid: e.tid, nested: !rows.has(e), level: rows.has(e) ? rows.get(e) : null,
  })), true);
}

// layoutShifts: clusters and shifts each packed into rows from the track's first row, separately.
function layoutShifts(data) {
  const clusters = data.LayoutShifts.clusters;
  const rows = new Map();
  rowsFor(clusters, 0, rows);
  rowsFor(clusters.flatMap(c => c.events), 0, rows);
  const shifts = clusters.flatMap((c, index) => c.events.map(s => ({
    ts: s.ts, score: s.args.data.weighted_score_delta, cluster: index,
    scoreInCluster: s.parsedData.cumulativeWeightedScoreInWindow, pid: s.pid,
    frame: nullIfUndefined(s.args.frame), level: rows.get(s),
  })));
  return {
    shifts: byTime(shifts),
    clusters: byTime(clusters.map((c, index) => ({
      id: index, ts: c.ts, dur: c.dur, end: c.clusterWindow.max, score: c.clusterCumulativeScore,
      shifts: c.events.length, worstShiftTs: c.worstShiftEvent ? c.worstShiftEvent.ts : null,
      navigationId: nullIfUndefined(c.navigationId), level: rows.get(c),
    }))),
  };
}

// frames: `type` is the panel's title, idle before dropped before partial.
function frames(data) {
  return byTime(data.Frames.frames.map(f => {
    let type = 'complete';
    if (f.idle) type = 'idle';
    else if (f.dropped) type = f.isPartial ? 'partial' : 'dropped';
    return {ts: f.startTime, dur: f.duration, type, idle: f.idle, dropped: f.dropped, partial: f.isPartial};
  }));
}

// screenshots: the filmstrip; each is shown until the next one, the last until the trace's end.
function screenshots(data) {
  const shots = FilmStrip.fromHandlerData(data).frames.map(f => f.screenshotEvent);
  return byTime(shots.map((e, i) => {
    const until = i + 1 < shots.length ? shots[i + 1].ts : data.Meta.traceBounds.max;
    const snapshot = (e.rawSourceEvent ?? e).args?.snapshot ?? '';
    return {ts: e.ts, dur: until - e.ts, bytes: Buffer.from(snapshot, 'base64').length};
  }));
}

function animations(data) {
  const list = data.Animations.animations;
  const rows = new Map();
  rowsFor(list, 0, rows);
  return byTime(list.map(a => {
    const begin = a.args.data.beginEvent;
    return {name: begin.args?.data?.displayName || 'Animation', ts: a.ts, dur: a.dur, pid: a.pid, tid: a.tid,
      id: nullIfUndefined(begin.args?.data?.id),
      nonComposited: Trace.Insights.Models.CLSCulprits.getNonCompositedFailure(a).length > 0,
      level: rows.get(a)};
  }), true);
}

const counterNames = ['jsHeapSizeUsed', 'documents', 'nodes', 'jsEventListeners', 'gpuMemoryUsedKB'];

// memory: per pid, each counter's [ts, value] steps by time (file order on equal times); a value
// equal to the one before adds no step. The GPU counter is listed only when the trace has it.
function memory(data) {
  const out = {};
  const byPid = data.Memory.updateCountersByProcess;
  for (const pid of [...byPid.keys()].sort((a, b) => a - b)) {
    const series = Object.fromEntries(counterNames.map(n => [n, []]));
    const events = byPid.get(pid).map((e, order) => ({e, order})).sort((a, b) => a.e.ts - b.e.ts || a.order - b.order);
    for (const {e} of events) {
      const counters = e.args?.data;
      if (!counters) continue;
      for (const name of counterNames) {
        const v = counters[name];
        const s = series[name];
        if (typeof v === 'number' && !(s.length && s[s.length - 1][1] === v)) s.push([e.ts, v]);
      }
    }
    if (!series.gpuMemoryUsedKB.length) delete series.gpuMemoryUsedKB;
    out[pid] = series;
  }
  return out;
}

const finiteOrNull = x => (typeof x === 'number' && !Number.isFinite(x) ? null : nullIfUndefined(x));

// timelinesOf reduces the engine's parsed data to the compared members; `context` holds the
// members that say where the reference came from (not compared).
export function timelinesOf(data, context) {
  const b = data.Meta.traceBounds;
  const net = network(data);
  return {
    ...context,
    units: 'microseconds on the trace clock; levels are 0-based within the track (Timings: within the whole track)',
    traceIsGeneric: data.Meta.traceIsGeneric,
    mainFrameId: data.Meta.mainFrameId,
    bounds: {min: finiteOrNull(b.min), max: finiteOrNull(b.max), range: finiteOrNull(b.range)},
    navigations: navigations(data),
    network: net.requests,
    webSockets: net.webSockets,
    timings: timings(data),
    extension: extension(data),
    interactions: interactions(data),
    layoutShifts: layoutShifts(data),
    frames: frames(data),
    screenshots: screenshots(data),
    animations: animations(data),
    memory: memory(data),
  };
}
