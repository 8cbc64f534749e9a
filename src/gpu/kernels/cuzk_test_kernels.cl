/* The test program: every production kernel (cuzk_kernels.cl) plus the element-wise wrappers
 * of test_kernels.h that tests/gpu checks against the oracle vectors. Embedded into the test
 * programs only (tests/gpu/CMakeLists.txt), so the production program stays small. */
#include "cuzk_kernels.cl"
#include "test_kernels.h"
