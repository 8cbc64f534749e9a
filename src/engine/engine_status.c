/* Status snapshot and counters (engine.h). */
#include <stdlib.h>
#include <string.h>

#include "engine/engine_internal.h"

cuzk_budget *cuzk_engine_budget(cuzk_engine *e) { return &e->budget; }

void cuzk_engine_counters(const cuzk_engine *e, cuzk_counter_value out[CUZK_COUNTER_COUNT])
{
    for (int i = 0; i < CUZK_COUNTER_COUNT; i++)
        out[i] = cuzk_gauge_read(&e->counters[i]);
}

/* The queue entry for (kind name, priority), appended if new. `queues` has room for one
 * entry per job, so appending never overflows. */
static cuzk_queue_depth *queue_entry(cuzk_queue_depth *queues, size_t *n, const char *kind_name,
                                     cuzk_priority prio)
{
    for (size_t i = 0; i < *n; i++)
        if (queues[i].priority == prio && strcmp(queues[i].kind_name, kind_name) == 0)
            return &queues[i];
    cuzk_queue_depth *q = &queues[(*n)++];
    memset(q, 0, sizeof *q);
    q->kind_name = kind_name;
    q->priority = prio;
    return q;
}

cuzk_status cuzk_engine_status_get(cuzk_engine *e, cuzk_engine_status *out, cuzk_error *err)
{
    memset(out, 0, sizeof *out);
    const size_t nw = e->prover_workers;
    out->workers = calloc(nw ? nw : 1, sizeof *out->workers);
    pthread_mutex_lock(&e->mu);
    size_t n = e->table.len;
    out->jobs = calloc(n ? n : 1, sizeof *out->jobs);
    out->queues = calloc(n ? n : 1, sizeof *out->queues);
    if (!out->jobs || !out->queues || !out->workers) {
        pthread_mutex_unlock(&e->mu);
        cuzk_engine_status_free(out);
        return cuzk_fail(err, CUZK_E_NOMEM, "status: out of memory for %zu jobs and %zu prover workers", n, nw);
    }
    int64_t now = cuzk_now_ns();
    for (size_t i = 0; i < n; i++) {
        const cuzk_job *job = e->table.items[i];
        const char *kind_name = job->req.kind->name ? job->req.kind->name : "";
        cuzk_job_status *js = &out->jobs[i];
        js->job_id = job->id;
        js->kind_name = kind_name;
        js->priority = job->req.priority;
        js->state = job->state;
        js->num_partitions = job->req.num_partitions;
        js->partitions_dispatched = job->next_partition;
        js->partitions_proved = job->partitions_proved;
        js->timings = cuzk_job_timings_at(job, e->start_ns, now);
        if (job->state >= CUZK_JOB_DONE)
            continue;
        cuzk_queue_depth *q = queue_entry(out->queues, &out->num_queues, kind_name, job->req.priority);
        if (job->state == CUZK_JOB_QUEUED)
            q->queued_jobs++;
        else
            q->running_jobs++;
        q->partitions_waiting += job->req.num_partitions - job->next_partition;
    }
    out->num_jobs = n;
    for (size_t i = 0; i < nw; i++) {
        const cuzk_prover_arg *a = &e->prover_args[i];
        out->workers[i] = (cuzk_prover_worker_status){
            .index = a->index,
            .device = a->device,
            .busy = a->busy,
            .job_id = a->job_id,
            .partition = a->partition,
            .kind_name = a->kind_name,
        };
    }
    out->num_workers = nw;
    out->completed_total = e->completed_total;
    out->failed_total = e->failed_total;
    out->cancelled_total = e->cancelled_total;
    pthread_mutex_unlock(&e->mu);

    cuzk_engine_counters(e, out->counters);
    out->memory_budget_bytes = e->budget.total;
    out->memory_used_bytes = cuzk_budget_used(&e->budget);
    out->partition_workers = e->cfg.partition_workers;
    out->channel_capacity = e->channel_capacity;
    out->prover_workers = e->prover_workers;
    out->finalizer_threads = e->cfg.finalizer_threads;
    out->num_devices = e->caps.num_devices;
    out->uptime_ms = (double)(now - e->start_ns) * 1e-6;
    return CUZK_OK;
}

void cuzk_engine_status_free(cuzk_engine_status *st)
{
    if (!st)
        return;
    free(st->jobs);
    free(st->queues);
    free(st->workers);
    st->jobs = NULL;
    st->queues = NULL;
    st->workers = NULL;
    st->num_jobs = st->num_queues = st->num_workers = 0;
}
