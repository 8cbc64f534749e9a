/* The prover backend a process proves with, chosen from the configuration ([gpus] backend,
 * devices, fallback_to_cpu, ...): the CPU backend (cpu.h) or the GPU backend (gpu.h) over
 * the devices of one runtime.
 *
 * Choice (backend_open):
 *   "cpu"     the CPU backend;
 *   "cuda"    the CUDA devices (every one, or those in `devices`); none is an error;
 *   "opencl"  the OpenCL devices, CPU devices (POCL) included; none is an error;
 *   "auto"    the CUDA devices if there are any, else the OpenCL devices of type GPU, else the
 *             CPU backend (an OpenCL CPU device is never chosen by "auto").
 * `devices` lists indices of the chosen runtime (gpu_device_info.index); an index that does
 * not exist is an error naming it. Opening a device builds or loads the kernels; a failure is
 * an error naming the device.
 *
 * Thread-safety: backend_open / backend_close on one thread; the table (backend_table) and
 * backend_device_stats from any thread while the backend is open.
 */
#ifndef CUZK_BACKENDS_BACKENDS_H
#define CUZK_BACKENDS_BACKENDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/status.h"
#include "engine/backend.h"
#include "field/fr.h"
#include "gpu/runtime.h"

typedef enum { BACKEND_AUTO = 0, BACKEND_CPU, BACKEND_CUDA, BACKEND_OPENCL } backend_kind;

/* "auto", "cpu", "cuda", "opencl". */
const char *backend_kind_name(backend_kind k);
/* Parse one of those names; CUZK_E_INVALID_ARG names the string otherwise. */
cuzk_status backend_kind_parse(const char *name, backend_kind *out, cuzk_error *err);

#define BACKEND_MAX_DEVICES 64

typedef struct {
    backend_kind kind;
    const uint32_t *devices;       /* indices of the chosen runtime; NULL / 0: every device */
    size_t n_devices;
    bool fallback_to_cpu;          /* a partition whose device work fails is proved on the CPU
                                      instead (a/b/c are then kept until the device is done) */
    unsigned cpu_threads;          /* threads of the CPU work (prove_finish's B_G2 MSM, the CPU
                                      backend, the fallback); 0: 1 */
    unsigned workers_per_device;   /* the engine's gpu_workers_per_device: one queue and one
                                      pinned staging buffer each, made on first use; 0: 1;
                                      at most CUZK_ENGINE_MAX_GPU_WORKERS_PER_DEVICE */
    double device_memory_fraction; /* resident bases budget per device: this fraction of the
                                      device's memory (0 < f <= 1; 0: 0.5) ... */
    uint64_t device_memory_limit;  /* ... or this many bytes when smaller (0: no limit) */
    size_t staging_bytes;          /* pinned host staging per worker, two halves (0: 32 MiB);
                                      an engine's budget is charged devices x its workers a
                                      device x this while the engine exists (the table's attach) */
    /* Test hooks. fail: an injected device failure "STAGE[:DEVICE[:COUNT]]" (STAGE one of
     * open, bases, upload, h, msm; DEVICE the position in the backend's device list, "*" or
     * absent for any; COUNT how many times, absent for always); NULL reads the environment
     * variable CUZK_GPU_FAIL when env_test_hooks. test_r / test_s: every proof (CPU or GPU
     * backend) with this r, s instead of fresh randomness from getrandom, for byte-identity
     * tests; NULL reads the environment variable CUZK_TEST_FIXED_RS (a decimal seed k:
     * r = 2k + 1, s = 2k + 2) when env_test_hooks.
     * TEST ONLY: proofs with a known r, s are not zero-knowledge; backend_open logs a warning.
     * env_test_hooks: honour those two environment variables; set only by an explicit opt-in
     * (the daemon's [gpus] test_hooks, cuzk prove --test-hooks), so that a production
     * process that inherits them by accident ignores them (backend_open then logs a warning
     * naming each variable it ignored). */
    const char *fail;
    const fr_t *test_r, *test_s;
    bool env_test_hooks;
} backend_config;

/* Defaults: auto, every device, no fallback, 1 CPU thread, 1 worker a device, fraction 0.5,
 * no limit, 32 MiB staging, no test hooks (and the hooks' environment variables ignored). */
void backend_config_default(backend_config *cfg);

/* The command-line flags of the proving commands: "--backend auto|cpu|cuda|opencl" and
 * "--device N" (cfg->devices then points at *device_slot, one device). Returns 1 when `flag`
 * is one of them and `value` was taken, 0 when it is not, -1 when the value is missing or
 * bad (err names the flag and the value). */
int backend_config_flag(backend_config *cfg, uint32_t *device_slot, const char *flag, const char *value,
                        cuzk_error *err);

typedef struct backend backend;

/* Choose and open the backend of cfg (see above). *out is owned by the caller
 * (backend_close). Errors: CUZK_E_INVALID_ARG (bad config: fraction, workers_per_device above
 * CUZK_ENGINE_MAX_GPU_WORKERS_PER_DEVICE, an unknown device index,
 * an unparsable fail hook), CUZK_E_UNSUPPORTED (the runtime asked for is not built in, or has
 * no device: the message gives the runtime's reason), CUZK_E_DEVICE / CUZK_E_NOMEM from
 * opening a device (naming it). */
cuzk_status backend_open(const backend_config *cfg, backend **out, cuzk_error *err);
/* Waits for nothing: the engine using the table must have been destroyed first. NULL: no-op. */
void backend_close(backend *b);

/* The table to give the engine (cuzk_engine_config.backend); valid until backend_close. */
const cuzk_prover_backend *backend_table(backend *b);
bool backend_is_gpu(const backend *b);
/* One line for the log: "cpu (8 threads)" or "opencl: opencl:0 (NAME), ... (fallback_to_cpu)". */
const char *backend_describe(const backend *b);
uint32_t backend_num_devices(const backend *b);
/* The opened device d of a GPU backend (for benchmarks that drive the device layer beside the
 * backend: give it a queue of its own); NULL for the CPU backend or d out of range. */
gpu_device *backend_gpu_device(backend *b, uint32_t d);

#define BACKEND_MEM_UNKNOWN UINT64_MAX /* = gpu/runtime.h GPU_MEM_UNKNOWN */

/* One device's state, for GetStatus and /metrics. */
typedef struct {
    char label[160];               /* "opencl:0 (NAME)"; "cpu" for the CPU backend */
    uint64_t mem_total_bytes;      /* device memory (0 for the CPU backend) */
    uint64_t mem_free_bytes;       /* BACKEND_MEM_UNKNOWN where the runtime cannot tell */
    uint64_t busy_ns;              /* time spent in device work (upload, H, MSMs) since open */
    uint32_t in_flight;            /* prove_start calls on this device now, waiting or running */
    uint64_t partitions;           /* partitions whose device work completed */
    uint64_t failures;             /* partitions whose device work failed */
    uint64_t fallbacks;            /* of those, proved on the CPU instead */
    uint64_t bases_bytes;          /* resident bases */
    uint64_t bases_budget_bytes;   /* their budget */
    uint64_t staging_bytes;        /* pinned host staging of this device's workers made so far
                                      (one [gpus] staging_buffer each, made on first use) */
    uint32_t bases_resident;       /* parameter sets resident */
    uint64_t bases_evictions;      /* parameter sets dropped to make room (least recently used) */
    uint64_t scalar_upload_bytes;  /* witness scalars uploaded for the L, A and B_G1 MSMs since
                                      open: 32 bytes a variable a partition (the MSMs select
                                      the density's variables on the device) */
    uint64_t abc_direct_bytes;     /* a/b/c uploaded straight from the engine's a/b/c pool
                                      buffers, registered with the device once each */
    uint64_t abc_staged_bytes;     /* a/b/c uploaded through the pinned staging (memory the
                                      pool did not provide or could not register) */
    uint64_t abc_registered_bytes; /* pool buffers registered now (all devices) */
} backend_device_stats;

/* Fill *out for device d (< backend_num_devices). CUZK_E_INVALID_ARG when out of range. */
cuzk_status backend_device_stats_get(backend *b, uint32_t d, backend_device_stats *out, cuzk_error *err);

#endif
