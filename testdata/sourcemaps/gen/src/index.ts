// Entry point: runs the workload for a fixed time so that the profiler takes enough samples of
// every function. Bundled by build.mjs with webpack, rollup and esbuild.
import { Matrix, countPrimesBelow } from "./geometry";
import { buildSentence, countVowelsSlowly } from "./text";

function runWorkloadOnce(round: number): number {
  let total = 0;
  const m = Matrix.identity(40);
  total += m.multiplyMatrices(m).cells[0];
  total += countPrimesBelow(20000 + round);
  total += countVowelsSlowly(buildSentence(2000, round));
  return total;
}

export function runWorkloadFor(milliseconds: number): number {
  const end = Date.now() + milliseconds;
  let total = 0;
  let round = 0;
  while (Date.now() < end) {
    total += runWorkloadOnce(round++);
  }
  return total;
}

const isBrowser = typeof window !== "undefined";
setTimeout(() => {
  const result = runWorkloadFor(isBrowser ? 1500 : 1500);
  (globalThis as unknown as { workloadDone: number }).workloadDone = result;
  if (!isBrowser) console.log("workload", result);
}, 20);
