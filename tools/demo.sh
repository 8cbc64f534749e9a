#!/usr/bin/env bash
# `make demo`: cuzk's main job on small built-in examples.
#  1. The engine: 2 proofs x 2 partitions of the built-in synthetic circuit (2^12 rows)
#     through the partition pipeline, every partition proof verified.
#  2. The CLI on a circom circuit (circomlib Poseidon, compiled with circom2 -p bls12381):
#     cuzk setup, prove, export-vk, cuzk verify, and snarkjs verifying cuzk's proof.
# Usage: tools/demo.sh BUILD_DIR
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== 1. engine pipeline: synthetic circuit, 2 proofs x 2 partitions"
"$build/cuzk-bench" batch --kind synthetic --log-constraints 12 --partitions 2 --count 2 -j 2 \
  --partition-workers 2 --quiet

echo
echo "== 2. cuzk CLI on circomlib's Poseidon (circom2 -p bls12381), checked by snarkjs"
"$root/tests/oracle/ensure-deps.sh"
oracle=$root/tests/oracle
(cd "$oracle" && node node_modules/circom2/cli.js ../iden3/circuits/poseidon.circom --r1cs --wasm \
  -p bls12381 -l node_modules/circomlib/circuits -o "$(realpath --relative-to="$oracle" "$work")" >/dev/null)
node "$work/poseidon_js/generate_witness.js" "$work/poseidon_js/poseidon.wasm" \
  "$root/tests/iden3/circuits/poseidon.input.json" "$work/poseidon.wtns"
cuzk=$build/cuzk
"$cuzk" setup "$work/poseidon.r1cs" "$work/poseidon.zkey"
"$cuzk" export-vk "$work/poseidon.zkey" "$work/vk.json"
"$cuzk" prove -v "$work/poseidon.zkey" "$work/poseidon.wtns" "$work/proof.json" "$work/public.json"
echo "public signals: $(tr -d ' \n' <"$work/public.json")"
"$cuzk" verify "$work/vk.json" "$work/public.json" "$work/proof.json"
printf 'snarkjs groth16 verify: '
node "$oracle/node_modules/snarkjs/build/cli.cjs" groth16 verify "$work/vk.json" "$work/public.json" \
  "$work/proof.json" | sed 's/\x1b\[[0-9;]*m//g' | tail -1
