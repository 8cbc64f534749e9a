#!/usr/bin/env bash
# `make demo`: cuzk's main job on small built-in examples.
#  1. PoRep C2 through the daemon: seal a 2 KiB committed-capacity sector and build its
#     commit-phase-1 output (cuzk-bench gen-vanilla), make TEST-ONLY Groth16 parameters under
#     the official v28 file names (cuzk params gen; made once and kept in BUILD/demo-params),
#     start `cuzk daemon`, send the C1 in Curio's JSON envelope over gRPC (cuzk-bench --addr
#     ... single --type porep), and check the proof with `cuzk verify-c2`, a separate
#     process that reads only the verifying key.
#  2. WinningPoSt of the same sector through the same daemon, checked with cuzk verify-post.
#  3. The CLI on a circom circuit (circomlib Poseidon, circom2 -p bls12381): cuzk setup,
#     prove, export-vk, cuzk verify, and snarkjs verifying cuzk's proof.
# Usage: tools/demo.sh BUILD_DIR
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
daemon_pid=
cleanup() {
    [[ -n $daemon_pid ]] && kill "$daemon_pid" 2>/dev/null && wait "$daemon_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
cuzk=$build/cuzk
bench=$build/cuzk-bench
params=$build/demo-params
mkdir -p "$params"

echo "== 1. PoRep C2 of a freshly sealed 2 KiB sector, through the daemon"
"$bench" gen-vanilla porep --registered-proof 5 --miner 1000 --sector 1 --cc --format envelope \
    -o "$work/c1.json" >"$work/seal.json"
python3 - "$work/seal.json" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))
print("sealed %s sector %d of miner f0%d: comm_d %s..., comm_r %s..., challenges %s" % (
    s["registered_proof"], s["sector_id"], 1000, s["comm_d"][:16], s["comm_r"][:16], s["challenges"]))
EOF
echo "test-only parameters (made once; the official ones are used the same way):"
for c in porep winning-post; do
    "$cuzk" params gen $c --sector-size 2KiB --out "$params" --keep-existing 2>/dev/null |
        python3 -c "import json,sys; d=json.load(sys.stdin); print('  %s: %s' % (d['circuit'], 'kept' if d.get('kept') else 'made in %.0f s' % (d['record_s'] + d['setup_s'] + d['write_s'])))"
done
cat >"$work/cuzk.toml" <<EOF
[daemon]
listen = "unix://$work/cuzk.sock"
[srs]
param_cache = "$params"
cache_dir = "$params/cache"
[logging]
level = "warn"
EOF
"$cuzk" daemon --config "$work/cuzk.toml" &
daemon_pid=$!
for _ in $(seq 100); do [[ -S $work/cuzk.sock ]] && break; sleep 0.1; done
addr=unix://$work/cuzk.sock
"$bench" --addr "$addr" single --type porep --c1 "$work/c1.json" --miner-id 1000 --sector-num 1 \
    -o "$work/porep.proof"
printf 'cuzk verify-c2: '
"$cuzk" verify-c2 "$work/c1.json" "$work/porep.proof" --param-cache "$params"

echo
echo "== 2. WinningPoSt of the same sector, through the daemon"
rand=0303030303030303030303030303030303030303030303030303030303030303
"$bench" gen-vanilla winning-post --registered-proof 0 --miner 1000 --sectors 1 --randomness $rand \
    --format blobs -o "$work/winning.json" >/dev/null
"$bench" --addr "$addr" single --type winning-post --vanilla "$work/winning.json" --registered-proof 0 \
    --miner-id 1000 --randomness $rand -o "$work/winning.proof"
printf 'cuzk verify-post: '
"$cuzk" verify-post --kind winning --registered-proof 0 --miner 1000 --randomness $rand \
    --param-cache "$params" "$work/winning.proof" "$work/winning.json"
"$bench" --addr "$addr" status | grep -E "^(completed|failed|srs)"
kill "$daemon_pid"
wait "$daemon_pid" 2>/dev/null || true
daemon_pid=

echo
echo "== 3. cuzk CLI on circomlib's Poseidon (circom2 -p bls12381), checked by snarkjs"
"$root/tests/oracle/ensure-deps.sh"
oracle=$root/tests/oracle
(cd "$oracle" && node node_modules/circom2/cli.js ../iden3/circuits/poseidon.circom --r1cs --wasm \
  -p bls12381 -l node_modules/circomlib/circuits -o "$(realpath --relative-to="$oracle" "$work")" >/dev/null)
node "$work/poseidon_js/generate_witness.js" "$work/poseidon_js/poseidon.wasm" \
  "$root/tests/iden3/circuits/poseidon.input.json" "$work/poseidon.wtns"
"$cuzk" setup "$work/poseidon.r1cs" "$work/poseidon.zkey"
"$cuzk" export-vk "$work/poseidon.zkey" "$work/vk.json"
"$cuzk" prove -v "$work/poseidon.zkey" "$work/poseidon.wtns" "$work/proof.json" "$work/public.json"
echo "public signals: $(tr -d ' \n' <"$work/public.json")"
"$cuzk" verify "$work/vk.json" "$work/public.json" "$work/proof.json"
printf 'snarkjs groth16 verify: '
node "$oracle/node_modules/snarkjs/build/cli.cjs" groth16 verify "$work/vk.json" "$work/public.json" \
  "$work/proof.json" | sed 's/\x1b\[[0-9;]*m//g' | tail -1
