#!/usr/bin/env bash
# End-to-end interoperability of the `cuzk` CLI with snarkjs 0.7.6 on circom2-compiled
# circomlib circuits (fixtures from tests/iden3/make-fixtures.sh), both directions:
#   cuzk setup + prove       -> snarkjs groth16 verify says OK
#   snarkjs prove (cuzk zkey) -> cuzk verify exits 0
#   snarkjs ceremony zkey (committed ptau) -> cuzk prove -> snarkjs verify OK
#   tampered public input    -> cuzk verify exits 1 (and snarkjs rejects too)
#   bad inputs               -> exit 2 with a message, never a crash
# Usage: cli_interop.sh CUZK_BINARY FIXTURE_DIR
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
# expect RC DESCRIPTION CMD...: run CMD, require exit status RC (and for 2: a message
# on stderr and no crash signal).
expect() {
  local want=$1 what=$2; shift 2
  "$@" >"$work/out" 2>"$work/err"
  local rc=$?
  if [[ $rc -ne $want ]]; then
    bad "$what: exit $rc, expected $want: $(head -c 300 "$work/err")"
  elif [[ $want -eq 2 && ! -s $work/err ]]; then
    bad "$what: exit 2 without a message"
  else
    ok
  fi
}
sj_verify_ok() { snarkjs groth16 verify "$@" 2>&1 | grep -q 'OK!'; }

for c in poseidon mimc sha256_block; do
  d=$work/$c
  mkdir -p "$d"
  expect 0 "$c: cuzk setup" "$cuzk" setup "$fx/$c.r1cs" "$d/cz.zkey"
  grep -q "testing only" "$work/err" && ok || bad "$c: setup must warn that parameters are for testing"
  expect 0 "$c: cuzk export-vk" "$cuzk" export-vk "$d/cz.zkey" "$d/vk.json"
  expect 0 "$c: cuzk prove" "$cuzk" prove "$d/cz.zkey" "$fx/$c.wtns" "$d/proof.json" "$d/public.json"
  sj_verify_ok "$d/vk.json" "$d/public.json" "$d/proof.json" && ok || bad "$c: snarkjs rejects cuzk's proof"
  # snarkjs's own vk export of cuzk's zkey must agree
  snarkjs zkey export verificationkey "$d/cz.zkey" "$d/sjvk.json" >/dev/null
  sj_verify_ok "$d/sjvk.json" "$d/public.json" "$d/proof.json" && ok ||
    bad "$c: snarkjs-exported vk rejects cuzk's proof"
  expect 0 "$c: cuzk verify own proof" "$cuzk" verify "$d/vk.json" "$d/public.json" "$d/proof.json"
  # the other direction: snarkjs proves with cuzk's zkey
  if [[ $c != sha256_block ]]; then
    snarkjs groth16 prove "$d/cz.zkey" "$fx/$c.wtns" "$d/sjproof.json" "$d/sjpublic.json" >/dev/null 2>&1 ||
      bad "$c: snarkjs prove on cuzk's zkey failed"
    expect 0 "$c: cuzk verify snarkjs proof" "$cuzk" verify "$d/vk.json" "$d/sjpublic.json" "$d/sjproof.json"
  fi
  # tampered public input: add 1 to the first signal
  node -e '
    const fs = require("fs"); const p = JSON.parse(fs.readFileSync(process.argv[1]));
    p[0] = (BigInt(p[0]) + 1n).toString(); fs.writeFileSync(process.argv[2], JSON.stringify(p));' \
    "$d/public.json" "$d/tampered.json"
  expect 1 "$c: tampered public input" "$cuzk" verify "$d/vk.json" "$d/tampered.json" "$d/proof.json"
  sj_verify_ok "$d/vk.json" "$d/tampered.json" "$d/proof.json" && bad "$c: snarkjs accepted tampered input" || ok
done

# snarkjs ceremony keys (powers of tau fixture + one contribution): cuzk proves, snarkjs verifies
for c in poseidon mimc; do
  d=$work/$c
  expect 0 "$c: cuzk prove with snarkjs zkey" "$cuzk" prove "$fx/$c.zkey" "$fx/$c.wtns" "$d/p2.json" "$d/pub2.json"
  sj_verify_ok "$fx/$c.vkey.json" "$d/pub2.json" "$d/p2.json" && ok || bad "$c: snarkjs rejects proof on its zkey"
  expect 0 "$c: cuzk verify snarkjs fixture proof" "$cuzk" verify "$fx/$c.vkey.json" "$fx/$c.public.json" \
    "$fx/$c.proof.json"
done

# bad inputs: exit 2 with a message
d=$work/poseidon
: >"$work/empty"
head -c 1000 "$d/cz.zkey" >"$work/trunc.zkey"
head -c 100 "$fx/poseidon.wtns" >"$work/trunc.wtns"
expect 2 "zero-length zkey" "$cuzk" prove "$work/empty" "$fx/poseidon.wtns" "$work/p.json" "$work/q.json"
expect 2 "truncated zkey" "$cuzk" prove "$work/trunc.zkey" "$fx/poseidon.wtns" "$work/p.json" "$work/q.json"
expect 2 "truncated wtns" "$cuzk" prove "$d/cz.zkey" "$work/trunc.wtns" "$work/p.json" "$work/q.json"
expect 2 "witness of another circuit" "$cuzk" prove "$d/cz.zkey" "$fx/mimc.wtns" "$work/p.json" "$work/q.json"
expect 2 "BN254 r1cs" "$cuzk" setup "$fx/bn254/mimc.r1cs" "$work/bn.zkey"
expect 2 "BN254 witness" "$cuzk" prove "$d/cz.zkey" "$fx/bn254/mimc.wtns" "$work/p.json" "$work/q.json"
expect 2 "missing file" "$cuzk" verify "$work/nope.json" "$d/public.json" "$d/proof.json"
echo '{"pi_a": [' >"$work/malformed.json"
expect 2 "malformed proof JSON" "$cuzk" verify "$d/vk.json" "$d/public.json" "$work/malformed.json"
expect 2 "malformed vk JSON" "$cuzk" verify "$work/malformed.json" "$d/public.json" "$d/proof.json"
echo '[' >"$work/badpub.json"
expect 2 "malformed public JSON" "$cuzk" verify "$d/vk.json" "$work/badpub.json" "$d/proof.json"
# proof edits computed with BigInt: y+1 (off the curve), x = p (non-canonical), a point on
# the curve outside the subgroup (found with @noble/curves), a non-canonical public input
(cd "$root/tests/oracle" && node --input-type=module - "$d/proof.json" "$d/public.json" "$work") <<'JS'
import fs from 'fs';
import { bls12_381 as bls } from '@noble/curves/bls12-381';
const [proofPath, publicPath, dir] = process.argv.slice(2);
const proof = JSON.parse(fs.readFileSync(proofPath));
const Fp = bls.fields.Fp, p = Fp.ORDER, r = bls.fields.Fr.ORDER;
const write = (name, obj) => fs.writeFileSync(`${dir}/${name}`, JSON.stringify(obj));
write('offcurve.json', { ...proof, pi_a: [proof.pi_a[0], (BigInt(proof.pi_a[1]) + 1n).toString(), '1'] });
write('noncanon.json', { ...proof, pi_c: [(BigInt(proof.pi_c[0]) + p).toString(), proof.pi_c[1], '1'] });
let x = 1n, pt;
for (;; x++) {
  const y2 = Fp.add(Fp.pow(x, 3n), 4n);
  let y; try { y = Fp.sqrt(y2); } catch { continue; }
  if (y === undefined || Fp.sqr(y) !== y2) continue;
  pt = bls.G1.ProjectivePoint.fromAffine({ x, y });
  if (!pt.multiply(r - 1n).add(pt).equals(bls.G1.ProjectivePoint.ZERO)) break;
}
const a = pt.toAffine();
write('subgroup.json', { ...proof, pi_a: [a.x.toString(), a.y.toString(), '1'] });
const pub = JSON.parse(fs.readFileSync(publicPath));
write('pubnoncanon.json', [(BigInt(pub[0]) + r).toString(), ...pub.slice(1)]);
write('notstring.json', { ...proof, pi_a: [1, 2, '1'] });
JS
expect 2 "proof point off the curve" "$cuzk" verify "$d/vk.json" "$d/public.json" "$work/offcurve.json"
expect 2 "non-canonical coordinate" "$cuzk" verify "$d/vk.json" "$d/public.json" "$work/noncanon.json"
expect 2 "point outside the subgroup" "$cuzk" verify "$d/vk.json" "$d/public.json" "$work/subgroup.json"
grep -q -i subgroup "$work/err" && ok || bad "subgroup error must say so"
expect 2 "non-canonical public input" "$cuzk" verify "$d/vk.json" "$work/pubnoncanon.json" "$d/proof.json"
expect 2 "numbers instead of strings" "$cuzk" verify "$d/vk.json" "$d/public.json" "$work/notstring.json"
# outputs: never over an input or each other; a failure leaves the previous files intact
cp "$d/proof.json" "$work/keep.json"
expect 2 "proof and public to one file" "$cuzk" prove "$d/cz.zkey" "$fx/poseidon.wtns" "$work/keep.json" "$work/keep.json"
expect 2 "output over the witness" "$cuzk" prove "$d/cz.zkey" "$fx/poseidon.wtns" "$fx/poseidon.wtns" "$work/q.json"
expect 2 "public.json in a missing directory" "$cuzk" prove "$d/cz.zkey" "$fx/poseidon.wtns" "$work/keep.json" \
  "$work/missing/public.json"
cmp -s "$d/proof.json" "$work/keep.json" && ok || bad "a failed prove changed proof.json"
mkfifo "$work/fifo"
expect 2 "output onto a FIFO" "$cuzk" prove "$d/cz.zkey" "$fx/poseidon.wtns" "$work/fifo" "$work/q.json"
[[ -p $work/fifo ]] && ok || bad "the FIFO was replaced"
# a witness that does not satisfy the circuit: one value flipped; prove refuses to write
python3 - "$fx/poseidon.wtns" "$work/unsat.wtns" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
off = 12
while off < len(d):
    t, sz = struct.unpack_from('<IQ', d, off)
    off += 12
    if t == 2:
        d[off + 32 * 5] ^= 1
        break
    off += sz
open(sys.argv[2], 'wb').write(d)
PY
expect 2 "unsatisfied witness" "$cuzk" prove "$d/cz.zkey" "$work/unsat.wtns" "$work/unsat.json" "$work/unsatpub.json"
[[ ! -e $work/unsat.json ]] && ok || bad "a proof was written for an unsatisfied witness"
expect 2 "unknown subcommand" "$cuzk" frobnicate
expect 0 "--help" "$cuzk" prove --help
expect 2 "bad --threads" "$cuzk" prove --threads 0 a b c d

echo "cli_interop: $pass passed, $fail failed"
[[ $fail -eq 0 ]]
