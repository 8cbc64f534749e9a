/* CPU prover backend: the engine's split prove on groth16_prove_start/finish; contract in
 * cpu.h. */
#include "backends/cpu.h"

#include <stdint.h>

#include "kinds/builtin/builtin.h"

static cuzk_status caps(void *ctx, cuzk_backend_caps *out, cuzk_error *err)
{
    (void)ctx, (void)err;
    out->num_devices = 1;
    out->is_gpu = false;
    return CUZK_OK;
}

static unsigned threads_of(void *ctx)
{
    return (unsigned)(uintptr_t)ctx;
}

cuzk_status backend_cpu_prove_start(unsigned threads, const groth16_params_t *params, const builtin_assignment *as,
                                    const cuzk_release_cb *rel, const fr_t *r, const fr_t *s,
                                    groth16_pending_t **pending, cuzk_error *err)
{
    /* a/b/c stay the kind's (engine/backend.h): groth16_prove_start overwrites them and reports
     * them done with, after the H MSM, through rel */
    groth16_assignment_t g = as->g;
    g.release_abc = rel ? *rel : (cuzk_release_cb){0};
    return as->compact.aux ? groth16_prove_start_compact(params, &g, &as->compact, r, s, threads, pending, err)
                           : groth16_prove_start(params, &g, r, s, threads, pending, err);
}

static cuzk_status start(void *ctx, uint32_t device, const void *params, const void *assignment,
                         const cuzk_release_cb *rel, void **pending, cuzk_error *err)
{
    (void)device;
    *pending = NULL;
    fr_t r, s;
    cuzk_status st = groth16_random_rs(&r, &s, err);
    if (st)
        return st;
    groth16_pending_t *p = NULL;
    st = backend_cpu_prove_start(threads_of(ctx), params, assignment, rel, &r, &s, &p, err);
    *pending = p;
    return st;
}

static cuzk_status finish(void *ctx, void *pending, uint8_t proof[CUZK_PROOF_BYTES], cuzk_error *err)
{
    groth16_proof_t pr;
    cuzk_status st = groth16_prove_finish(pending, threads_of(ctx), &pr, err);
    if (!st)
        groth16_proof_to_bytes(proof, &pr);
    return st;
}

void backend_cpu_init(cuzk_prover_backend *out, unsigned threads)
{
    *out = (cuzk_prover_backend){
        .name = "cpu",
        .ctx = (void *)(uintptr_t)(threads ? threads : 1),
        .capabilities = caps,
        .prove_start = start,
        .prove_finish = finish,
    };
}
