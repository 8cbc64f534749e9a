#include "engine/job.h"

#include <stdlib.h>
#include <string.h>

void cuzk_job_table_init(cuzk_job_table *t)
{
    t->items = NULL;
    t->len = t->cap = 0;
}

void cuzk_job_table_free(cuzk_job_table *t)
{
    free(t->items);
    cuzk_job_table_init(t);
}

cuzk_status cuzk_job_table_append(cuzk_job_table *t, cuzk_job *job, cuzk_error *err)
{
    if (t->len == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        cuzk_job **items = realloc(t->items, cap * sizeof *items);
        if (!items)
            return cuzk_fail(err, CUZK_E_NOMEM, "job table: cannot grow to %zu entries", cap);
        t->items = items;
        t->cap = cap;
    }
    t->items[t->len++] = job;
    return CUZK_OK;
}

static size_t lower_bound(const cuzk_job_table *t, uint64_t id)
{
    size_t lo = 0, hi = t->len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->items[mid]->id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

cuzk_job *cuzk_job_table_find(const cuzk_job_table *t, uint64_t id)
{
    size_t i = lower_bound(t, id);
    return i < t->len && t->items[i]->id == id ? t->items[i] : NULL;
}

void cuzk_job_table_remove(cuzk_job_table *t, uint64_t id)
{
    size_t i = lower_bound(t, id);
    if (i < t->len && t->items[i]->id == id) {
        memmove(&t->items[i], &t->items[i + 1], (t->len - i - 1) * sizeof t->items[0]);
        t->len--;
    }
}

cuzk_job *cuzk_job_new(uint64_t id, const cuzk_job_request *req, const cuzk_partition_estimate *est,
                       int64_t now_ns)
{
    cuzk_job *job = calloc(1, sizeof *job);
    if (!job)
        return NULL;
    job->proofs = malloc((size_t)req->num_partitions * CUZK_PROOF_BYTES);
    if (!job->proofs) {
        free(job);
        return NULL;
    }
    job->id = id;
    job->req = *req;
    job->est = *est;
    atomic_init(&job->aborted, false);
    job->state = CUZK_JOB_QUEUED;
    job->error.code = CUZK_OK;
    job->submitted_ns = now_ns;
    job->started_ns = -1;
    job->finished_ns = -1;
    atomic_init(&job->synth_ns, 0);
    atomic_init(&job->prove_ns, 0);
    atomic_init(&job->finish_ns, 0);
    return job;
}

void cuzk_job_free(cuzk_job *job)
{
    if (!job)
        return;
    free(job->proofs);
    free(job);
}

cuzk_job_timings cuzk_job_timings_at(const cuzk_job *job, int64_t epoch_ns, int64_t now_ns)
{
    const double ms = 1e-6;
    cuzk_job_timings t;
    int64_t end = job->finished_ns >= 0 ? job->finished_ns : now_ns;
    int64_t start = job->started_ns >= 0 ? job->started_ns : end;
    t.submitted_at_ms = (double)(job->submitted_ns - epoch_ns) * ms;
    t.started_at_ms = job->started_ns >= 0 ? (double)(job->started_ns - epoch_ns) * ms : -1.0;
    t.finished_at_ms = job->finished_ns >= 0 ? (double)(job->finished_ns - epoch_ns) * ms : -1.0;
    t.queue_wait_ms = (double)(start - job->submitted_ns) * ms;
    t.total_ms = (double)(end - job->submitted_ns) * ms;
    t.synthesis_ms = (double)atomic_load((_Atomic int64_t *)&job->synth_ns) * ms;
    t.prove_ms = (double)atomic_load((_Atomic int64_t *)&job->prove_ns) * ms;
    t.finish_ms = (double)atomic_load((_Atomic int64_t *)&job->finish_ns) * ms;
    return t;
}
