#!/usr/bin/env bash
# Installs the system tools the test suites use (Debian/Ubuntu): media generators (espeak-ng, sox,
# ffmpeg), Chromium for the UI tests, libsecret for keytar's build and gnome-keyring + dbus for a
# real Secret Service, fonts for CJK and emoji so names in any script show in screenshots, and
# xmllint (libxml2-utils) to validate the FCPXML writer against Apple's DTD.
# Does nothing when they are already present.
set -euo pipefail
pkgs=(libsecret-1-dev gnome-keyring dbus-x11 chromium chromium-headless-shell ffmpeg espeak-ng sox xvfb fonts-wqy-microhei fonts-noto-color-emoji libxml2-utils)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "test tools: all present"
  exit 0
fi
if ! command -v apt-get >/dev/null; then
  echo "test tools: missing ${missing[*]}; install them with your package manager" >&2
  exit 1
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "test tools: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "test tools: installed"
