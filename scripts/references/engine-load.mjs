#!/usr/bin/env node
// Times the DevTools trace engine (the version pinned in package.json) loading one trace the way
// the Performance panel does: read the file, gunzip it, JSON.parse it, and run every handler
// (model.parse). Node's start and the import of the engine are not counted, as flamedesk's own
// figure (`stats`, "time: total") does not count the process's start either.
//
//   node engine-load.mjs FILE
//
// Prints one line: ENGINE_LOAD {"ms": total, "read_ms": ..., "json_ms": ..., "engine_ms": ...}.
// One load per process: the engine keeps module state between parses, so a second parse in the
// same process would not be a first load.
import fs from 'node:fs';
import zlib from 'node:zlib';
import {performance} from 'node:perf_hooks';

import * as Trace from '@paulirish/trace_engine';
import {polyfillDOMRect} from '@paulirish/trace_engine/analyze-trace.mjs';

const file = process.argv[2];
if (!file) {
  console.error('usage: node engine-load.mjs FILE');
  process.exit(2);
}
polyfillDOMRect();

const t0 = performance.now();
let buf = fs.readFileSync(file);
if (buf.length > 2 && buf[0] === 0x1f && buf[1] === 0x8b) buf = zlib.gunzipSync(buf);
const text = buf.toString('utf8');
buf = null;
const t1 = performance.now();
const doc = JSON.parse(text);
const t2 = performance.now();
const events = Array.isArray(doc) ? doc : doc.traceEvents;
const metadata = Array.isArray(doc) ? {} : doc.metadata ?? {};
if (!Array.isArray(events)) {
  console.error(`${file}: not a trace (no traceEvents)`);
  process.exit(1);
}
const model = Trace.TraceModel.Model.createWithAllHandlers();
await model.parse(events, {metadata});
if (!model.parsedTrace()?.data) {
  console.error(`${file}: the engine made no model`);
  process.exit(1);
}
const t3 = performance.now();
console.log('ENGINE_LOAD ' + JSON.stringify({ms: t3 - t0, read_ms: t1 - t0, json_ms: t2 - t1, engine_ms: t3 - t2,
  events: events.length}));
