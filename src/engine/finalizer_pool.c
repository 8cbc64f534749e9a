/* Finalizer pool: finalizer_threads threads running backend.prove_finish (B_G2 MSM and
 * proof assembly), then freeing the assignment and the rest of the reservation, verifying
 * the proof when the job asked for it, and storing it in the job (docs/engine.md#job-lifecycle
 * step 6).
 * A pending handle of a cancelled job is still finished so that it is freed; the proof is
 * then dropped. */
#include <string.h>

#include "engine/engine_internal.h"
#include "engine/log.h"

void cuzk_finalize_task(cuzk_task *t)
{
    cuzk_engine *e = t->e;
    cuzk_job *job = t->job;
    const cuzk_circuit_kind *kind = job->req.kind;
    const cuzk_prover_backend *be = e->cfg.backend;
    const uint32_t p = t->partition;
    uint8_t proof[CUZK_PROOF_BYTES];
    cuzk_error err = {0};

    int64_t t0 = cuzk_now_ns();
    const atomic_bool *outer = cuzk_cancel_bind(&job->aborted); /* as in prove_start */
    cuzk_status st = be->prove_finish(be->ctx, t->pending, proof, &err);
    cuzk_cancel_bind(outer);
    t->pending = NULL;
    kind->free_assignment(kind->ctx, t->assignment);
    t->assignment = NULL;
    cuzk_engine_count(e, CUZK_CTR_PENDING_FINISH, -1);
    cuzk_engine_count(e, CUZK_CTR_PENDING_FINISH_BYTES, -(int64_t)t->reserved);
    if (st == CUZK_OK)
        cuzk_engine_emit(e, CUZK_EV_FINISH_END, job->id, p, 0, 0, false);
    cuzk_task_release_memory(t, t->reserved);

    cuzk_status vst = CUZK_OK;
    cuzk_error verr = {0};
    const cuzk_verify_hook *vh = job->req.verify;
    bool verified = false;
    if (st == CUZK_OK && vh && !atomic_load(&job->aborted)) {
        vst = vh->verify(vh->ctx, job->req.kind_input, job->req.params, p, proof, &verr);
        verified = vst == CUZK_OK;
    }
    atomic_fetch_add(&job->finish_ns, cuzk_now_ns() - t0);

    pthread_mutex_lock(&e->mu);
    bool aborted = false;
    if (job->state < CUZK_JOB_DONE) {
        if (st != CUZK_OK) {
            aborted = cuzk_job_abort_locked(e, job, CUZK_JOB_FAILED, st, "partition %u prove_finish failed: %s",
                                            p, err.msg);
        } else if (vst != CUZK_OK) {
            aborted = cuzk_job_abort_locked(e, job, CUZK_JOB_FAILED, vst,
                                            "partition %u proof failed verification: %s", p, verr.msg);
        } else {
            memcpy(job->proofs + (size_t)p * CUZK_PROOF_BYTES, proof, CUZK_PROOF_BYTES);
            job->verified += verified;
            if (++job->partitions_proved == job->req.num_partitions) {
                job->state = CUZK_JOB_DONE;
                job->finished_ns = cuzk_now_ns();
                e->completed_total++;
            }
        }
    }
    pthread_mutex_unlock(&e->mu);
    if (aborted)
        cuzk_job_abort_finish(e, job);
    cuzk_engine_log_counters(e, "partition finished", job->id, p);
    cuzk_task_retire(t);
}

void *cuzk_finalizer_main(void *arg)
{
    cuzk_engine *e = arg;
    cuzk_chan_node *node;
    while ((node = cuzk_chan_recv(&e->finish_chan)))
        cuzk_finalize_task((cuzk_task *)node);
    return NULL;
}
