// Records the profile pairs in testdata/diff (run from this directory: npm ci && node gen.mjs).
//
// Traces (headless Chromium through playwright-core, executable from $CHROMIUM or
// /usr/bin/chromium): the page at http://flamedesk.test/ (served by request interception, so no
// path of this machine ends up in the files) waits DELAY ms after load, marks "work-start", runs
// work.js, marks "work-end" and measures "work". trace-a and trace-a2 are the same run with
// different delays (so navigation alignment and mark alignment differ by a known amount);
// trace-slow runs hashStrings eight times as long. page-a.cpuprofile is the same page profiled
// through the DevTools protocol at a 250 µs interval, for comparing a trace with a .cpuprofile.
//
// Node: node-a and node-slow run work.js with --cpu-prof at 100 µs, node-a2 at 300 µs (the same
// work sampled at another interval). Script URLs are rewritten to file:///gen/work.js.
import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.resolve(here, '..');
const work = fs.readFileSync(path.join(here, 'work.js'), 'utf8');
const noInline = '--no-turbo-inlining'; // keep every step of work.js a frame of its own

const page = `<!doctype html><title>diff workload</title>
<script>${work}</script>
<script>
// The parameters come from an init script rather than the query, so that every recording has the
// same script URL and so the same function identities.
const { delay, slow, manual } = window.__params;
window.addEventListener('load', () => setTimeout(() => {
  if (manual) { window.__ready = true; return; }
  performance.mark('work-start');
  window.__check = runWork(slow);
  performance.mark('work-end');
  performance.measure('work', 'work-start', 'work-end');
  window.__done = true;
}, delay));
</script>`;

function save(name, data) {
  const file = path.join(outDir, name + '.gz');
  fs.writeFileSync(file, zlib.gzipSync(data, { level: 9 }));
  console.log(file, fs.statSync(file).size, 'bytes');
}

const categories = [
  'toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute',
  'disabled-by-default-v8.cpu_profiler', 'blink.user_timing', 'loading',
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', `--js-flags=${noInline}`],
});

async function newPage(params) {
  const ctx = await browser.newContext();
  const p = await ctx.newPage();
  await p.addInitScript((v) => { window.__params = v; }, params);
  await p.route('http://flamedesk.test/**', (route) => route.fulfill({ contentType: 'text/html', body: page }));
  return p;
}

async function recordTrace(name, params) {
  const p = await newPage(params);
  await p.goto('about:blank');
  await browser.startTracing(p, { categories, screenshots: false });
  await p.goto('http://flamedesk.test/page.html');
  await p.waitForFunction(() => window.__done === true, null, { timeout: 120000 });
  await p.waitForTimeout(100);
  save(name, await browser.stopTracing());
  await p.context().close();
}

async function recordPageProfile(name, params, intervalUs) {
  const p = await newPage({ ...params, manual: true });
  await p.goto('http://flamedesk.test/page.html');
  await p.waitForFunction(() => window.__ready === true);
  const cdp = await p.context().newCDPSession(p);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: intervalUs });
  await cdp.send('Profiler.start');
  await p.evaluate(() => { window.__check = runWork(window.__params.slow); });
  const { profile } = await cdp.send('Profiler.stop');
  save(name, JSON.stringify(profile));
  await p.context().close();
}

await recordTrace('trace-a.json', { delay: 50, slow: false });
await recordTrace('trace-a2.json', { delay: 300, slow: false });
await recordTrace('trace-slow.json', { delay: 150, slow: true });
await recordPageProfile('page-a.cpuprofile', { delay: 0, slow: false }, 250);
await browser.close();

// Node runs: a small driver so that work.js is profiled on its own.
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'flamedesk-diff-'));
// work.js is a CommonJS script while this package is an ES module package: run a copy.
const workFile = path.join(tmp, 'work.cjs');
fs.copyFileSync(path.join(here, 'work.js'), workFile);
const workURL = pathToFileURL(workFile).href;
for (const [name, interval, slow] of [['node-a', 100, 0], ['node-a2', 300, 0], ['node-slow', 100, 1]]) {
  const dir = path.join(tmp, name);
  execFileSync(process.execPath, [noInline, '--cpu-prof', `--cpu-prof-interval=${interval}`, `--cpu-prof-dir=${dir}`,
    '-e', `require(${JSON.stringify(workFile)}).runWork(${slow})`]);
  const [file] = fs.readdirSync(dir);
  const text = fs.readFileSync(path.join(dir, file), 'utf8').split(workURL).join('file:///gen/work.js');
  save(name + '.cpuprofile', text);
}
fs.rmSync(tmp, { recursive: true });
