/* Task and job bookkeeping shared by the three pools (engine_internal.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine/engine_internal.h"
#include "engine/log.h"

void cuzk_engine_emit(cuzk_engine *e, cuzk_event_type type, uint64_t job_id, uint32_t partition,
                      uint32_t device, uint64_t bytes, bool accepted)
{
    if (!e->cfg.on_event)
        return;
    cuzk_engine_event ev = {
        .type = type,
        .job_id = job_id,
        .partition = partition,
        .device = device,
        .bytes = bytes,
        .accepted = accepted,
        .t_ms = (double)(cuzk_now_ns() - e->start_ns) * 1e-6,
    };
    e->cfg.on_event(e->cfg.event_ctx, &ev);
}

bool cuzk_task_aborted(void *task)
{
    cuzk_task *t = task;
    return atomic_load(&t->job->aborted);
}

void cuzk_task_release_memory(cuzk_task *t, uint64_t bytes)
{
    if (bytes == 0)
        return;
    cuzk_engine_emit(t->e, CUZK_EV_MEM_RELEASED, t->job->id, t->partition, 0, bytes, false);
    t->reserved -= bytes;
    atomic_fetch_sub(&t->e->partition_reserved, bytes);
    /* a/b/c buffers just returned to the pool keep these bytes as the pool's charge */
    uint64_t adopted = t->e->abc_pool ? cuzk_abc_pool_adopt(t->e->abc_pool, bytes) : 0;
    cuzk_budget_release(&t->e->budget, bytes - adopted);
}

bool cuzk_engine_budget_hope(void *engine)
{
    cuzk_engine *e = engine;
    if (atomic_load(&e->partition_reserved) > 0)
        return true;
    pthread_mutex_lock(&e->mu);
    bool others = e->table.len > 1;
    pthread_mutex_unlock(&e->mu);
    return others;
}

void cuzk_task_discard(cuzk_task *t)
{
    const cuzk_circuit_kind *kind = t->job->req.kind;
    cuzk_engine_emit(t->e, CUZK_EV_PARTITION_DISCARDED, t->job->id, t->partition, 0, 0, false);
    if (t->assignment) {
        kind->free_assignment(kind->ctx, t->assignment);
        t->assignment = NULL;
    }
    cuzk_task_release_memory(t, t->reserved);
    cuzk_task_retire(t);
}

void cuzk_task_retire(cuzk_task *t)
{
    cuzk_engine *e = t->e;
    cuzk_job *job = t->job;
    free(t);
    cuzk_job_unref(e, job);
}

void cuzk_job_ref_locked(cuzk_job *job)
{
    job->refs++;
}

bool cuzk_job_try_settle_locked(cuzk_engine *e, cuzk_job *job)
{
    if (job->settled || job->refs > 0 || job->state < CUZK_JOB_DONE)
        return false;
    job->settled = true;
    job->settled_next = NULL;
    if (e->settled_tail)
        e->settled_tail->settled_next = job;
    else
        e->settled_head = job;
    e->settled_tail = job;
    e->unsettled_jobs--;
    pthread_cond_broadcast(&e->settle_cv);
    return true;
}

void cuzk_job_unref(cuzk_engine *e, cuzk_job *job)
{
    pthread_mutex_lock(&e->mu);
    job->refs--;
    uint64_t id = job->id;
    bool settled = cuzk_job_try_settle_locked(e, job);
    pthread_mutex_unlock(&e->mu);
    if (settled)
        cuzk_engine_emit(e, CUZK_EV_JOB_SETTLED, id, UINT32_MAX, 0, 0, false);
}

bool cuzk_job_abort_locked(cuzk_engine *e, cuzk_job *job, cuzk_job_state state, cuzk_status code,
                           const char *fmt, ...)
{
    if (job->state >= CUZK_JOB_DONE)
        return false;
    job->state = state;
    job->error.code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(job->error.msg, sizeof job->error.msg, fmt, ap);
    va_end(ap);
    atomic_store(&job->aborted, true);
    cuzk_sched_remove(&e->sched, &job->sched_node);
    job->finished_ns = cuzk_now_ns();
    if (state == CUZK_JOB_CANCELLED)
        e->cancelled_total++;
    else
        e->failed_total++;
    cuzk_job_ref_locked(job);
    cuzk_log(state == CUZK_JOB_CANCELLED ? CUZK_LOG_INFO : CUZK_LOG_WARN, "job %llu %s: %s",
             (unsigned long long)job->id, cuzk_job_state_name(state), job->error.msg);
    return true;
}

static bool task_of_job(const cuzk_chan_node *node, void *job)
{
    return ((const cuzk_task *)node)->job == job;
}

void cuzk_job_abort_finish(cuzk_engine *e, cuzk_job *job)
{
    cuzk_chan_node *removed = cuzk_chan_remove_if(&e->prove_chan, task_of_job, job);
    while (removed) {
        cuzk_chan_node *next = removed->next;
        cuzk_task_discard((cuzk_task *)removed);
        removed = next;
    }
    cuzk_budget_wake(&e->budget);
    cuzk_sem_wake(&e->permits);
    cuzk_chan_wake(&e->prove_chan);
    cuzk_job_unref(e, job);
}

void cuzk_job_fail(cuzk_engine *e, cuzk_job *job, cuzk_status code, const char *fmt, ...)
{
    char msg[sizeof job->error.msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&e->mu);
    bool aborted = cuzk_job_abort_locked(e, job, CUZK_JOB_FAILED, code, "%s", msg);
    pthread_mutex_unlock(&e->mu);
    if (aborted)
        cuzk_job_abort_finish(e, job);
}

void cuzk_engine_log_counters(cuzk_engine *e, const char *what, uint64_t job_id, uint32_t partition)
{
    if (!cuzk_log_enabled(CUZK_LOG_DEBUG))
        return;
    cuzk_counter_value v[CUZK_COUNTER_COUNT];
    cuzk_engine_counters(e, v);
    cuzk_log(CUZK_LOG_DEBUG,
             "%s job=%llu partition=%u permits_held=%lld synthesizing=%lld awaiting_send=%lld queued=%lld "
             "proving=%lld pending_finish=%lld memory_used=%lld/%llu bytes",
             what, (unsigned long long)job_id, partition, (long long)v[CUZK_CTR_PERMITS_HELD].current,
             (long long)v[CUZK_CTR_SYNTHESIZING].current, (long long)v[CUZK_CTR_AWAITING_SEND].current,
             (long long)v[CUZK_CTR_QUEUED].current, (long long)v[CUZK_CTR_PROVING].current,
             (long long)v[CUZK_CTR_PENDING_FINISH].current, (long long)v[CUZK_CTR_MEMORY_USED_BYTES].current,
             (unsigned long long)e->budget.total);
}
