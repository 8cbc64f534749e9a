#!/usr/bin/env bash
# Short CI fuzz run (ctest entry fuzz_short, tests/fuzz/CMakeLists.txt):
#   1. skip (exit 77) when clang cannot build libFuzzer binaries;
#   2. configure a separate clang build with -fsanitize=fuzzer-no-link,address and
#      CUZK_FUZZ=ON, build fuzz_bp_params and fuzz_proof;
#   3. write a seed corpus with gen_seeds (built by the ordinary build) and run each target
#      for <seconds> (-max_total_time); any crash, sanitizer report or failed property
#      (rejection without section/offset, non-canonical accept) fails the run.
# Usage: run_short.sh <source dir> <work dir> <gen_seeds binary> <seconds>
set -euo pipefail
src=$1 work=$2 gen=$3 secs=$4
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
cmake --build "$work/build" --target fuzz_bp_params fuzz_proof -j"$jobs" >"$work/build.log" 2>&1 ||
    { tail -50 "$work/build.log"; exit 1; }
rm -rf "$work/seeds"
"$gen" "$work/seeds"
for t in params proof; do
    bin=$work/build/fuzz/fuzz_bp_$t
    [[ $t == proof ]] && bin=$work/build/fuzz/fuzz_proof
    mkdir -p "$work/corpus_$t"
    echo "fuzz_short: $(basename "$bin") for ${secs}s"
    "$bin" -max_total_time="$secs" -max_len=8192 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$work/crash_$t-" "$work/corpus_$t" "$work/seeds/$t" 2>&1 | tail -15
done
echo "fuzz_short: ok"
