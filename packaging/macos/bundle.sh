#!/bin/sh
# Assembles flamedesk.app from a macOS binary: packaging/macos/bundle.sh BINARY OUT.app VERSION
# The binary itself must be built on a Mac (Gio needs cgo and Apple's SDK there); "make macos"
# does both. Nothing here is macOS-specific, so the assembly is tested on Linux too.
set -eu
bin=$1 app=$2 version=$3
here=$(dirname "$0")
# CFBundleShortVersionString and CFBundleVersion want up to three dot-separated numbers: keep
# those of VERSION.
short=$(printf '%s\n' "$version" | sed -n 's/^v\{0,1\}\([0-9][0-9]*\(\.[0-9][0-9]*\)\{0,2\}\).*/\1/p')
[ -n "$short" ] || short=0.1.0
rm -rf "$app"
mkdir -p "$app/Contents/MacOS" "$app/Contents/Resources"
cp "$bin" "$app/Contents/MacOS/flamedesk"
chmod 755 "$app/Contents/MacOS/flamedesk"
cp "$here/flamedesk.icns" "$app/Contents/Resources/flamedesk.icns"
sed -e "s/@VERSION@/$short/" "$here/Info.plist.in" >"$app/Contents/Info.plist"
printf 'APPL????' >"$app/Contents/PkgInfo"
echo "assembled $app (version $short)"
