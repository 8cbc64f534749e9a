#!/usr/bin/env bash
# Build the circom/snarkjs test fixtures into OUT (default: build/fixtures):
#
#   OUT/<c>.r1cs, OUT/<c>_js/<c>.wasm   circom2 -p bls12381 (c = sha256_block, poseidon, mimc)
#   OUT/<c>.wtns                        witness from circom's generated wasm calculator
#   OUT/<c>.info                        `snarkjs r1cs info` (counts oracle for the tests)
#   OUT/sha256_block.digest             node crypto's SHA-256 of the circuit's message (hex)
#   OUT/<c>.zkey, <c>_0.zkey            snarkjs groth16 setup with the committed ptau
#                                       (tests/fixtures/pot11_bls12381.ptau; _0 = before,
#                                       plain = after one contribution), poseidon and mimc
#   OUT/<c>.vkey.json, <c>.proof.json, <c>.public.json   snarkjs export/prove on the zkey
#   OUT/bn254/mimc.r1cs, .wtns          the mimc circuit with circom's default prime (BN254)
#   OUT/bn254/mimc.zkey                 snarkjs groth16 setup of it on a fresh bn128 ptau
#                                       (2^9, no contribution: a format fixture only)
#
# SHA-256 (~30k constraints) needs a 2^16 ptau for a snarkjs setup, too slow to make in CI
# with snarkjs; its zkey comes from `cuzk setup` elsewhere. Idempotent: a circuit is rebuilt
# only when its sources or the toolchain changed (stamp files). Runtime about 30 s on 2 cores.
# Needs node/npm (tests/oracle/ensure-deps.sh installs circom2, snarkjs, circomlib).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
oracle=$root/tests/oracle
out=${1:-$root/build/fixtures}
mkdir -p "$out"
out=$(cd "$out" && pwd)
ptau=$root/tests/fixtures/pot11_bls12381.ptau

"$oracle/ensure-deps.sh"

# One run at a time per output folder (ctest -j, several build trees).
exec 9>"$out/.lock"
flock 9

circom() {
  # circom2 runs in a WASI sandbox that resolves paths relative to the working directory
  # and does not follow symlinks, so run it from tests/oracle with relative paths.
  (cd "$oracle" && node node_modules/circom2/cli.js "$@")
}
snarkjs() { node "$oracle/node_modules/snarkjs/build/cli.cjs" "$@"; }

toolchain_id=$(cat "$oracle/package-lock.json" "$0" | sha256sum | cut -c1-16)

# up_to_date STAMP INPUT...: true when STAMP records the same inputs and toolchain.
up_to_date() {
  local stamp=$1; shift
  local id
  id=$( (echo "$toolchain_id"; cat "$@") | sha256sum | cut -c1-16)
  [[ -f $stamp && $(cat "$stamp") == "$id" ]]
}
stamp() {
  local stamp=$1; shift
  (echo "$toolchain_id"; cat "$@") | sha256sum | cut -c1-16 >"$stamp"
}

build_circuit() { # NAME OUTDIR PRIME
  local name=$1 dir=$2 prime=$3
  local src=$here/circuits/$name.circom input=$here/circuits/$name.input.json
  mkdir -p "$dir"
  if up_to_date "$dir/.$name.stamp" "$src" "$input" <(echo "$prime"); then
    return
  fi
  echo "make-fixtures: compiling $name ($prime)"
  local rel_src rel_dir
  rel_src=$(realpath --relative-to="$oracle" "$src")
  rel_dir=$(realpath --relative-to="$oracle" "$dir")
  circom "$rel_src" --r1cs --wasm -p "$prime" -l node_modules/circomlib/circuits \
    -o "$rel_dir" >"$dir/$name.circom.log"
  node "$dir/${name}_js/generate_witness.js" "$dir/${name}_js/$name.wasm" "$input" \
    "$dir/$name.wtns"
  snarkjs r1cs info "$dir/$name.r1cs" | sed 's/\x1b\[[0-9;]*m//g' >"$dir/$name.info"
  stamp "$dir/.$name.stamp" "$src" "$input" <(echo "$prime")
}

build_zkey() { # NAME
  local name=$1
  if up_to_date "$out/.$name.zkey.stamp" "$out/$name.r1cs" "$ptau"; then
    return
  fi
  echo "make-fixtures: snarkjs setup for $name"
  snarkjs groth16 setup "$out/$name.r1cs" "$ptau" "$out/${name}_0.zkey" >/dev/null
  snarkjs zkey contribute "$out/${name}_0.zkey" "$out/$name.zkey" --name=cuzk-fixture \
    -e="cuzk fixture entropy $name" >/dev/null
  snarkjs zkey export verificationkey "$out/$name.zkey" "$out/$name.vkey.json" >/dev/null
  snarkjs groth16 prove "$out/$name.zkey" "$out/$name.wtns" "$out/$name.proof.json" \
    "$out/$name.public.json"
  snarkjs groth16 verify "$out/$name.vkey.json" "$out/$name.public.json" \
    "$out/$name.proof.json" >/dev/null
  stamp "$out/.$name.zkey.stamp" "$out/$name.r1cs" "$ptau"
}

for c in sha256_block poseidon mimc; do
  build_circuit "$c" "$out" bls12381
done
# Independent oracle for the SHA-256 circuit: node's crypto digest of the 55-byte message
# (the input bits, MSB first), compared by the tests with output wires 1..256.
node -e '
  const bits = JSON.parse(require("fs").readFileSync(process.argv[1])).in;
  const bytes = Buffer.alloc(bits.length / 8);
  bits.forEach((b, i) => { bytes[i >> 3] |= b << (7 - (i & 7)); });
  console.log(require("crypto").createHash("sha256").update(bytes).digest("hex"));
' "$here/circuits/sha256_block.input.json" >"$out/sha256_block.digest"

build_circuit mimc "$out/bn254" bn128
if ! up_to_date "$out/bn254/.mimc.zkey.stamp" "$out/bn254/mimc.r1cs"; then
  echo "make-fixtures: snarkjs bn128 setup for bn254/mimc"
  snarkjs powersoftau new bn128 9 "$out/bn254/pot9_0.ptau" >/dev/null
  snarkjs powersoftau prepare phase2 "$out/bn254/pot9_0.ptau" "$out/bn254/pot9.ptau" >/dev/null
  snarkjs groth16 setup "$out/bn254/mimc.r1cs" "$out/bn254/pot9.ptau" "$out/bn254/mimc.zkey" >/dev/null
  rm -f "$out/bn254/pot9_0.ptau" "$out/bn254/pot9.ptau"
  stamp "$out/bn254/.mimc.zkey.stamp" "$out/bn254/mimc.r1cs"
fi
for c in poseidon mimc; do
  build_zkey "$c"
done
echo "make-fixtures: fixtures ready in $out"
