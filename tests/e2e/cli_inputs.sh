#!/usr/bin/env bash
# The `cuzk` CLI on inputs a new user gets wrong (issue 13), checked against snarkjs 0.7.6:
#   FIFO inputs          export-vk, setup, prove and verify refuse a FIFO without a writer at
#                        once (they used to block in open(2)); JSON through <(cat ...) works
#   whose fault          a key made by snarkjs from a powers-of-tau file with two Lagrange
#                        points swapped (snarkjs's own prove + verify fail with it, and
#                        `snarkjs wtns check` says the witness is correct) is blamed on the
#                        key, not the witness; a witness that breaks a constraint is named
#                        with the constraint `snarkjs wtns check` reports
#   small ones           BN254 zkey named, setup warns only after reading its input, SIGTERM
#                        during setup's write leaves no temporary file
# Usage: cli_inputs.sh CUZK_BINARY FIXTURE_DIR
set -uo pipefail

cuzk=$1
fx=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
snarkjs() { node "$root/tests/oracle/node_modules/snarkjs/build/cli.cjs" "$@"; }

"$root/tests/iden3/make-fixtures.sh" "$fx" >/dev/null || { echo "fixtures failed"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
# expect RC NEEDLE DESCRIPTION CMD...: run CMD (killed after 30 s: a hang fails), require
# exit status RC and, when NEEDLE is not empty, NEEDLE in its stderr.
expect() {
  local want=$1 needle=$2 what=$3; shift 3
  timeout 30 "$@" >"$work/out" 2>"$work/err" </dev/null
  local rc=$?
  if [[ $rc -ne $want ]]; then
    bad "$what: exit $rc, expected $want: $(head -c 400 "$work/err")"
  elif [[ -n $needle ]] && ! grep -qF -- "$needle" "$work/err"; then
    bad "$what: stderr lacks '$needle': $(head -c 600 "$work/err")"
  else
    ok
  fi
}
lacks() { # lacks NEEDLE DESCRIPTION: the last command's stderr does not contain NEEDLE
  if grep -qF -- "$1" "$work/err"; then bad "$2: stderr has '$1': $(head -c 400 "$work/err")"; else ok; fi
}

# ------------------------------------------------------------------ FIFO inputs (item 2)
fifo=$work/fifo
mkfifo "$fifo"
expect 2 "FIFO" "export-vk from a FIFO" "$cuzk" export-vk "$fifo" "$work/vk.json"
expect 2 "FIFO" "setup from a FIFO" "$cuzk" setup "$fifo" "$work/s.zkey"
expect 2 "FIFO" "prove with a FIFO zkey" "$cuzk" prove "$fifo" "$fx/mimc.wtns" "$work/p.json" "$work/q.json"
expect 2 "FIFO" "prove with a FIFO witness" "$cuzk" prove "$fx/mimc.zkey" "$fifo" "$work/p.json" "$work/q.json"
expect 2 "FIFO" "verify with a FIFO vk" "$cuzk" verify "$fifo" "$fx/mimc.public.json" "$fx/mimc.proof.json"
expect 2 "FIFO" "verify with a FIFO proof" "$cuzk" verify "$fx/mimc.vkey.json" "$fx/mimc.public.json" "$fifo"
# JSON through process substitution (pipes with a writer) keeps working
expect 0 "" "verify through <(cat ...)" "$cuzk" verify <(cat "$fx/mimc.vkey.json") <(cat "$fx/mimc.public.json") \
  <(cat "$fx/mimc.proof.json")
expect 1 "" "invalid proof through <(cat ...)" "$cuzk" verify <(cat "$fx/mimc.vkey.json") \
  <(cat "$fx/poseidon.public.json") <(cat "$fx/mimc.proof.json")

# ------------------------------------------------------------------ whose fault (item 3)
# swap_ptau IN OUT BLOCK I J: swap Lagrange points I and J of the 2^BLOCK block of section 12
# (tau G1 in the Lagrange basis; snarkjs ptau format: blocks 2^0, 2^1, ... one after another).
swap_ptau() {
  python3 - "$@" <<'PY'
import struct, sys
src, dst, block, i, j = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
d = bytearray(open(src, 'rb').read())
off = 12
while off < len(d):
    t, size = struct.unpack_from('<IQ', d, off)
    off += 12
    if t == 12:
        g1 = 96
        base = off + ((1 << block) - 1) * g1
        a, b = base + i * g1, base + j * g1
        d[a:a + g1], d[b:b + g1] = d[b:b + g1], d[a:a + g1]
        break
    off += size
open(dst, 'wb').write(d)
PY
}
ptau=$root/tests/fixtures/pot11_bls12381.ptau
snarkjs wtns check "$fx/mimc.r1cs" "$fx/mimc.wtns" 2>&1 | grep -q "WITNESS IS CORRECT" && ok ||
  bad "snarkjs says the mimc witness is not correct"
# mimc: 364 constraints + 2 input rows -> domain 2^9 (A, B, C points); H comes from the odd
# points of the 2^10 block. Constraints 0 and 1 use different B signals, so swapping their
# Lagrange points changes B1 (not B2, which comes from the G2 points).
swap_ptau "$ptau" "$work/lagrange.ptau" 9 0 1
swap_ptau "$ptau" "$work/h.ptau" 10 1 3
for v in lagrange h; do
  snarkjs groth16 setup "$fx/mimc.r1cs" "$work/$v.ptau" "$work/$v.zkey" >/dev/null 2>&1 || bad "$v: snarkjs setup"
  snarkjs zkey export verificationkey "$work/$v.zkey" "$work/$v.vk.json" >/dev/null 2>&1
  snarkjs groth16 prove "$work/$v.zkey" "$fx/mimc.wtns" "$work/$v.sjproof.json" "$work/$v.sjpublic.json" >/dev/null 2>&1
  snarkjs groth16 verify "$work/$v.vk.json" "$work/$v.sjpublic.json" "$work/$v.sjproof.json" 2>&1 | grep -q 'OK!' &&
    bad "$v: snarkjs's proof with the corrupted key verifies (the corruption did nothing)" || ok
done
# a wrong Lagrange point in G1: the key's B points in G1 and G2 disagree, the key is blamed
expect 2 "the proving key is inconsistent: its B points" "prove with a key from a corrupted ptau" \
  "$cuzk" prove "$work/lagrange.zkey" "$fx/mimc.wtns" "$work/p.json" "$work/q.json"
lacks "does not satisfy" "corrupted key: the witness must not be blamed"
[[ ! -e $work/p.json ]] && ok || bad "a proof was written with a corrupted key"
# a wrong H point: no pairing check sees it; without the circuit cuzk cannot tell whose fault
expect 2 "--r1cs" "prove with a wrong H point, no circuit" \
  "$cuzk" prove "$work/h.zkey" "$fx/mimc.wtns" "$work/p.json" "$work/q.json"
lacks "the proving key is inconsistent:" "wrong H point without --r1cs: no claim it cannot make"
expect 2 "the proving key is inconsistent: the witness satisfies every constraint of $fx/mimc.r1cs" \
  "prove with a wrong H point and --r1cs" \
  "$cuzk" prove --r1cs "$fx/mimc.r1cs" "$work/h.zkey" "$fx/mimc.wtns" "$work/p.json" "$work/q.json"
[[ ! -e $work/p.json ]] && ok || bad "a proof was written with a wrong H point"
# a witness with one value changed: snarkjs names the first failing constraint, so must cuzk
python3 - "$fx/mimc.wtns" "$work/unsat.wtns" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
off = 12
while off < len(d):
    t, sz = struct.unpack_from('<IQ', d, off)
    off += 12
    if t == 2:
        d[off + 32 * 100] ^= 1
        break
    off += sz
open(sys.argv[2], 'wb').write(d)
PY
want=$(snarkjs wtns check "$fx/mimc.r1cs" "$work/unsat.wtns" 2>&1 | sed -n 's/.*aborting checking process at constraint \([0-9]*\).*/\1/p')
[[ -n $want ]] && ok || bad "snarkjs wtns check did not reject the changed witness"
expect 2 "the witness does not satisfy the circuit: constraint $want of $fx/mimc.r1cs" "changed witness with --r1cs" \
  "$cuzk" prove --r1cs "$fx/mimc.r1cs" "$fx/mimc.zkey" "$work/unsat.wtns" "$work/p.json" "$work/q.json"
expect 2 "--r1cs" "changed witness without the circuit" \
  "$cuzk" prove "$fx/mimc.zkey" "$work/unsat.wtns" "$work/p.json" "$work/q.json"
lacks "the proving key is inconsistent:" "changed witness: the key must not be blamed"
expect 0 "" "good witness with --r1cs" \
  "$cuzk" prove --r1cs "$fx/mimc.r1cs" "$fx/mimc.zkey" "$fx/mimc.wtns" "$work/p.json" "$work/q.json"
snarkjs groth16 verify "$fx/mimc.vkey.json" "$work/q.json" "$work/p.json" 2>&1 | grep -q 'OK!' && ok ||
  bad "snarkjs rejects the proof made with --r1cs"
expect 2 "made for another circuit" "--r1cs of another circuit" \
  "$cuzk" prove --r1cs "$fx/poseidon.r1cs" "$fx/mimc.zkey" "$fx/mimc.wtns" "$work/p2.json" "$work/q2.json"
expect 2 "needs a file" "--r1cs without a value" "$cuzk" prove "$fx/mimc.zkey" "$fx/mimc.wtns" a b --r1cs
expect 2 "is the input" "--r1cs file as an output" \
  "$cuzk" prove --r1cs "$work/p.json" "$fx/mimc.zkey" "$fx/mimc.wtns" "$work/p.json" "$work/q.json"

# ------------------------------------------------------------------ small ones (item 5)
expect 2 "BN254" "a BN254 zkey names its curve" "$cuzk" export-vk "$fx/bn254/mimc.zkey" "$work/bn.json"
lacks "not a known curve order" "BN254 zkey"
expect 2 "No such file" "setup of a missing r1cs" "$cuzk" setup "$work/missing.r1cs" "$work/s.zkey"
lacks "WARNING" "setup warns about toxic waste only for a good input"
expect 2 "BN254" "setup of a BN254 r1cs" "$cuzk" setup "$fx/bn254/mimc.r1cs" "$work/s.zkey"
lacks "WARNING" "setup warns about toxic waste only for a good input (BN254)"

# SIGTERM while setup writes its zkey: catch the write (its temporary file exists), stop the
# process there, send SIGTERM, let it go on: it must die of SIGTERM and leave nothing.
caught=0
for attempt in 1 2 3 4 5; do
  out=$work/sig$attempt
  mkdir -p "$out"
  "$cuzk" setup "$fx/sha256_block.r1cs" "$out/s.zkey" 2>/dev/null &
  pid=$!
  while kill -0 "$pid" 2>/dev/null && ! compgen -G "$out/s.zkey.tmp.*" >/dev/null; do :; done
  kill -STOP "$pid" 2>/dev/null
  if compgen -G "$out/s.zkey.tmp.*" >/dev/null; then
    kill -TERM "$pid"
    kill -CONT "$pid"
    wait "$pid"
    rc=$?
    caught=1
    [[ $rc -eq $((128 + 15)) ]] && ok || bad "setup interrupted during its write: exit $rc, expected death by SIGTERM"
    left=$(ls -A "$out")
    [[ -z $left ]] && ok || bad "setup interrupted during its write left: $left"
    break
  fi
  kill -CONT "$pid" 2>/dev/null
  wait "$pid"
done
[[ $caught -eq 1 ]] && ok || bad "never caught setup inside its write (5 attempts)"

echo "cli_inputs: $pass passed, $fail failed"
[[ $fail -eq 0 ]]
