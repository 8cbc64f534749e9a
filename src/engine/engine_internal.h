/* Engine internals shared by the engine's .c files (not part of the public API).
 *
 * Lock order: engine mu may be held while taking a channel's, the budget's or the
 * semaphore's mutex, never the reverse (their abort predicates only read atomics).
 */
#ifndef CUZK_ENGINE_ENGINE_INTERNAL_H
#define CUZK_ENGINE_ENGINE_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>

#include "common/cancel.h"
#include "engine/budget.h"
#include "engine/channel.h"
#include "engine/counters.h"
#include "engine/engine.h"
#include "engine/job.h"
#include "engine/sched.h"
#include "engine/semaphore.h"

struct cuzk_engine {
    cuzk_engine_config cfg;
    cuzk_backend_caps caps;
    bool backend_attached;    /* backend.attach succeeded: destroy calls backend.detach */
    uint32_t channel_capacity, prover_workers;
    int64_t start_ns;

    pthread_mutex_t mu;
    pthread_cond_t work_cv;   /* synthesis workers: a partition became available / stopping */
    pthread_cond_t settle_cv; /* waiters: a job settled */
    cuzk_sched sched;         /* mu */
    cuzk_job_table table;     /* mu */
    uint64_t next_id;         /* mu */
    cuzk_job *settled_head, *settled_tail; /* mu: settled, not yet reported by wait_any */
    uint64_t unsettled_jobs;  /* mu */
    uint64_t completed_total, failed_total, cancelled_total; /* mu */
    bool stopping;            /* mu */

    cuzk_gauge counters[CUZK_COUNTER_COUNT];
    cuzk_sem permits;
    cuzk_budget budget;
    _Atomic uint64_t partition_reserved; /* budget bytes that partitions hold now */
    cuzk_abc_pool *abc_pool; /* NULL unless cfg.abc_pool */
    cuzk_chan prove_chan;  /* synthesis -> prover workers, bounded */
    cuzk_chan finish_chan; /* prover workers -> finalizers, unbounded */

    pthread_t *synth_threads, *prover_threads, *finalizer_threads;
    struct cuzk_prover_arg *prover_args;
    uint32_t n_synth, n_prover, n_finalizer; /* threads actually started */
};

/* One partition on its way through the pipeline; owned by exactly one stage at a time. */
typedef struct {
    cuzk_chan_node node; /* first member: channel nodes convert back with a cast */
    cuzk_engine *e;
    cuzk_job *job;       /* holds one job reference until retired */
    uint32_t partition;
    void *assignment;    /* from kind.synthesize, until kind.free_assignment */
    void *pending;       /* from backend.prove_start, until backend.prove_finish */
    uint64_t reserved;   /* bytes of the budget this task holds */
} cuzk_task;

/* Emit an event if a hook is configured. */
void cuzk_engine_emit(cuzk_engine *e, cuzk_event_type type, uint64_t job_id, uint32_t partition,
                      uint32_t device, uint64_t bytes, bool accepted);
/* Gauge shortcut. */
static inline void cuzk_engine_count(cuzk_engine *e, cuzk_counter_id id, int64_t delta)
{
    cuzk_gauge_add(&e->counters[id], delta);
}

/* Abort predicate for blocking calls made on behalf of a task (reads job->aborted). */
bool cuzk_task_aborted(void *task);
/* The budget's hope predicate (budget.h cuzk_budget_hope_fn) for the engine: bytes can
 * still be freed while a partition holds a reservation or another job is in the engine
 * (running, or settled and not yet collected, its caller then releasing its caches). */
bool cuzk_engine_budget_hope(void *engine);

/* Return `bytes` of the task's reservation (MEM_RELEASED is emitted first); with the a/b/c
 * pool, bytes of buffers just returned to it become its charge (cuzk_abc_pool_adopt). */
void cuzk_task_release_memory(cuzk_task *t, uint64_t bytes);
/* Drop a task whose job was aborted (or that failed): free its assignment, release its whole
 * reservation, emit PARTITION_DISCARDED and retire it. t->pending must be NULL. */
void cuzk_task_discard(cuzk_task *t);
/* Free the task and drop its job reference. */
void cuzk_task_retire(cuzk_task *t);

/* Take / drop a job reference (mu held for ref; unref locks mu itself). A job settles when it
 * is terminal and its last reference is dropped. */
void cuzk_job_ref_locked(cuzk_job *job);
void cuzk_job_unref(cuzk_engine *e, cuzk_job *job);
/* With mu held: settle `job` if it is terminal and unreferenced. Returns true if it did
 * (the caller emits JOB_SETTLED after unlocking). */
bool cuzk_job_try_settle_locked(cuzk_engine *e, cuzk_job *job);

/* With mu held: move a non-terminal job to `state` (FAILED or CANCELLED) with `code` and the
 * printf message, set job->aborted, drop it from the scheduler, and take a reference for
 * the caller. Returns false (nothing done, no reference) if the job was already terminal.
 * After unlocking, the caller must call cuzk_job_abort_finish. */
bool cuzk_job_abort_locked(cuzk_engine *e, cuzk_job *job, cuzk_job_state state, cuzk_status code,
                           const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Without mu: free the job's tasks still in the prover channel, wake blocked waits so they
 * see the abort, and drop the reference taken by cuzk_job_abort_locked. */
void cuzk_job_abort_finish(cuzk_engine *e, cuzk_job *job);
/* Convenience: lock, abort_locked, unlock, abort_finish. */
void cuzk_job_fail(cuzk_engine *e, cuzk_job *job, cuzk_status code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Thread bodies (arg = cuzk_engine *; the prover worker takes a cuzk_prover_arg *). */
void *cuzk_synth_worker_main(void *arg);
typedef struct cuzk_prover_arg {
    cuzk_engine *e;
    uint32_t index, device;
    /* mu: the partition inside prove_start (busy), for cuzk_engine_status_get */
    bool busy;
    uint64_t job_id;
    uint32_t partition;
    const char *kind_name;
} cuzk_prover_arg;
void *cuzk_prover_worker_main(void *arg);
void *cuzk_finalizer_main(void *arg);
/* Finish one task handed over by a prover worker (used by finalizer threads). */
void cuzk_finalize_task(cuzk_task *t);

/* Log the flight counters at DEBUG level. */
void cuzk_engine_log_counters(cuzk_engine *e, const char *what, uint64_t job_id, uint32_t partition);

#endif
