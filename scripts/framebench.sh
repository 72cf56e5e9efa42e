#!/usr/bin/env bash
# Measures frame times of the real window under Xvfb (Mesa's software GL): continuous zooming and
# panning with held W/D/S/A over FILE at 1600x1000, then the same input on a window that draws only
# its background (the floor). Prints flamedesk's --frame-stats lines for both; the first lines
# cover loading, when the window redraws its progress bar ten times a second.
#   scripts/framebench.sh [FILE] [SECONDS]
set -euo pipefail
# The large trace is in the optional corpus (README, "Test data"); the medium one is in testdata.
if [ -n "${FLAMEDESK_CORPUS:-}" ]; then default=$FLAMEDESK_CORPUS/fixtures/generated/gen-trace-large.json.gz; else default=testdata/fixtures/generated/gen-trace-medium-reload.json.gz; fi
file=${1:-$default}
secs=${2:-20}
bin=${FLAMEDESK_BIN:-bin/flamedesk}
disp=:$((60 + RANDOM % 30))
Xvfb "$disp" -screen 0 1600x1000x24 -nolisten tcp -noreset >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null' EXIT
export DISPLAY=$disp XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}
sleep 1

drive() { # $1: label, rest: flamedesk args
  local label=$1; shift
  local log; log=$(mktemp)
  "$bin" --frame-stats "$@" 2>"$log" &
  local pid=$!
  local win=""
  for _ in $(seq 1 600); do
    win=$(xdotool search --name '^flamedesk' 2>/dev/null | head -1 || true)
    if [ -n "$win" ] && xdotool getwindowname "$win" | grep -qv loading; then
      name=$(xdotool getwindowname "$win")
      case "$name" in *"—"*) break ;; esac
    fi
    sleep 0.1
  done
  xdotool windowsize "$win" 1600 1000 windowmove "$win" 0 0
  sleep 2
  xdotool mousemove 800 400
  local end=$((SECONDS + secs))
  while [ $SECONDS -lt $end ]; do
    # Held keys zoom and pan continuously, so every frame follows the previous one at once and
    # the interval between frames is the frame time.
    for k in w d s a; do
      xdotool keydown $k; sleep 1.2; xdotool keyup $k
    done
  done
  sleep 3.5
  kill $pid; wait $pid 2>/dev/null || true
  echo "== $label"
  grep '^frames:' "$log" || echo "(no frame statistics)"
  rm -f "$log"
}

drive "flame chart: $(basename "$file")" "$file"
drive "floor: blank window" --blank "$file"
