#!/usr/bin/env bash
# Test-only parameters for the Filecoin end-to-end tests (ctest fixture "fc_params"):
# `cuzk params gen` for every circuit the tests prove, under the official v28 names, in
# OUT; files an earlier run left in the same build folder are kept.
set -euo pipefail
cuzk=$1
out=$2
mkdir -p "$out"
for c in "porep 8MiB" "porep 2KiB" "winning-post 2KiB" "window-post 2KiB" "snap 2KiB"; do
    set -- $c
    "$cuzk" params gen "$1" --sector-size "$2" --out "$out" --keep-existing 2>/dev/null
done
