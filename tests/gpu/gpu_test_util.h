/* Shared by the device tests (tests/gpu): open every device the tests should run on.
 *
 * Devices: every OpenCL device and every CUDA device this binary's runtimes find, in that order,
 * each opened with the test program (cuzk_test_kernels.cl: the production kernels plus the
 * element-wise test wrappers) and given one queue. CUZK_GPU_TEST_RUNTIME=opencl|cuda restricts
 * the list to one runtime. When no device is found the test prints "SKIP: ..." with every
 * runtime's reason and exits 77 (ctest SKIP_RETURN_CODE), unless CUZK_GPU_TEST_REQUIRE=1 (set by
 * tests/gpu/device-check.sh), which makes that a failure. A device that is listed but fails to
 * open is a test failure. Each device's program build time is printed.
 */
#ifndef CUZK_TESTS_GPU_TEST_UTIL_H
#define CUZK_TESTS_GPU_TEST_UTIL_H

#include <stddef.h>

#include "gpu/runtime.h"

#define GPU_TEST_MAX_DEVICES 16

typedef struct {
    gpu_device *dev;
    gpu_queue *q;
    const char *label;
} gpu_test_dev;

/* The test program (tests/gpu/CMakeLists.txt embeds it). */
extern const gpu_program gpu_program_test_;

/* Open the devices into out[0 .. return value); exits 77 (skip) or 1 as described above. */
size_t gpu_test_open_all(gpu_test_dev *out, const gpu_program *prog);
void gpu_test_close_all(gpu_test_dev *devs, size_t n);

/* Abort-free helpers: run one call and CHECK its status, printing err.msg; return its status. */
cuzk_status gpu_test_ok(cuzk_status st, const cuzk_error *err, const char *what, const char *label);

#endif
