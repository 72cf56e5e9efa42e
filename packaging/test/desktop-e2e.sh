#!/usr/bin/env bash
# Checks the Linux desktop integration the way a file manager uses it: "make install" into a
# scratch PREFIX, desktop-file-validate, the MIME types that real trace and profile files get,
# flamedesk as their default application, then a "double click" (gio open, which launches the
# default application through the desktop entry, as Nautilus does) under Xvfb, and the window
# titled "flamedesk — NAME". Ends with "make uninstall" leaving nothing of flamedesk behind.
#
# Usage: packaging/test/desktop-e2e.sh     (needs Xvfb, xdotool, dbus-run-session, gio from
# libglib2.0-bin, desktop-file-utils, shared-mime-info)
set -u
cd "$(dirname "$0")/../.."

passed=0 failed=0
check() { # check NAME COMMAND...
	local name=$1; shift
	if "$@"; then passed=$((passed + 1)); echo "ok   $name"; else failed=$((failed + 1)); echo "FAIL $name"; fi
}

for tool in Xvfb xdotool dbus-run-session gio desktop-file-validate update-mime-database update-desktop-database; do
	command -v "$tool" >/dev/null || { echo "desktop-e2e: $tool is missing (make deps installs it)" >&2; exit 1; }
done

work=$(mktemp -d /tmp/flamedesk-desktop.XXXXXX)
prefix=$work/prefix
mkdir -p "$prefix" "$work/home/.config" "$work/home/.local/share" "$work/run"
chmod 700 "$work/run"
if ! make -s install PREFIX="$prefix" >"$work/install.log" 2>&1; then
	cat "$work/install.log"
	echo "0 passed, 1 failed"
	exit 1
fi
check "desktop entry validates" desktop-file-validate "$prefix/share/applications/flamedesk.desktop"
check "entry opens a file argument" grep -qx 'Exec=flamedesk %f' "$prefix/share/applications/flamedesk.desktop"
check "scalable and 48 px icons installed" test -f "$prefix/share/icons/hicolor/scalable/apps/flamedesk.svg" -a -f "$prefix/share/icons/hicolor/48x48/apps/flamedesk.png"

# A session that sees only the scratch installation and the system's own data.
session() {
	env -i PATH="$prefix/bin:$PATH" HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" \
		XDG_DATA_HOME="$work/home/.local/share" XDG_DATA_DIRS="$prefix/share:/usr/share" \
		XDG_RUNTIME_DIR="$work/run" NO_AT_BRIDGE=1 FLAMEDESK_E2E_TOKEN="$work" "$@"
}

# The repository's own test data: a plain clone has everything these tests need.
testdata=$PWD/testdata
files=$work/files
mkdir -p "$files"
cp "$testdata/fixtures/generated/gen-cpuprofile-prettier-format.cpuprofile" "$files/prettier.cpuprofile"
cp "$testdata/fixtures/upstream/devtools-basic.cpuprofile.gz" "$files/basic.cpuprofile.gz"
cp "$testdata/fixtures/upstream/lighthouse-cpu-profiler-m86.trace.json" "$files/lighthouse.trace.json"
cp "$testdata/fixtures/generated/gen-trace-small.json.gz" "$files/small.trace.json.gz"
cp "$testdata/fixtures/generated/gen-selfprofile-small.json" "$files/plain.json"

content_type() { session gio info -a standard::content-type "$1" | sed -n 's/.*content-type: //p'; }
expect_type() { # FILE TYPE
	local got
	got=$(content_type "$1")
	[ "$got" = "$2" ] || { echo "  $(basename "$1") is $got, want $2"; return 1; }
}
default_app() { # TYPE
	session gio mime "$1" | head -1 | grep -q 'flamedesk.desktop' || { echo "  $(session gio mime "$1" | head -1)"; return 1; }
}
check ".cpuprofile is application/x-cpuprofile" expect_type "$files/prettier.cpuprofile" application/x-cpuprofile
check ".cpuprofile.gz is application/x-cpuprofile+gzip" expect_type "$files/basic.cpuprofile.gz" application/x-cpuprofile+gzip
check ".trace.json is application/x-chrome-trace" expect_type "$files/lighthouse.trace.json" application/x-chrome-trace
check ".trace.json.gz is application/x-chrome-trace+gzip" expect_type "$files/small.trace.json.gz" application/x-chrome-trace+gzip
check "other .json stays application/json" expect_type "$files/plain.json" application/json
for t in application/x-cpuprofile application/x-cpuprofile+gzip application/x-chrome-trace application/x-chrome-trace+gzip; do
	check "flamedesk is the default for $t" default_app "$t"
done

display=""
for n in $(seq 121 150); do
	if [ ! -e "/tmp/.X$n-lock" ] && [ ! -e "/tmp/.X11-unix/X$n" ]; then display=":$n"; break; fi
done
Xvfb "$display" -screen 0 1400x900x24 -nolisten tcp -noreset >"$work/xvfb.log" 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null; wait $xvfb 2>/dev/null' EXIT
for _ in $(seq 100); do DISPLAY=$display xdotool getmouselocation >/dev/null 2>&1 && break; sleep 0.1; done

# "Double-click": gio open launches the default application through its desktop entry.
cat >"$work/open.sh" <<'OPEN'
file=$1
# Stops the flamedesk this test launched, and no other: only it carries our token.
stop() {
	for pid in $(pgrep -x flamedesk); do
		tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qxF "FLAMEDESK_E2E_TOKEN=$FLAMEDESK_E2E_TOKEN" && kill "$pid"
	done
}
gio open "$file" || exit 1
want="flamedesk — $(basename "$file")"
for _ in $(seq 300); do
	for w in $(xdotool search --name '^flamedesk' 2>/dev/null); do
		if [ "$(xdotool getwindowname "$w")" = "$want" ]; then
			stop
			exit 0
		fi
	done
	sleep 0.1
done
echo "  no window titled '$want'"
import -window root "$(dirname "$file")/../failed-$(basename "$file").png" 2>/dev/null
stop
exit 1
OPEN
for f in "$files/prettier.cpuprofile" "$files/basic.cpuprofile.gz"; do
	check "double-click on $(basename "$f") opens it" \
		session DISPLAY="$display" timeout 90 dbus-run-session -- bash "$work/open.sh" "$f" 2>>"$work/open.log"
done

make -s uninstall PREFIX="$prefix" >"$work/uninstall.log" 2>&1
left=$(find "$prefix" -iname '*flamedesk*' | head -5)
check "make uninstall removes every flamedesk file" test -z "$left"
[ -z "$left" ] || echo "  left behind: $left"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && rm -rf "$work"
[ "$failed" -eq 0 ]
