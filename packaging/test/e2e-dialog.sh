#!/usr/bin/env bash
# End-to-end test of the open-file dialog under Xvfb, as a user would drive it: start the app,
# press Ctrl+O and cancel with Escape (the title must not change), press Ctrl+O again, find the
# dialog window, type a fixture's path, press Enter, and check that the window title becomes
# "flamedesk — NAME". Each backend runs in a session of its own
# (dbus-run-session, a fresh HOME), forced with FLAMEDESK_DIALOG:
#   portal   xdg-desktop-portal + xdg-desktop-portal-gtk over D-Bus
#   zenity   the zenity fallback
#   builtin  the Gio browser, the last resort
#
# Usage: packaging/test/e2e-dialog.sh [BINARY]
#   BINARY defaults to a build of app/dialog/internal/dialogprobe, a stand-in window that opens the
#   dialog on Ctrl+O; pass bin/flamedesk to drive the real window. E2E_BACKENDS picks the backends
#   (default "portal zenity builtin"); E2E_OUT keeps the screenshots (default: a temporary folder).
# Needs: Xvfb xdotool dbus-run-session zenity xdg-desktop-portal xdg-desktop-portal-gtk, and
# ImageMagick's import for the screenshots.
set -u
cd "$(dirname "$0")/../.."

backends=${E2E_BACKENDS:-portal zenity builtin}
dialog_title=${E2E_DIALOG_TITLE:-Open a trace or profile}
work=$(mktemp -d /tmp/flamedesk-e2e.XXXXXX)
out=${E2E_OUT:-$work/shots}
mkdir -p "$out"

missing=""
for tool in Xvfb xdotool dbus-run-session; do
	command -v "$tool" >/dev/null || missing="$missing $tool"
done
if [ -n "$missing" ]; then
	echo "e2e-dialog: missing:$missing (make deps installs them)" >&2
	exit 1
fi

bin=${1:-}
if [ -z "$bin" ]; then
	bin=$work/dialogprobe
	go build -o "$bin" ./app/dialog/internal/dialogprobe || exit 1
fi

# The fixtures to type, copied under names with no common prefix: GTK's location entry inserts the
# common prefix of a folder's names on its own, which would garble a typed path.
fixtures=$work/traces
mkdir -p "$fixtures"
# The repository's own test data: a plain clone has everything these tests need.
testdata=$PWD/testdata
cp "$testdata/fixtures/generated/gen-selfprofile-small.json" "$fixtures/self-profile.json" || exit 1
cp "$testdata/fixtures/upstream/devtools-basic.cpuprofile.gz" "$fixtures/basic.cpuprofile.gz" || exit 1
cp "$testdata/fixtures/generated/gen-trace-small.json.gz" "$fixtures/trace small.json.gz" || exit 1

display=""
for n in $(seq 91 120); do
	if [ ! -e "/tmp/.X$n-lock" ] && [ ! -e "/tmp/.X11-unix/X$n" ]; then display=":$n"; break; fi
done
[ -n "$display" ] || { echo "e2e-dialog: no free X display" >&2; exit 1; }
Xvfb "$display" -screen 0 1400x900x24 -nolisten tcp -noreset >"$work/xvfb.log" 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null; wait $xvfb 2>/dev/null' EXIT
for _ in $(seq 100); do DISPLAY=$display xdotool getmouselocation >/dev/null 2>&1 && break; sleep 0.1; done

# One session: runs inside dbus-run-session with a fresh HOME.
cat >"$work/session.sh" <<'SESSION'
set -u
backend=$1 bin=$2 file=$3 out=$4 dialog_title=$5
name=$(basename "$file")
state=$out/$backend.state.json
# The real window writes what it shows to the state file (internal/winstate); the stand-in does not.
FLAMEDESK_STATE_FILE=$state FLAMEDESK_DIALOG=$backend "$bin" >"$out/$backend.stdout" 2>"$out/$backend.stderr" &
app=$!
fail() { echo "  $backend: $*"; import -window root "$out/$backend-failed.png" 2>/dev/null; kill $app 2>/dev/null; exit 1; }
main=$(timeout 60 xdotool search --sync --onlyvisible --name '^flamedesk' | head -1)
[ -n "$main" ] || fail "the app window never appeared"
xdotool mousemove --window "$main" 300 300
sleep 1
before=$(xdotool getwindowname "$main")
# First cancel with Escape: the dialog goes away and nothing changes.
xdotool key ctrl+o
dialog=$(timeout 60 xdotool search --sync --onlyvisible --name "^$dialog_title\$" | head -1)
[ -n "$dialog" ] || fail "no dialog window after Ctrl+O"
sleep 2
xdotool windowfocus --sync "$dialog" 2>/dev/null
xdotool mousemove --window "$dialog" 400 250
sleep 0.3
xdotool key Escape
for _ in $(seq 100); do
	[ -z "$(xdotool search --onlyvisible --name "^$dialog_title\$" 2>/dev/null)" ] && break
	sleep 0.1
done
[ -z "$(xdotool search --onlyvisible --name "^$dialog_title\$" 2>/dev/null)" ] || fail "Escape did not close the dialog"
sleep 0.5
[ "$(xdotool getwindowname "$main")" = "$before" ] || fail "cancel changed the title to '$(xdotool getwindowname "$main")'"
if [ -f "$state" ]; then
	shown=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["error"])' "$state")
	[ -z "$shown" ] || fail "cancel showed an error: $shown"
fi
xdotool mousemove --window "$main" 300 300
sleep 0.5
# Then open a file.
xdotool key ctrl+o
dialog=$(timeout 60 xdotool search --sync --onlyvisible --name "^$dialog_title\$" | head -1)
[ -n "$dialog" ] || fail "no dialog window after the second Ctrl+O"
sleep 2 # let the chooser finish drawing and loading its folder
xdotool windowfocus --sync "$dialog" 2>/dev/null
xdotool mousemove --window "$dialog" 400 250
sleep 0.3
import -window root "$out/$backend-dialog.png" 2>/dev/null
if [ "$backend" != builtin ]; then
	xdotool key ctrl+l # GTK: open the location entry
	sleep 0.5
fi
xdotool type --delay 40 "$file"
sleep 0.7
xdotool key Return
want="flamedesk — $name"
for _ in $(seq 150); do
	title=$(xdotool getwindowname "$main" 2>/dev/null)
	[ "$title" = "$want" ] && break
	sleep 0.1
done
import -window root "$out/$backend-after.png" 2>/dev/null
[ "$title" = "$want" ] || fail "title is '$title', want '$want'"
kill $app 2>/dev/null
wait $app 2>/dev/null
exit 0
SESSION

passed=0 failed=0
i=0
files=("$fixtures/self-profile.json" "$fixtures/basic.cpuprofile.gz" "$fixtures/trace small.json.gz")
for backend in $backends; do
	file=${files[$((i % ${#files[@]}))]}
	i=$((i + 1))
	home=$work/home-$backend
	mkdir -p "$home/.config" "$home/run"
	chmod 700 "$home/run"
	if env -i PATH="$PATH" DISPLAY="$display" HOME="$home" XDG_CONFIG_HOME="$home/.config" \
		XDG_RUNTIME_DIR="$home/run" XDG_CURRENT_DESKTOP=GNOME GTK_USE_PORTAL=0 NO_AT_BRIDGE=1 \
		timeout 180 dbus-run-session -- bash "$work/session.sh" "$backend" "$bin" "$file" "$out" "$dialog_title" \
		>"$out/$backend.session.log" 2>&1; then
		echo "ok   $backend: opened $(basename "$file")"
		passed=$((passed + 1))
	else
		echo "FAIL $backend (log: $out/$backend.session.log)"
		grep -E "^  $backend:" "$out/$backend.session.log"
		failed=$((failed + 1))
	fi
done
echo "$passed passed, $failed failed"
if [ "$failed" -eq 0 ] && [ -z "${E2E_OUT:-}" ]; then
	rm -rf "$work"
else
	echo "screenshots and logs: $out"
fi
[ "$failed" -eq 0 ]
