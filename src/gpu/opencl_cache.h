/* Internal to src/gpu: an on-disk cache of built OpenCL programs (clGetProgramInfo
 * CL_PROGRAM_BINARIES -> clCreateProgramWithBinary), so a device whose driver compiles slowly
 * (NVIDIA's OpenCL: tens of seconds for the 381-bit kernels) pays the build once per program,
 * device and driver, not once per process.
 *
 * Location: $CUZK_GPU_CACHE if set ("off" or "0" disables the cache), else
 * $XDG_CACHE_HOME/cuzk/opencl, else $HOME/.cache/cuzk/opencl; no usable location disables it.
 * Entry: one file named by the SHA-256 (common/sha256.h) of the program source, the build options
 * and the device's identity (platform, name, vendor, device version, driver version), holding
 * the driver's binary; written atomically (common/file_io.h), so concurrent processes never see
 * half a file. A binary the driver refuses is rebuilt from source and replaced. Every cache
 * failure is silent and falls back to the source build: the cache can only save time.
 * Thread-safety: no shared state.
 */
#ifndef CUZK_GPU_OPENCL_CACHE_H
#define CUZK_GPU_OPENCL_CACHE_H

#include <stddef.h>

#include "gpu/runtime.h"

/* The entry's path for this program on this device (malloc'ed), or NULL when the cache is off. */
char *gpu_ocl_cache_path(const char *source, size_t len, const char *options, const gpu_device_info *info);

/* The cached binary (malloc'ed, *len bytes), or NULL when absent or unreadable. */
unsigned char *gpu_ocl_cache_load(const char *path, size_t *len);

/* Store a binary at path (creating the directory); failures are ignored. */
void gpu_ocl_cache_store(const char *path, const unsigned char *bin, size_t len);

#endif
