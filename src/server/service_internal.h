/* Internals shared by service.c (jobs, RPCs) and service_status.c (status, metrics, JSON). */
#ifndef CUZK_SERVER_SERVICE_INTERNAL_H
#define CUZK_SERVER_SERVICE_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>

#include "backends/backends.h"
#include "cs/wtns.h"
#include "kinds/builtin/builtin.h"
#include "engine/engine.h"
#include "kinds/filecoin/fc_job.h"
#include "server/circuit_registry.h"
#include "server/journal.h"
#include "server/metrics.h"
#include "server/service.h"

typedef enum {
    JOB_SUBMITTING = 0, /* registered under its id; circuit/witness/engine submit in progress */
    JOB_ACTIVE,         /* in the engine */
    JOB_FINISHED,       /* result stored */
} svc_job_phase;

typedef struct svc_job {
    char *id;
    struct svc_job *hnext;           /* hash chain */
    struct svc_job *fnext;           /* finished list, in finishing order */
    svc_job_phase phase;
    bool cancel_requested;           /* CancelProof arrived while SUBMITTING */
    bool dropped;                    /* SUBMITTING failed: unlinked, freed once waiters == 0 */
    uint64_t engine_id;
    char kind_name[64];              /* circuit name or Filecoin kind ("porep-c2"): metrics / queue label */
    cuzk_circuit *circuit;           /* CIRCUIT jobs: held while in the engine */
    fc_job *fc;                      /* Filecoin jobs: parsed input + parameters, freed when settled */
    builtin_synthetic_input syn_in;
    wtns_t *wtns;                    /* r1cs: one per partition */
    const fr_t **wptr;
    builtin_r1cs_input r1cs_in;
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
} svc_job;

/* Per engine job: partitions past each stage boundary, fed by the engine event hook. */
typedef struct svc_stage {
    uint64_t engine_id;
    uint32_t synth_started, synth_ended, prove_ended;
    struct svc_stage *next;
} svc_stage;

#define SVC_HASH 1024
#define SVC_STAGE_HASH 256

struct cuzk_service {
    cuzk_engine *engine;
    backend *backend;                /* the prover backend ([gpus] backend, devices) */
    cuzk_registry *registry;
    fc_srs *fc_srs;                  /* Filecoin parameters ([srs]) */
    fc_pce_mgr *fc_pce;              /* Filecoin PCEs ([srs] pce), NULL when off */
    uint64_t retention_ms;
    uint32_t max_jobs;
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
/* The kind name of a (validated) request as jobs record it: the Filecoin kind ("porep-c2") or
 * the circuit's name; "" for a circuit request without one. */
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
