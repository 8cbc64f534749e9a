#!/usr/bin/env bash
# Regenerate the committed powers-of-tau fixture tests/fixtures/pot11_bls12381.ptau (BLS12-381,
# 2^11 powers, one contribution, prepared for phase 2; ~3.2 MB, about one minute). It serves
# snarkjs Groth16 setups of circuits with up to 2^11 constraints + public inputs. Not run by
# the tests: the file is committed. FOR TESTING ONLY: the contribution's toxic waste is not
# destroyed in any meaningful sense.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
"$root/tests/oracle/ensure-deps.sh"
snarkjs() { node "$root/tests/oracle/node_modules/snarkjs/build/cli.cjs" "$@"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
snarkjs powersoftau new bls12381 11 "$tmp/p0.ptau"
snarkjs powersoftau contribute "$tmp/p0.ptau" "$tmp/p1.ptau" --name=cuzk-test -e="cuzk test ptau"
snarkjs powersoftau prepare phase2 "$tmp/p1.ptau" "$tmp/final.ptau"
snarkjs powersoftau verify "$tmp/final.ptau"
mkdir -p "$root/tests/fixtures"
mv "$tmp/final.ptau" "$root/tests/fixtures/pot11_bls12381.ptau"
