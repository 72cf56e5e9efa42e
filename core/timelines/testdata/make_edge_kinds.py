#!/usr/bin/env python3
"""Writes edge-kinds.json, a small Chrome trace built to exercise the rare corners of the tracks
beside the thread flame charts: User Timing ties, a measure closed only by an instant, console.time
with an id2, console.timeStamp ranges by name, extension tracks with integer-like names, markers,
nested interactions, layout-shift windows across a navigation, modern and legacy screenshots, a
non-composited animation, memory counters and a few frames.

Its reference, edge-kinds.timelines.json, is the DevTools engine's own output, remade by
`make references` (scripts/references/references.mjs --timelines-json)."""
import base64
import json

B, R = 1, 2          # browser and renderer pids
M = 11               # renderer main thread
C = 12               # compositor thread
ev = []


def e(**kw):
    kw.setdefault("pid", R)
    kw.setdefault("tid", M)
    kw.setdefault("cat", "devtools.timeline")
    kw.setdefault("args", {})
    ev.append(kw)


e(name="thread_name", ph="M", pid=B, tid=1, ts=0, args={"name": "CrBrowserMain"})
e(name="thread_name", ph="M", ts=0, args={"name": "CrRendererMain"})
e(name="thread_name", ph="M", tid=C, ts=0, args={"name": "Compositor"})
e(name="TracingStartedInBrowser", ph="I", pid=B, tid=1, ts=1000, cat="disabled-by-default-devtools.timeline",
  args={"data": {"frameTreeNodeId": 1, "persistentIds": True, "frames": [
      {"frame": "F1", "url": "https://a.test/", "name": "", "processId": R,
       "isOutermostMainFrame": True, "isInPrimaryMainFrame": True}]}})
e(name="navigationStart", ph="R", ts=1100, cat="blink.user_timing",
  args={"frame": "F1", "data": {"navigationId": "N1", "documentLoaderURL": "https://a.test/", "isLoadingMainFrame": True}})

# Main-thread tasks, so that the main thread has entries from early on.
for k in range(30):
    e(name="RunTask", ph="X", ts=1200 + k * 1000, dur=400, cat="disabled-by-default-devtools.timeline")

# performance.mark: plain, a marker, a payload that goes nowhere, a detail that is not JSON.
e(name="m-plain", ph="R", ts=2000, cat="blink.user_timing", args={"data": {}})
e(name="m-marker", ph="I", ts=2100, cat="blink.user_timing",
  args={"data": {"detail": json.dumps({"devtools": {"dataType": "marker", "color": "error", "tooltipText": "t"}})}})
e(name="m-nowhere", ph="R", ts=2100, cat="blink.user_timing",
  args={"data": {"detail": json.dumps({"devtools": {"url": "u", "description": "d"}})}})
e(name="m-badjson", ph="R", ts=2200, cat="blink.user_timing", args={"data": {"detail": "{not json"}})
e(name="m-entry", ph="R", ts=2300, cat="blink.user_timing",
  args={"data": {"detail": json.dumps({"devtools": {"track": "2", "trackGroup": "G"}})}})
e(name="fetchStart", ph="R", ts=2300, cat="blink.user_timing", args={"data": {}})

# performance.measure: two with the same span (the later call goes first), extension entries on
# tracks "10", "2" and "beta" of group G, one closed only by an instant, one never closed.
def measure(name, t0, t1, mid, detail=None):
    b = {"detail": json.dumps(detail)} if detail is not None else {}
    e(name=name, ph="b", ts=t0, cat="blink.user_timing", id=mid, args=b)
    e(name=name, ph="e", ts=t1, cat="blink.user_timing", id=mid, args={})


measure("A", 3000, 5000, "0x1")
measure("B", 3000, 5000, "0x2")
measure("C", 3000, 5000, "0x3", {"devtools": {"track": "beta", "trackGroup": "G", "color": "secondary"}})
measure("D", 3500, 4000, "0x4", {"devtools": {"track": "10", "trackGroup": "G"}})
measure("E", 3600, 4200, "0x5", {"devtools": {"track": "2", "trackGroup": "G", "tooltipText": "hint"}})
measure("F", 3700, 4100, "0x6", {"devtools": {"dataType": "marker"}})
measure("G", 3800, 3900, "0x7", {"devtools": {"track": "solo"}})
e(name="H", ph="b", ts=4300, cat="blink.user_timing", id="0x8", args={})
e(name="H", ph="n", ts=4400, cat="blink.user_timing", id="0x8", args={})
e(name="never", ph="b", ts=4500, cat="blink.user_timing", id="0x9", args={})

# console.time, paired through id2.local.
e(name="ct", ph="b", ts=6000, cat="blink.console", id2={"local": "0x10"}, args={})
e(name="ct", ph="e", ts=6500, cat="blink.console", id2={"local": "0x10"}, args={})

# console.timeStamp: a point, a range between earlier names, one on a track group, one whose end
# names a stamp that does not exist yet, one with an end but no start.
e(name="TimeStamp", ph="I", ts=7000, cat="devtools.timeline", args={"data": {"message": "s1"}})
e(name="TimeStamp", ph="I", ts=7100, cat="devtools.timeline", args={"data": {"name": "s2"}})
e(name="TimeStamp", ph="I", ts=7200, cat="devtools.timeline", args={"data": {"message": "range", "start": "s1", "end": "s2"}})
e(name="TimeStamp", ph="I", ts=7300, cat="devtools.timeline",
  args={"data": {"message": "on-track", "start": 7000, "end": 7250, "track": "T", "trackGroup": "TG", "color": "tertiary"}})
e(name="TimeStamp", ph="I", ts=7400, cat="devtools.timeline", args={"data": {"message": "later", "start": "s1", "end": "s9"}})
e(name="TimeStamp", ph="I", ts=7500, cat="devtools.timeline", args={"data": {"message": "no-start", "end": "s2"}})
e(name="TimeStamp", ph="I", ts=7600, cat="devtools.timeline", args={"data": {"message": "s9"}})

# Interactions: a pointerdown and a click of one interaction ending together (nested), a keydown,
# one without processing times, one too short to count.
def timing(t0, t1, tid_, typ, iid, ps, pe, duration=40, **extra):
    data = {"type": typ, "interactionId": iid, "timeStamp": t0 / 1000, "processingStart": ps / 1000,
            "processingEnd": pe / 1000, "duration": duration, "frame": "F1"}
    data.update(extra)
    e(name="EventTiming", ph="b", ts=t0, cat="devtools.timeline", id=tid_, args={"data": data})
    e(name="EventTiming", ph="e", ts=t1, cat="devtools.timeline", id=tid_, args={})


timing(10000, 50000, "0xa1", "pointerdown", 7, 12000, 15000)
timing(10000, 50000, "0xa2", "click", 7, 20000, 30000)
timing(11000, 50000, "0xa3", "pointerup", 7, 16000, 18000)
timing(60000, 90000, "0xa4", "keydown", 8, 61000, 70000)
timing(95000, 99000, "0xa5", "keyup", 9, 95500, 0)
timing(100000, 100500, "0xa6", "click", 10, 100100, 100200, duration=0)

# Layout shifts: one window, a second one after a 1 s gap, one with recent input, one after a
# second navigation.
def shift(ts, score, recent=False):
    e(name="LayoutShift", ph="I", ts=ts, cat="loading", args={"frame": "F1", "data": {
        "weighted_score_delta": score, "score": score, "had_recent_input": recent}})


shift(200000, 0.05)
shift(300000, 0.1)
shift(350000, 0.2, recent=True)
shift(1600000, 0.01)
e(name="navigationStart", ph="R", ts=1700000, cat="blink.user_timing",
  args={"frame": "F1", "data": {"navigationId": "N2", "documentLoaderURL": "https://a.test/2", "isLoadingMainFrame": True}})
shift(1800000, 0.3)

# Screenshots: modern ones win over the legacy one.
img = base64.b64encode(b"\xff\xd8" + bytes(range(200)) + b"\xff\xd9").decode()
e(name="Screenshot", ph="O", pid=B, tid=1, ts=500, cat="disabled-by-default-devtools.screenshot", id="0x1",
  args={"snapshot": img})
e(name="Screenshot", ph="O", pid=B, tid=1, ts=150000, cat="disabled-by-default-devtools.screenshot",
  args={"snapshot": img, "source_id": 1, "frame_sequence": 3})
e(name="Screenshot", ph="O", pid=B, tid=1, ts=400000, cat="disabled-by-default-devtools.screenshot",
  args={"snapshot": img[:-8], "source_id": 1, "frame_sequence": 9})

# An animation that reports a compositing failure, and one in another category (ignored).
e(name="Animation", ph="b", ts=20000, cat="blink.animations,devtools.timeline", id="0x40",
  args={"data": {"displayName": "slide", "id": "40", "name": ""}})
e(name="Animation", ph="n", ts=20100, cat="blink.animations,devtools.timeline", id="0x40",
  args={"data": {"compositeFailed": 8, "unsupportedProperties": ["width"]}})
e(name="Animation", ph="e", ts=80000, cat="blink.animations,devtools.timeline", id="0x40", args={})
e(name="Animation", ph="b", ts=21000, cat="blink.animations", id="0x41", args={"data": {}})
e(name="Animation", ph="e", ts=22000, cat="blink.animations", id="0x41", args={})

# Memory counters, with a repeated value the graph skips.
for k, (heap, nodes) in enumerate([(1000, 10), (1000, 12), (2000, 12), (1500, 9)]):
    e(name="UpdateCounters", ph="I", ts=1300 + k * 5000, cat="disabled-by-default-devtools.timeline",
      args={"data": {"jsHeapSizeUsed": heap, "documents": 1, "nodes": nodes, "jsEventListeners": k}})

# Frames: the main frame's layer tree, BeginFrame/DrawFrame pairs, a dropped frame and an idle gap.
e(name="SetLayerTreeId", ph="I", ts=1150, args={"data": {"frame": "F1", "layerTreeId": 5}})
seq = 1
t = 2000
for k in range(8):
    e(name="BeginFrame", ph="I", tid=C, ts=t, args={"layerTreeId": 5, "frameSeqId": seq})
    if k == 3:
        e(name="DroppedFrame", ph="I", tid=C, ts=t + 100, args={"layerTreeId": 5, "frameSeqId": seq, "hasPartialUpdate": k % 2 == 1})
    elif k == 5:
        e(name="NeedsBeginFrameChanged", ph="I", tid=C, ts=t + 50, args={"layerTreeId": 5, "data": {"needsBeginFrame": 1}})
    else:
        e(name="DrawFrame", ph="I", tid=C, ts=t + 8000, args={"layerTreeId": 5, "frameSeqId": seq})
    if k == 2:
        e(name="RequestMainThreadFrame", ph="I", tid=C, ts=t + 10, args={"layerTreeId": 5})
        e(name="BeginMainThreadFrame", ph="I", ts=t + 20, args={"layerTreeId": 5, "data": {"frameId": seq}})
        e(name="Commit", ph="X", ts=t + 30, dur=20, args={"layerTreeId": 5, "frameSeqId": seq})
        e(name="ActivateLayerTree", ph="I", tid=C, ts=t + 60, args={"layerTreeId": 5, "frameId": seq})
    seq += 1
    t += 16667 if k != 5 else 120000

with open("edge-kinds.json", "w") as f:
    json.dump(ev, f, indent=0)
    f.write("\n")
