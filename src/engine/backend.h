/* Prover-backend interface: the split Groth16 prove (docs/engine.md#split-prove) as seen by
 * the engine, plus the proof-verification hook used for self-checks and by cuzk-bench.
 *
 * A backend is a table of functions plus an opaque context. `params` (the proving key /
 * SRS for the job's circuit) and `assignment` (from the job's circuit kind) are opaque to
 * the engine. The CPU backend counts as one device; a GPU backend reports its devices and
 * the engine runs gpu_workers_per_device prover workers on each.
 *
 * Thread-safety required of implementations: prove_start may run concurrently on all
 * prover workers (several per device: serialize inside the backend where a device needs
 * it), prove_finish concurrently on all finalizer threads.
 */
#ifndef CUZK_ENGINE_BACKEND_H
#define CUZK_ENGINE_BACKEND_H

#include <stdbool.h>
#include <stdint.h>

#include "common/release.h"
#include "common/status.h"
#include "engine/abc_pool.h"
#include "engine/budget.h"

/* Bytes of one partition proof: bellperson's compressed A (G1, 48) || B (G2, 96) || C (G1, 48). */
#define CUZK_PROOF_BYTES 192

typedef struct {
    uint32_t num_devices; /* >= 1; the CPU backend reports 1 */
    bool is_gpu;
} cuzk_backend_caps;

/* What an engine lends its backend from cuzk_engine_create to cuzk_engine_destroy. */
typedef struct {
    cuzk_budget *budget;         /* the host memory budget: the backend charges its own long-lived
                                    host buffers here (a GPU backend's pinned staging) */
    cuzk_abc_pool *abc_pool;     /* the a/b/c pool; NULL when [memory] abc_pool is off */
    uint32_t workers_per_device; /* the engine's prover workers on each device */
} cuzk_backend_host;

typedef struct cuzk_prover_backend {
    const char *name; /* e.g. "cpu" */
    void *ctx;

    /* Fill *out. Called once, by cuzk_engine_create. */
    cuzk_status (*capabilities)(void *ctx, cuzk_backend_caps *out, cuzk_error *err);

    /* First half of the proof on device `device` (0 <= device < num_devices): everything
     * that reads the a/b/c vectors (NTT for H, MSMs for A, B_G1, L, H).
     *
     * Ownership of `assignment` (one rule for every backend): the circuit kind owns it and
     * only kind.release_abc frees (or recycles) its a/b/c vectors; the backend never frees
     * any part of it. The backend may use a/b/c as scratch (overwrite them, e.g. H in
     * place) until it calls cuzk_release_cb_call(rel), which it does as soon as it no
     * longer touches them (CPU: after the H MSM; GPU: once they are uploaded) and at most
     * once, on the calling thread or any other, but before prove_start returns. The engine's
     * callback runs kind.release_abc and returns the partition's a/b/c share of the memory
     * budget at that moment; if the backend did not call it, the engine does right after
     * prove_start returns (success or error). After rel, a/b/c must not be referenced.
     * `rel` may be NULL (a caller that releases a/b/c itself after the call). The witness
     * part of `assignment` stays valid until prove_finish returns and may be borrowed by
     * the pending handle.
     * On success stores a pending handle in *pending (owned by the engine until it is
     * passed to prove_finish). On error *pending is left NULL. */
    cuzk_status (*prove_start)(void *ctx, uint32_t device, const void *params, const void *assignment,
                               const cuzk_release_cb *rel, void **pending, cuzk_error *err);

    /* Second half (B_G2 MSM, assembly with r, s): write the proof to proof[0..191].
     * Always consumes `pending` (frees it), also on error. */
    cuzk_status (*prove_finish)(void *ctx, void *pending, uint8_t proof[CUZK_PROOF_BYTES], cuzk_error *err);
    /* Optional (NULL: nothing to attach). attach: called once by cuzk_engine_create, after its
     * budget and pool exist and before any prove_start; the backend may charge the budget
     * (cuzk_budget_acquire / try_acquire) and set the pool's hooks (cuzk_abc_pool_set_hooks).
     * An error fails cuzk_engine_create with it. detach: called by cuzk_engine_destroy (and
     * only after a successful attach) once every prove_start / prove_finish has returned and
     * before the budget and pool go: the backend releases what it charged and forgets both.
     * A backend is attached to at most one engine at a time. */
    cuzk_status (*attach)(void *ctx, const cuzk_backend_host *host, cuzk_error *err);
    void (*detach)(void *ctx);
    /* Optional (NULL: the backend keeps no copy of params). The parameters at `params` (as
     * prove_start gets them) are being evicted and freed: drop any copy of them the backend
     * keeps (a GPU backend's resident bases on each device) now, or, where a prove_start
     * still uses it, when that one is done with it. Called from any thread, possibly with
     * the caller's locks held (the parameter manager's): it must not call into the engine or
     * the parameter manager. */
    void (*forget_params)(void *ctx, const void *params);
} cuzk_prover_backend;

/* Verifies one partition proof of a job: `kind_input` and `params` as in the job request.
 * Returns CUZK_OK if the proof is valid, CUZK_E_VERIFY_FAILED if it is not, another status
 * if verification could not run. Must be callable concurrently from several threads. */
typedef struct cuzk_verify_hook {
    void *ctx;
    cuzk_status (*verify)(void *ctx, const void *kind_input, const void *params, uint32_t partition,
                          const uint8_t proof[CUZK_PROOF_BYTES], cuzk_error *err);
} cuzk_verify_hook;

#endif
