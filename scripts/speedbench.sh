#!/usr/bin/env bash
# Times a first load of a Chrome trace by the DevTools trace engine and by flamedesk in one run,
# turn about (so that both see the same machine), and prints the medians and their ratio against
# the goal of issue #18 (flamedesk at least 30 times as fast):
#
#   scripts/speedbench.sh [FILE] [RUNS]        (default: testdata's gen-trace-medium-reload, 5 runs)
#
# DevTools: scripts/references/engine-load.mjs, the engine pinned in scripts/references (`npm ci`
# there is run when node_modules is missing; Node 20+ and npm are needed, else the engine is
# skipped with a line saying so). It counts reading, gunzip, JSON.parse and every handler, as the
# Performance panel loads a file; Node's start and the engine's import are not counted.
# flamedesk: `flamedesk stats FILE`, "time: total": reading, gunzip, parsing, profiles and every
# thread's track, the whole first load (stats never reads or writes the cache of files opened
# before); the process's start is not counted either.
#
# FLAMEDESK_BIN names the binary to time (default: built afresh from this checkout).
# The last line reads, for `make bench`:
#   load  NAME  flamedesk Y s  DevTools X s  Z.Zx  (goal >= 30x)  OK|NOT MET
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
file=${1:-$root/testdata/fixtures/generated/gen-trace-medium-reload.json.gz}
runs=${2:-5}
goal=30
name=$(basename "$file"); name=${name%%.*}
if [ ! -f "$file" ]; then
  echo "load  $name  skipped: $file is not there"
  exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=${FLAMEDESK_BIN:-}
if [ -z "$bin" ]; then
  bin=$tmp/flamedesk
  (cd "$root" && go build -o "$bin" ./cmd/flamedesk)
fi

refs=$root/scripts/references
engine=yes
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "speedbench: no Node/npm: the DevTools engine is not timed (scripts/deps.sh installs them)" >&2
  engine=no
elif [ ! -d "$refs/node_modules/@paulirish/trace_engine" ]; then
  echo "speedbench: installing the pinned DevTools engine (npm ci in scripts/references)" >&2
  if ! (cd "$refs" && npm ci --no-audit --no-fund >"$tmp/npm.log" 2>&1); then
    echo "speedbench: npm ci failed, the DevTools engine is not timed:" >&2
    tail -5 "$tmp/npm.log" >&2
    engine=no
  fi
fi

median() { sort -g | awk '{v[NR]=$1} END {if (NR == 0) exit 1; if (NR % 2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}'; }

: >"$tmp/engine.ms"
: >"$tmp/flamedesk.ms"
for i in $(seq 1 "$runs"); do
  if [ $engine = yes ]; then
    # A fresh process per run: the engine keeps module state from one parse to the next.
    out=$(cd "$refs" && node --max-old-space-size=6000 engine-load.mjs "$file")
    ms=$(printf '%s\n' "$out" | sed -n 's/^ENGINE_LOAD .*"ms":\([0-9.]*\).*/\1/p')
    echo "$ms" >>"$tmp/engine.ms"
    printf 'run %d: DevTools engine %.0f ms' "$i" "$ms" >&2
  else
    printf 'run %d:' "$i" >&2
  fi
  ms=$("$bin" stats "$file" | sed -n 's/^time: total *\([0-9.]*\) ms$/\1/p')
  echo "$ms" >>"$tmp/flamedesk.ms"
  printf ', flamedesk %.0f ms\n' "$ms" >&2
done

fd=$(median <"$tmp/flamedesk.ms")
if [ $engine = yes ]; then
  dt=$(median <"$tmp/engine.ms")
  awk -v dt="$dt" -v fd="$fd" -v goal=$goal -v name="$name" -v runs="$runs" 'BEGIN {
    r = dt / fd
    printf "DevTools engine %.2f s, flamedesk %.3f s: %.1fx (goal %dx; medians of %d runs each)\n", dt/1000, fd/1000, r, goal, runs
    printf "load  %s  flamedesk %.3f s  DevTools %.2f s  %.1fx  (goal >= %dx)  %s\n", name, fd/1000, dt/1000, r, goal, (r >= goal ? "OK" : "NOT MET")
  }'
else
  awk -v fd="$fd" -v name="$name" 'BEGIN {
    printf "load  %s  flamedesk %.3f s  DevTools not timed (no Node)  (goal >= 30x)  SKIPPED\n", name, fd/1000 }'
fi
