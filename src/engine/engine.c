/* Engine construction, shutdown and names (engine.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine_internal.h"
#include "engine/log.h"

const char *cuzk_priority_name(cuzk_priority p)
{
    static const char *const names[] = {"low", "normal", "high", "critical"};
    return (unsigned)p < CUZK_PRIORITY_COUNT ? names[p] : "unknown";
}

const char *cuzk_job_state_name(cuzk_job_state s)
{
    static const char *const names[] = {"queued", "running", "done", "failed", "cancelled"};
    return (unsigned)s <= CUZK_JOB_CANCELLED ? names[s] : "unknown";
}

void cuzk_engine_config_default(cuzk_engine_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->partition_workers = 2;
    cfg->synthesis_lookahead = 1;
    cfg->gpu_workers_per_device = 1;
    cfg->finalizer_threads = 2;
    cfg->memory_budget_auto = true;
    cfg->safety_margin_bytes = 5ull << 30;
    cuzk_abc_pool_config_default(&cfg->abc_pool_cfg);
}

cuzk_abc_pool *cuzk_engine_abc_pool(cuzk_engine *e)
{
    return e->abc_pool;
}

/* A thread/queue setting must lie in [lo, hi]. */
static cuzk_status check_range(const char *field, uint32_t value, uint32_t lo, uint32_t hi, cuzk_error *err)
{
    if (value < lo || value > hi)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "config %s must be between %u and %u, got %u", field, lo, hi,
                         value);
    return CUZK_OK;
}

static cuzk_status check_config(const cuzk_engine_config *cfg, cuzk_error *err)
{
    cuzk_status st;
    if ((st = check_range("partition_workers", cfg->partition_workers, 1, CUZK_ENGINE_MAX_PARTITION_WORKERS, err)) ||
        (st = check_range("synthesis_lookahead", cfg->synthesis_lookahead, 0, CUZK_ENGINE_MAX_SYNTHESIS_LOOKAHEAD,
                          err)) ||
        (st = check_range("gpu_workers_per_device", cfg->gpu_workers_per_device, 1,
                          CUZK_ENGINE_MAX_GPU_WORKERS_PER_DEVICE, err)) ||
        (st = check_range("finalizer_threads", cfg->finalizer_threads, 1, CUZK_ENGINE_MAX_FINALIZER_THREADS, err)))
        return st;
    const cuzk_prover_backend *be = cfg->backend;
    if (!be || !be->capabilities || !be->prove_start || !be->prove_finish)
        return cuzk_fail(err, CUZK_E_INVALID_ARG,
                         "config backend must be set with capabilities, prove_start and prove_finish");
    return CUZK_OK;
}

/* Stop accepting work and cancel every unfinished job (engine.h: destroy). */
static void cancel_all(cuzk_engine *e)
{
    pthread_mutex_lock(&e->mu);
    e->stopping = true;
    pthread_cond_broadcast(&e->work_cv);
    for (;;) {
        cuzk_job *victim = NULL;
        for (size_t i = 0; i < e->table.len && !victim; i++)
            if (cuzk_job_abort_locked(e, e->table.items[i], CUZK_JOB_CANCELLED, CUZK_E_CANCELLED,
                                      "engine shutting down"))
                victim = e->table.items[i];
        if (!victim)
            break;
        pthread_mutex_unlock(&e->mu);
        cuzk_job_abort_finish(e, victim);
        pthread_mutex_lock(&e->mu);
    }
    pthread_mutex_unlock(&e->mu);
}

static void join_all(pthread_t *threads, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        pthread_join(threads[i], NULL);
}

void cuzk_engine_destroy(cuzk_engine *e)
{
    if (!e)
        return;
    cancel_all(e);
    join_all(e->synth_threads, e->n_synth);
    cuzk_chan_close(&e->prove_chan);
    join_all(e->prover_threads, e->n_prover);
    cuzk_chan_close(&e->finish_chan);
    join_all(e->finalizer_threads, e->n_finalizer);

    for (size_t i = 0; i < e->table.len; i++)
        cuzk_job_free(e->table.items[i]);
    cuzk_job_table_free(&e->table);
    cuzk_chan_destroy(&e->finish_chan);
    cuzk_chan_destroy(&e->prove_chan);
    if (e->backend_attached)
        e->cfg.backend->detach(e->cfg.backend->ctx);
    cuzk_abc_pool_destroy(e->abc_pool);
    cuzk_budget_destroy(&e->budget);
    cuzk_sem_destroy(&e->permits);
    pthread_cond_destroy(&e->settle_cv);
    pthread_cond_destroy(&e->work_cv);
    pthread_mutex_destroy(&e->mu);
    free(e->synth_threads);
    free(e->prover_threads);
    free(e->prover_args);
    free(e->finalizer_threads);
    free(e);
}

/* Initialise everything except the threads. On error the caller frees `e` with
 * destroy_partial(e, stage). */
enum { ST_NONE, ST_MU, ST_SEM, ST_BUDGET, ST_POOL, ST_PROVE_CHAN, ST_ALL };

static void destroy_partial(cuzk_engine *e, int stage)
{
    if (stage >= ST_ALL)
        cuzk_chan_destroy(&e->finish_chan);
    if (stage >= ST_PROVE_CHAN)
        cuzk_chan_destroy(&e->prove_chan);
    if (stage >= ST_POOL)
        cuzk_abc_pool_destroy(e->abc_pool);
    if (stage >= ST_BUDGET)
        cuzk_budget_destroy(&e->budget);
    if (stage >= ST_SEM)
        cuzk_sem_destroy(&e->permits);
    if (stage >= ST_MU) {
        pthread_cond_destroy(&e->settle_cv);
        pthread_cond_destroy(&e->work_cv);
        pthread_mutex_destroy(&e->mu);
    }
    free(e->synth_threads);
    free(e->prover_threads);
    free(e->prover_args);
    free(e->finalizer_threads);
    free(e);
}

static cuzk_status init_state(cuzk_engine *e, uint64_t budget_total, int *stage, cuzk_error *err)
{
    if (pthread_mutex_init(&e->mu, NULL) || cuzk_cond_init_monotonic(&e->work_cv) ||
        cuzk_cond_init_monotonic(&e->settle_cv))
        return cuzk_fail(err, CUZK_E_INTERNAL, "engine: pthread mutex/cond init failed");
    *stage = ST_MU;
    cuzk_status st = cuzk_sem_init(&e->permits, e->cfg.partition_workers, err);
    if (st != CUZK_OK)
        return st;
    *stage = ST_SEM;
    st = cuzk_budget_init(&e->budget, budget_total, &e->counters[CUZK_CTR_MEMORY_USED_BYTES], err);
    if (st != CUZK_OK)
        return st;
    *stage = ST_BUDGET;
    atomic_init(&e->partition_reserved, 0);
    cuzk_budget_set_hope(&e->budget, cuzk_engine_budget_hope, e);
    if (e->cfg.abc_pool) {
        st = cuzk_abc_pool_create(&e->cfg.abc_pool_cfg, &e->budget, &e->counters[CUZK_CTR_POOL_TOTAL_BYTES],
                                  &e->abc_pool, err);
        if (st != CUZK_OK)
            return st;
    }
    *stage = ST_POOL;
    st = cuzk_chan_init(&e->prove_chan, e->channel_capacity, &e->counters[CUZK_CTR_QUEUED],
                        &e->counters[CUZK_CTR_QUEUED_BYTES], err);
    if (st != CUZK_OK)
        return st;
    *stage = ST_PROVE_CHAN;
    st = cuzk_chan_init(&e->finish_chan, 0, NULL, NULL, err);
    if (st != CUZK_OK)
        return st;
    *stage = ST_ALL;
    return CUZK_OK;
}

/* Start threads[i] = fn(arg + i * arg_stride) for i in [*started, want), counting each
 * started one in *started. Returns 0, or the pthread_create error of thread *started. */
static int start_pool(pthread_t *threads, uint32_t want, uint32_t *started, void *(*fn)(void *), void *arg,
                      size_t arg_stride)
{
    for (; *started < want; (*started)++) {
        int rc = pthread_create(&threads[*started], NULL, fn, (char *)arg + (size_t)*started * arg_stride);
        if (rc)
            return rc;
    }
    return 0;
}

cuzk_status cuzk_engine_create(const cuzk_engine_config *cfg, cuzk_engine **out, cuzk_error *err)
{
    *out = NULL;
    cuzk_status st = check_config(cfg, err);
    if (st != CUZK_OK)
        return st;
    cuzk_backend_caps caps = {0};
    st = cfg->backend->capabilities(cfg->backend->ctx, &caps, err);
    if (st != CUZK_OK)
        return st;
    if (caps.num_devices == 0)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "backend '%s' reports 0 devices", cfg->backend->name);
    if ((uint64_t)caps.num_devices * cfg->gpu_workers_per_device > CUZK_ENGINE_MAX_PROVER_WORKERS)
        return cuzk_fail(err, CUZK_E_INVALID_ARG,
                         "config gpu_workers_per_device %u x %u devices of backend '%s' = %llu prover threads, "
                         "more than %u",
                         cfg->gpu_workers_per_device, caps.num_devices, cfg->backend->name,
                         (unsigned long long)caps.num_devices * cfg->gpu_workers_per_device,
                         CUZK_ENGINE_MAX_PROVER_WORKERS);
    uint64_t budget_total;
    st = cuzk_budget_resolve_total(cfg->memory_budget_auto, cfg->memory_budget_bytes, cfg->safety_margin_bytes,
                                   cfg->meminfo_path, &budget_total, err);
    if (st != CUZK_OK)
        return st;

    cuzk_engine *e = calloc(1, sizeof *e);
    if (!e)
        return cuzk_fail(err, CUZK_E_NOMEM, "engine: out of memory");
    e->cfg = *cfg;
    e->caps = caps;
    e->channel_capacity = cfg->synthesis_lookahead > cfg->partition_workers ? cfg->synthesis_lookahead
                                                                            : cfg->partition_workers;
    e->prover_workers = caps.num_devices * cfg->gpu_workers_per_device;
    e->start_ns = cuzk_now_ns();
    e->next_id = 1;
    cuzk_sched_init(&e->sched);
    cuzk_job_table_init(&e->table);
    for (int i = 0; i < CUZK_COUNTER_COUNT; i++)
        cuzk_gauge_init(&e->counters[i]);

    int stage = ST_NONE;
    e->synth_threads = calloc(cfg->partition_workers, sizeof(pthread_t));
    e->prover_threads = calloc(e->prover_workers, sizeof(pthread_t));
    e->prover_args = calloc(e->prover_workers, sizeof(cuzk_prover_arg));
    e->finalizer_threads = calloc(cfg->finalizer_threads, sizeof(pthread_t));
    if (!e->synth_threads || !e->prover_threads || !e->prover_args || !e->finalizer_threads)
        st = cuzk_fail(err, CUZK_E_NOMEM, "engine: out of memory for thread tables");
    else
        st = init_state(e, budget_total, &stage, err);
    if (st == CUZK_OK && cfg->backend->attach) {
        cuzk_backend_host host = {&e->budget, e->abc_pool, cfg->gpu_workers_per_device};
        st = cfg->backend->attach(cfg->backend->ctx, &host, err);
        e->backend_attached = st == CUZK_OK && cfg->backend->detach;
    }
    if (st != CUZK_OK) {
        destroy_partial(e, stage);
        return st;
    }

    for (uint32_t i = 0; i < e->prover_workers; i++) {
        e->prover_args[i].e = e;
        e->prover_args[i].index = i;
        e->prover_args[i].device = i / cfg->gpu_workers_per_device;
    }
    char pool[96] = "";
    int rc = start_pool(e->synth_threads, cfg->partition_workers, &e->n_synth, cuzk_synth_worker_main, e, 0);
    if (rc) {
        snprintf(pool, sizeof pool, "synthesis thread %u of partition_workers=%u", e->n_synth,
                 cfg->partition_workers);
    } else if ((rc = start_pool(e->prover_threads, e->prover_workers, &e->n_prover, cuzk_prover_worker_main,
                                e->prover_args, sizeof *e->prover_args))) {
        snprintf(pool, sizeof pool, "prover thread %u of %u devices x gpu_workers_per_device=%u", e->n_prover,
                 caps.num_devices, cfg->gpu_workers_per_device);
    } else if ((rc = start_pool(e->finalizer_threads, cfg->finalizer_threads, &e->n_finalizer, cuzk_finalizer_main,
                                e, 0))) {
        snprintf(pool, sizeof pool, "finalizer thread %u of finalizer_threads=%u", e->n_finalizer,
                 cfg->finalizer_threads);
    }
    if (rc) {
        cuzk_engine_destroy(e); /* stops and joins the threads already started */
        return cuzk_fail(err, CUZK_E_INTERNAL, "engine: cannot start %s: pthread_create: %s", pool, strerror(rc));
    }

    cuzk_log(CUZK_LOG_INFO,
             "engine started: backend=%s devices=%u partition_workers=%u channel_capacity=%u prover_workers=%u "
             "finalizer_threads=%u memory_budget=%llu bytes%s",
             cfg->backend->name, caps.num_devices, cfg->partition_workers, e->channel_capacity, e->prover_workers,
             cfg->finalizer_threads, (unsigned long long)budget_total, cfg->memory_budget_auto ? " (auto)" : "");
    *out = e;
    return CUZK_OK;
}
