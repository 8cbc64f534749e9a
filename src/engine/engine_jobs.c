/* Job API: submit, wait, wait_any, cancel, wait_idle (engine.h). */
#include <stdlib.h>
#include <string.h>

#include "engine/engine_internal.h"

static cuzk_status check_request(const cuzk_job_request *req, cuzk_error *err)
{
    const cuzk_circuit_kind *k = req->kind;
    if (!k || !k->estimate || !k->synthesize || !k->release_abc || !k->free_assignment)
        return cuzk_fail(err, CUZK_E_INVALID_ARG,
                         "job kind must be set with estimate, synthesize, release_abc and free_assignment");
    if (req->num_partitions == 0)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "job num_partitions must be >= 1, got 0");
    if ((unsigned)req->priority >= CUZK_PRIORITY_COUNT)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "job priority %d is not LOW..CRITICAL", (int)req->priority);
    if (req->verify && !req->verify->verify)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "job verify hook has no verify function");
    return CUZK_OK;
}

cuzk_status cuzk_engine_submit(cuzk_engine *e, const cuzk_job_request *req, uint64_t *job_id, cuzk_error *err)
{
    cuzk_status st = check_request(req, err);
    if (st != CUZK_OK)
        return st;
    const cuzk_circuit_kind *k = req->kind;
    cuzk_partition_estimate est = {0};
    st = k->estimate(k->ctx, req->kind_input, &est, err);
    if (st != CUZK_OK)
        return st;
    if (est.total_bytes == 0 || est.abc_bytes > est.total_bytes)
        return cuzk_fail(err, CUZK_E_INVALID_ARG,
                         "kind '%s' estimate is inconsistent: total_bytes %llu, abc_bytes %llu (need 0 < abc <= total)",
                         k->name, (unsigned long long)est.total_bytes, (unsigned long long)est.abc_bytes);
    if (est.total_bytes > e->budget.total)
        return cuzk_fail(err, CUZK_E_NOMEM,
                         "job of kind '%s' can never run: one partition needs %llu bytes but the memory budget "
                         "total ([memory] total_budget) is %llu bytes",
                         k->name, (unsigned long long)est.total_bytes, (unsigned long long)e->budget.total);
    if (est.resident_bytes > e->budget.total - est.total_bytes)
        return cuzk_fail(err, CUZK_E_NOMEM,
                         "job of kind '%s' can never run: one partition needs %llu bytes beside the %llu bytes "
                         "its parameters hold resident, %llu in all, but the memory budget total "
                         "([memory] total_budget) is %llu bytes",
                         k->name, (unsigned long long)est.total_bytes, (unsigned long long)est.resident_bytes,
                         (unsigned long long)(est.total_bytes + est.resident_bytes),
                         (unsigned long long)e->budget.total);

    pthread_mutex_lock(&e->mu);
    if (e->stopping) {
        pthread_mutex_unlock(&e->mu);
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "engine is shutting down; job not accepted");
    }
    cuzk_job *job = cuzk_job_new(e->next_id, req, &est, cuzk_now_ns());
    if (!job) {
        pthread_mutex_unlock(&e->mu);
        return cuzk_fail(err, CUZK_E_NOMEM, "out of memory for a job of %u partitions", req->num_partitions);
    }
    st = cuzk_job_table_append(&e->table, job, err);
    if (st != CUZK_OK) {
        pthread_mutex_unlock(&e->mu);
        cuzk_job_free(job);
        return st;
    }
    e->next_id++;
    e->unsettled_jobs++;
    cuzk_sched_push(&e->sched, &job->sched_node, (int)req->priority);
    /* broadcast, not signal: the job brings num_partitions partitions, and every idle
     * synthesis worker may take one (a signal left all but one asleep until the next submit) */
    pthread_cond_broadcast(&e->work_cv);
    *job_id = job->id;
    pthread_mutex_unlock(&e->mu);
    cuzk_engine_emit(e, CUZK_EV_JOB_SUBMITTED, *job_id, UINT32_MAX, 0, 0, false);
    return CUZK_OK;
}

void cuzk_job_result_free(cuzk_job_result *result)
{
    if (!result)
        return;
    free(result->proofs);
    result->proofs = NULL;
}

static void unlink_settled(cuzk_engine *e, cuzk_job *job)
{
    cuzk_job **link = &e->settled_head, *prev = NULL;
    while (*link && *link != job) {
        prev = *link;
        link = &(*link)->settled_next;
    }
    if (!*link)
        return;
    *link = job->settled_next;
    if (e->settled_tail == job)
        e->settled_tail = prev;
}

cuzk_status cuzk_engine_wait(cuzk_engine *e, uint64_t job_id, int64_t timeout_ms, cuzk_job_result *out,
                             cuzk_error *err)
{
    int64_t deadline = cuzk_deadline_ms(timeout_ms);
    pthread_mutex_lock(&e->mu);
    cuzk_job *job;
    for (;;) {
        job = cuzk_job_table_find(&e->table, job_id);
        if (!job) {
            pthread_mutex_unlock(&e->mu);
            return cuzk_fail(err, CUZK_E_INVALID_ARG, "job %llu is unknown or was already collected",
                             (unsigned long long)job_id);
        }
        if (job->settled)
            break;
        if (!cuzk_cond_wait_until(&e->settle_cv, &e->mu, deadline)) {
            pthread_mutex_unlock(&e->mu);
            return cuzk_fail(err, CUZK_E_TIMEOUT, "job %llu not finished after %lld ms", (unsigned long long)job_id,
                             (long long)timeout_ms);
        }
    }
    memset(out, 0, sizeof *out);
    out->job_id = job->id;
    out->state = job->state;
    out->error = job->error;
    out->num_partitions = job->req.num_partitions;
    out->verified_partitions = job->verified;
    out->timings = cuzk_job_timings_at(job, e->start_ns, cuzk_now_ns());
    if (job->state == CUZK_JOB_DONE) {
        out->proofs = job->proofs;
        job->proofs = NULL;
    }
    if (!job->reported)
        unlink_settled(e, job);
    cuzk_job_table_remove(&e->table, job_id);
    cuzk_budget_wake(&e->budget); /* a partition waiting for room re-judges what can give way */
    pthread_mutex_unlock(&e->mu);
    cuzk_job_free(job);
    return CUZK_OK;
}

cuzk_status cuzk_engine_wait_any(cuzk_engine *e, int64_t timeout_ms, uint64_t *job_id, cuzk_error *err)
{
    int64_t deadline = cuzk_deadline_ms(timeout_ms);
    pthread_mutex_lock(&e->mu);
    while (!e->settled_head) {
        if (e->unsettled_jobs == 0) {
            pthread_mutex_unlock(&e->mu);
            return cuzk_fail(err, CUZK_E_INVALID_ARG, "wait_any: no job is pending");
        }
        if (!cuzk_cond_wait_until(&e->settle_cv, &e->mu, deadline)) {
            pthread_mutex_unlock(&e->mu);
            return cuzk_fail(err, CUZK_E_TIMEOUT, "wait_any: no job finished within %lld ms", (long long)timeout_ms);
        }
    }
    cuzk_job *job = e->settled_head;
    e->settled_head = job->settled_next;
    if (!e->settled_head)
        e->settled_tail = NULL;
    job->reported = true;
    *job_id = job->id;
    pthread_mutex_unlock(&e->mu);
    return CUZK_OK;
}

cuzk_status cuzk_engine_cancel(cuzk_engine *e, uint64_t job_id, cuzk_error *err)
{
    return cuzk_engine_cancel_why(e, job_id, "cancelled by request", NULL, err);
}

cuzk_status cuzk_engine_cancel_why(cuzk_engine *e, uint64_t job_id, const char *reason, cuzk_job_state *was,
                                   cuzk_error *err)
{
    pthread_mutex_lock(&e->mu);
    cuzk_job *job = cuzk_job_table_find(&e->table, job_id);
    if (!job) {
        pthread_mutex_unlock(&e->mu);
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "cancel: job %llu is unknown or was already collected",
                         (unsigned long long)job_id);
    }
    cuzk_job_state state = job->state;
    if (was)
        *was = state;
    bool aborted = cuzk_job_abort_locked(e, job, CUZK_JOB_CANCELLED, CUZK_E_CANCELLED, "%s", reason);
    pthread_mutex_unlock(&e->mu);
    if (!aborted)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "cancel: job %llu already %s", (unsigned long long)job_id,
                         cuzk_job_state_name(state));
    cuzk_job_abort_finish(e, job);
    return CUZK_OK;
}

cuzk_status cuzk_engine_wait_idle(cuzk_engine *e, int64_t timeout_ms, cuzk_error *err)
{
    int64_t deadline = cuzk_deadline_ms(timeout_ms);
    pthread_mutex_lock(&e->mu);
    while (e->unsettled_jobs > 0) {
        if (!cuzk_cond_wait_until(&e->settle_cv, &e->mu, deadline)) {
            uint64_t n = e->unsettled_jobs;
            pthread_mutex_unlock(&e->mu);
            return cuzk_fail(err, CUZK_E_TIMEOUT, "engine not idle after %lld ms: %llu jobs unfinished",
                             (long long)timeout_ms, (unsigned long long)n);
        }
    }
    pthread_mutex_unlock(&e->mu);
    return CUZK_OK;
}
