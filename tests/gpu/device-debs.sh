#!/usr/bin/env bash
# The Debian packages a bare GPU image lacks for the GPU-only build (root CMakeLists.txt):
# libcrypto and jansson, headers and shared libraries (both need only libc). Run HERE, on the
# development machine, from the repository root:
#
#     tests/gpu/device-debs.sh
#
# It downloads them (apt-get download: no root needed, nothing installed) into .device-debs/,
# which it adds to .git/info/exclude, so that the device tool carries the folder
# (run's carry: [".device-debs"]) and tests/gpu/device-check.sh unpacks it beside its build
# (dpkg -x into build-device/deps, never into /). Exit 0 when every package is there.
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=.device-debs
pkgs=(libssl3 libssl-dev libjansson4 libjansson-dev)
mkdir -p "$dir"
exclude=$(git rev-parse --git-path info/exclude)
mkdir -p "$(dirname "$exclude")"
grep -qx "/$dir/" "$exclude" 2>/dev/null || echo "/$dir/" >>"$exclude"
(cd "$dir" && apt-get download "${pkgs[@]}")
ls -l "$dir" >&2
