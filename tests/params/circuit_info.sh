#!/usr/bin/env bash
# `cuzk circuit-info` against the reference's asserted counts
# (docs/circuits.md#upstream-test-counts):
# constraints / inputs of bellperson, neptune and rust-fil-proofs tests, and exit code 2 on
# bad input. Usage: circuit_info.sh <path to cuzk>
set -u
cuzk=$1
pass=0 fail=0
expect() { # expect <constraints> <inputs> <circuit> [--param ...]
    local want_c=$1 want_i=$2
    shift 2
    local out
    out=$("$cuzk" circuit-info "$@") || { echo "FAIL: '$*' exited $?"; fail=$((fail + 1)); return; }
    if [[ $out == *"\"constraints\":$want_c,\"inputs\":$want_i,"* && $out == *'"nnz_c":'* ]]; then
        pass=$((pass + 1))
    else
        echo "FAIL: '$*' printed $out, want constraints $want_c inputs $want_i"
        fail=$((fail + 1))
    fi
}
expect_exit2() {
    "$cuzk" circuit-info "$@" >/dev/null 2>&1
    local rc=$?
    if [[ $rc == 2 ]]; then pass=$((pass + 1)); else echo "FAIL: '$*' exited $rc, want 2"; fail=$((fail + 1)); fi
}
# bellperson test_full_hash: 44,874 after subtracting the 512 allocated input bits
expect $((44874 + 512)) 1 sha256 --param bytes=64
for a in "2 311" "4 377" "8 505" "16 761" "24 1009" "36 1385" "11 598"; do
    set -- $a
    expect "$2" 1 poseidon --param arity="$1"
done
expect 272295 3 por --param hasher=sha256 --param arity=2 --param leaves=64
expect 216258 3 por --param hasher=sha256 --param arity=4 --param leaves=64
expect 250987 3 por --param hasher=sha256 --param arity=8 --param leaves=64
expect 1887 3 por --param hasher=poseidon --param arity=2 --param leaves=64
expect 1164 3 por --param hasher=poseidon --param arity=4 --param leaves=64
expect 1063 3 por --param hasher=poseidon --param arity=8 --param leaves=64
expect 1377 3 por --param base=8,sub=2 --param leaves=128
expect 1764 3 por --param base=8,sub=4,top=2 --param leaves=512
expect 1593 3 por --param base=8,sub=8 --param leaves=512
expect 1907 3 por --param base=8,sub=8,top=2 --param leaves=1024
expect 1764 3 por --param base=8,sub=2,top=4 --param leaves=512
expect 1886 2 por --param arity=2 --param leaves=64 --param root=private
expect 1163 2 por --param arity=4 --param leaves=64 --param root=private
expect 1062 2 por --param arity=8 --param leaves=64 --param root=private
expect 532025 1 create-label
expect 45387 1 hash-leaf-bits
expect 2770 1 hash-md --param n=71
expect_exit2 no-such-circuit
expect_exit2 por --param arity=3
expect_exit2 por --param arity=0
expect_exit2 por --param base=0,sub=2 --param leaves=4
expect_exit2 por --param arity=4294967298
expect_exit2 sha256 --param bytes=-1
expect_exit2 por --param leaves=99999999999999999999999
expect_exit2 poseidon --param arity=5
expect_exit2 sha256 --param colour=blue
expect_exit2 sha256 --param
expect_exit2
echo "$pass passed, $fail failed"
[[ $fail == 0 ]]
