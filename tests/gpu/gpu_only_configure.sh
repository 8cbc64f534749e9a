#!/usr/bin/env bash
# The GPU-only configuration (root CMakeLists.txt, CUZK_GPU_ONLY), as a bare GPU image gets it
# for tests/gpu/device-check.sh: configure the tree into SCRATCH with pkg-config answering
# nothing (PKG_CONFIG=false: so grpc, protobuf-c, microhttpd, libsystemd are missing) and
# protoc-c hidden, and check that CMake chose the GPU-only build by itself (its warning names
# what is missing), that the targets device-check.sh needs are there (cuzk, cuzk-bench,
# cuzk_gpu, cuzk_backends, the tests/gpu programs and the GPU backend's test_gpu_backend /
# test_gpu_engine) and that the daemon's and the Filecoin circuits' are not, and that no library
# of the full build was found. libcrypto and jansson stay: every build needs them (a GPU image
# gets them from tests/gpu/device-debs.sh); jansson is found here without pkg-config. Configure
# only: building it here would take minutes on small CI machines (device-check.sh builds it on
# the GPU machine).
# Usage: gpu_only_configure.sh SOURCE_DIR SCRATCH_DIR C_COMPILER
set -uo pipefail
src=$1 scratch=$2 cc=$3
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$scratch"
log=$(PKG_CONFIG=false cmake -S "$src" -B "$scratch" -DCMAKE_C_COMPILER="$cc" -DCUZK_CUDA=OFF \
  -DCUZK_DEP_PROTOC_C=CUZK_DEP_PROTOC_C-NOTFOUND 2>&1) || { echo "$log"; fail "configure failed"; }
flat=$(tr -s ' \n' '  ' <<<"$log") # CMake wraps its warnings
grep -q "configuring the GPU-only build" <<<"$flat" || { echo "$log"; fail "no GPU-only message"; }
for m in grpc libmicrohttpd protoc-c; do
  grep -q "$m" <<<"$flat" || fail "the message does not name $m"
done
targets=$(cmake --build "$scratch" --target help 2>/dev/null) || fail "no target list"
for t in cuzk cuzk-bench cuzk_gpu cuzk_backends cuzk_groth16 cuzk_engine test_gpu_runtime test_gpu_arith \
  test_gpu_ntt test_gpu_msm test_common_sha256 test_gpu_backend test_gpu_engine; do
  grep -qx "\.\.\. $t" <<<"$targets" || fail "target $t missing"
done
grep -Eq '^CUZK_JANSSON_LIBRARY:FILEPATH=/' "$scratch/CMakeCache.txt" || fail "jansson not found by its header and library"
for t in cuzk_server cuzk_proto cuzk_filecoin cuzk_gadgets cuzk_kinds_filecoin cuzk_filecoin_testkit; do
  grep -qx "\.\.\. $t" <<<"$targets" && fail "target $t present in the GPU-only build"
done
grep -Eq '^CUZK_DEP_(grpc|libprotobuf_c|libmicrohttpd|libsystemd)_FOUND:[A-Z]+=1' "$scratch/CMakeCache.txt" &&
  fail "a library of the full build was found"
rm -rf "$scratch"
echo "GPU-only configure: daemon and Filecoin targets left out, GPU targets present"
