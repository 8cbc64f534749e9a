#!/usr/bin/env bash
# WinningPoSt, WindowPoSt and SnapDeals through the CLI with test-only parameters, on vanilla
# proofs of a sealed 2 KiB sector made by `cuzk-bench gen-vanilla` (whose bytes the seal
# tests check against docs/vectors.md#worked-2-kib-example): --check satisfied, proved
# (self-verified), verified; WindowPoSt of partition 1 with the API 1.0 challenge rule;
# tampered inputs refused with a located error (exit 2), wrong public inputs (other
# randomness or partition for verify-post, another comm_d_new) or a swapped proof rejected
# (exit 1).
set -euo pipefail
bench=$1 cuzk=$2 params=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
pass=0
ok() { pass=$((pass + 1)); }
expect_rc() { # rc-wanted message-part command...
    local want=$1 part=$2
    shift 2
    set +e
    out=$("$@" 2>&1)
    rc=$?
    set -e
    [[ $rc == "$want" ]] || fail "exit $rc (want $want): $* :: $out"
    [[ -z $part || $out == *"$part"* ]] || fail "message lacks '$part': $out"
    ok
}
R=0303030303030303030303030303030303030303030303030303030303030303
P=(--param-cache "$params" --cache-dir "$tmp/cache")
swap() { python3 -c "import sys; b=open(sys.argv[1],'rb').read(); open(sys.argv[2],'wb').write(b[144:192]+b[48:144]+b[0:48]+b[192:])" "$1" "$2"; }

# WinningPoSt 2 KiB: one sector, 66 challenges
"$bench" gen-vanilla winning-post --registered-proof 0 --format blobs -o "$tmp/win.json" >/dev/null
W=(--kind winning --registered-proof 0 --miner 1000 --randomness $R)
expect_rc 0 '"satisfied":true' "$cuzk" post "${W[@]}" --check "$tmp/win.json"
expect_rc 0 '"verified":true' "$cuzk" post "${W[@]}" -o "$tmp/win.proof" "${P[@]}" "$tmp/win.json"
expect_rc 0 '"valid":true' "$cuzk" verify-post "${W[@]}" "${P[@]}" "$tmp/win.proof" "$tmp/win.json"
swap "$tmp/win.proof" "$tmp/win.bad"
expect_rc 1 "" "$cuzk" verify-post "${W[@]}" "${P[@]}" "$tmp/win.bad" "$tmp/win.json"
expect_rc 2 "challenge" "$cuzk" post --kind winning --registered-proof 0 --miner 1000 \
    --randomness 0403030303030303030303030303030303030303030303030303030303030303 --check "$tmp/win.json"
# verifying with other randomness: the proof does not verify (1), the input is not bad (2)
expect_rc 1 '"valid":false' "$cuzk" verify-post --kind winning --registered-proof 0 --miner 1000 \
    --randomness 0403030303030303030303030303030303030303030303030303030303030303 "${P[@]}" "$tmp/win.proof" "$tmp/win.json"
expect_rc 2 "canonical" "$cuzk" verify-post --kind winning --registered-proof 0 --miner 1000 \
    --randomness ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff "${P[@]}" "$tmp/win.proof" "$tmp/win.json"
expect_rc 2 "canonical" "$cuzk" post --kind winning --registered-proof 0 --miner 1000 \
    --randomness ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff --check "$tmp/win.json"
expect_rc 2 "WindowPoSt" "$cuzk" post --kind winning --registered-proof 5 --miner 1000 --randomness $R --check \
    "$tmp/win.json"

# WindowPoSt 2 KiB V1_2: a full partition of 2 sectors
"$bench" gen-vanilla window-post --registered-proof 10 --sectors 1,2 --format blobs -o "$tmp/wdp.json" >/dev/null
D=(--kind window --registered-proof 10 --miner 1000 --randomness $R)
expect_rc 0 '"satisfied":true' "$cuzk" post "${D[@]}" --check "$tmp/wdp.json"
expect_rc 0 '"verified":true' "$cuzk" post "${D[@]}" -o "$tmp/wdp.proof" "${P[@]}" "$tmp/wdp.json"
expect_rc 0 '"valid":true' "$cuzk" verify-post "${D[@]}" "${P[@]}" "$tmp/wdp.proof" "$tmp/wdp.json"
# API 1.0 (id 5): partition 1 of sectors 3, 4; the partition index enters the challenges
"$bench" gen-vanilla window-post --registered-proof 5 --sectors 3,4 --partition 1 --format blobs \
    -o "$tmp/wdp1.json" >/dev/null
D1=(--kind window --registered-proof 5 --miner 1000 --randomness $R)
expect_rc 0 '"verified":true' "$cuzk" post "${D1[@]}" --partition 1 -o "$tmp/wdp1.proof" "${P[@]}" "$tmp/wdp1.json"
expect_rc 0 '"valid":true' "$cuzk" verify-post "${D1[@]}" --partition 1 "${P[@]}" "$tmp/wdp1.proof" "$tmp/wdp1.json"
# another partition or randomness is another public side: the proof does not verify for it
expect_rc 1 '"valid":false' "$cuzk" verify-post "${D1[@]}" --partition 0 "${P[@]}" "$tmp/wdp1.proof" "$tmp/wdp1.json"
expect_rc 1 '"valid":false' "$cuzk" verify-post --kind window --registered-proof 5 --miner 1000 --partition 1 \
    --randomness 0503030303030303030303030303030303030303030303030303030303030303 "${P[@]}" "$tmp/wdp1.proof" "$tmp/wdp1.json"

# SnapDeals 2 KiB: new data 0x01 bytes into the sealed CC sector
"$bench" gen-vanilla snap --registered-proof 0 --format blobs -o "$tmp/snap.json" >"$tmp/snap.sum"
get() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$tmp/snap.sum" "$1"; }
S=(--registered-proof 0 --comm-r-old "$(get comm_r_old)" --comm-r-new "$(get comm_r_new)" --comm-d-new "$(get comm_d_new)")
expect_rc 0 '"satisfied":true' "$cuzk" snap "${S[@]}" --check "$tmp/snap.json"
expect_rc 0 '"verified":true' "$cuzk" snap "${S[@]}" -o "$tmp/snap.proof" "${P[@]}" "$tmp/snap.json"
expect_rc 0 '"valid":true' "$cuzk" verify-snap "${S[@]}" "${P[@]}" "$tmp/snap.proof"
# another comm_d_new (canonical): the proof does not verify
expect_rc 1 "" "$cuzk" verify-snap --registered-proof 0 --comm-r-old "$(get comm_r_old)" \
    --comm-r-new "$(get comm_r_new)" --comm-d-new "$(get comm_r_old)" "${P[@]}" "$tmp/snap.proof"
# the vanilla proofs do not belong to that comm_r_new
expect_rc 2 "comm_r_new" "$cuzk" snap --registered-proof 0 --comm-r-old "$(get comm_r_old)" \
    --comm-r-new "$(get comm_r_old)" --comm-d-new "$(get comm_d_new)" --check "$tmp/snap.json"
echo "$pass passed, 0 failed"
