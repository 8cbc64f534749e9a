/* The one device program of cuzk: every kernel, compiled as OpenCL C at run time (CMake
 * inlines the #include lines below into one string embedded in the binary) and as CUDA by
 * nvcc at build time (a fatbin embedded as bytes). Order matters: each file uses only those
 * before it.
 *
 * Adding kernels: write them in a header here in the common subset of prelude.h (values, not
 * private pointers; LOCAL_ARRAY at kernel scope; GID/LID for indices), add one #include line
 * below, launch them by name from the host with gpu_launch (runtime.h), and give each a CPU twin
 * in tests/gpu (both POCL in CI and CUDA in tests/gpu/device-check.sh run it). */
#include "prelude.h"
#include "fp.h"
#include "fr.h"
#include "g1.h"
#include "g1_batch.h"
#include "ntt.h"
#include "msm.h"
