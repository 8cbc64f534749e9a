/* cuzk proving engine: many multi-partition proofs in flight, synthesis overlapped with
 * proving, memory bounded by construction (issue 3; docs/engine.md#job-lifecycle).
 *
 * A job is one proof request of a circuit kind (kind.h) with N partitions; its result is
 * the N partition proofs (192 bytes each, in partition order) or an error. The engine knows
 * no crypto: circuits come in through cuzk_circuit_kind, proving through
 * cuzk_prover_backend (backend.h).
 *
 * Pipeline and threads
 *   submit -> scheduler (CRITICAL > HIGH > NORMAL > LOW, FIFO within a priority)
 *   -> synthesis pool: partition_workers threads; each picks the next partition of the
 *      highest-priority job, reserves its estimated working set from the memory budget
 *      (FIFO; a partition that can never fit fails the job at submit), takes one of
 *      partition_workers permits, synthesizes, sends to the prover channel and only then
 *      returns the permit
 *   -> prover channel: bounded, capacity max(synthesis_lookahead, partition_workers),
 *      ordered by (priority, job, partition)
 *   -> prover workers: num_devices x gpu_workers_per_device threads; prove_start, then
 *      release a/b/c and their share of the reservation at once, hand the pending handle
 *      to the finalizer queue and loop
 *   -> finalizer pool: finalizer_threads threads; prove_finish, free the assignment,
 *      release the rest of the reservation, optional verify hook, store the proof.
 *
 * Ownership of buffers across each pool boundary
 *   caller -> engine (submit): the request struct is copied; kind_input, params, the kind,
 *       the backend and the verify hook are BORROWED and must stay valid until
 *       cuzk_engine_wait has returned for that job (or the engine is destroyed).
 *   scheduler -> synthesis pool: a partition task (engine-internal) is created when a
 *       synthesis worker picks the partition; the worker owns it and its budget reservation.
 *   kind.synthesize -> synthesis worker: the new assignment (a/b/c + witness) is owned by
 *       the task; counted in SYNTHESIZING, then AWAITING_SEND, while the permit is held.
 *   synthesis worker -> prover channel: on a successful send the channel owns the task
 *       (QUEUED); the permit is returned only after that. A failed send (job aborted)
 *       leaves it with the worker, which frees the assignment and releases the reservation.
 *   prover channel -> prover worker: recv transfers the task (PROVING during prove_start).
 *       The kind keeps owning a/b/c; when the backend reports them done with (backend.h,
 *       prove_start's release callback), at the latest when prove_start returns, the
 *       engine calls kind.release_abc once and releases estimate.abc_bytes of the
 *       reservation (and of PROVING_BYTES) at that moment; the witness stays with the task.
 *   prover worker -> finalizer queue: the task now also owns the backend's pending handle
 *       (PENDING_FINISH). prove_finish consumes the handle; the finalizer then calls
 *       kind.free_assignment and releases total_bytes - abc_bytes.
 *   finalizer -> job: the 192-byte proof is copied into the job's result buffer.
 *   engine -> caller (wait): cuzk_job_result.proofs is malloc'd and owned by the caller
 *       (cuzk_job_result_free).
 *   Cancel or failure: queued partitions are dropped from the scheduler; tasks in the prover
 *       channel are removed and freed at once; a task blocked on the budget, a permit or the
 *       channel gives up; a running synthesis sees `cancel` (and, bound to its thread, the cs
 *       layer every 65536 variables); a running prove_start or prove_finish sees the job's
 *       flag bound to its thread (common/cancel.h) before every MSM work unit and ends with
 *       CUZK_E_CANCELLED; a pending handle is still finished (and the proof dropped), so
 *       every assignment, pending handle, permit and reserved byte is released exactly once.
 *
 * Thread-safety: every cuzk_engine_* call may be made from any thread concurrently, except
 * cuzk_engine_destroy, which must be the last call. Event hooks run on engine threads.
 */
#ifndef CUZK_ENGINE_ENGINE_H
#define CUZK_ENGINE_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/status.h"
#include "engine/abc_pool.h"
#include "engine/backend.h"
#include "engine/budget.h"
#include "engine/counters.h"
#include "engine/kind.h"

typedef enum {
    CUZK_PRIORITY_LOW = 0,
    CUZK_PRIORITY_NORMAL = 1,
    CUZK_PRIORITY_HIGH = 2,
    CUZK_PRIORITY_CRITICAL = 3,
    CUZK_PRIORITY_COUNT
} cuzk_priority;

typedef enum {
    CUZK_JOB_QUEUED = 0, /* no partition dispatched yet */
    CUZK_JOB_RUNNING,    /* at least one partition dispatched */
    CUZK_JOB_DONE,       /* all proofs present */
    CUZK_JOB_FAILED,     /* error recorded in the result */
    CUZK_JOB_CANCELLED,
} cuzk_job_state;

/* "low", "normal", "high", "critical"; "queued", "running", "done", "failed", "cancelled". */
const char *cuzk_priority_name(cuzk_priority p);
const char *cuzk_job_state_name(cuzk_job_state s);

/* Pipeline events, for instrumentation (TIMELINE-style logs, progress bars, tests). */
typedef enum {
    CUZK_EV_JOB_SUBMITTED = 0, /* emitted by submit after queuing: may follow the job's first events */
    CUZK_EV_MEM_ACQUIRED,    /* bytes = reservation just taken (emitted after taking it) */
    CUZK_EV_SYNTH_START,     /* emitted after the permit was taken */
    CUZK_EV_SYNTH_END,       /* synthesis succeeded; emitted before the channel send */
    CUZK_EV_PERMIT_RELEASED, /* emitted before the permit is returned; accepted = sent */
    CUZK_EV_PROVE_START,     /* device = the worker's device */
    CUZK_EV_PROVE_END,       /* prove_start returned OK (a/b/c were released before) */
    CUZK_EV_FINISH_END,      /* prove_finish returned OK */
    CUZK_EV_MEM_RELEASED,    /* bytes = share about to be released (emitted before release) */
    CUZK_EV_PARTITION_DISCARDED, /* dropped because its job was cancelled/failed */
    CUZK_EV_JOB_SETTLED,     /* job terminal and no engine thread references it any more */
} cuzk_event_type;

typedef struct {
    cuzk_event_type type;
    uint64_t job_id;
    uint32_t partition; /* UINT32_MAX for job-level events */
    uint32_t device;    /* PROVE_START only */
    uint64_t bytes;     /* MEM_* only */
    bool accepted;      /* PERMIT_RELEASED only */
    double t_ms;        /* ms since the engine was created */
} cuzk_engine_event;

/* Called synchronously on the engine thread that made the transition; must be fast, must
 * not block and must not call any cuzk_engine_* function except cuzk_engine_counters. */
typedef void (*cuzk_engine_event_fn)(void *ctx, const cuzk_engine_event *ev);

/* Upper bounds of the thread and queue settings. They are far above any useful value (a host
 * has at most a few hundred cores and a handful of GPUs) and exist so that a typo such as
 * partition_workers = 100000000 fails at once with CUZK_E_INVALID_ARG naming the field,
 * instead of spending seconds starting threads until pthread_create fails. */
#define CUZK_ENGINE_MAX_PARTITION_WORKERS 4096u
#define CUZK_ENGINE_MAX_SYNTHESIS_LOOKAHEAD 65536u
/* Unlike the others, this one is a real limit: the GPU backend has this many worker slots
 * (one queue and pinned staging each) a device (backends/gpu_internal.h GPU_MAX_SLOTS), and
 * the daemon's [gpus] gpu_workers_per_device and cuzk-bench batch --gpu-workers accept
 * 1..this. */
#define CUZK_ENGINE_MAX_GPU_WORKERS_PER_DEVICE 64u
#define CUZK_ENGINE_MAX_FINALIZER_THREADS 256u
/* num_devices (from the backend) x gpu_workers_per_device */
#define CUZK_ENGINE_MAX_PROVER_WORKERS 4096u

typedef struct {
    uint32_t partition_workers;      /* 1..CUZK_ENGINE_MAX_PARTITION_WORKERS: synthesis threads and permits */
    uint32_t synthesis_lookahead;    /* 0..CUZK_ENGINE_MAX_SYNTHESIS_LOOKAHEAD: channel capacity =
                                        max(this, partition_workers) */
    uint32_t gpu_workers_per_device; /* 1..CUZK_ENGINE_MAX_GPU_WORKERS_PER_DEVICE */
    uint32_t finalizer_threads;      /* 1..CUZK_ENGINE_MAX_FINALIZER_THREADS */
    bool memory_budget_auto;         /* true: MemTotal - safety_margin */
    uint64_t memory_budget_bytes;    /* used when !memory_budget_auto (no margin subtracted) */
    uint64_t safety_margin_bytes;    /* auto mode only */
    const char *meminfo_path;        /* NULL = /proc/meminfo (tests point it at a fixture) */
    bool abc_pool;                   /* partition a/b/c from a reused buffer pool (abc_pool.h) */
    cuzk_abc_pool_config abc_pool_cfg; /* used when abc_pool */
    const cuzk_prover_backend *backend; /* required, borrowed for the engine's lifetime */
    cuzk_engine_event_fn on_event;   /* optional */
    void *event_ctx;
} cuzk_engine_config;

/* Defaults: partition_workers 2, synthesis_lookahead 1, gpu_workers_per_device 1,
 * finalizer_threads 2, memory auto with a 5 GiB safety margin, no a/b/c pool (its config
 * at cuzk_abc_pool_config_default), no backend, no hook. */
void cuzk_engine_config_default(cuzk_engine_config *cfg);

typedef struct cuzk_engine cuzk_engine;

/* The engine's a/b/c pool (NULL when config abc_pool is off): kinds take their partition
 * buffers from it (src/kinds/) and a backend may set its pinning hooks on it. Valid
 * until cuzk_engine_destroy. */
cuzk_abc_pool *cuzk_engine_abc_pool(cuzk_engine *e);

/* Create the engine and start its threads. Errors: CUZK_E_INVALID_ARG naming the config
 * field and value (a setting outside the ranges above, no backend, a backend with 0 devices
 * or with num_devices x gpu_workers_per_device > CUZK_ENGINE_MAX_PROVER_WORKERS), errors of
 * the budget resolution (budget.h) and of backend.capabilities, CUZK_E_NOMEM for allocation
 * failures, CUZK_E_INTERNAL when a thread cannot be started (naming the pool, the setting
 * and the system error; the threads already started are stopped and joined). */
cuzk_status cuzk_engine_create(const cuzk_engine_config *cfg, cuzk_engine **out, cuzk_error *err);

/* Cancel every job that is not finished, stop and join all threads, free everything.
 * Results not collected with cuzk_engine_wait are discarded. NULL is a no-op. */
void cuzk_engine_destroy(cuzk_engine *e);

typedef struct {
    const cuzk_circuit_kind *kind; /* required */
    const void *kind_input;        /* passed to kind functions and the verify hook */
    const void *params;            /* passed to backend.prove_start and the verify hook */
    uint32_t num_partitions;       /* >= 1 */
    cuzk_priority priority;
    const cuzk_verify_hook *verify; /* optional: verify every partition proof before accepting it */
} cuzk_job_request;

/* Queue a job; *job_id receives its id (>= 1, unique per engine). Errors:
 * CUZK_E_INVALID_ARG (missing kind/function, 0 partitions, bad priority, engine stopping),
 * the kind's estimate error, CUZK_E_NOMEM when one partition's estimated working set can
 * never fit in the memory budget (fails at once instead of waiting forever). */
cuzk_status cuzk_engine_submit(cuzk_engine *e, const cuzk_job_request *req, uint64_t *job_id,
                               cuzk_error *err);

/* Times of one job, in milliseconds. *_at_ms are since engine creation (started_at_ms and
 * finished_at_ms are -1 until they happen). synthesis/prove/finish are summed over the
 * job's partitions (time inside kind.synthesize, prove_start, prove_finish + verify);
 * queue_wait = started - submitted (or now - submitted while queued); total = finished -
 * submitted (or now - submitted while not finished). */
typedef struct {
    double queue_wait_ms, synthesis_ms, prove_ms, finish_ms, total_ms;
    double submitted_at_ms, started_at_ms, finished_at_ms;
} cuzk_job_timings;

typedef struct {
    uint64_t job_id;
    cuzk_job_state state;    /* DONE, FAILED or CANCELLED */
    cuzk_error error;        /* code CUZK_OK when DONE */
    uint32_t num_partitions;
    uint32_t verified_partitions; /* proofs checked by the verify hook (0 without one) */
    uint8_t *proofs;         /* DONE: num_partitions * CUZK_PROOF_BYTES, partition order; else NULL */
    cuzk_job_timings timings;
} cuzk_job_result;

/* Free result->proofs and clear it. NULL is a no-op. */
void cuzk_job_result_free(cuzk_job_result *result);

/* Block until job `job_id` is settled (terminal and no engine thread references its
 * inputs any more), fill *out and forget the job (a second wait for it fails). timeout_ms
 * < 0 waits forever. Returns CUZK_OK when *out was filled (look at out->state; a failed
 * job's error is in out->error), CUZK_E_TIMEOUT, or CUZK_E_INVALID_ARG for an unknown
 * (or already collected) id. */
cuzk_status cuzk_engine_wait(cuzk_engine *e, uint64_t job_id, int64_t timeout_ms, cuzk_job_result *out,
                             cuzk_error *err);

/* Block until some job is settled and not yet reported by wait_any; store its id (in
 * settling order) without collecting it; collect it with cuzk_engine_wait. Errors:
 * CUZK_E_TIMEOUT; CUZK_E_INVALID_ARG when no job is pending at all (nothing to wait for). */
cuzk_status cuzk_engine_wait_any(cuzk_engine *e, int64_t timeout_ms, uint64_t *job_id, cuzk_error *err);

/* Cancel a queued or running job: it becomes CANCELLED at once, its buffers and permits are
 * released as described above. Errors: CUZK_E_INVALID_ARG for an unknown id or a job that
 * already finished (its state is unchanged). */
cuzk_status cuzk_engine_cancel(cuzk_engine *e, uint64_t job_id, cuzk_error *err);
/* cuzk_engine_cancel with `reason` as the job's error message (cuzk_engine_cancel's is
 * "cancelled by request"; the daemon's drain says "cancelled by shutdown"). When `was` is
 * not NULL it receives the job's state just before the cancel, whether or not it
 * succeeded (RUNNING once a synthesis worker took any of its partitions, even one still
 * waiting for memory budget or a permit; QUEUED before). */
cuzk_status cuzk_engine_cancel_why(cuzk_engine *e, uint64_t job_id, const char *reason, cuzk_job_state *was,
                                   cuzk_error *err);

/* Block until no job is queued or running and no partition is anywhere in the pipeline
 * (all flight counters are then 0). Errors: CUZK_E_TIMEOUT. */
cuzk_status cuzk_engine_wait_idle(cuzk_engine *e, int64_t timeout_ms, cuzk_error *err);

/* Lock-free read of every flight counter into out[CUZK_COUNTER_COUNT] (index =
 * cuzk_counter_id). Safe inside an event hook. */
void cuzk_engine_counters(const cuzk_engine *e, cuzk_counter_value out[CUZK_COUNTER_COUNT]);

/* The engine's memory budget, for caches outside the engine that charge what they keep
 * resident to the same total (e.g. a kind's pre-compiled circuits and proving parameters): they reserve with
 * cuzk_budget_try_acquire (never waiting) or cuzk_budget_acquire and release what they
 * free. Valid until cuzk_engine_destroy; thread-safe as budget.h. */
cuzk_budget *cuzk_engine_budget(cuzk_engine *e);

/* Jobs of one (kind, priority) that are not finished. */
typedef struct {
    const char *kind_name; /* borrowed from the kind */
    cuzk_priority priority;
    uint32_t queued_jobs, running_jobs;
    uint64_t partitions_waiting; /* partitions not yet dispatched to synthesis */
} cuzk_queue_depth;

typedef struct {
    uint64_t job_id;
    const char *kind_name; /* borrowed from the kind */
    cuzk_priority priority;
    cuzk_job_state state;
    uint32_t num_partitions, partitions_dispatched, partitions_proved;
    cuzk_job_timings timings;
} cuzk_job_status;

/* What one prover worker is doing: the partition inside its backend.prove_start, if any.
 * Set by the worker under the engine lock just before prove_start and cleared just after,
 * so it agrees with the snapshot's jobs (a busy worker's job is in `jobs`). */
typedef struct {
    uint32_t index;        /* 0 .. prover_workers-1; workers of device d are d*gw .. d*gw+gw-1 */
    uint32_t device;       /* backend device the worker proves on */
    bool busy;             /* inside prove_start */
    uint64_t job_id;       /* engine job id when busy, 0 when idle (ids start at 1) */
    uint32_t partition;    /* partition index when busy, 0 when idle */
    const char *kind_name; /* borrowed from the job's kind when busy, NULL when idle */
} cuzk_prover_worker_status;

typedef struct {
    cuzk_queue_depth *queues; /* one entry per (kind, priority) with unfinished jobs */
    size_t num_queues;
    cuzk_job_status *jobs; /* every job not yet collected, by id */
    size_t num_jobs;
    cuzk_prover_worker_status *workers; /* one per prover worker, by index (prover_workers) */
    size_t num_workers;
    cuzk_counter_value counters[CUZK_COUNTER_COUNT];
    uint64_t memory_budget_bytes, memory_used_bytes;
    uint64_t completed_total, failed_total, cancelled_total;
    uint32_t partition_workers, channel_capacity, prover_workers, finalizer_threads, num_devices;
    double uptime_ms;
} cuzk_engine_status;

/* Snapshot of the engine (jobs, queues, prover workers and totals are one consistent
 * snapshot taken under the engine lock; counters are read just after). The arrays are malloc'd: free with cuzk_engine_status_free. Errors:
 * CUZK_E_NOMEM. */
cuzk_status cuzk_engine_status_get(cuzk_engine *e, cuzk_engine_status *out, cuzk_error *err);
void cuzk_engine_status_free(cuzk_engine_status *st);

#endif
