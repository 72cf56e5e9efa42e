// Bundles src/ five ways into ../out/: esbuild (minified, external map plus an inline data: URL),
// esbuild-plain (not minified, for per-line times), webpack (production, minified by terser),
// rollup (typescript + terser) and parcel (production). Each output folder gets its script
// (bundle.js; parcel names it index.js after the entry), the script's .map and index.html.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync, rmSync } from "node:fs";
import { scripts } from "./bundles.mjs";

const out = "../out";
rmSync(out, { recursive: true, force: true });
const bin = (name) => `node_modules/.bin/${name}`;
const run = (cmd, args) => execFileSync(cmd, args, { stdio: "inherit" });

run(bin("esbuild"), ["src/index.ts", "--bundle", "--minify", "--sourcemap=both",
  "--format=iife", `--outfile=${out}/esbuild/bundle.js`]);
run(bin("esbuild"), ["src/index.ts", "--bundle", "--sourcemap",
  "--format=iife", `--outfile=${out}/esbuild-plain/bundle.js`]);
run(bin("webpack"), ["--config", "webpack.config.cjs"]);
run(bin("rollup"), ["--config", "rollup.config.mjs"]);
run(bin("parcel"), ["build", "src/index.ts", `--dist-dir=${out}/parcel`, "--no-cache"]);

for (const [b, script] of Object.entries(scripts)) {
  mkdirSync(`${out}/${b}`, { recursive: true });
  writeFileSync(`${out}/${b}/index.html`,
    `<!doctype html><title>${b}</title><script src="${script}"></script>\n`);
}
