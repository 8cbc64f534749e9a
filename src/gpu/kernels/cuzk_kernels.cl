/* The one device program of cuzk: every kernel, compiled as OpenCL C at run time (CMake
 * inlines the #include lines below into one string embedded in the binary) and as CUDA by
 * nvcc at build time (a fatbin embedded as bytes). Order matters: each file uses only those
 * before it. */
#include "prelude.h"
#include "fp.h"
#include "fr.h"
#include "g1.h"
#include "g1_batch.h"
#include "ntt.h"
