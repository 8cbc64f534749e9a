/* Internals shared by the service's files: service.c (job table, collector, submit / await /
 * cancel), service_job_circuit.c and service_job_filecoin.c (one request family each, behind
 * svc_job_ops), service_srs.c (PreloadSRS / EvictSRS), service_status.c (status, metrics,
 * JSON) and service_journal.c (replay). */
#ifndef CUZK_SERVER_SERVICE_INTERNAL_H
#define CUZK_SERVER_SERVICE_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>

#include "engine/engine.h"
#include "kinds/filecoin/fc_job.h"
#include "prover/stack.h"
#include "server/circuit_registry.h"
#include "server/journal.h"
#include "server/metrics.h"
#include "server/service.h"

typedef enum {
    JOB_SUBMITTING = 0, /* registered under its id; circuit/witness/engine submit in progress */
    JOB_ACTIVE,         /* in the engine */
    JOB_FINISHED,       /* result stored */
} svc_job_phase;

typedef struct svc_job svc_job;

/* What one request family (a proof_kind) does to a job; svc_job_ops_for picks the table.
 * The service calls the functions in this order: check (no job yet, no lock), kind_name,
 * prepare (job SUBMITTING, mu not held), engine_request (after a successful prepare), and
 * release once (the job settled or its submission failed; mu may be held). */
typedef struct svc_job_ops {
    const char *name; /* "circuit", "filecoin": logs */
    /* Validation of `req` that needs no job (the family's fields, names that must exist). */
    cuzk_rpc_status (*check)(cuzk_service *s, const Cuzk__V1__SubmitProofRequest *req);
    /* The kind name jobs record (metrics, queue label, the request_id/kind check): the
     * Filecoin kind ("porep-c2") or the circuit's name; "" when the request names none. */
    void (*kind_name)(const Cuzk__V1__SubmitProofRequest *req, char *out, size_t cap);
    /* Bind `req` to `job`: load its parameters / circuit, parse its input into job->src, and
     * set num_partitions and srs_load_ms. On failure job->src may be partly built
     * (release frees it). */
    cuzk_rpc_status (*prepare)(cuzk_service *s, svc_job *job, const Cuzk__V1__SubmitProofRequest *req);
    /* The engine request of a prepared job (kind, input, parameters, partitions, priority,
     * verify hook); everything it points to lives in job->src until release. */
    cuzk_job_request (*engine_request)(const svc_job *job, const Cuzk__V1__SubmitProofRequest *req);
    /* Give back what prepare took (circuit reference, parameters, inputs); job->src is NULL
     * afterwards. Idempotent. */
    void (*release)(cuzk_service *s, svc_job *job);
} svc_job_ops;

extern const svc_job_ops svc_job_circuit_ops;  /* CIRCUIT: circom r1cs + synthetic (service_job_circuit.c) */
extern const svc_job_ops svc_job_filecoin_ops; /* the four Filecoin kinds (service_job_filecoin.c) */

/* The family of a proof_kind, or NULL for 0 / unknown values. */
const svc_job_ops *svc_job_ops_for(int proof_kind);

struct svc_job {
    char *id;
    struct svc_job *hnext;           /* hash chain */
    struct svc_job *fnext;           /* finished list, in finishing order */
    svc_job_phase phase;
    bool cancel_requested;           /* CancelProof arrived while SUBMITTING */
    bool dropped;                    /* SUBMITTING failed: unlinked, freed once waiters == 0 */
    bool superseded;                 /* FINISHED, CANCELLED/FAILED, its id resubmitted: unlinked, pruned without
                                        touching the journal (the id's entries are the new job's) */
    uint64_t engine_id;
    char kind_name[64];              /* circuit name or Filecoin kind ("porep-c2"): metrics / queue label */
    const svc_job_ops *ops;          /* the family; NULL for replayed results */
    void *src;                       /* the family's source (circuit + inputs, or the Filecoin job), held while in
                                        the engine, freed by ops->release */
    uint32_t num_partitions;
    uint64_t srs_load_ms;            /* parameters / circuit loaded by this submission (0: resident) */
    /* result (FINISHED) */
    Cuzk__V1__AwaitProofResponse__Status status;
    uint8_t *proof;
    size_t proof_len;
    char *error;
    cuzk_job_timings timings;
    uint32_t verified;
    double finished_at_ms;
    uint32_t waiters;
};

/* Per engine job: partitions past each stage boundary, fed by the engine event hook. */
typedef struct svc_stage {
    uint64_t engine_id;
    uint32_t synth_started, synth_ended, prove_ended;
    struct svc_stage *next;
} svc_stage;

#define SVC_HASH 1024
#define SVC_STAGE_HASH 256

struct cuzk_service {
    prover_stack *stack;             /* the prover backend ([gpus]), the engine, the parameter manager over
                                        its budget (every circuit's parameters), the Filecoin parameters
                                        ([srs]) and PCEs ([srs] pce; NULL when off): prover/stack.h */
    cuzk_engine *engine;             /* prover_stack_engine(stack), borrowed */
    cuzk_registry *registry;         /* the manager's "circuit" provider ([[circuits]], synthetic-<k>),
                                        added to the stack by the service */
    uint64_t retention_ms;
    uint32_t max_jobs;
    cuzk_pce_mode pce_mode;          /* [srs] pce: which Filecoin jobs use the stack's PCEs */
    cuzk_journal *journal;           /* [daemon] journal_dir, or NULL */
    bool draining;                   /* drain cancels jobs: they stay in the journal to run again */

    pthread_mutex_t mu;              /* jobs, counters, metrics */
    pthread_cond_t cv;               /* any job phase change / result */
    svc_job *table[SVC_HASH];
    svc_job *fin_head, *fin_tail;    /* finished jobs, oldest first (pruning) */
    svc_job **active;                /* jobs in the engine */
    size_t n_active, cap_active;
    size_t n_submitting;
    uint64_t n_retained;
    uint64_t completed, failed, cancelled;
    cuzk_metrics metrics;
    bool accepting, stopping;
    pthread_t collector;
    double start_ms;

    pthread_mutex_t stage_mu;        /* stage table (engine event hook) */
    svc_stage *stages[SVC_STAGE_HASH];
};

double svc_now_ms(void);
/* The OK outcome, and a failure with a printf-formatted message (truncated to msg's size). */
cuzk_rpc_status svc_ok(void);
cuzk_rpc_status svc_fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* cuzk.v1.Priority to the engine's (0 and unknown values: NORMAL). */
cuzk_priority svc_map_priority(int p);
/* A Filecoin job-creation error as a gRPC status: bad input is INVALID_ARGUMENT, missing
 * parameters (CUZK_E_IO) FAILED_PRECONDITION (the request is fine, the daemon is not set up
 * for it), CUZK_E_NOMEM RESOURCE_EXHAUSTED, CUZK_E_INTERNAL INTERNAL, CUZK_E_CANCELLED
 * CANCELLED (service_job_filecoin.c). */
int svc_fc_status_code(cuzk_status st);
/* A parameter manager error (loading, charging, evicting) as a gRPC status: an unknown id
 * (CUZK_E_UNSUPPORTED) NOT_FOUND, missing or unusable files (CUZK_E_IO) FAILED_PRECONDITION,
 * no budget room (CUZK_E_NOMEM) RESOURCE_EXHAUSTED, CUZK_E_CANCELLED CANCELLED, else INTERNAL
 * (service_srs.c). */
int svc_params_status_code(cuzk_status st);
/* The abort predicate of a SUBMITTING job's waits for budget room (parameters): true once
 * CancelProof or the shutdown drain marked it. ctx is an svc_abort_ctx; locks mu. */
typedef struct {
    cuzk_service *s;
    svc_job *job;
} svc_abort_ctx;
bool svc_job_aborted(void *ctx);
/* The kind name of a (validated) request as jobs record it (svc_job_ops.kind_name); "" for an
 * unknown proof_kind. */
void svc_kind_name(const Cuzk__V1__SubmitProofRequest *req, char *out, size_t cap);
/* Submit `req` (the SubmitProof path; journaled: its request entry exists already, as on
 * replay). On success *id_out is the job id (malloc'ed), *queue_pos the jobs before it. */
cuzk_rpc_status svc_submit_job(cuzk_service *s, const Cuzk__V1__SubmitProofRequest *req, bool journaled,
                               char **id_out, uint32_t *queue_pos);
/* Register a finished job (journal replay): status, proof (copied), error (copied, may be
 * NULL), finished `age_ms` ago. Locks mu. Errors: CUZK_E_NOMEM. */
cuzk_status svc_add_finished(cuzk_service *s, const char *id, const cuzk_journal_result_data *r, double age_ms,
                             cuzk_error *err);
/* Replay [daemon] journal_dir (service_journal.c): keep the retained results, run the
 * unfinished requests again in priority order. Called once from cuzk_service_create. */
void svc_journal_replay(cuzk_service *s);
/* Stage counters of an engine job (zeros if none seen). Locks stage_mu. */
svc_stage svc_stage_get(cuzk_service *s, uint64_t engine_id);

#endif
