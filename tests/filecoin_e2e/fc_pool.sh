#!/usr/bin/env bash
# test_fc_pool on a WinningPoSt vanilla proof of a sealed 2 KiB sector made here.
# Usage: fc_pool.sh CUZK_BENCH TEST_FC_POOL PARAMS
set -euo pipefail
bench=$1 test=$2 params=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bench" gen-vanilla winning-post --registered-proof 0 --format bincode -o "$tmp/win.bin" >/dev/null
"$test" "$tmp/win.bin" "$params" "$tmp"
