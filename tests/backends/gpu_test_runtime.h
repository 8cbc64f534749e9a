/* The runtime the GPU backend tests run on: OpenCL (POCL in make test), or CUDA with
 * CUZK_GPU_TEST_RUNTIME=cuda (tests/gpu/device-check.sh on an NVIDIA GPU). dev0 is the label
 * prefix of that runtime's first device, which the backend's error messages name. */
#ifndef CUZK_TESTS_GPU_TEST_RUNTIME_H
#define CUZK_TESTS_GPU_TEST_RUNTIME_H

#include <stdlib.h>
#include <string.h>

#include "backends/backends.h"

static const char *dev0 = "opencl:0";

static backend_kind runtime_kind(void)
{
    const char *rt = getenv("CUZK_GPU_TEST_RUNTIME");
    if (rt && !strcmp(rt, "cuda")) {
        dev0 = "cuda:0";
        return BACKEND_CUDA;
    }
    return BACKEND_OPENCL;
}

#endif
