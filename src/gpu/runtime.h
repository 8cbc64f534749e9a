/* The GPU device API of cuzk: one small interface, two implementations (OpenCL through the
 * ICD loader, runtime_opencl.c; CUDA through the driver API loaded with dlopen, runtime_cuda.c).
 * Everything above src/gpu/ sees devices only through this header and never names a runtime's
 * own types.
 *
 * Objects (all opaque, created and destroyed here):
 *   gpu_device       one opened device: its context and the device program (the kernels of
 *                    src/gpu/kernels, built from source for OpenCL, loaded from the embedded
 *                    fatbin for CUDA). Shared by every worker using that device.
 *   gpu_queue        an in-order command queue (OpenCL) / stream (CUDA) of one device; work on
 *                    one queue runs in submission order, different queues may overlap.
 *   gpu_buffer       device memory of one device.
 *   gpu_host_buffer  page-locked (pinned) host memory for fast asynchronous copies
 *                    (cuMemHostAlloc; an OpenCL CL_MEM_ALLOC_HOST_PTR buffer kept mapped).
 *   gpu_event        a point in a queue's stream of work, for host waits and for ordering
 *                    work across queues.
 *
 * Data layout: device elements use the CPU's bytes. An fr_t (4 x 64-bit limbs, Montgomery form
 * with R = 2^256), fp_t (6 x 64-bit, R = 2^384) or g1_affine_t (x, y; infinity (0, 0)) array
 * is copied to the device as it is and the kernels read it as 8 / 12 little-endian 32-bit
 * limbs of the same Montgomery value (src/gpu/kernels/fp.h, fr.h, g1.h). This holds on
 * little-endian hosts, the only ones this layer builds for (checked at compile time in
 * runtime.c), and is exercised by every device test, which uploads CPU arrays unconverted.
 *
 * Errors: every call that can fail returns a cuzk_status and fills `err` (may be NULL) with a
 * message that names the device ("opencl:0 (NAME)", "cuda:1 (NAME)") and the failing runtime
 * call with the runtime's error name, e.g. "cuda:0 (NVIDIA H200): cuMemAlloc(17179869184
 * bytes): CUDA_ERROR_OUT_OF_MEMORY". Codes: CUZK_E_INVALID_ARG (bad argument, unknown kernel
 * name, index out of range), CUZK_E_NOMEM (device or pinned memory exhausted, or a request
 * above the device's limits: the message gives the size and the limit), CUZK_E_UNSUPPORTED (a
 * runtime not built in, no driver, no platform), CUZK_E_DEVICE (any other runtime failure: a
 * failed kernel build -- with the device named and the first lines of the build log -- a
 * failed launch, a lost device). No call aborts the process.
 *
 * Thread-safety: discovery and every gpu_device / gpu_buffer / gpu_host_buffer / gpu_event
 * function may be called from any thread at any time (several prover workers share one
 * gpu_device). A gpu_queue is used by one thread at a time (give each worker its own queue);
 * the per-queue state (OpenCL kernel objects with their arguments) is why. The per-device lock
 * covers only the device's kernel-function cache (CUDA) and nothing that waits for the device.
 * Contents of buffers are the caller's to order: use events or queue syncs.
 */
#ifndef CUZK_GPU_RUNTIME_H
#define CUZK_GPU_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/status.h"

typedef enum { GPU_RUNTIME_OPENCL = 0, GPU_RUNTIME_CUDA = 1, GPU_RUNTIME_COUNT } gpu_runtime;

/* "opencl" / "cuda" ("?" for anything else). */
const char *gpu_runtime_name(gpu_runtime rt);
/* Parse "opencl" or "cuda" (case-sensitive). CUZK_E_INVALID_ARG names the string otherwise. */
cuzk_status gpu_runtime_parse(const char *name, gpu_runtime *out, cuzk_error *err);
/* True iff support for `rt` was compiled into this binary (CUZK_HAVE_OPENCL / CUZK_HAVE_CUDA). */
bool gpu_runtime_built(gpu_runtime rt);

/* What discovery reports about one device. Strings are NUL-terminated, truncated to fit. */
typedef struct {
    gpu_runtime runtime;
    unsigned index;            /* the index gpu_device_open takes: OpenCL devices numbered over
                                  all platforms in platform order; CUDA ordinals */
    char name[128];
    char vendor[128];
    char platform[128];        /* OpenCL platform name; "CUDA" for CUDA */
    char version[128];         /* OpenCL: CL_DEVICE_VERSION ("OpenCL 3.0 PoCL ..."); CUDA:
                                  "compute capability 9.0" */
    char driver[64];           /* OpenCL CL_DRIVER_VERSION; CUDA driver API version "13.0" */
    int cc_major, cc_minor;    /* CUDA compute capability; 0, 0 for OpenCL */
    unsigned compute_units;    /* OpenCL compute units, CUDA streaming multiprocessors */
    unsigned max_group_size;   /* largest work-group / thread block */
    uint64_t global_mem_bytes; /* device memory */
    uint64_t max_alloc_bytes;  /* largest single gpu_buffer (OpenCL CL_DEVICE_MAX_MEM_ALLOC_SIZE;
                                  CUDA: global_mem_bytes) */
    uint64_t local_mem_bytes;  /* shared (local) memory per work-group */
    bool is_cpu;               /* an OpenCL device of type CPU (POCL in CI) */
} gpu_device_info;

/* Discovery result of one runtime. When ndevices == 0, `reason` says why ("not built into this
 * binary (no nvcc at build time)", "no CUDA driver (dlopen libcuda.so.1: ...)", "no OpenCL
 * platform (clGetPlatformIDs: CL_PLATFORM_NOT_FOUND_KHR)", ...). */
typedef struct {
    gpu_runtime runtime;
    bool built;                /* gpu_runtime_built(runtime) */
    size_t ndevices;
    gpu_device_info *devices;  /* ndevices entries, malloc'ed: free with gpu_report_free */
    char reason[256];          /* empty when devices were found */
} gpu_report;

/* List the devices of runtime `rt` into *out. Having no device, no driver or no platform is
 * not an error (CUZK_OK, ndevices = 0, reason set); errors are CUZK_E_INVALID_ARG (unknown
 * runtime, out NULL) and CUZK_E_NOMEM. Initialises the runtime on first use (cuInit; the ICD
 * loader's platform list) and is cheap after that. Always leaves *out safe to gpu_report_free. */
cuzk_status gpu_discover(gpu_runtime rt, gpu_report *out, cuzk_error *err);
void gpu_report_free(gpu_report *r);

/* A device program image: OpenCL C source and/or a CUDA module image (fatbin, cubin or PTX).
 * Either may be absent (NULL, 0); opening a device of a runtime whose part is absent is
 * CUZK_E_UNSUPPORTED. */
typedef struct {
    const char *name;                 /* for messages, e.g. "cuzk kernels" */
    const char *opencl_source;        /* NUL-terminated */
    size_t opencl_len;                /* bytes, without the NUL */
    const unsigned char *cuda_image;
    size_t cuda_len;
} gpu_program;

/* The built-in program: every production kernel of src/gpu/kernels/cuzk_kernels.cl (the CUDA
 * part is present only in builds with CUZK_HAVE_CUDA). Static storage, never NULL. */
const gpu_program *gpu_program_builtin(void);

typedef struct gpu_device gpu_device;
typedef struct gpu_queue gpu_queue;
typedef struct gpu_buffer gpu_buffer;
typedef struct gpu_host_buffer gpu_host_buffer;
typedef struct gpu_event gpu_event;

/* Open device `index` of runtime `rt` and build (OpenCL: clBuildProgram from source, or from
 * the binary a previous process left in the program cache -- $CUZK_GPU_CACHE, default
 * ~/.cache/cuzk/opencl, "off" to disable; see opencl_cache.h -- on top of the driver's own
 * kernel cache where it has one, e.g. POCL's kcache) or load (CUDA:
 * cuModuleLoadData of the fatbin; the driver JIT-compiles its PTX for GPUs newer than the
 * embedded SASS) `prog`, or the built-in program when prog is NULL. *out is owned by the caller
 * (gpu_device_close). Errors: CUZK_E_UNSUPPORTED (runtime not built, no driver, program part
 * missing), CUZK_E_INVALID_ARG (index out of range: the message gives the device count),
 * CUZK_E_DEVICE (context creation; a failed build: "opencl:0 (NAME): clBuildProgram of cuzk
 * kernels failed: CL_BUILD_PROGRAM_FAILURE; build log: <first lines>"), CUZK_E_NOMEM. */
cuzk_status gpu_device_open(gpu_runtime rt, unsigned index, const gpu_program *prog, gpu_device **out,
                            cuzk_error *err);
/* Close a device: waits for its outstanding work, releases the program and context. Every
 * queue, buffer, host buffer and event of the device must have been released before. NULL is a
 * no-op. */
void gpu_device_close(gpu_device *dev);
const gpu_device_info *gpu_device_get_info(const gpu_device *dev);
/* "opencl:0 (NAME)": the label every message of this device starts with. */
const char *gpu_device_label(const gpu_device *dev);
/* Seconds gpu_device_open spent building or loading the program; whether it came from the
 * OpenCL program cache (false for CUDA, whose program is compiled at build time). */
double gpu_device_build_seconds(const gpu_device *dev);
bool gpu_device_program_cached(const gpu_device *dev);

#define GPU_MEM_UNKNOWN UINT64_MAX
/* Device memory in bytes: *free_bytes is GPU_MEM_UNKNOWN where the runtime cannot tell (OpenCL
 * has no standard query), *total_bytes the device's global memory. */
cuzk_status gpu_device_mem_info(gpu_device *dev, uint64_t *free_bytes, uint64_t *total_bytes, cuzk_error *err);

/* Device memory of `bytes` > 0 bytes, contents undefined. A request above the device's
 * max_alloc_bytes is refused up front; for OpenCL, whose allocations are lazy, the memory is
 * touched once so that exhaustion shows here and not at a later launch. Errors: CUZK_E_NOMEM
 * ("opencl:0 (NAME): cannot allocate 2^40 bytes: ..."), CUZK_E_INVALID_ARG (bytes == 0). */
cuzk_status gpu_buffer_alloc(gpu_device *dev, size_t bytes, gpu_buffer **out, cuzk_error *err);
void gpu_buffer_free(gpu_buffer *buf); /* NULL is a no-op; no queue may still use it */
size_t gpu_buffer_size(const gpu_buffer *buf);

/* Pinned host memory of `bytes` > 0 bytes (its address: gpu_host_ptr, valid until
 * gpu_host_free). Errors: CUZK_E_NOMEM naming device and size, CUZK_E_INVALID_ARG. */
cuzk_status gpu_host_alloc(gpu_device *dev, size_t bytes, gpu_host_buffer **out, cuzk_error *err);
void *gpu_host_ptr(gpu_host_buffer *h);
/* Free pinned memory from gpu_host_alloc, or unregister memory of gpu_host_register (which frees
 * nothing: the memory stays the caller's). NULL is a no-op; no queue may still copy from it. */
void gpu_host_free(gpu_host_buffer *h);

/* Register existing host memory [ptr, ptr + bytes) (bytes > 0; e.g. an a/b/c pool buffer, page
 * aligned) so that copies from inside it on any queue of dev -- of any device for CUDA -- run
 * as asynchronous DMA straight from it, with no staging copy: CUDA page-locks it
 * (cuMemHostRegister, CU_MEMHOSTREGISTER_PORTABLE); OpenCL has no call that page-locks memory
 * the application mapped, so the range is only recorded there and its copies read it in place
 * (clEnqueueWriteBuffer, non-blocking, the driver staging it where it must). *out (owned by
 * the caller; gpu_host_ptr gives ptr back) must be released with gpu_host_free before the
 * memory is unmapped. One range may be registered once (CUDA refuses a second registration of
 * the same pages: CUZK_E_DEVICE). Errors: CUZK_E_INVALID_ARG (NULL, bytes 0), CUZK_E_NOMEM
 * (the driver cannot lock that much: the message gives the size), CUZK_E_DEVICE. */
cuzk_status gpu_host_register(gpu_device *dev, void *ptr, size_t bytes, gpu_host_buffer **out, cuzk_error *err);
/* Whether h is memory of gpu_host_register (false for gpu_host_alloc's and NULL). */
bool gpu_host_is_registered(const gpu_host_buffer *h);

cuzk_status gpu_queue_create(gpu_device *dev, gpu_queue **out, cuzk_error *err);
/* Waits for the queue's work, then releases it. NULL is a no-op. */
void gpu_queue_destroy(gpu_queue *q);
gpu_device *gpu_queue_device(gpu_queue *q);

/* Copies, enqueued on q and asynchronous: they return once queued, and the host memory must
 * stay valid and unchanged (upload) or untouched (download) until the queue has passed them
 * (gpu_queue_sync, or an event recorded after them has completed). Host memory from
 * gpu_host_alloc gives truly asynchronous DMA; other memory may be staged by the driver.
 * Ranges are checked against the buffer size (CUZK_E_INVALID_ARG names offset, size and
 * buffer size); bytes == 0 is a no-op. */
cuzk_status gpu_upload(gpu_queue *q, gpu_buffer *dst, size_t dst_off, const void *src, size_t bytes,
                       cuzk_error *err);
cuzk_status gpu_download(gpu_queue *q, void *dst, const gpu_buffer *src, size_t src_off, size_t bytes,
                         cuzk_error *err);
/* Device-to-device copy (the ranges must not overlap when src == dst) and zero fill. */
cuzk_status gpu_copy(gpu_queue *q, gpu_buffer *dst, size_t dst_off, const gpu_buffer *src, size_t src_off,
                     size_t bytes, cuzk_error *err);
cuzk_status gpu_fill_zero(gpu_queue *q, gpu_buffer *dst, size_t off, size_t bytes, cuzk_error *err);
/* Block until everything enqueued on q has finished; reports a failure of that work. */
cuzk_status gpu_queue_sync(gpu_queue *q, cuzk_error *err);

/* Kernel arguments, in the kernel's parameter order: a device buffer (the kernel sees a GLOBAL
 * pointer to its start), a u32, a u64, or a small struct by value (`len` bytes copied at
 * launch, e.g. an fr_t; the kernel parameter must have exactly that layout). */
typedef enum { GPU_ARG_BUFFER, GPU_ARG_U32, GPU_ARG_U64, GPU_ARG_BYTES } gpu_arg_kind;
typedef struct {
    gpu_arg_kind kind;
    union {
        gpu_buffer *buf;
        uint32_t u32;
        uint64_t u64;
        struct {
            const void *ptr;
            size_t len;
        } bytes;
    } v;
} gpu_arg;

static inline gpu_arg gpu_arg_buf(gpu_buffer *b)
{
    gpu_arg a;
    a.kind = GPU_ARG_BUFFER;
    a.v.buf = b;
    return a;
}
static inline gpu_arg gpu_arg_u32(uint32_t x)
{
    gpu_arg a;
    a.kind = GPU_ARG_U32;
    a.v.u32 = x;
    return a;
}
static inline gpu_arg gpu_arg_u64(uint64_t x)
{
    gpu_arg a;
    a.kind = GPU_ARG_U64;
    a.v.u64 = x;
    return a;
}
static inline gpu_arg gpu_arg_bytes(const void *p, size_t len)
{
    gpu_arg a;
    a.kind = GPU_ARG_BYTES;
    a.v.bytes.ptr = p;
    a.v.bytes.len = len;
    return a;
}

#define GPU_MAX_ARGS 16
#define GPU_MAX_ARG_BYTES 256

/* Enqueue kernel `name` of the device's program on q over a 1-D grid of `groups` work-groups
 * (CUDA blocks) of `group_size` work-items (threads) each; the kernel guards its own tail.
 * Errors: CUZK_E_INVALID_ARG (no kernel of that name in the program: "opencl:0 (NAME): no
 * kernel 'foo' in cuzk kernels"; groups or group_size 0; group_size above the device's or the
 * kernel's limit; more than GPU_MAX_ARGS arguments, a NULL buffer, a buffer of another device,
 * GPU_ARG_BYTES over GPU_MAX_ARG_BYTES; an argument the kernel refuses), CUZK_E_DEVICE (launch
 * failure), CUZK_E_NOMEM (resources). */
cuzk_status gpu_launch(gpu_queue *q, const char *name, size_t groups, unsigned group_size, const gpu_arg *args,
                       unsigned nargs, cuzk_error *err);

/* An event at the current end of q's work (it completes when everything enqueued before it has).
 * Owned by the caller (gpu_event_destroy). */
cuzk_status gpu_event_record(gpu_queue *q, gpu_event **out, cuzk_error *err);
/* Block the calling thread until ev has completed; reports a failure of the work before it. */
cuzk_status gpu_event_wait(gpu_event *ev, cuzk_error *err);
/* *done = whether ev has completed, without blocking. */
cuzk_status gpu_event_query(gpu_event *ev, bool *done, cuzk_error *err);
/* Work enqueued on q after this call starts only after ev (from any queue of the same device). */
cuzk_status gpu_queue_wait_event(gpu_queue *q, gpu_event *ev, cuzk_error *err);
void gpu_event_destroy(gpu_event *ev); /* NULL is a no-op */

#endif
