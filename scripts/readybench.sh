#!/usr/bin/env bash
# Times how long the window takes to show a file's flame chart against `flamedesk stats` on the
# same file with the same binary, turn about, under a private Xvfb (Mesa's software GL), and
# prints the medians and their ratio against the goal of issue #18 (the window ready within 1.1
# times the stats time):
#
#   scripts/readybench.sh [FILE] [RUNS]
#
# FILE defaults to gen-trace-large from the corpus ($FLAMEDESK_CORPUS), else testdata's
# gen-trace-medium-reload; RUNS to 3. The window runs with --time-to-ready: it opens FILE as a
# user's first open does (an empty cache in a scratch HOME), prints when the first frame with the
# loaded chart was on screen, counted from the process's start, and exits. stats' figure is its
# "time: total" (read, parse, profiles, tracks). FLAMEDESK_BIN names the binary (default: built
# afresh from this checkout).
#
# Mesa keeps the shaders it compiles in an on-disk cache (mesa_shader_cache in the user's cache
# folder), so only the very first launch of the app on a machine compiles them; under llvmpipe that
# is about 0.4 CPU-s of LLVM and delays the first frame by 300-400 ms. The goal is measured as a
# user who has run the app before opens a file: the runs share one shader cache of their own, and a
# first launch with it empty, before them, is printed apart ("first launch on this machine").
# It then times a reopen of FILE in the window (its cache written first), told on a line of its own:
#   reopen-window  NAME  ready X s after start (first frame Y s), R.RRx the first open's Z s (...)
# The last line reads, for `make bench`:
#   ready  NAME  window X s  stats Y s  R.RRx  (goal <= 1.1x)  OK|NOT MET
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [ -n "${FLAMEDESK_CORPUS:-}" ] && [ -f "$FLAMEDESK_CORPUS/fixtures/generated/gen-trace-large.json.gz" ]; then
  default=$FLAMEDESK_CORPUS/fixtures/generated/gen-trace-large.json.gz
else
  default=$root/testdata/fixtures/generated/gen-trace-medium-reload.json.gz
fi
file=${1:-$default}
runs=${2:-3}
name=$(basename "$file"); name=${name%%.*}
if [ ! -f "$file" ]; then
  echo "ready  $name  skipped: $file is not there"
  exit 0
fi
for tool in Xvfb; do
  if ! command -v $tool >/dev/null; then
    echo "ready  $name  skipped: no $tool (scripts/deps.sh installs it)"
    exit 0
  fi
done

tmp=$(mktemp -d)
xvfb=
cleanup() {
  [ -n "$xvfb" ] && kill "$xvfb" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
bin=${FLAMEDESK_BIN:-}
if [ -z "$bin" ]; then
  bin=$tmp/flamedesk
  (cd "$root" && go build -o "$bin" ./cmd/flamedesk)
fi

# A display of our own, 100-199, free of any other server's lock.
for _ in $(seq 1 50); do
  n=$((100 + RANDOM % 100))
  [ -e /tmp/.X$n-lock ] || [ -e /tmp/.X11-unix/X$n ] || break
done
Xvfb ":$n" -screen 0 1600x1000x24 -nolisten tcp -noreset >/dev/null 2>&1 &
xvfb=$!
sleep 1
export DISPLAY=:$n
mkdir -p "$tmp/run" && chmod 700 "$tmp/run"
export XDG_RUNTIME_DIR=$tmp/run
mkdir -p "$tmp/mesa"

# window HOME: the window's line for one run with a scratch HOME (its own caches empty), or nothing;
# with the time every track was in appended (" | all tracks in: N ms ..."), when some were built
# after the first chart (late tracks, timeline/late.go).
window() {
  local home=$1 keep=${2:-} out line
  mkdir -p "$home"
  out=$(HOME=$home XDG_CONFIG_HOME=$home/.config XDG_CACHE_HOME=$home/.cache XDG_DATA_HOME=$home/.local/share \
    MESA_SHADER_CACHE_DIR=$tmp/mesa timeout 600 "$bin" --time-to-ready "$file" 2>&1 >/dev/null || true)
  line=$(echo "$out" | grep '^ready:' || true)
  if [ -n "$line" ] && echo "$out" | grep -q '^all tracks in:'; then
    line="$line | $(echo "$out" | grep '^all tracks in:')"
  fi
  [ -n "$keep" ] || rm -rf "$home"
  echo "$line"
}

median() { sort -g | awk '{v[NR]=$1} END {if (NR == 0) exit 1; if (NR % 2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}'; }

: >"$tmp/stats"
: >"$tmp/ready"
: >"$tmp/first"
: >"$tmp/all"
# Also reads the file into the page cache, as it is for every run after.
cold=$(window "$tmp/home0")
printf 'first launch on this machine (shader cache empty): %s\n' "${cold:-no ready line}" >&2
for i in $(seq 1 "$runs"); do
  ms=$("$bin" stats "$file" | sed -n 's/^time: total *\([0-9.]*\) ms$/\1/p')
  echo "$ms" >>"$tmp/stats"
  line=$(window "$tmp/home$i")
  if [ -z "$line" ]; then
    echo "ready  $name  FAILED: the window never said it was ready"
    exit 1
  fi
  echo "$line" | sed -n 's/^ready: \([0-9]*\) ms.*/\1/p' >>"$tmp/ready"
  echo "$line" | sed -n 's/.*first frame \([0-9]*\) ms.*/\1/p' >>"$tmp/first"
  echo "$line" | sed -n 's/.*all tracks in: \([0-9]*\) ms.*/\1/p' >>"$tmp/all"
  printf 'run %d: stats %.0f ms; window %s\n' "$i" "$ms" "$line" >&2
done

# A reopen in the window, what a user sees opening a file a second time: `dump` writes the file's
# cache in a HOME that is kept (the window writes it only once its chart is on screen, and
# --time-to-ready exits first), then the window reads it three times. Told for information: the
# goal's figure is BenchmarkReopen's (the load alone), while the window's reopen also waits for
# its own start (Mesa's GL and the first frame, about as long as the reopen's load on 2 cores).
: >"$tmp/reopen"
: >"$tmp/reopenfirst"
mkdir -p "$tmp/homeR"
HOME=$tmp/homeR XDG_CACHE_HOME=$tmp/homeR/.cache "$bin" dump "$file" >/dev/null 2>&1 || true
for i in 1 2 3; do
  line=$(window "$tmp/homeR" keep)
  if echo "$line" | grep -q 'load from cache'; then
    echo "$line" | sed -n 's/^ready: \([0-9]*\) ms.*/\1/p' >>"$tmp/reopen"
    echo "$line" | sed -n 's/.*first frame \([0-9]*\) ms.*/\1/p' >>"$tmp/reopenfirst"
  fi
  printf 'reopen %d: window %s\n' "$i" "${line:-no ready line}" >&2
done
rm -rf "$tmp/homeR"

if [ -s "$tmp/all" ]; then
  median <"$tmp/all" | awk '{printf "every track in %.2f s (median; the first chart comes before the tracks it does not show)\n", $1/1000}'
fi
st=$(median <"$tmp/stats")
rd=$(median <"$tmp/ready")
ff=$(median <"$tmp/first")
cd_ms=$(echo "$cold" | sed -n 's/^ready: \([0-9]*\) ms.*/\1/p')
awk -v st="$st" -v cd="${cd_ms:-0}" 'BEGIN {
  if (cd > 0) printf "first launch on this machine: window %.2f s, %.2fx the stats median (not the goal: Mesa compiles its shaders once)\n", cd/1000, cd/st
}'
if [ -s "$tmp/reopen" ]; then
  awk -v ro="$(median <"$tmp/reopen")" -v rf="$(median <"$tmp/reopenfirst")" -v rd="$rd" -v name="$name" 'BEGIN {
    printf "reopen-window  %s  ready %.2f s after start (first frame %.2f s), %.2fx the first open'"'"'s %.2f s (for information: the window'"'"'s own start, to its first frame, bounds it from below)\n", name, ro/1000, rf/1000, ro/rd, rd/1000
  }'
else
  echo "reopen-window  $name  the window did not reopen from its cache"
fi
awk -v st="$st" -v rd="$rd" -v ff="$ff" -v name="$name" -v runs="$runs" 'BEGIN {
  r = rd / st
  printf "window ready %.2f s (first frame %.2f s), stats %.2f s: %.2fx (goal <= 1.1x; medians of %d runs each)\n", rd/1000, ff/1000, st/1000, r, runs
  printf "ready  %s  window %.2f s  stats %.2f s  %.2fx  (goal <= 1.1x)  %s\n", name, rd/1000, st/1000, r, (r <= 1.1 ? "OK" : "NOT MET")
}'
