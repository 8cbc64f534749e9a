#!/usr/bin/env bash
# The GPU device check: one command on a machine with an NVIDIA GPU, its driver and nvcc (no
# network needed), from the repository root. It needs only cmake, make or ninja (cmake drives
# either; the CUDA image has ninja but may lack make), a C compiler and python3 (no jq: the
# JSON work is tests/gpu/device_check_json.py); where the daemon's
# libraries (gRPC, protobuf-c, microhttpd, libsystemd, pkg-config) are missing, as on a bare
# GPU image, CMake configures the GPU-only build by itself (root CMakeLists.txt,
# CUZK_GPU_ONLY), which has everything this script runs. libcrypto and jansson are needed by
# every build: where their headers are missing, the script unpacks the Debian packages that
# tests/gpu/device-debs.sh downloaded into .device-debs/ (beside the build, not into /):
#
#     tests/gpu/device-debs.sh          # here, once (downloads 4 packages, about 5 MB)
#     tests/gpu/device-check.sh         # on the GPU machine; the device tool's run with
#                                       # carry [".device-debs"]
#
# 1. builds build-device/ with CUDA for the GPU present (CUZK_CUDA_ARCHS from nvidia-smi's
#    compute capability, e.g. 90 on an H200), in parallel on every core;
# 2. runs the device identity tests on CUDA, and on OpenCL too where an OpenCL platform lists a
#    device (e.g. NVIDIA's OpenCL driver): the runtime test, the arithmetic and the NTT / H
#    tests against the CPU twin (and against the node oracle vectors where node and
#    tests/oracle/node_modules are present), the G1 MSM test against the CPU's msm_g1 (tests/gpu),
#    and the GPU prover backend's whole proofs byte-identical to the CPU backend's for fixed r, s
#    and the engine driving it (tests/backends: test_gpu_backend, test_gpu_engine), each with
#    CUZK_GPU_TEST_REQUIRE=1 / CUZK_GPU_TEST_RUNTIME so "no device" fails instead of skipping;
# 3. runs the benchmarks (cuzk-bench gpu ntt, partition, msm) and prints ONE JSON object on stdout:
#      {"gpus": <cuzk gpu-info --json>, "tests": [{"name","runtime","ok","seconds"}],
#       "rows": [{"name","runtime","gpu_ms","cpu_ms","speedup","ok"}], "seconds": total}
#    every GPU figure beside the CPU backend's time for the same work in the same run.
# Progress and logs go to stderr. Exit 0 when every test passed and every row matched the CPU.
# Budget: under 8 minutes on an H200 host (16 cores); steps are skipped, and say so, once
# DEVICE_CHECK_DEADLINE seconds (default 420: the longest step, the Filecoin-like MSM rows, may
# still take about a minute) have passed. Estimate: the build about 2 minutes (nvcc of the test
# program, production kernels plus test wrappers, is its longest job: 100 s of one core on the
# development machine, the production program 40 s, both in parallel beside the C files), the
# identity tests about a minute, the benchmarks about 3 minutes, the CPU's side of them most.
#
# Environment (all optional), also for trying the script without an NVIDIA GPU, e.g. on POCL:
#   DEVICE_CHECK_RUNTIMES   runtimes to test (default: cuda, plus opencl if it has a device)
#   DEVICE_CHECK_BUILD      build folder (default build-device)
#   DEVICE_CHECK_NO_BUILD=1 use the build folder as it is (must exist)
#   DEVICE_CHECK_NTT_LOGS   NTT / H sizes for the bench (default 24,27)
#   DEVICE_CHECK_TEST_LOG   largest NTT size of the identity test (default 16)
#   DEVICE_CHECK_MSM_LOGS   G1 MSM sizes for the bench, random and Filecoin-like (90% 0/1)
#                           scalars, each beside the CPU's msm (default 20,24,26)
#   DEVICE_CHECK_PART_LOG   domain 2^N of the 32 GiB-shaped partition's GPU phases (cuzk-bench
#                           gpu partition: H + H MSM, A / B_G1 / L MSMs; default 27; 0 skips)
#   DEVICE_CHECK_PART_CPU_LOG  run the partition's CPU side at 2^M and scale its times (default
#                           25: the CPU's H MSM and A / B_G1 / L MSMs at 2^27 would take about a
#                           minute and a half of the budget on 16 cores; set empty for the CPU at
#                           2^N as the device; the rows say "cpu_log" when smaller)
#   DEVICE_CHECK_MSM_TEST_LOG  largest size 2^N + 3 of the MSM identity test (default 16; 0
#                           skips it, as the CPU trial does: make test runs gpu_msm itself)
#   DEVICE_CHECK_DEADLINE   seconds after which remaining steps are skipped (default 420)
#   DEVICE_CHECK_ORACLE=0   skip the node-oracle forms of the tests even where node is present
# e.g. the CPU-only trial: DEVICE_CHECK_RUNTIMES=opencl DEVICE_CHECK_NTT_LOGS=10,12 \
#      DEVICE_CHECK_MSM_LOGS=10 DEVICE_CHECK_PART_LOG=12 DEVICE_CHECK_PART_CPU_LOG=11 \
#      DEVICE_CHECK_BUILD=build DEVICE_CHECK_NO_BUILD=1 tests/gpu/device-check.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
start=$(date +%s)
deadline=${DEVICE_CHECK_DEADLINE:-420}
build=${DEVICE_CHECK_BUILD:-build-device}
logs=${DEVICE_CHECK_NTT_LOGS:-24,27}
test_log=${DEVICE_CHECK_TEST_LOG:-16}
msm_logs=${DEVICE_CHECK_MSM_LOGS:-20,24,26}
part_log=${DEVICE_CHECK_PART_LOG:-27}
part_cpu_log=${DEVICE_CHECK_PART_CPU_LOG-25}
((part_log != 0 && part_cpu_log > part_log)) 2>/dev/null && part_cpu_log=$part_log
msm_test_log=${DEVICE_CHECK_MSM_TEST_LOG:-16}
log() { echo "device-check: $*" >&2; }
elapsed() { echo $(($(date +%s) - start)); }
late() { (($(elapsed) >= deadline)); }
for tool in python3 cmake; do
  command -v "$tool" >/dev/null || { log "needs $tool"; exit 2; }
done

# ---- 1. build
if [[ ${DEVICE_CHECK_NO_BUILD:-0} != 1 ]]; then
  archs=""
  if command -v nvidia-smi >/dev/null; then
    archs=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | tr -d ' .' | sort -u | paste -sd';')
  fi
  flags=(-DCUZK_CUDA=ON)
  [[ -n $archs ]] && flags+=("-DCUZK_CUDA_ARCHS=$archs")
  cc=${CC:-$(command -v clang || command -v cc || command -v gcc)} # as the Makefile: clang where there is one
  [[ -n $cc ]] || { log "needs a C compiler (cc, gcc or clang)"; exit 2; }
  gen=() # CMake's default generator (make) where make exists, else ninja
  if ! command -v make >/dev/null; then
    command -v ninja >/dev/null || { log "needs make or ninja"; exit 2; }
    gen=(-G Ninja)
  fi
  # libcrypto and jansson (every build needs them): a bare GPU image has neither's headers, so
  # unpack the Debian packages tests/gpu/device-debs.sh put in .device-debs/ (carried by the
  # device tool) into $build/deps and let the compiler, linker, CMake and the runs find them.
  if ! echo '#include <openssl/evp.h>
#include <jansson.h>' | "$cc" -E -x c - >/dev/null 2>&1; then
    if ! ls .device-debs/*.deb >/dev/null 2>&1; then
      log "no OpenSSL / jansson headers and no .device-debs/: run tests/gpu/device-debs.sh on the"
      log "development machine and carry .device-debs (run's carry: [\".device-debs\"])"
      exit 2
    fi
    deps=$PWD/$build/deps
    mkdir -p "$deps"
    for f in .device-debs/*.deb; do dpkg -x "$f" "$deps" || { log "dpkg -x $f failed"; exit 2; }; done
    multi=$(ls -d "$deps"/usr/lib/*-linux-gnu 2>/dev/null | head -1)
    export CMAKE_PREFIX_PATH=$deps/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}
    export CPATH=$deps/usr/include${multi:+:$deps/usr/include/${multi##*/}}${CPATH:+:$CPATH}
    export LIBRARY_PATH=${multi:-$deps/usr/lib}${LIBRARY_PATH:+:$LIBRARY_PATH}
    export LD_LIBRARY_PATH=${multi:-$deps/usr/lib}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    log "libcrypto and jansson from .device-debs, unpacked in $deps"
  fi
  log "building $build (${flags[*]}, $cc${gen[*]:+, ${gen[*]}}) on $(nproc) cores"
  if [[ -f $build/CMakeCache.txt ]]; then # its generator and compiler stay
    cmake -S . -B "$build" "${flags[@]}" >"$build.log" 2>&1
  else
    cmake -S . -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER="$cc" "${flags[@]}" >"$build.log" 2>&1
  fi || { tail -30 "$build.log" >&2; log "configure failed (log: $build.log)"; exit 2; }
  grep -q "OpenCL [A-Z]*, CUDA ON" "$build.log" || log "WARNING: CMake did not find nvcc: no CUDA runtime in this build"
  if ! cmake --build "$build" -j "$(nproc)" >>"$build.log" 2>&1; then
    tail -30 "$build.log" >&2
    log "build failed (log: $build.log)"
    exit 2
  fi
  log "built in $(elapsed) s"
fi
for p in cuzk cuzk-bench tests/gpu/test_gpu_ntt tests/gpu/test_gpu_msm tests/backends/test_gpu_backend \
  tests/backends/test_gpu_engine; do
  [[ -x $build/$p ]] || { log "no build in $build ($p missing)"; exit 2; }
done

json_py=tests/gpu/device_check_json.py
gpus_file=$build/device-check-gpus.json tests_file=$build/device-check-tests.jsonl rows_file=$build/device-check-rows.jsonl
: >"$tests_file"
: >"$rows_file"
"$build/cuzk" gpu-info --json >"$gpus_file" || { log "cuzk gpu-info failed"; exit 2; }
"$build/cuzk" gpu-info >&2
if [[ -n ${DEVICE_CHECK_RUNTIMES:-} ]]; then
  runtimes=${DEVICE_CHECK_RUNTIMES//,/ }
else
  runtimes=cuda
  if python3 "$json_py" has-devices opencl <"$gpus_file"; then
    runtimes+=" opencl"
  fi
fi
have_oracle=0
if [[ ${DEVICE_CHECK_ORACLE:-1} != 0 ]] && command -v node >/dev/null && [[ -d tests/oracle/node_modules/@noble/curves ]]; then
  have_oracle=1
fi

# ---- 2. identity tests
add_test() { # name runtime rc seconds (names and runtimes are plain words: no JSON escapes needed)
  printf '{"name":"%s","runtime":"%s","ok":%s,"seconds":%s}\n' "$1" "$2" "$([[ $3 == 0 ]] && echo true || echo false)" \
    "$4" >>"$tests_file"
}
run_test() { # name runtime command...
  local name=$1 rt=$2 t0 rc
  shift 2
  if late; then
    log "SKIPPED $name on $rt: past the ${deadline} s deadline"
    add_test "$name (skipped: deadline)" "$rt" 1 0
    return
  fi
  t0=$(date +%s)
  CUZK_GPU_TEST_RUNTIME=$rt CUZK_GPU_TEST_REQUIRE=1 bash -c "$*" >"$build/device-check-$name-$rt.log" 2>&1
  rc=$?
  add_test "$name" "$rt" "$rc" $(($(date +%s) - t0))
  log "$name on $rt: $([[ $rc == 0 ]] && echo ok || echo "FAILED (rc $rc, log $build/device-check-$name-$rt.log)") $(tail -1 "$build/device-check-$name-$rt.log")"
}
t="$build/tests/gpu"
for rt in $runtimes; do
  run_test gpu_runtime "$rt" "'$t/test_gpu_runtime'"
  run_test gpu_arith_twin "$rt" "'$t/test_gpu_arith' --cpu-twin"
  run_test gpu_ntt_twin "$rt" "'$t/test_gpu_ntt' --cpu-twin --max-log $test_log"
  if [[ $msm_test_log != 0 ]]; then
    run_test gpu_msm "$rt" "'$t/test_gpu_msm' --max-log $msm_test_log"
  fi
  run_test backends_gpu "$rt" "'$build/tests/backends/test_gpu_backend'"
  run_test backends_gpu_engine "$rt" "'$build/tests/backends/test_gpu_engine'"
  if [[ $have_oracle == 1 ]]; then
    run_test gpu_arith_oracle "$rt" "set -o pipefail; { node tests/oracle/gen-field.mjs && node tests/oracle/gen-curve.mjs; } | '$t/test_gpu_arith'"
    run_test gpu_ntt_oracle "$rt" "set -o pipefail; node tests/oracle/gen-ntt.mjs | '$t/test_gpu_ntt'"
  fi
done

# ---- 3. benchmarks: each GPU figure beside the CPU's time in the same run
failed_row() { # name runtime
  printf '{"name":"%s","runtime":"%s","ok":false}\n' "$1" "$2" >>"$rows_file"
}
bench() { # name runtime args...
  local name=$1 rt=$2 out rc
  shift 2
  if late; then
    log "SKIPPED bench $name on $rt: past the ${deadline} s deadline"
    failed_row "$name (skipped: deadline)" "$rt"
    return
  fi
  out=$("$build/cuzk-bench" "$@" --runtime "$rt" --json 2>>"$build/device-check-bench.log")
  rc=$?
  if ! python3 "$json_py" rows "$rt" <<<"$out" >>"$rows_file"; then
    log "bench $name on $rt failed (rc $rc, log $build/device-check-bench.log)"
    failed_row "$name (failed)" "$rt"
    return
  fi
  log "bench $name on $rt: done ($(elapsed) s)"
}
for rt in $runtimes; do
  bench ntt "$rt" gpu ntt --log "$logs"
  if [[ $part_log != 0 ]]; then # before the MSM rows: the issue's first target
    bench partition "$rt" gpu partition --log "$part_log" ${part_cpu_log:+--cpu-log "$part_cpu_log"}
  fi
  bench msm_random "$rt" gpu msm --log "$msm_logs" --mix random
  bench msm_filecoin "$rt" gpu msm --log "$msm_logs" --mix filecoin
done

python3 "$json_py" table "$gpus_file" "$tests_file" "$rows_file" "$(elapsed)"
if [[ $? == 0 ]]; then
  log "all passed in $(elapsed) s"
  exit 0
fi
log "FAILURES (see the tests and rows with ok: false)"
exit 1
