#!/usr/bin/env bash
# Issue 6 benchmark: `cuzk prove` vs `snarkjs groth16 prove` on the same .zkey and witness
# (a chain of 126 circomlib Poseidon hashes, 65,142 constraints, about 2^16 rows), measured
# in one run: cuzk-bench vs-snarkjs alternates the two provers and checks both proofs with
# snarkjs. The zkey comes from `cuzk setup` (snarkjs proves with it unchanged).
# Usage: bench/vs-snarkjs.sh [BUILD_DIR] [RUNS] [THREADS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
runs=${2:-3}
threads=${3:-$(nproc)}
oracle=$root/tests/oracle
"$oracle/ensure-deps.sh"
work=$build/bench-vs-snarkjs
mkdir -p "$work"
c=poseidon_chain
if [[ ! -f $work/$c.zkey ]]; then
  # circom2 runs in a WASI sandbox that resolves paths relative to its working directory
  (cd "$oracle" && node node_modules/circom2/cli.js "$(realpath --relative-to="$oracle" "$root/bench/circuits/$c.circom")" \
    --r1cs --wasm -p bls12381 -l node_modules/circomlib/circuits \
    -o "$(realpath --relative-to="$oracle" "$work")" >/dev/null)
  node "$work/${c}_js/generate_witness.js" "$work/${c}_js/$c.wasm" "$root/bench/circuits/$c.input.json" "$work/$c.wtns"
  "$build/cuzk" setup "$work/$c.r1cs" "$work/$c.zkey" 2>/dev/null
fi
node "$oracle/node_modules/snarkjs/build/cli.cjs" r1cs info "$work/$c.r1cs" | sed 's/\x1b\[[0-9;]*m//g' |
  grep -o 'Constraints: [0-9]*'
cd "$root" && "$build/cuzk-bench" vs-snarkjs "$work/$c.zkey" "$work/$c.wtns" --runs "$runs" --threads "$threads" --json
