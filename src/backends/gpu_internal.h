/* Internal to src/backends: the GPU backend's per-device state, shared by gpu.c (the prove),
 * gpu_bases.c (resident bases), gpu_fail.c (injected failures) and backends.c (the choice). */
#ifndef CUZK_BACKENDS_GPU_INTERNAL_H
#define CUZK_BACKENDS_GPU_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>

#include "backends/backends.h"
#include "engine/engine.h"
#include "gpu/msm.h"
#include "gpu/ntt.h"
#include "gpu/runtime.h"
#include "groth16/groth16.h"

/* ---- injected failures (gpu_fail.c) ---- */
typedef enum { GPU_FAIL_NONE = 0, GPU_FAIL_OPEN, GPU_FAIL_BASES, GPU_FAIL_UPLOAD, GPU_FAIL_H, GPU_FAIL_MSM } gpu_fail_stage;

typedef struct {
    gpu_fail_stage stage;
    int device;             /* -1: any */
    atomic_long remaining;  /* < 0: always */
} gpu_fail_hook;

/* Parse "STAGE[:DEVICE[:COUNT]]" (backends.h); NULL or "" is no hook. */
cuzk_status gpu_fail_parse(const char *spec, gpu_fail_hook *out, cuzk_error *err);
/* CUZK_E_DEVICE "LABEL: injected failure at STAGE (CUZK_GPU_FAIL)" when the hook fires for
 * (stage, device), else CUZK_OK. */
cuzk_status gpu_fail_check(gpu_fail_hook *h, gpu_fail_stage stage, uint32_t device, const char *label,
                           cuzk_error *err);

/* ---- resident bases (gpu_bases.c) ---- */

/* The G1 query bases of one parameter set on one device, and the index lists of its A / B
 * densities (gpu_msm_density_index: the A and B_G1 MSMs read their scalars from the witness on
 * the device through them), made from the densities of the partition that loaded the set. */
typedef struct gpu_resident {
    const groth16_params_t *params; /* identity: the pointer and the fingerprint */
    uint64_t fingerprint;
    gpu_msm_bases *h, *l, *a, *b_g1;
    gpu_buffer *idx_a, *idx_b;       /* NULL: no density (every variable) or an empty one */
    uint64_t *a_density, *b_density; /* host copies of those densities (NULL: none) */
    uint64_t bytes;                  /* bases and index lists */
    uint64_t last_use;
    uint32_t users;
    bool loading;
    bool forgotten; /* gpu_bases_forget while in use: freed at the last release, never reused */
    struct gpu_resident *next;
} gpu_resident;

struct gpu_dev;
/* The resident bases of params on d, uploaded through q (evicting idle ones, least recently
 * used first, to fit the budget) when not resident, with the index lists of a_density /
 * b_density (groth16_assignment_t's bitmaps over n_inputs + n_aux variables; NULL: every
 * variable); marks them used until gpu_bases_release. Errors: CUZK_E_NOMEM naming the device
 * when they can never fit the budget, upload errors. */
cuzk_status gpu_bases_acquire(struct gpu_dev *d, gpu_queue *q, const groth16_params_t *params,
                              const uint64_t *a_density, const uint64_t *b_density, gpu_resident **out,
                              cuzk_error *err);
/* Whether r's index lists were made from these densities (the same bits over the variables). */
bool gpu_resident_density_is(const gpu_resident *r, const uint64_t *a_density, const uint64_t *b_density);
void gpu_bases_release(struct gpu_dev *d, gpu_resident *r);
/* Drop the resident bases of params on d (any fingerprint): at once when idle, else at
 * their last gpu_bases_release; later acquires of params upload them afresh. Returns the
 * sets dropped or marked. */
unsigned gpu_bases_forget(struct gpu_dev *d, const groth16_params_t *params);
/* Free every resident set (the device is closing: no user left). */
void gpu_bases_free_all(struct gpu_dev *d);

/* ---- devices ---- */

/* One worker's device resources, reused across partitions. */
typedef struct {
    bool busy;
    gpu_queue *q;              /* the partition's kernels, the witness upload, the MSMs */
    gpu_queue *uq;             /* a/b/c uploads, so that one vector copies while the previous
                                  one's transform runs on q (ordered by events) */
    gpu_host_buffer *stage[2]; /* pinned staging halves */
    gpu_event *stage_done[2];  /* the upload that last read each half */
    gpu_buffer *abc[3];        /* a, b, c on the device */
    size_t abc_bytes;          /* size of each */
    gpu_buffer *w;             /* the witness scalars when they do not fit in abc[1] */
    size_t w_bytes;
} gpu_slot;

/* the engine's bound of gpu_workers_per_device is this backend's slot count */
#define GPU_MAX_SLOTS CUZK_ENGINE_MAX_GPU_WORKERS_PER_DEVICE

typedef struct gpu_dev {
    uint32_t pos; /* position in the backend's device list (the engine's device number) */
    gpu_device *dev;
    const char *label;
    gpu_ntt_cache *ntt;
    uint64_t mem_total;
    pthread_mutex_t mu; /* slots, residents, counters below; never held across device work */
    pthread_cond_t cv;
    gpu_slot slots[GPU_MAX_SLOTS];
    unsigned nslots;
    gpu_resident *residents;
    uint64_t bases_bytes, bases_budget, evictions, tick;
    uint32_t n_resident;
    uint64_t busy_ns, partitions, failures, fallbacks;
    uint64_t scalar_bytes; /* witness scalars uploaded for the L, A, B_G1 MSMs */
    uint64_t abc_direct_bytes, abc_staged_bytes; /* a/b/c uploaded from registered pool buffers /
                                                    through the pinned staging */
    uint32_t in_flight;
    gpu_fail_hook *fail;
} gpu_dev;

/* ---- a/b/c pool buffers registered for direct uploads (gpu_pin.c) ---- */

/* One pool buffer registered with the devices (gpu_host_register through the first device:
 * CUDA registers it for every context). */
typedef struct {
    void *mem;
    size_t bytes;
    gpu_host_buffer *h;
} gpu_pinned;

typedef struct {
    pthread_mutex_t mu;       /* the table below */
    gpu_pinned *bufs;
    size_t n, cap;
    uint64_t bytes;           /* registered now */
    uint64_t failures;        /* buffers whose registration failed (they go through the staging) */
    struct cuzk_abc_pool *pool; /* whose hooks point here (NULL: none) */
    gpu_device *dev;          /* the device registrations are made through */
} gpu_pin_table;

/* Point the pool's hooks at t: every buffer it maps from now on is registered (a failure is
 * logged and counted, and that buffer's partitions take the staging), every buffer it unmaps
 * is unregistered first. */
void gpu_pin_attach(gpu_pin_table *t, gpu_device *dev, struct cuzk_abc_pool *pool);
/* Clear the pool's hooks and unregister every buffer (the pool may outlive the backend). */
void gpu_pin_detach(gpu_pin_table *t);
/* Whether [p, p + bytes) lies inside one registered buffer. */
bool gpu_pin_covers(gpu_pin_table *t, const void *p, size_t bytes);

/* The GPU backend (gpu.c). */
typedef struct {
    cuzk_prover_backend cpu; /* prove_finish */
    unsigned cpu_threads;
    gpu_dev *devs;
    uint32_t ndevs;
    bool fallback;
    size_t staging_bytes;
    unsigned max_slots;
    cuzk_budget *budget;      /* the attached engine's host budget (NULL: none) */
    uint64_t staging_charged; /* bytes of it the workers' pinned staging holds */
    gpu_pin_table pins;       /* the attached engine's a/b/c pool buffers, registered */
    gpu_fail_hook fail;
    bool fixed_rs;
    fr_t r, s;
} gpu_backend;

/* Open the listed devices of runtime rt into *out (cfg's budget, staging, hooks). */
cuzk_status gpu_backend_open(gpu_runtime rt, const unsigned *indices, size_t n, const backend_config *cfg,
                             gpu_backend **out, cuzk_error *err);
void gpu_backend_close(gpu_backend *g);
/* The table over g (ctx = g). */
void gpu_backend_table(gpu_backend *g, cuzk_prover_backend *out);

#endif
