// Records what the Go tests read: a Chromium trace of each minified bundle (../traces/B.trace.json.gz)
// and a node --cpu-prof profile of every bundle (../profiles/B.cpuprofile.gz). Run build.mjs first.
// Arguments name the bundles to record again (default: all).
//
// Scripts are served from http://127.0.0.1:8765/B/ (bundle.js, or index.js for parcel). The traces carry the script sources
// (the v8-source-rundown-sources category, as DevTools' "include script content" does), and the
// webpack trace also carries its map in metadata.sourceMaps, the way DevTools saves an enhanced
// trace. Node reports file:// URLs of this checkout; they are rewritten to file:///project/out/...
// so that no path of the recording machine ends up in the fixtures.
import { chromium } from "playwright-core";
import { createServer } from "node:http";
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { resolve, join } from "node:path";
import { pathToFileURL } from "node:url";
import { tmpdir } from "node:os";
import { scripts } from "./bundles.mjs";

const only = process.argv.slice(2);
const wanted = (b) => only.length === 0 || only.includes(b);

const outDir = resolve("../out");
const port = 8765;
const origin = `http://127.0.0.1:${port}`;

const server = createServer((req, res) => {
  try {
    const body = readFileSync(join(outDir, new URL(req.url, origin).pathname));
    const type = req.url.endsWith(".html") ? "text/html" : req.url.endsWith(".js") ? "text/javascript" : "application/json";
    res.writeHead(200, { "content-type": type });
    res.end(body);
  } catch {
    res.writeHead(404);
    res.end();
  }
});
await new Promise((r) => server.listen(port, "127.0.0.1", r));

const categories = [
  "devtools.timeline", "disabled-by-default-devtools.timeline", "v8.execute",
  "disabled-by-default-v8.cpu_profiler", "disabled-by-default-devtools.timeline.stack",
  "disabled-by-default-devtools.v8-source-rundown", "disabled-by-default-devtools.v8-source-rundown-sources",
  "__metadata",
];

mkdirSync("../traces", { recursive: true });
mkdirSync("../profiles", { recursive: true });
const userDataDir = join(tmpdir(), `flamedesk-sourcemaps-${process.pid}`);
const browser = await chromium.launchPersistentContext(userDataDir, {
  executablePath: "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync"],
});
for (const b of ["esbuild", "webpack", "rollup", "parcel"].filter(wanted)) {
  const page = await browser.newPage();
  const cdp = await browser.newCDPSession(page);
  const events = [];
  cdp.on("Tracing.dataCollected", (e) => events.push(...e.value));
  const done = new Promise((r) => cdp.once("Tracing.tracingComplete", r));
  await cdp.send("Tracing.start", { traceConfig: { includedCategories: categories }, transferMode: "ReportEvents" });
  await page.goto(`${origin}/${b}/index.html`);
  await page.waitForFunction(() => globalThis.workloadDone !== undefined, null, { timeout: 20000 });
  await page.waitForTimeout(200);
  await cdp.send("Tracing.end");
  await done;
  await page.close();
  // Only the renderer that ran the page matters; the browser and GPU processes add size, not tests.
  const scriptPid = events.find((e) => e.name === "ScriptCatchup" && e.args?.data?.url?.endsWith(`/${b}/${scripts[b]}`))?.pid;
  const kept = events.filter((e) => e.pid === scriptPid || e.ph === "M" || e.name === "TracingStartedInBrowser");
  const metadata = { source: "flamedesk testdata/sourcemaps/gen/record.mjs" };
  if (b === "webpack") {
    const url = `${origin}/${b}/${scripts[b]}`;
    metadata.sourceMaps = [{ url, sourceMapUrl: `${url}.map`,
      sourceMap: JSON.parse(readFileSync(join(outDir, b, `${scripts[b]}.map`), "utf8")) }];
  }
  writeFileSync(`../traces/${b}.trace.json.gz`, gzipSync(JSON.stringify({ metadata, traceEvents: kept })));
  console.log(b, kept.length, "events");
}
await browser.close();
server.close();
rmSync(userDataDir, { recursive: true, force: true });

const projectURL = pathToFileURL(outDir).href;
for (const b of Object.keys(scripts).filter(wanted)) {
  const dir = join(tmpdir(), `flamedesk-cpuprof-${process.pid}-${b}`);
  execFileSync(process.execPath, ["--cpu-prof", "--cpu-prof-interval", "250", `--cpu-prof-dir=${dir}`,
    "--enable-source-maps", join(outDir, b, scripts[b])], { stdio: "inherit" });
  const file = readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
  const text = readFileSync(join(dir, file), "utf8").split(projectURL).join("file:///project/out");
  writeFileSync(`../profiles/${b}.cpuprofile.gz`, gzipSync(text));
  rmSync(dir, { recursive: true, force: true });
  console.log(b, "profile", text.length, "bytes");
}
