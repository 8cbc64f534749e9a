#!/usr/bin/env bash
# `cuzk circuit-info porep` against the reference's counts: rust-fil-proofs'
# stacked_circuit.rs tests (constraints / inputs incl. ONE) and
# the production sizes of docs/circuits.md (32 GiB constraints and inputs also printed by upstream's
# circuitinfo tool; the aux column is counted, not upstream-asserted). Exit 2 on bad
# parameters. Usage: porep_counts.sh <path to cuzk> [--long]  (--long: 32 GiB and 64 GiB,
# about 20 s each in shape mode)
set -u
cuzk=$1
long=${2:-}
pass=0 fail=0
expect() { # expect <constraints> <inputs> <aux or -> --param ...
    local want_c=$1 want_i=$2 want_a=$3
    shift 3
    local out
    out=$("$cuzk" circuit-info porep "$@") || { echo "FAIL: '$*' exited $?"; fail=$((fail + 1)); return; }
    local want="\"constraints\":$want_c,\"inputs\":$want_i,"
    [[ $want_a != - ]] && want+="\"aux\":$want_a,"
    if [[ $out == *"$want"* ]]; then
        pass=$((pass + 1))
    else
        echo "FAIL: '$*' printed $out, want constraints $want_c inputs $want_i aux $want_a"
        fail=$((fail + 1))
    fi
}
expect_exit2() {
    "$cuzk" circuit-info porep "$@" >/dev/null 2>&1
    local rc=$?
    if [[ $rc == 2 ]]; then pass=$((pass + 1)); else echo "FAIL: '$*' exited $rc, want 2"; fail=$((fail + 1)); fi
}
# stacked_circuit.rs (8 / 8 / 32 / 64 nodes, 2 layers, 1 challenge; API 1.1.0 and
# porep_id [44; 32] change only values)
expect 1206212 22 - --param nodes=8,layers=2,challenges=1,tree=2-0-0
expect 1199620 22 - --param nodes=8 --param tree=8-0-0
expect 1296576 22 - --param nodes=32,tree=8-4-0
expect 1346982 22 - --param nodes=64,tree=8-4-2
# docs/circuits.md#production-sizes: production partition circuits
expect 2687921 40 2685673 --param sector-size=2KiB
expect 3844929 40 3842449 --param sector-size=8MiB
expect 4423433 40 4420837 --param sector-size=512MiB
if [[ $long == --long ]]; then
    expect 130278541 328 130169893 --param sector-size=32GiB
    expect 131185849 328 131076643 --param sector-size=64GiB
fi
expect_exit2 --param sector-size=1GiB
expect_exit2 --param sector-size=2KiB,layers=2
expect_exit2 --param nodes=8,tree=8-0-0,layers=3
expect_exit2 --param nodes=12,tree=2-0-0
expect_exit2 --param nodes=8,tree=8-2-0
expect_exit2 --param nodes=8,tree=8
expect_exit2 --param nodes=8,tree=3-0-0
expect_exit2 --param nodes=8,tree=8-0-0,challenges=0
expect_exit2 --param nodes=8
expect_exit2 --param colour=blue
echo "$pass passed, $fail failed"
[[ $fail == 0 ]]
