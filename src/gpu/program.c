/* The built-in device program (runtime.h gpu_program_builtin): src/gpu/kernels/cuzk_kernels.cl,
 * embedded at build time by cuzk_gpu_program (gpu.cmake) as gpu_program_builtin_. */
#include "gpu/runtime.h"

extern const gpu_program gpu_program_builtin_;

const gpu_program *gpu_program_builtin(void)
{
    return &gpu_program_builtin_;
}
