#!/usr/bin/env node
// Makes the references that flamedesk's conformance tests compare against: for every fixture it
// is given, what the DevTools trace engine (the Performance panel's model) and Lighthouse's
// tracehouse make of it, reduced to the fields the Go tests and shared/tools compare, and gzipped.
//
//   node references.mjs [--out DIR] FILE...
//   node references.mjs --refresh --out DIR FIXTURES_DIR...   (what `make references` runs)
//
// For FILE = NAME.json.gz, NAME.cpuprofile, ... it writes DIR/STEM.devtools.json.gz (per thread
// the engine's tree in pre-order, per profile the assembled chunks and the CPU profile model) and,
// for traces, DIR/STEM.lighthouse.json.gz (per profile the naive and the task-refined B/E events)
// and DIR/STEM.timelines.json.gz (the tracks beside the flame charts: see timelines.mjs).
// --refresh remakes the .devtools and .lighthouse references DIR already holds, each from the
// fixture of the same stem below FIXTURES_DIR/*/, and every such trace's .timelines reference.
// --timelines-json writes only DIR/STEM.timelines.json, uncompressed. A file the engine refuses
// gets no .devtools or .timelines reference; the Go tests read that absence as "open it anyway".
// The member order matters to the Go readers: "input" comes first, "profiles" last.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import {pipeline} from 'node:stream/promises';
import {Readable} from 'node:stream';
import {spawnSync} from 'node:child_process';
import {fileURLToPath} from 'node:url';

import * as Trace from '@paulirish/trace_engine';
import {polyfillDOMRect} from '@paulirish/trace_engine/analyze-trace.mjs';
import log from 'lighthouse-logger';
import {TraceProcessor} from 'lighthouse/core/lib/tracehouse/trace-processor.js';
import {MainThreadTasks} from 'lighthouse/core/lib/tracehouse/main-thread-tasks.js';
import {CpuProfileModel} from 'lighthouse/core/lib/tracehouse/cpu-profile-model.js';
import {timelinesOf} from './timelines.mjs';

const ENGINE = '@paulirish/trace_engine 0.0.65';
const LIGHTHOUSE = 'lighthouse 13.5.0';

// ---- input ------------------------------------------------------------------------------------

function readJSON(file) {
  let buf = fs.readFileSync(file);
  if (buf.length > 2 && buf[0] === 0x1f && buf[1] === 0x8b) buf = zlib.gunzipSync(buf);
  return JSON.parse(buf.toString('utf8'));
}

// What a parsed file is, by its content as flamedesk decides it (never by the name).
function kindOf(doc) {
  if (Array.isArray(doc) || Array.isArray(doc?.traceEvents)) return 'trace';
  if (Array.isArray(doc?.nodes)) return 'cpuprofile';
  return 'other'; // JS Self-Profiling output, the Node 10 head/timestamps form: no engine reads them
}

function eventsOf(doc) {
  return Array.isArray(doc) ? {events: doc, metadata: {}} : {events: doc.traceEvents, metadata: doc.metadata ?? {}};
}

// ---- output -----------------------------------------------------------------------------------

// writeGzipJSON writes {head members..., [listKey]: items} with one JSON.stringify per item, so a
// reference of a hundred megabytes never has to be one string.
async function writeGzipJSON(file, head, lists) {
  function* parts() {
    const headText = JSON.stringify(head);
    yield headText.slice(0, -1);
    for (const [key, items] of lists) {
      yield `,${JSON.stringify(key)}:[`;
      for (let i = 0; i < items.length; i++) yield (i ? ',' : '') + JSON.stringify(items[i]);
      yield ']';
    }
    yield '}\n';
  }
  await pipeline(Readable.from(parts()), zlib.createGzip({level: 9}), fs.createWriteStream(file));
}

// ---- DevTools ---------------------------------------------------------------------------------

// A ProfileCall is named after its function; a trace event after itself. Only the fields the
// comparison reads are kept: the frame's url and line, not its column or script.
function treeEntry(e, depth) {
  const call = Trace.Types.Events.isProfileCall(e);
  const out = {kind: call ? 'profileCall' : 'event', name: call ? e.callFrame.functionName : e.name,
    ts: e.ts, dur: e.dur ?? 0, depth};
  if (call) out.callFrame = {url: e.callFrame.url, lineNumber: e.callFrame.lineNumber};
  return out;
}

// threadsOf lists each thread the panel draws with its tree in pre-order, parents first. The walk
// keeps its own stack: JS stacks in traces run thousands of frames deep.
function threadsOf(parsed) {
  return Trace.Handlers.Threads.threadsInTrace(parsed).map(thread => {
    const entries = [];
    const todo = [...thread.tree.roots].reverse();
    while (todo.length) {
      const node = todo.pop();
      entries.push(treeEntry(node.entry, node.depth));
      for (let i = node.children.length - 1; i >= 0; i--) todo.push(node.children[i]);
    }
    return {pid: thread.pid, tid: thread.tid, name: thread.name ?? null, entries};
  });
}

// profilesOf gives, per profile the engine chose for a thread, the chunks as assembled and the CPU
// profile model built from them (samples remapped and sorted, timestamps in µs).
function profilesOf(parsed) {
  const out = [];
  for (const [pid, threads] of parsed.Samples.profilesInProcess) {
    for (const [tid, p] of threads) {
      const raw = p.rawProfile;
      const model = p.parsedProfile;
      out.push({
        profileId: p.profileId, pid, tid,
        raw: {startTime: raw.startTime, endTime: raw.endTime, nodes: raw.nodes.length,
          samples: raw.samples?.length ?? 0, timeDeltas: raw.timeDeltas?.length ?? 0,
          lines: raw.lines?.length ?? 0, traceIds: raw.traceIds ? Object.keys(raw.traceIds).length : 0},
        model: {profileStartTimeMs: model.profileStartTime, profileEndTimeMs: model.profileEndTime,
          maxDepth: model.maxDepth, rootId: model.root?.id,
          programNodeId: model.programNode?.id ?? null, idleNodeId: model.idleNode?.id ?? null,
          gcNodeId: model.gcNode?.id ?? null},
        rawNodes: raw.nodes.map(n => ({id: n.id, parent: n.parent ?? null, functionName: n.callFrame.functionName,
          url: n.callFrame.url, scriptId: n.callFrame.scriptId, lineNumber: n.callFrame.lineNumber,
          columnNumber: n.callFrame.columnNumber})),
        rawSamples: raw.samples ?? [],
        rawTimeDeltas: raw.timeDeltas ?? [],
        modelSamples: model.samples ?? [],
        modelTimestampsUs: (model.timestamps ?? []).map(ms => ms * 1000),
        modelNodes: (model.nodes() ?? []).map(n => ({id: n.id, parent: n.parent ? n.parent.id : null,
          depth: n.depth, functionName: n.functionName})),
      });
    }
  }
  return out;
}

// devtools runs the engine as the panel does: every handler, the events in file order. A
// .cpuprofile goes in the way the panel's loader takes it: wrapped in one synthetic CpuProfile
// event of pid 1, tid 1.
async function devtools(doc, kind) {
  polyfillDOMRect();
  const model = Trace.TraceModel.Model.createWithAllHandlers();
  if (kind === 'cpuprofile') {
    const fake = Trace.Helpers.SamplesIntegrator.SamplesIntegrator.createFakeTraceFromCpuProfile(
        doc, Trace.Types.Events.ThreadID(1));
    await model.parse(fake.traceEvents, {metadata: fake.metadata, isCPUProfile: true});
  } else {
    const {events, metadata} = eventsOf(doc);
    await model.parse(events, {metadata});
  }
  const parsed = model.parsedTrace()?.data;
  if (!parsed) throw new Error('the engine made no model');
  return {parsed, threads: () => threadsOf(parsed), profiles: () => profilesOf(parsed)};
}

// ---- Lighthouse -------------------------------------------------------------------------------

// mainRenderer finds Lighthouse's main frame, its renderer threads and the main thread's events.
// processTrace needs a navigation (or a Lighthouse marker) for its time origin; without one, the
// same steps run without it: the origin only shifts task times, which the synthesis undoes.
function mainRenderer(events) {
  try {
    const p = TraceProcessor.processTrace({traceEvents: events});
    return {pidToTid: p._rendererPidToTid, frames: p.frames, mainEvents: p.mainThreadEvents,
      processEvents: p.processEvents, traceEnd: p.timestamps.traceEnd, timeOrigin: p.timestamps.timeOrigin};
  } catch {
    // fall through
  }
  try {
    const keyEvents = TraceProcessor.filteredTraceSort(events, e => e.cat === '__metadata' ||
      ['blink.user_timing', 'loading', 'devtools.timeline'].some(c => e.cat.includes(c)));
    const pidToTid = TraceProcessor.findMainFramePidTids(TraceProcessor.findMainFrameIds(keyEvents), keyEvents);
    const frames = new Map();
    const started = keyEvents.find(e => e.name === 'TracingStartedInBrowser');
    for (const f of started?.args?.data?.frames ?? []) frames.set(f.frame, {id: f.frame, url: f.url, parent: f.parent});
    for (const e of keyEvents) {
      const d = e.args?.data;
      if (e.name === 'FrameCommittedInBrowser' && d?.frame && d.url !== undefined) {
        frames.set(d.frame, {id: d.frame, url: d.url, parent: d.parent});
      }
    }
    const processEvents = TraceProcessor.filteredTraceSort(events, e => pidToTid.has(e.pid));
    return {pidToTid, frames: [...frames.values()], processEvents,
      mainEvents: processEvents.filter(e => e.tid === pidToTid.get(e.pid)),
      traceEnd: traceEndOf(events), timeOrigin: undefined};
  } catch {
    return null; // no main renderer: every profile gets naive events only
  }
}

function traceEndOf(events) {
  let end = -Infinity;
  for (const e of events) end = Math.max(end, e.ts + (e.dur || 0));
  return end;
}

// tasksOf builds known tasks from one thread's events; [] when Lighthouse cannot.
function tasksOf(threadEvents, frames, end, origin, errors) {
  try {
    return MainThreadTasks.getMainThreadTasks(threadEvents, frames, end, origin);
  } catch (err) {
    errors?.push(`thread tasks: ${err.message}`);
    return [];
  }
}

// taskRows gives the known tasks in trace µs, as the synthesis rebases them: [name, start, end].
function taskRows(tasks) {
  if (!tasks.length) return [];
  const base = tasks[0].event.ts - tasks[0].startTime * 1000;
  return tasks.map(t => [t.event.name, base + t.startTime * 1000, base + t.endTime * 1000]);
}

// lighthouse synthesizes B/E events for every profile in the trace, naive and, where the thread
// has known tasks (the main thread's from Lighthouse's main-thread tasks, any other thread's built
// the same way from its own events), refined to the task edges. Profiles are collected one process
// at a time, since profile ids repeat across processes.
function lighthouse(doc) {
  log.setLevel('silent');
  const events = eventsOf(doc).events;
  const main = mainRenderer(events);
  const mainTasks = main ? tasksOf(main.mainEvents, main.frames, main.traceEnd, main.timeOrigin) : [];

  const profiles = [];
  const done = new Set();
  for (const pid of main?.pidToTid.keys() ?? []) {
    profiles.push(...CpuProfileModel.collectProfileEvents(main.processEvents.filter(e => e.pid === pid)));
    done.add(pid);
  }
  const others = [];
  for (const e of events) {
    if ((e.name === 'Profile' || e.name === 'ProfileChunk') && !done.has(e.pid) && !others.includes(e.pid)) others.push(e.pid);
  }
  for (const pid of others) {
    profiles.push(...CpuProfileModel.collectProfileEvents(TraceProcessor.filteredTraceSort(events, e => e.pid === pid)));
  }

  const end = traceEndOf(events);
  const threadTasks = new Map();
  return profiles.map(p => {
    const idOf = new Map(p.nodes.map(n => [n.callFrame, n.id]));
    const compact = list => list.map(e => ({ph: e.ph, ts: e.ts, nodeId: idOf.get(e.args.data.callFrame ?? {}) ?? null}));
    const out = {id: p.id, pid: p.pid, tid: p.tid, knownTasks: 0, naive: null, refined: null};
    const errors = [];
    let naive = null;
    try {
      naive = CpuProfileModel.synthesizeTraceEvents(p);
      out.naive = compact(naive);
    } catch (err) {
      errors.push(`naive: ${err.message}`);
    }
    let tasks = mainTasks;
    if (!main || main.pidToTid.get(p.pid) !== p.tid) {
      const key = `${p.pid}/${p.tid}`;
      if (!threadTasks.has(key)) {
        const own = TraceProcessor.filteredTraceSort(events, e => e.pid === p.pid && e.tid === p.tid);
        threadTasks.set(key, tasksOf(own, main?.frames ?? [], end, undefined, errors));
      }
      tasks = threadTasks.get(key);
    }
    out.knownTasks = tasks.length;
    if (tasks.length && naive) {
      try {
        out.refined = compact(CpuProfileModel.synthesizeTraceEvents(p, tasks));
      } catch (err) {
        errors.push(`refined: ${err.message}`);
      }
      out.knownTaskList = taskRows(tasks);
    }
    if (errors.length) out.errors = errors;
    return out;
  });
}

// ---- main -------------------------------------------------------------------------------------

function stemOf(file) {
  return path.basename(file).replace(/\.gz$/, '').replace(/\.(cpuprofile|json)$/, '').replace(/\.trace$/, '');
}

// refreshList finds, below each fixtures folder, the fixtures that already have a reference in
// outDir, and which kinds: `make references` remakes exactly those.
function refreshList(fixtureDirs, outDir) {
  const have = new Set(fs.existsSync(outDir) ? fs.readdirSync(outDir) : []);
  const out = [];
  for (const dir of fixtureDirs) {
    for (const sub of fs.readdirSync(dir, {withFileTypes: true})) {
      if (!sub.isDirectory()) continue;
      for (const name of fs.readdirSync(path.join(dir, sub.name)).sort()) {
        const kinds = ['devtools', 'lighthouse'].filter(k => have.has(`${stemOf(name)}.${k}.json.gz`));
        // every trace with a reference gets its timelines too (the engine may still refuse it)
        if (kinds.length) out.push({file: path.join(dir, sub.name, name), kinds: [...kinds, 'timelines']});
      }
    }
  }
  return out;
}

async function main(argv) {
  let outDir = '.';
  let refresh = false;
  let timelinesJSON = false;
  let kindsArg = null;
  const args = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--out') outDir = argv[++i];
    else if (argv[i] === '--refresh') refresh = true;
    else if (argv[i] === '--timelines-json') timelinesJSON = true;
    else if (argv[i] === '--kinds') kindsArg = argv[++i].split(',');
    else args.push(argv[i]);
  }
  if (!args.length) {
    process.stderr.write('usage: node references.mjs [--out DIR] FILE...\n' +
      '       node references.mjs --refresh --out DIR FIXTURES_DIR...   (remakes the references DIR has)\n' +
      '       node references.mjs --timelines-json [--out DIR] TRACE...   (only STEM.timelines.json, plain)\n');
    process.exit(2);
  }
  const allKinds = timelinesJSON ? ['timelines'] : ['devtools', 'lighthouse', 'timelines'];
  const jobs = refresh ? refreshList(args, outDir) : args.map(file => ({file, kinds: kindsArg ?? allKinds}));
  fs.mkdirSync(outDir, {recursive: true});
  // The engine's handlers are module state that one parse does not wholly reset (Meta's mainFrameId
  // outlives it in 0.0.65), so each file gets a fresh process: its references then do not depend
  // on which files were read before it.
  if (jobs.length > 1) {
    let failed = 0;
    for (const {file, kinds} of jobs) {
      const r = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url),
        ...(timelinesJSON ? ['--timelines-json'] : []), '--kinds', kinds.join(','), '--out', outDir, file],
      {stdio: 'inherit'});
      if (r.status !== 0) failed++;
    }
    if (failed) process.exit(1);
    return;
  }
  for (const {file, kinds} of jobs) {
    const t0 = Date.now();
    const name = path.basename(file);
    const stem = stemOf(file);
    const doc = readJSON(file);
    const kind = kindOf(doc);
    const made = [];
    const wantTimelines = kind === 'trace' && kinds.includes('timelines');
    if (kind !== 'other' && (kinds.includes('devtools') || wantTimelines)) {
      let d = null;
      try {
        d = await devtools(doc, kind);
      } catch (err) {
        process.stderr.write(`${name}: the DevTools engine refused it (${err.message}): no .devtools or .timelines reference\n`);
      }
      if (d && kinds.includes('devtools')) {
        await writeGzipJSON(path.join(outDir, `${stem}.devtools.json.gz`),
            {tool: 'flamedesk references', engine: ENGINE, input: {file: name}}, [['threads', d.threads()], ['profiles', d.profiles()]]);
        made.push('devtools');
      }
      if (d && wantTimelines) {
        const events = eventsOf(doc).events.length;
        const tl = timelinesOf(d.parsed, {tool: 'flamedesk references', engine: ENGINE, input: {file: name, events}});
        if (timelinesJSON) {
          fs.writeFileSync(path.join(outDir, `${stem}.timelines.json`), JSON.stringify(tl) + '\n');
        } else {
          await pipeline(Readable.from([JSON.stringify(tl) + '\n']), zlib.createGzip({level: 9}),
              fs.createWriteStream(path.join(outDir, `${stem}.timelines.json.gz`)));
        }
        made.push('timelines');
      }
    }
    if (kind === 'trace' && kinds.includes('lighthouse')) {
      const profiles = lighthouse(doc);
      await writeGzipJSON(path.join(outDir, `${stem}.lighthouse.json.gz`),
          {tool: 'flamedesk references', lighthouse: LIGHTHOUSE, input: {file: name}}, [['profiles', profiles]]);
      made.push('lighthouse');
    }
    process.stderr.write(`${name}: ${made.join(' + ') || 'nothing'} in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  }
}

await main(process.argv.slice(2));
