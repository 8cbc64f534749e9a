#!/usr/bin/env bash
# PoRep C2 through the CLI on the real 8 MiB C1 made by the reference (shared/fixtures):
#   - `cuzk c2 --check`: every constraint of its partition circuit holds (3,844,929,
#     docs/circuits.md);
#   - `cuzk c2 --synth-only --pce`: the production sizes, a/b/c bytes, a compact witness, and the
#     PCE's products satisfy every row;
#   - copies with one changed label (c_x row), tree-D path index, seed or comm_r are refused
#     before synthesis, the message naming the field (exit 2);
#   - with test parameters: `cuzk c2 -o --pce` proves (self-verified) with its partition
#     synthesized through the PCE it records first (a/b/c byte-identical to direct synthesis:
#     tests/pce, fc_pce), `cuzk verify-c2` accepts the proof (also with a parameter directory
#     of .vk files alone, making no point cache), rejects it with A and C swapped
#     (exit 1) and refuses a malformed one (exit 2); the output is not written when proving
#     fails;
#   - --miner / --sector that disagree with the C1 are refused before synthesis naming the
#     field and both values (exit 2): the fixture's own miner 1006 / sector 1498
#     (shared/fixtures/README.md), and a 2 KiB C1 made by `cuzk-bench gen-vanilla` for miner
#     1000 sector 1, as Curio's envelope (SectorNum 1, no prover id) and as bare JSON (neither).
set -euo pipefail
cuzk=$1 fixtures=$2 params=$3 bench=$4
here=$(cd "$(dirname "$0")" && pwd)
c1=$fixtures/porep-8MiB-c1.bincode
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
pass=0
ok() { pass=$((pass + 1)); }

t0=$(date +%s%N)
out=$("$cuzk" c2 "$c1" --check 2>"$tmp/check.err")
t1=$(date +%s%N)
[[ $out == '{"partitions":1,"constraints":3844929,"satisfied":true}' ]] || fail "check: $out"
# progress on stderr: a finished phase is reported when it took a second or more (the check
# can take less on a quiet machine: then the line is only required when the whole run took
# over 3 s; the proving run below always reports its prove_start)
if ((t1 - t0 > 3000000000)); then
    grep -Eq '^cuzk c2: partition 0/1: check \(synthesis in check mode\) [0-9]+\.[0-9]+ s$' "$tmp/check.err" ||
        fail "check progress on stderr: $(cat "$tmp/check.err")"
fi
ok

expect_rc() { # rc-wanted message-part command...
    local want=$1 part=$2
    shift 2
    set +e
    out=$("$@" 2>&1)
    local rc=$?
    set -e
    [[ $rc == "$want" ]] || fail "exit $rc (want $want): $* :: $out"
    [[ -z $part || $out == *"$part"* ]] || fail "message lacks '$part': $out"
    ok
}
expect_rc 2 "miner_id 1007 (prover_id ef07" "$cuzk" c2 "$c1" --check --miner 1007
expect_rc 2 "sector_number 1499 does not match the C1's sector_id 1498" "$cuzk" c2 "$c1" --check --sector 1499
"$bench" gen-vanilla porep --registered-proof 5 --format envelope -o "$tmp/env2k.json" >/dev/null
"$bench" gen-vanilla porep --registered-proof 5 --format json -o "$tmp/c1-2k.json" >/dev/null
for f in env2k c1-2k; do
    expect_rc 2 "miner_id 1001 and sector_number 1 give replica_id" "$cuzk" c2 "$tmp/$f.json" --check --miner 1001 --sector 1
    expect_rc 2 "sector_number 7 " "$cuzk" c2 "$tmp/$f.json" --check --miner 1000 --sector 7
    expect_rc 0 '"satisfied":true' "$cuzk" c2 "$tmp/$f.json" --check --miner 1000 --sector 1
done
expect_rc 2 "miner_id 1001 and sector_number 1 (the C1's) give replica_id" "$cuzk" c2 "$tmp/env2k.json" --check --miner 1001
expect_rc 2 "sector_number 7 does not match the C1's sector_id 1" "$cuzk" c2 "$tmp/env2k.json" --check --sector 7
expect_rc 2 "miner_id 1001 and sector_number 0 (not given: 0)" "$cuzk" c2 "$tmp/c1-2k.json" --check --miner 1001
expect_rc 2 "sector_number 7 cannot be checked" "$cuzk" c2 "$tmp/c1-2k.json" --check --sector 7
expect_rc 2 "miner_id 1000 and sector_number 7 give replica_id" "$cuzk" c2 "$tmp/c1-2k.json" --check --miner 1000 --sector 7

# --synth-only: the sizes of docs/circuits.md#production-sizes (3,844,929 constraints, 40
# inputs, 3,842,449 aux, domain 2^22), a/b/c = 3 x 2^22 x 32 bytes, and the compact witness the
# prover keeps far below the plain one
out=$("$cuzk" c2 "$c1" --synth-only --pce)
python3 - "$out" <<'PY' || fail "synth-only: $out"
import json, sys
r = json.loads(sys.argv[1])
assert (r["constraints"], r["inputs"], r["aux"], r["domain"]) == (3844929, 40, 3842449, 1 << 22), r
assert r["abc_bytes"] == 3 * (1 << 22) * 32 and r["witness_bytes"] == (40 + 3842449) * 32, r
assert 0 < r["witness_compact_bytes"] < r["witness_bytes"] // 10 and r["synthesis_s"] > 0, r
assert r["a_dense"] <= 40 + 3842449 and 0 < r["b_dense"] < r["a_dense"], r
assert r["pce_rows_hold"] is True and 0 < r["pce_size_bytes"] <= r["pce_bytes"] and r["pce_speedup"] > 0, r
PY
ok
# --abc-pool --repeat 2: one pre-faulted pool buffer serves both direct syntheses and both PCE
# products (created once, reused four times), every phase with its user / system seconds
out=$("$cuzk" c2 "$c1" --synth-only --pce --abc-pool --repeat 2)
python3 - "$out" <<'PY' || fail "synth-only --abc-pool: $out"
import json, sys
r = json.loads(sys.argv[1])
assert r["abc_pool"] is True and r["repeats"] == 2 and r["pool_created"] == 1 and r["pool_reused"] == 4, r
assert r["pce_rows_hold"] is True and r["a_dense"] <= 40 + 3842449, r
for p in ("shape", "witness", "synthesis", "pce_record", "pce_products"):
    assert r[p + "_s"] > 0 and r[p + "_user_s"] > 0 and r[p + "_sys_s"] >= 0, (p, r)
PY
ok
expect_rc 2 "--abc-pool and --repeat go with --synth-only" "$cuzk" c2 "$c1" --check --abc-pool
expect_rc 2 "--witness-only writes none" "$cuzk" c2 "$c1" --synth-only --witness-only --abc-pool

# tampered copies: offsets from an independent walk of the bincode layout
declare -A off
while read -r k v; do off[$k]=$v; done < <(python3 "$here/c1_offsets.py" "$c1")
tamper() { # name offset byte-xor expected-message-part
    cp "$c1" "$tmp/$1.bin"
    python3 -c "import sys; p=sys.argv[1]; o=int(sys.argv[2]); b=bytearray(open(p,'rb').read()); b[o]^=int(sys.argv[3]); open(p,'wb').write(b)" \
        "$tmp/$1.bin" "$2" "$3"
    set +e
    msg=$("$cuzk" c2 "$tmp/$1.bin" --check 2>&1)
    rc=$?
    set -e
    [[ $rc == 2 ]] || fail "$1: exit $rc ($msg)"
    [[ $msg == *"$4"* ]] || fail "$1: message lacks '$4': $msg"
    ok
}
tamper label "${off[c_x_row0]}" 1 "c_x"
tamper path_index "${off[comm_d_path_index0]}" 1 "comm_d_proofs"
tamper seed "${off[seed]}" 1 "vanilla_proofs[0][0]"
tamper comm_r "${off[comm_r]}" 1 "comm_r"

# proving with test parameters
"$cuzk" c2 "$c1" -o "$tmp/proof.bin" --param-cache "$params" --cache-dir "$tmp/cache" --pce >"$tmp/c2.json" \
    2>"$tmp/c2.err"
grep -q '"verified":true' "$tmp/c2.json" || fail "c2: $(cat "$tmp/c2.json")"
grep -Eq '^cuzk c2: partition 0/1: prove_start \(H polynomial; A, B_G1, L, H MSMs\) [0-9]+\.[0-9]+ s$' "$tmp/c2.err" ||
    fail "c2 progress on stderr: $(cat "$tmp/c2.err")"
grep -q '"pce_partitions":1' "$tmp/c2.json" || fail "c2 did not use the PCE: $(cat "$tmp/c2.json")"
[[ $(stat -c %s "$tmp/proof.bin") == 192 ]] || fail "proof size"
ok
"$cuzk" verify-c2 "$c1" "$tmp/proof.bin" --param-cache "$params" >/dev/null || fail "verify-c2 of the proof"
ok
# verifying reads only the .vk: a parameter directory of the .vk files alone will do, and no
# point cache is made
mkdir "$tmp/vk-only"
ln -s "$params"/*.vk "$tmp/vk-only/"
"$cuzk" verify-c2 "$c1" "$tmp/proof.bin" --param-cache "$tmp/vk-only" --cache-dir "$tmp/vk-cache" >/dev/null ||
    fail "verify-c2 with the .vk files alone"
[[ ! -e $tmp/vk-cache ]] || fail "verify-c2 made a point cache: $(ls -R "$tmp/vk-cache")"
ok
# A and C swapped: valid points, wrong proof
python3 -c "import sys; b=open(sys.argv[1],'rb').read(); open(sys.argv[2],'wb').write(b[144:192]+b[48:144]+b[0:48])" \
    "$tmp/proof.bin" "$tmp/swapped.bin"
set +e
"$cuzk" verify-c2 "$c1" "$tmp/swapped.bin" --param-cache "$params" >/dev/null 2>&1
rc=$?
head -c 191 "$tmp/proof.bin" >"$tmp/short.bin"
"$cuzk" verify-c2 "$c1" "$tmp/short.bin" --param-cache "$params" >/dev/null 2>&1
rc2=$?
# a missing parameter directory: error naming the file, nothing written
"$cuzk" c2 "$c1" -o "$tmp/none.bin" --param-cache "$tmp/no-such-dir" --cache-dir "$tmp/cache" 2>"$tmp/err.txt"
rc3=$?
set -e
[[ $rc == 1 ]] || fail "swapped proof: exit $rc, want 1"
ok
[[ $rc2 == 2 ]] || fail "short proof: exit $rc2, want 2"
ok
[[ $rc3 == 2 && ! -e $tmp/none.bin ]] && grep -q "params gen" "$tmp/err.txt" || fail "missing params: exit $rc3 $(cat "$tmp/err.txt")"
ok
echo "$pass passed, 0 failed"
