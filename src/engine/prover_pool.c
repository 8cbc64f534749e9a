/* Prover workers: gpu_workers_per_device threads per backend device. Each takes the next
 * partition from the prover channel, runs backend.prove_start (which reports through the
 * engine's release callback when a/b/c are done with: kind.release_abc and their share of
 * the reservation go at that moment, or right after prove_start at the latest), hands the
 * pending handle to the finalizer queue and loops. Around prove_start the worker records
 * its job and partition in its cuzk_prover_arg (under mu) for the status snapshot. */
#include "engine/engine_internal.h"

/* Publish (busy) or clear what worker `a` has inside prove_start, under mu so that a status
 * snapshot sees it together with the job table. */
static void set_current(cuzk_prover_arg *a, const cuzk_task *t)
{
    pthread_mutex_lock(&a->e->mu);
    a->busy = t != NULL;
    a->job_id = t ? t->job->id : 0;
    a->partition = t ? t->partition : 0;
    a->kind_name = t ? (t->job->req.kind->name ? t->job->req.kind->name : "") : NULL;
    pthread_mutex_unlock(&a->e->mu);
}

/* The engine's side of backend.h's a/b/c rule for one task inside prove_start: the first
 * call runs kind.release_abc and moves the a/b/c share out of PROVING_BYTES and the task's
 * reservation; later calls do nothing. Lives on the prover worker's stack (the backend
 * calls it before prove_start returns). */
typedef struct {
    cuzk_task *t;
    atomic_bool done;
} abc_release;

static void release_abc_once(void *ctx)
{
    abc_release *r = ctx;
    if (atomic_exchange(&r->done, true))
        return;
    cuzk_task *t = r->t;
    const cuzk_circuit_kind *kind = t->job->req.kind;
    const uint64_t abc = t->job->est.abc_bytes;
    kind->release_abc(kind->ctx, t->assignment);
    cuzk_engine_count(t->e, CUZK_CTR_PROVING_BYTES, -(int64_t)abc);
    cuzk_task_release_memory(t, abc);
}

static void prove_one(cuzk_prover_arg *a, cuzk_task *t)
{
    cuzk_engine *e = a->e;
    const uint32_t device = a->device;
    cuzk_job *job = t->job;
    const cuzk_prover_backend *be = e->cfg.backend;
    cuzk_error err = {0};

    /* published before the counter: whoever sees PROVING count this partition also sees
     * the worker busy with it */
    set_current(a, t);
    cuzk_engine_count(e, CUZK_CTR_PROVING, 1);
    cuzk_engine_count(e, CUZK_CTR_PROVING_BYTES, (int64_t)t->reserved);
    cuzk_engine_emit(e, CUZK_EV_PROVE_START, job->id, t->partition, device, 0, false);
    void *pending = NULL;
    abc_release rel_ctx = {.t = t};
    atomic_init(&rel_ctx.done, false);
    const cuzk_release_cb rel = {release_abc_once, &rel_ctx};
    int64_t t0 = cuzk_now_ns();
    /* the job's flag, bound for the backend's MSMs: a cancel ends prove_start between chunks
     * (CUZK_E_CANCELLED) instead of after the whole partition */
    const atomic_bool *outer = cuzk_cancel_bind(&job->aborted);
    cuzk_status st = be->prove_start(be->ctx, device, job->req.params, t->assignment, &rel, &pending, &err);
    cuzk_cancel_bind(outer);
    atomic_fetch_add(&job->prove_ns, cuzk_now_ns() - t0);
    set_current(a, NULL);
    release_abc_once(&rel_ctx); /* if the backend did not */
    cuzk_engine_count(e, CUZK_CTR_PROVING, -1);
    cuzk_engine_count(e, CUZK_CTR_PROVING_BYTES, -(int64_t)t->reserved);

    if (st == CUZK_OK && !pending)
        st = cuzk_fail(&err, CUZK_E_INTERNAL, "backend '%s' returned no pending handle", be->name);
    if (st != CUZK_OK) {
        /* a pending handle returned despite the error is still finished, so nothing leaks */
        if (pending) {
            uint8_t scratch[CUZK_PROOF_BYTES];
            cuzk_error ignored;
            be->prove_finish(be->ctx, pending, scratch, &ignored);
        }
        cuzk_job_fail(e, job, st, "partition %u prove_start on device %u failed: %s", t->partition, device,
                      err.msg);
        cuzk_task_discard(t);
        return;
    }
    t->pending = pending;
    cuzk_engine_emit(e, CUZK_EV_PROVE_END, job->id, t->partition, device, 0, false);
    cuzk_engine_count(e, CUZK_CTR_PENDING_FINISH, 1);
    cuzk_engine_count(e, CUZK_CTR_PENDING_FINISH_BYTES, (int64_t)t->reserved);
    t->node.bytes = 0;
    /* the finalizer queue is unbounded and closed only after every prover worker exited */
    if (cuzk_chan_send(&e->finish_chan, &t->node, NULL, NULL) != CUZK_OK)
        cuzk_finalize_task(t);
}

void *cuzk_prover_worker_main(void *arg)
{
    cuzk_prover_arg *a = arg;
    cuzk_chan_node *node;
    while ((node = cuzk_chan_recv(&a->e->prove_chan))) {
        cuzk_task *t = (cuzk_task *)node;
        if (atomic_load(&t->job->aborted))
            cuzk_task_discard(t);
        else
            prove_one(a, t);
    }
    return NULL;
}
