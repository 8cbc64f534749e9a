/* Engine-internal job record and the job table (jobs by id).
 *
 * A job lives in the table from submit until cuzk_engine_wait collects it. Fields marked
 * "mu" are guarded by the engine mutex; the atomics are updated by pipeline threads.
 * Not part of the public API.
 */
#ifndef CUZK_ENGINE_JOB_H
#define CUZK_ENGINE_JOB_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"
#include "engine/sched.h"

typedef struct cuzk_job {
    uint64_t id;
    cuzk_job_request req;         /* copy; pointed-to data borrowed from the caller */
    cuzk_partition_estimate est;  /* per partition, from kind.estimate at submit */
    cuzk_sched_node sched_node;   /* mu: linked while partitions remain to dispatch */
    atomic_bool aborted;          /* set (under mu) when the job is cancelled or fails */

    cuzk_job_state state;         /* mu */
    cuzk_error error;             /* mu: first failure */
    uint32_t next_partition;      /* mu: next partition to dispatch */
    uint32_t partitions_proved;   /* mu */
    uint32_t verified;            /* mu */
    uint32_t refs;                /* mu: engine threads still referencing the job */
    uint8_t *proofs;              /* mu: num_partitions * CUZK_PROOF_BYTES */
    bool settled;                 /* mu: terminal and refs == 0 */
    bool reported;                /* mu: returned by wait_any */
    struct cuzk_job *settled_next; /* mu: FIFO of settled, unreported jobs */

    int64_t submitted_ns;         /* fixed at submit */
    int64_t started_ns;           /* mu: first dispatch, -1 before */
    int64_t finished_ns;          /* mu: terminal transition, -1 before */
    _Atomic int64_t synth_ns, prove_ns, finish_ns; /* summed over partitions */
} cuzk_job;

/* Sorted array of jobs by id (ids only grow, so insert appends). Not thread-safe. */
typedef struct {
    cuzk_job **items;
    size_t len, cap;
} cuzk_job_table;

void cuzk_job_table_init(cuzk_job_table *t);
void cuzk_job_table_free(cuzk_job_table *t); /* frees the array, not the jobs */
/* Append a job whose id is larger than every id present. Errors: CUZK_E_NOMEM. */
cuzk_status cuzk_job_table_append(cuzk_job_table *t, cuzk_job *job, cuzk_error *err);
/* The job with `id`, or NULL. O(log n). */
cuzk_job *cuzk_job_table_find(const cuzk_job_table *t, uint64_t id);
/* Remove the job with `id` if present. */
void cuzk_job_table_remove(cuzk_job_table *t, uint64_t id);

/* Allocate a job for `req` (proofs buffer included). Returns NULL on allocation failure. */
cuzk_job *cuzk_job_new(uint64_t id, const cuzk_job_request *req, const cuzk_partition_estimate *est,
                       int64_t now_ns);
void cuzk_job_free(cuzk_job *job);

/* Timings of `job` as of `now_ns`, relative to the engine start `epoch_ns` (mu held). */
cuzk_job_timings cuzk_job_timings_at(const cuzk_job *job, int64_t epoch_ns, int64_t now_ns);

#endif
