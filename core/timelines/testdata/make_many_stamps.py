#!/usr/bin/env python3
"""Writes many-stamps.json: 150 console.timeStamp entries and 90 performance.measure calls whose
spans tie across custom tracks, so that the engine's User Timing order depends on V8's sort of
more than 64 items (TimSort runs and merges, not only insertion). Its reference,
many-stamps.timelines.json, is the DevTools engine's output, remade by `make references`
(scripts/references/references.mjs --timelines-json)."""
import json
import random

rnd = random.Random(13)
ev = [
    {"name": "thread_name", "ph": "M", "pid": 2, "tid": 11, "ts": 0, "cat": "__metadata", "args": {"name": "CrRendererMain"}},
    {"name": "RunTask", "ph": "X", "pid": 2, "tid": 11, "ts": 1000, "dur": 100000, "cat": "disabled-by-default-devtools.timeline", "args": {}},
]
tracks = ["A", "B", "C", None]
ts = 2000
for k in range(150):
    ts += rnd.choice([0, 0, 0, 10, 50])
    start = rnd.choice([2000, 2000, 3000, 4000])
    end = start + rnd.choice([0, 100, 100, 500])
    data = {"message": f"s{k}", "start": start, "end": end}
    tr = rnd.choice(tracks)
    if tr:
        data["track"] = tr
        if rnd.random() < 0.5:
            data["trackGroup"] = "G"
    ev.append({"name": "TimeStamp", "ph": "I", "pid": 2, "tid": 11, "ts": ts, "cat": "devtools.timeline", "args": {"data": data}})
for k in range(90):
    t0 = rnd.choice([5000, 5000, 6000])
    t1 = t0 + rnd.choice([100, 100, 300])
    tr = rnd.choice(tracks)
    b = {"detail": json.dumps({"devtools": {"track": tr}})} if tr else {}
    ev.append({"name": f"m{k}", "ph": "b", "pid": 2, "tid": 11, "ts": t0, "cat": "blink.user_timing", "id": hex(k + 1), "args": b})
    ev.append({"name": f"m{k}", "ph": "e", "pid": 2, "tid": 11, "ts": t1, "cat": "blink.user_timing", "id": hex(k + 1), "args": {}})
with open("many-stamps.json", "w") as f:
    json.dump(ev, f, indent=0)
    f.write("\n")
