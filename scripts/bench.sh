#!/usr/bin/env bash
# Measures each performance goal of issue #18 with one binary built from this checkout and prints
# every figure beside its goal, a summary at the end (`make bench` runs it after the Go benchmarks):
#   load    the DevTools engine's load time over flamedesk's (scripts/speedbench.sh), >= 30x
#   ready   the window's first loaded chart over `stats` (scripts/readybench.sh), <= 1.1x
#   reopen  a reopen from the cache over a first load (BenchmarkReopen in core/pipeline), <= 0.10x;
#           and, for information, the window's reopen against its first open (readybench.sh)
#   memory  peak RSS over the JSON's size (scripts/membench.sh, when this checkout has it)
#   frames  frame times while navigating (scripts/framebench.sh)
#   2gb     peak RSS over the JSON's size for gen-trace-large scaled to 1.9 GB of JSON
#           (scripts/scaletrace), <= 1.0x
# The goals on gen-trace-large need the optional corpus (FLAMEDESK_CORPUS, README "Test data");
# without it they are skipped with a line saying so, and the committed medium trace is measured.
# RUNS sets the runs per timing (default 5 for load, 7 for ready: the window and stats each move by
# 50-100 ms from one run to the next on a shared 2-core host, and medians of 3 moved the ratio by
# 0.1x between two runs of the same binary). SETTLE is the pause in seconds before the first
# step (default 10).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/flamedesk" ./cmd/flamedesk || exit 1
export FLAMEDESK_BIN=$tmp/flamedesk

medium=$root/testdata/fixtures/generated/gen-trace-medium-reload.json.gz
large=
if [ -n "${FLAMEDESK_CORPUS:-}" ] && [ -f "$FLAMEDESK_CORPUS/fixtures/generated/gen-trace-large.json.gz" ]; then
  large=$FLAMEDESK_CORPUS/fixtures/generated/gen-trace-large.json.gz
fi
nolarge="skipped: gen-trace-large is in the optional corpus and FLAMEDESK_CORPUS is not set (README, \"Test data\")"
summary=$tmp/summary
: >"$summary"
note() { echo "$*" | tee -a "$summary"; }

# `make bench` runs the Go benchmarks first, and they free GBs: the VM reports freed memory to its
# host in cycles 2 s apart that stall the guest (see the 2 GB step below), which would land in
# the first loads timed. They are over within about 10 s.
sleep "${SETTLE:-10}"
echo "== load: the DevTools engine against flamedesk stats"
scripts/speedbench.sh "$medium" "${RUNS:-5}" | tee "$tmp/out"
tail -1 "$tmp/out" >>"$summary"

echo "== ready: the window against flamedesk stats"
if [ -n "$large" ]; then
  scripts/readybench.sh "$large" "${RUNS:-7}" | tee "$tmp/out"
  tail -1 "$tmp/out" >>"$summary"
else
  note "ready  gen-trace-large  $nolarge"
  scripts/readybench.sh "$medium" "${RUNS:-7}" | tee "$tmp/out"
  tail -1 "$tmp/out" >>"$summary"
fi
# readybench also times the window's reopen; its line joins the reopen figures below.
grep '^reopen-window' "$tmp/out" >"$tmp/reopen-window" || true

echo "== reopen: from the cache against a first load"
go test -run '^$' -bench 'BenchmarkReopen/.*/reopen' -benchtime 5x ./core/pipeline | tee "$tmp/out"
awk '/^BenchmarkReopen\// && / ratio/ {
  split($1, p, "/"); name = p[2]; sub(/\.json\.gz$/, "", name)
  for (i = 2; i <= NF; i++) if ($(i+1) == "ratio") r = $i
  printf "reopen  %s  %.3fx of a first load  (goal <= 0.10x)  %s\n", name, r, (r <= 0.10 ? "OK" : "NOT MET")
}' "$tmp/out" >>"$summary"
[ -n "$large" ] || note "reopen  gen-trace-large  $nolarge"
cat "$tmp/reopen-window" >>"$summary"

echo "== memory"
if [ -x scripts/membench.sh ]; then
  if [ -n "$large" ]; then
    scripts/membench.sh --window "$large" | tee "$tmp/out"
  else
    note "memory  gen-trace-large  $nolarge"
    scripts/membench.sh --window "$medium" | tee "$tmp/out"
  fi
  grep -i 'goal' "$tmp/out" | sed 's/^/memory  /' >>"$summary"
else
  note "memory  skipped: scripts/membench.sh is not in this checkout"
fi

echo "== frames"
if [ -x scripts/framebench.sh ]; then
  [ -n "$large" ] || note "frames  gen-trace-large  $nolarge (measured on the medium trace)"
  scripts/framebench.sh | tee "$tmp/out"
  if grep -q '^goals' "$tmp/out"; then
    grep '^goals' "$tmp/out" | sed 's/^goals/frames  (goal p95 <= 25 ms, p99 <= 33 ms, max <= 100 ms)/' >>"$summary"
  else
    grep '^frames:' "$tmp/out" | sed 's/^/frames  (goal p95 <= 25 ms, p99 <= 33 ms) /' >>"$summary"
  fi
else
  note "frames  skipped: scripts/framebench.sh is not in this checkout"
fi

# The 2 GB step comes last: deleting its 1.9 GB file and ending its 1.8 GB process frees 3.7 GB,
# which this project's VM hands back to its host over the next 10 s or so, in cycles 2 s apart
# that each stall the whole guest for 10-30 ms (free page reporting). Frames measured in those
# seconds measured that (a keys run right after it: max 63.7 ms, against 27-31 ms alone).
echo "== the 2 GB trace: gen-trace-large scaled 8 times (scale_trace.py's rules, scripts/scaletrace)"
if [ -z "$large" ]; then
  note "2gb     $nolarge"
elif [ "$(df -Pk "$tmp" | awk 'NR == 2 { print $4 }')" -lt $((3 * 1024 * 1024)) ]; then
  note "2gb     skipped: less than 3 GB free in $tmp for the 1.9 GB trace"
else
  go run ./scripts/scaletrace "$large" "$tmp/large-x8.json" --copies 8 &&
    scripts/membench.sh "$tmp/large-x8.json" | tee "$tmp/out"
  grep -i 'goal' "$tmp/out" | sed 's/^/2gb     /' >>"$summary"
  rm -f "$tmp/large-x8.json"
fi

echo
echo "== issue #18: each figure beside its goal ($(nproc) cores; $(uptime | sed 's/.*load average/load average/'))"
cat "$summary"
