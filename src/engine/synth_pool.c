/* Synthesis pool: partition_workers threads. Each picks the next partition (scheduler
 * order), reserves its working set, takes a permit, synthesizes, and holds the permit until
 * the prover channel has accepted the partition (docs/engine.md#backpressure: the permit
 * released only after the send succeeded). */
#include <stdlib.h>

#include "engine/engine_internal.h"

/* Block until a partition is available and return its job (reference taken) and index
 * in *partition, or NULL when the engine is stopping. */
static cuzk_job *next_partition(cuzk_engine *e, uint32_t *partition)
{
    pthread_mutex_lock(&e->mu);
    cuzk_sched_node *node = NULL;
    while (!e->stopping && !(node = cuzk_sched_peek(&e->sched)))
        pthread_cond_wait(&e->work_cv, &e->mu);
    if (e->stopping) {
        pthread_mutex_unlock(&e->mu);
        return NULL;
    }
    cuzk_job *job = (cuzk_job *)((char *)node - offsetof(cuzk_job, sched_node));
    *partition = job->next_partition++;
    if (job->next_partition == job->req.num_partitions)
        cuzk_sched_remove(&e->sched, node);
    if (job->state == CUZK_JOB_QUEUED) {
        job->state = CUZK_JOB_RUNNING;
        job->started_ns = cuzk_now_ns();
    }
    cuzk_job_ref_locked(job);
    pthread_mutex_unlock(&e->mu);
    return job;
}

/* Channel key: higher priority first, then older job, then lower partition. */
static void set_key(cuzk_task *t)
{
    t->node.key_hi = ((uint64_t)(CUZK_PRIORITY_COUNT - 1 - t->job->req.priority) << 60) | t->job->id;
    t->node.key_lo = t->partition;
}

/* Run one partition from budget reservation to channel acceptance (or discard). */
static void synthesize_one(cuzk_engine *e, cuzk_task *t)
{
    cuzk_job *job = t->job;
    const cuzk_circuit_kind *kind = job->req.kind;
    const uint64_t id = job->id;
    const uint32_t p = t->partition;
    cuzk_error err = {0};

    cuzk_status st = cuzk_budget_acquire(&e->budget, job->est.total_bytes, cuzk_task_aborted, t, &err);
    if (st != CUZK_OK) {
        if (st != CUZK_E_CANCELLED)
            cuzk_job_fail(e, job, st, "partition %u: %s", p, err.msg);
        cuzk_task_discard(t);
        return;
    }
    t->reserved = job->est.total_bytes;
    atomic_fetch_add(&e->partition_reserved, t->reserved);
    cuzk_engine_emit(e, CUZK_EV_MEM_ACQUIRED, id, p, 0, t->reserved, false);

    if (cuzk_sem_acquire(&e->permits, cuzk_task_aborted, t) != CUZK_OK) {
        cuzk_task_discard(t);
        return;
    }
    const int64_t bytes = (int64_t)t->reserved;
    cuzk_engine_count(e, CUZK_CTR_PERMITS_HELD, 1);
    cuzk_engine_emit(e, CUZK_EV_SYNTH_START, id, p, 0, 0, false);

    if (atomic_load(&job->aborted)) {
        st = CUZK_E_CANCELLED;
    } else {
        cuzk_engine_count(e, CUZK_CTR_SYNTHESIZING, 1);
        cuzk_engine_count(e, CUZK_CTR_SYNTHESIZING_BYTES, bytes);
        int64_t t0 = cuzk_now_ns();
        /* bound too, for the layers below the kind (cs) that check between chunks */
        const atomic_bool *outer = cuzk_cancel_bind(&job->aborted);
        st = kind->synthesize(kind->ctx, job->req.kind_input, p, &job->aborted, &t->assignment, &err);
        cuzk_cancel_bind(outer);
        atomic_fetch_add(&job->synth_ns, cuzk_now_ns() - t0);
        cuzk_engine_count(e, CUZK_CTR_SYNTHESIZING, -1);
        cuzk_engine_count(e, CUZK_CTR_SYNTHESIZING_BYTES, -bytes);
        if (st == CUZK_OK && !t->assignment)
            st = cuzk_fail(&err, CUZK_E_INTERNAL, "kind '%s' returned no assignment", kind->name);
        if (st != CUZK_OK && t->assignment) {
            kind->free_assignment(kind->ctx, t->assignment);
            t->assignment = NULL;
        }
        if (st != CUZK_OK && !(st == CUZK_E_CANCELLED && atomic_load(&job->aborted)))
            cuzk_job_fail(e, job, st, "partition %u synthesis failed: %s", p, err.msg);
    }

    bool accepted = false;
    if (st == CUZK_OK) {
        cuzk_engine_emit(e, CUZK_EV_SYNTH_END, id, p, 0, 0, false);
        cuzk_engine_count(e, CUZK_CTR_AWAITING_SEND, 1);
        cuzk_engine_count(e, CUZK_CTR_AWAITING_SEND_BYTES, bytes);
        set_key(t);
        t->node.bytes = bytes;
        /* keep the job referenced past the send: once sent, the task may be retired by
         * another thread while this one still holds the permit */
        pthread_mutex_lock(&e->mu);
        cuzk_job_ref_locked(job);
        pthread_mutex_unlock(&e->mu);
        accepted = cuzk_chan_send(&e->prove_chan, &t->node, cuzk_task_aborted, t) == CUZK_OK;
        cuzk_engine_count(e, CUZK_CTR_AWAITING_SEND, -1);
        cuzk_engine_count(e, CUZK_CTR_AWAITING_SEND_BYTES, -bytes);
    }
    cuzk_engine_emit(e, CUZK_EV_PERMIT_RELEASED, id, p, 0, 0, accepted);
    cuzk_engine_count(e, CUZK_CTR_PERMITS_HELD, -1);
    cuzk_sem_release(&e->permits);
    if (st == CUZK_OK)
        cuzk_job_unref(e, job); /* the extra reference taken for the send */
    if (!accepted)
        cuzk_task_discard(t);
}

void *cuzk_synth_worker_main(void *arg)
{
    cuzk_engine *e = arg;
    uint32_t partition;
    cuzk_job *job;
    while ((job = next_partition(e, &partition))) {
        cuzk_task *t = calloc(1, sizeof *t);
        if (!t) {
            cuzk_job_fail(e, job, CUZK_E_NOMEM, "partition %u: out of memory for the pipeline task", partition);
            cuzk_job_unref(e, job);
            continue;
        }
        t->e = e;
        t->job = job;
        t->partition = partition;
        synthesize_one(e, t);
    }
    return NULL;
}
