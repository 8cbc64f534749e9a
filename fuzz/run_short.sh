#!/usr/bin/env bash
# Short CI fuzz run (ctest entry fuzz_short, tests/fuzz/CMakeLists.txt):
#   1. skip (exit 77) when clang cannot build libFuzzer binaries;
#   2. configure a separate clang build with -fsanitize=fuzzer-no-link,address and
#      CUZK_FUZZ=ON, build fuzz_bp_params, fuzz_proof and the vanilla-proof targets
#      (fuzz_c1_json, fuzz_c1_bincode, fuzz_post_vanilla, fuzz_snap_vanilla);
#   3. write the seed corpora with gen_seeds and gen_vanilla_seeds (built by the ordinary
#      build; the latter links the real fixtures in), run the parameter and proof targets for
#      <seconds> and the vanilla ones for <vanilla seconds> each (-max_total_time); any crash,
#      sanitizer report or failed property (rejection without its location, non-canonical
#      accept, accepted input not re-serialising) fails the run (-error_exitcode=1: libFuzzer's
#      default, 77, is the skip code of step 1 and ctest's SKIP_RETURN_CODE, so a finding would
#      be reported as skipped).
# Usage: run_short.sh <source dir> <work dir> <gen_seeds binary> <seconds>
#                     <gen_vanilla_seeds binary> <fixtures dir> <vanilla seconds>
set -euo pipefail
src=$1 work=$2 gen=$3 secs=$4 vgen=$5 fixtures=$6 vsecs=$7
clang=${CLANG:-clang}
mkdir -p "$work"
if ! command -v "$clang" >/dev/null; then
    echo "fuzz_short: $clang not found, skipped"
    exit 77
fi
printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { return 0; }\n' \
    >"$work/probe.c"
if ! "$clang" -fsanitize=fuzzer "$work/probe.c" -o "$work/probe" 2>/dev/null; then
    echo "fuzz_short: $clang does not support -fsanitize=fuzzer, skipped"
    exit 77
fi
jobs=${CUZK_FUZZ_JOBS:-2}
cmake -S "$src" -B "$work/build" -DCMAKE_C_COMPILER="$clang" -DCMAKE_BUILD_TYPE=Debug -DCUZK_FUZZ=ON \
    -DCMAKE_C_FLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address" >"$work/configure.log" ||
    { cat "$work/configure.log"; exit 1; }
vtargets="fuzz_c1_json fuzz_c1_bincode fuzz_post_vanilla fuzz_snap_vanilla"
# shellcheck disable=SC2086
cmake --build "$work/build" --target fuzz_bp_params fuzz_proof $vtargets -j"$jobs" >"$work/build.log" 2>&1 ||
    { tail -50 "$work/build.log"; exit 1; }
rm -rf "$work/seeds" "$work/vseeds"
"$gen" "$work/seeds"
"$vgen" "$work/vseeds" "$fixtures"
for t in params proof; do
    bin=$work/build/fuzz/fuzz_bp_$t
    [[ $t == proof ]] && bin=$work/build/fuzz/fuzz_proof
    mkdir -p "$work/corpus_$t"
    echo "fuzz_short: $(basename "$bin") for ${secs}s"
    "$bin" -max_total_time="$secs" -max_len=8192 -rss_limit_mb=2048 -print_final_stats=1 -error_exitcode=1 \
        -artifact_prefix="$work/crash_$t-" "$work/corpus_$t" "$work/seeds/$t" 2>&1 | tail -15
done
# target, seed folder, largest input (the 8 MiB C1 bincode is 60,172 bytes, a 2 KiB C1 JSON
# about 100 KB and 134 KB in the envelope, a 2 KiB WinningPoSt proof 36,816 bytes, a 2 KiB Poseidon PartitionProof 16,720 bytes)
for spec in fuzz_c1_json:c1_json:141312 fuzz_c1_bincode:c1_bincode:65536 fuzz_post_vanilla:post:40960 \
    fuzz_snap_vanilla:snap:20480; do
    IFS=: read -r t seeds maxlen <<<"$spec"
    mkdir -p "$work/corpus_$t"
    echo "fuzz_short: $t for ${vsecs}s"
    "$work/build/fuzz/$t" -max_total_time="$vsecs" -max_len="$maxlen" -rss_limit_mb=2048 -print_final_stats=1 \
        -error_exitcode=1 \
        -artifact_prefix="$work/crash_$t-" "$work/corpus_$t" "$work/vseeds/$seeds" 2>&1 | tail -15
done
echo "fuzz_short: ok"
