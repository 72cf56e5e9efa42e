#!/usr/bin/env bash
# Writes cmd/flamedesk/default.pgo, the CPU profile that `go build` uses for profile-guided
# optimization of the flamedesk binary (Go's -pgo=auto: a default.pgo beside the main package).
# The profile is of issue #18's load: reading, parsing, the profiles' model and every thread's
# track, on testdata's gen-trace-medium-reload (core/integrate's BenchmarkLoadMedium), built
# with -trimpath so that it names no path of this machine. With it the compiler inlines the
# parser's hot calls (the scanner's peek, objectNext, str0, number...): the load runs about 5 %
# fewer instructions, 7 % fewer in the parser. Re-run it after large changes to core/load or
# core/integrate; a stale profile still helps where the code did not move, and never breaks a build.
#   scripts/pgo.sh [RUNS]     (default 40 loads)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-40}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$root"
go test -trimpath -pgo=off -run '^$' -bench '^BenchmarkLoadMedium$' -benchtime "${runs}x" \
  -cpuprofile "$tmp/cpu.prof" -o "$tmp/integrate.test" ./core/integrate >/dev/null
go tool pprof -proto "$tmp/cpu.prof" >cmd/flamedesk/default.pgo 2>/dev/null
echo "wrote cmd/flamedesk/default.pgo ($(wc -c <cmd/flamedesk/default.pgo) bytes) from $runs loads"
