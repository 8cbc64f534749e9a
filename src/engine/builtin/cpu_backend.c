/* CPU prover backend: the engine's split prove on groth16_prove_start/finish. */
#include <stdint.h>

#include "engine/builtin/builtin.h"

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

static cuzk_status start(void *ctx, uint32_t device, const void *params, const void *assignment,
                         const cuzk_release_cb *rel, void **pending, cuzk_error *err)
{
    (void)device;
    *pending = NULL;
    /* a/b/c stay the kind's (backend.h): groth16_prove_start overwrites them and reports
     * them done with, after the H MSM, through the engine's callback */
    const builtin_assignment *as = assignment;
    groth16_assignment_t g = as->g;
    g.release_abc = rel ? *rel : (cuzk_release_cb){0};
    fr_t r, s;
    cuzk_status st = groth16_random_rs(&r, &s, err);
    if (st)
        return st;
    groth16_pending_t *p = NULL;
    st = as->compact.aux ? groth16_prove_start_compact(params, &g, &as->compact, &r, &s, threads_of(ctx), &p, err)
                         : groth16_prove_start(params, &g, &r, &s, threads_of(ctx), &p, err);
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

void builtin_cpu_backend(cuzk_prover_backend *out, unsigned threads)
{
    *out = (cuzk_prover_backend){
        .name = "cpu",
        .ctx = (void *)(uintptr_t)(threads ? threads : 1),
        .capabilities = caps,
        .prove_start = start,
        .prove_finish = finish,
    };
}
