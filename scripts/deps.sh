#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages flamedesk needs to build, run and test, and nothing that is
# already present. Usage: scripts/deps.sh [build|run|all]   (default: all)
set -euo pipefail

build_pkgs=(gcc libc6-dev pkg-config libx11-dev libx11-xcb-dev libxkbcommon-dev libxkbcommon-x11-dev
  libxcursor-dev libxfixes-dev libegl-dev libwayland-dev libvulkan-dev)
run_pkgs=(xvfb xdotool x11-utils imagemagick libegl1 libgles2 libgl1-mesa-dri mesa-vulkan-drivers
  dbus-daemon desktop-file-utils python3 xdg-desktop-portal xdg-desktop-portal-gtk zenity
  libglib2.0-bin shared-mime-info)

case "${1:-all}" in
  build) wanted=("${build_pkgs[@]}") ;;
  run) wanted=("${run_pkgs[@]}") ;;
  all) wanted=("${build_pkgs[@]}" "${run_pkgs[@]}") ;;
  *) echo "usage: $0 [build|run|all]" >&2; exit 2 ;;
esac

missing=()
for p in "${wanted[@]}"; do
  # dpkg-query knows what is installed, also on machines without network.
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

if ! command -v apt-get >/dev/null; then
  echo "deps: missing packages (${missing[*]}) and no apt-get: install them by hand" >&2
  exit 1
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "deps: done"
