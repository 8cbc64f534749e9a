/* Proving service: jobs, idempotent submission, await, cancel, SRS RPCs, collector thread
 * (service.h). */
#include <grpc/status.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "engine/log.h"
#include "server/service_internal.h"

double svc_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

cuzk_rpc_status svc_ok(void)
{
    cuzk_rpc_status r = {GRPC_STATUS_OK, ""};
    return r;
}

cuzk_rpc_status svc_fail(int code, const char *fmt, ...)
{
    cuzk_rpc_status r = {code, ""};
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r.msg, sizeof r.msg, fmt, ap);
    va_end(ap);
    return r;
}

/* ---- stage table (engine event hook) ---- */

static void on_event(void *ctx, const cuzk_engine_event *ev)
{
    cuzk_service *s = ctx;
    if (ev->type != CUZK_EV_SYNTH_START && ev->type != CUZK_EV_SYNTH_END && ev->type != CUZK_EV_PROVE_END &&
        ev->type != CUZK_EV_JOB_SETTLED)
        return;
    pthread_mutex_lock(&s->stage_mu);
    svc_stage **pp = &s->stages[ev->job_id % SVC_STAGE_HASH];
    while (*pp && (*pp)->engine_id != ev->job_id)
        pp = &(*pp)->next;
    if (ev->type == CUZK_EV_JOB_SETTLED) {
        svc_stage *st = *pp;
        if (st) {
            *pp = st->next;
            free(st);
        }
    } else {
        if (!*pp && (*pp = calloc(1, sizeof **pp)) != NULL)
            (*pp)->engine_id = ev->job_id;
        if (*pp) {
            if (ev->type == CUZK_EV_SYNTH_START)
                (*pp)->synth_started++;
            else if (ev->type == CUZK_EV_SYNTH_END)
                (*pp)->synth_ended++;
            else
                (*pp)->prove_ended++;
        }
    }
    pthread_mutex_unlock(&s->stage_mu);
}

svc_stage svc_stage_get(cuzk_service *s, uint64_t engine_id)
{
    svc_stage out = {.engine_id = engine_id};
    pthread_mutex_lock(&s->stage_mu);
    for (svc_stage *st = s->stages[engine_id % SVC_STAGE_HASH]; st; st = st->next)
        if (st->engine_id == engine_id)
            out = *st;
    pthread_mutex_unlock(&s->stage_mu);
    out.next = NULL;
    return out;
}

/* ---- job table ---- */

static size_t hash_id(const char *id)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *id; id++)
        h = (h ^ (unsigned char)*id) * 0x100000001b3ull;
    return (size_t)(h % SVC_HASH);
}

static svc_job *find_job(cuzk_service *s, const char *id)
{
    for (svc_job *j = s->table[hash_id(id)]; j; j = j->hnext)
        if (!strcmp(j->id, id))
            return j;
    return NULL;
}

static void unlink_job(cuzk_service *s, svc_job *job)
{
    svc_job **pp = &s->table[hash_id(job->id)];
    while (*pp && *pp != job)
        pp = &(*pp)->hnext;
    if (*pp)
        *pp = job->hnext;
}

/* Give back the job's source (its family's circuit, parameters and inputs). */
static void release_src(cuzk_service *s, svc_job *job)
{
    if (job->ops)
        job->ops->release(s, job);
}

/* Free a job whose source was released (or never built). */
static void job_free(svc_job *job)
{
    free(job->id);
    free(job->proof);
    free(job->error);
    free(job);
}

static bool active_push(cuzk_service *s, svc_job *job)
{
    if (s->n_active == s->cap_active) {
        size_t nc = s->cap_active ? s->cap_active * 2 : 64;
        svc_job **na = realloc(s->active, nc * sizeof *na);
        if (!na)
            return false;
        s->active = na;
        s->cap_active = nc;
    }
    s->active[s->n_active++] = job;
    return true;
}

static svc_job *active_take(cuzk_service *s, uint64_t engine_id)
{
    for (size_t i = 0; i < s->n_active; i++)
        if (s->active[i]->engine_id == engine_id) {
            svc_job *j = s->active[i];
            s->active[i] = s->active[--s->n_active];
            return j;
        }
    return NULL;
}

static void uuid_v4(char out[37])
{
    uint8_t b[16];
    if (getrandom(b, sizeof b, 0) != (ssize_t)sizeof b) {
        uint64_t t = (uint64_t)(svc_now_ms() * 1000.0) ^ ((uint64_t)getpid() << 32);
        for (int i = 0; i < 16; i++)
            b[i] = (uint8_t)(t >> ((i % 8) * 8)) ^ (uint8_t)(i * 37);
    }
    b[6] = (uint8_t)((b[6] & 0x0f) | 0x40);
    b[8] = (uint8_t)((b[8] & 0x3f) | 0x80);
    snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2],
             b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

/* ---- collector ---- */

/* Mark `job` finished at `at_ms` (svc_now_ms time) and queue it for pruning. Locked. */
static void retain(cuzk_service *s, svc_job *job, double at_ms)
{
    job->phase = JOB_FINISHED;
    job->finished_at_ms = at_ms;
    job->fnext = NULL;
    if (s->fin_tail)
        s->fin_tail->fnext = job;
    else
        s->fin_head = job;
    s->fin_tail = job;
    s->n_retained++;
    pthread_cond_broadcast(&s->cv);
}

/* Store the engine result in the job and wake its waiters. Locked. */
static void finish_job(cuzk_service *s, svc_job *job, cuzk_job_result *res)
{
    job->timings = res->timings;
    job->verified = res->verified_partitions;
    cuzk_kind_metrics *km = cuzk_metrics_kind(&s->metrics, job->kind_name);
    if (res->state == CUZK_JOB_DONE) {
        job->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED;
        job->proof = res->proofs;
        job->proof_len = (size_t)res->num_partitions * CUZK_PROOF_BYTES;
        res->proofs = NULL;
        s->completed++;
        if (km) {
            km->completed++;
            cuzk_histogram_observe(&km->hist[CUZK_HIST_QUEUE], res->timings.queue_wait_ms / 1e3);
            cuzk_histogram_observe(&km->hist[CUZK_HIST_SYNTHESIS], res->timings.synthesis_ms / 1e3);
            cuzk_histogram_observe(&km->hist[CUZK_HIST_PROVE], (res->timings.prove_ms + res->timings.finish_ms) / 1e3);
            cuzk_histogram_observe(&km->hist[CUZK_HIST_TOTAL], res->timings.total_ms / 1e3);
        }
    } else {
        bool cancelled = res->state == CUZK_JOB_CANCELLED;
        job->status = cancelled ? CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__CANCELLED
                                : CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED;
        job->error = strdup(res->error.msg[0] ? res->error.msg : cuzk_job_state_name(res->state));
        if (cancelled) {
            s->cancelled++;
            if (km)
                km->cancelled++;
        } else {
            s->failed++;
            if (km)
                km->failed++;
        }
    }
    if (res->state == CUZK_JOB_DONE)
        cuzk_log(CUZK_LOG_INFO, "job %s completed: %s, %u partition(s), %.1f s (queue %.1f s, synthesis %.1f s, prove "
                 "%.1f s)", job->id, job->kind_name, job->num_partitions, res->timings.total_ms / 1e3,
                 res->timings.queue_wait_ms / 1e3, res->timings.synthesis_ms / 1e3,
                 (res->timings.prove_ms + res->timings.finish_ms) / 1e3);
    else
        cuzk_log(res->state == CUZK_JOB_CANCELLED ? CUZK_LOG_INFO : CUZK_LOG_WARN,
                 "job %s %s: %s, %u partition(s), after %.1f s: %s", job->id, cuzk_job_state_name(res->state),
                 job->kind_name, job->num_partitions, res->timings.total_ms / 1e3, job->error ? job->error : "");
    retain(s, job, svc_now_ms());
    /* A job the shutdown cancelled keeps its request entry: the next start runs it again. */
    if (s->journal && !(res->state == CUZK_JOB_CANCELLED && s->draining)) {
        cuzk_journal_result_data r = {
            (uint32_t)job->status, job->verified,
            {(uint64_t)job->timings.queue_wait_ms, (uint64_t)job->timings.synthesis_ms, (uint64_t)job->timings.prove_ms,
             (uint64_t)job->timings.finish_ms, (uint64_t)job->timings.total_ms, 0},
            job->proof, job->proof_len, job->error ? job->error : "", job->kind_name};
        cuzk_error e;
        if (cuzk_journal_put_result(s->journal, job->id, &r, &e))
            cuzk_log(CUZK_LOG_ERROR, "job %s: result not journaled: %s", job->id, e.msg);
    }
}

cuzk_status svc_add_finished(cuzk_service *s, const char *id, const cuzk_journal_result_data *r, double age_ms,
                             cuzk_error *err)
{
    svc_job *job = calloc(1, sizeof *job);
    if (!job || !(job->id = strdup(id)) || (r->proof_len && !(job->proof = malloc(r->proof_len))) ||
        (*r->error && !(job->error = strdup(r->error)))) {
        if (job)
            job_free(job);
        return cuzk_fail(err, CUZK_E_NOMEM, "service: out of memory");
    }
    if (r->proof_len)
        memcpy(job->proof, r->proof, r->proof_len);
    job->proof_len = r->proof_len;
    job->status = (Cuzk__V1__AwaitProofResponse__Status)r->status;
    job->verified = r->verified;
    job->timings = (cuzk_job_timings){(double)r->timings[0], (double)r->timings[1], (double)r->timings[2],
                                      (double)r->timings[3], (double)r->timings[4], 0, 0, 0};
    snprintf(job->kind_name, sizeof job->kind_name, "%s", *r->kind ? r->kind : "replayed");
    pthread_mutex_lock(&s->mu);
    size_t h = hash_id(job->id);
    job->hnext = s->table[h];
    s->table[h] = job;
    retain(s, job, svc_now_ms() - age_ms);
    pthread_mutex_unlock(&s->mu);
    return CUZK_OK;
}

/* Drop finished jobs past their retention that nobody awaits. Locked. */
static void prune(cuzk_service *s, double now)
{
    while (s->fin_head && s->fin_head->finished_at_ms + (double)s->retention_ms <= now &&
           s->fin_head->waiters == 0) {
        svc_job *j = s->fin_head;
        s->fin_head = j->fnext;
        if (!s->fin_head)
            s->fin_tail = NULL;
        if (!j->superseded) {
            unlink_job(s, j);
            if (s->journal)
                cuzk_journal_remove(s->journal, j->id);
        }
        s->n_retained--;
        job_free(j);
    }
}

/* A CANCELLED or FAILED result whose request_id is submitted again gives way to the new job:
 * it leaves the table (and its journal entries go, so a restart does not answer with the old
 * result); the retention list frees it when nobody awaits it any more. Locked. */
static void supersede(cuzk_service *s, svc_job *job)
{
    unlink_job(s, job);
    job->superseded = true;
    if (s->journal)
        cuzk_journal_remove(s->journal, job->id);
    cuzk_log(CUZK_LOG_INFO, "job %s: %s result replaced by a new submission of its request_id", job->id,
             job->status == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__CANCELLED ? "cancelled" : "failed");
}

static void *collector_main(void *arg)
{
    cuzk_service *s = arg;
    for (;;) {
        uint64_t eid;
        cuzk_error err;
        cuzk_status st = cuzk_engine_wait_any(s->engine, 100, &eid, &err);
        if (st == CUZK_OK) {
            cuzk_job_result res;
            if (cuzk_engine_wait(s->engine, eid, 0, &res, &err) == CUZK_OK) {
                pthread_mutex_lock(&s->mu);
                svc_job *job = active_take(s, eid);
                if (job) {
                    /* release the circuit / parameters before the result is visible, so a
                     * client that saw the job finish never finds its SRS still in use */
                    release_src(s, job);
                    finish_job(s, job, &res);
                }
                pthread_mutex_unlock(&s->mu);
                cuzk_job_result_free(&res);
            }
        }
        pthread_mutex_lock(&s->mu);
        prune(s, svc_now_ms());
        bool done = s->stopping && s->n_active == 0 && s->n_submitting == 0;
        if (st != CUZK_OK && st != CUZK_E_TIMEOUT && !done) {
            /* Nothing in the engine: sleep until a submission or 100 ms. */
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            ts.tv_nsec += 100 * 1000000L;
            if (ts.tv_nsec >= 1000000000L) {
                ts.tv_sec++;
                ts.tv_nsec -= 1000000000L;
            }
            if (s->n_active == 0)
                pthread_cond_timedwait(&s->cv, &s->mu, &ts);
        }
        pthread_mutex_unlock(&s->mu);
        if (done)
            return NULL;
    }
}

/* ---- lifecycle ---- */

static unsigned online_cpus(void)
{
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    return ncpu > 0 ? (unsigned)ncpu : 1;
}

/* The [gpus] keys as a backend_config (backends/backends.h). */
static cuzk_status backend_config_of(const cuzk_server_config *cfg, backend_config *bc, cuzk_error *err)
{
    backend_config_default(bc);
    cuzk_status st = backend_kind_parse(cfg->gpu_backend, &bc->kind, err);
    if (st)
        return st;
    bc->devices = cfg->gpu_devices;
    bc->n_devices = cfg->n_gpu_devices;
    bc->fallback_to_cpu = cfg->gpu_fallback_to_cpu;
    bc->cpu_threads = cfg->gpu_threads ? cfg->gpu_threads : online_cpus();
    bc->workers_per_device = cfg->gpu_workers_per_device;
    bc->device_memory_fraction = cfg->gpu_memory_percent / 100.0;
    bc->device_memory_limit = cfg->gpu_memory_limit;
    bc->staging_bytes = (size_t)cfg->gpu_staging_bytes;
    bc->env_test_hooks = cfg->gpu_test_hooks;
    return CUZK_OK;
}

/* The stack's step 4 (prover/stack.h): the circuit registry, the manager's first provider (an
 * unknown id's message lists the configured circuits first), its kinds' a/b/c from the
 * engine's pool. */
typedef struct {
    const cuzk_server_config *cfg;
    unsigned setup_threads;
    cuzk_registry **out; /* the service's registry, borrowed from the stack */
} registry_step;

static cuzk_status add_registry(void *ctx, prover_stack *st, void **added, cuzk_error *err)
{
    const registry_step *r = ctx;
    cuzk_registry *reg;
    cuzk_status rc = cuzk_registry_create(r->cfg, r->setup_threads, prover_stack_params(st), &reg, err);
    if (rc)
        return rc;
    cuzk_registry_use_abc_pool(reg, cuzk_engine_abc_pool(prover_stack_engine(st)));
    *added = *r->out = reg;
    return CUZK_OK;
}

static void remove_registry(void *added) { cuzk_registry_destroy(added); }

/* The [engine] and [memory] keys as a cuzk_engine_config (engine/engine.h); its events go
 * to on_event(s) when s is not NULL. */
static void engine_config_of(const cuzk_server_config *cfg, cuzk_service *s, cuzk_engine_config *ec)
{
    cuzk_engine_config_default(ec);
    ec->partition_workers = cfg->partition_workers;
    ec->synthesis_lookahead = cfg->synthesis_lookahead;
    ec->gpu_workers_per_device = cfg->gpu_workers_per_device;
    ec->finalizer_threads = cfg->finalizer_threads;
    ec->memory_budget_auto = cfg->memory_auto;
    ec->memory_budget_bytes = cfg->total_budget;
    ec->safety_margin_bytes = cfg->safety_margin;
    ec->abc_pool = cfg->abc_pool;
    ec->abc_pool_cfg.idle_ms = cfg->abc_pool_idle_ms;
    if (s) {
        ec->on_event = on_event;
        ec->event_ctx = s;
    }
}

/* err's message after `what`; returns st. */
static cuzk_status prefixed(cuzk_error *err, cuzk_status st, const char *what)
{
    char msg[sizeof err->msg];
    memcpy(msg, err->msg, sizeof msg);
    return cuzk_fail(err, st, "%s%s", what, msg);
}

cuzk_status cuzk_service_check_backend(const cuzk_server_config *cfg, char *describe, size_t cap, cuzk_error *err)
{
    backend_config bc;
    cuzk_engine_config ec;
    backend *b = NULL;
    cuzk_engine *e = NULL;
    cuzk_status st = backend_config_of(cfg, &bc, err);
    if (!st)
        st = backend_open(&bc, &b, err);
    if (st) {
        return strncmp(err->msg, "[gpus]", 6) ? prefixed(err, st, "[gpus] ") : st;
    }
    /* the stack's step 2 as stack_create makes it (prover/stack.c): the engine's refusals,
     * its memory budget and the backend's charges to it ([gpus] staging_buffer) */
    engine_config_of(cfg, NULL, &ec);
    ec.backend = backend_table(b);
    st = cuzk_engine_create(&ec, &e, err);
    if (st)
        prefixed(err, st, "cannot start the engine: ");
    else if (cap)
        snprintf(describe, cap, "%s", backend_describe(b));
    cuzk_engine_destroy(e);
    backend_close(b);
    return st;
}

/* The proving stack of cfg: the [gpus] backend, the engine ([engine], [memory]) with the
 * service's event hook, every circuit's parameters charged to its budget (idle ones give
 * way to partitions and to other circuits' parameters) through the circuit registry and the
 * Filecoin provider ([srs]), and with [srs] pce the PCEs, kept next to the point caches,
 * recorded in the background by the first proof of a circuit and charged to the budget
 * without ever waiting for it. */
static cuzk_status stack_create(cuzk_service *s, const cuzk_server_config *cfg, cuzk_error *err)
{
    backend_config bc;
    cuzk_status st = backend_config_of(cfg, &bc, err);
    if (st)
        return st;
    cuzk_engine_config ec;
    engine_config_of(cfg, s, &ec);
    registry_step rs = {cfg, cfg->synthesis_threads ? cfg->synthesis_threads : online_cpus(), &s->registry};
    fc_srs_config sc = {.param_cache = cfg->param_cache, .cache_dir = cfg->srs_cache_dir,
                        .verify_digests = cfg->srs_verify_params, .verify_checksums = cfg->srs_verify_cache,
                        .threads = rs.setup_threads, .lock = cfg->srs_lock_memory};
    pce_cache_config pc = {.background = true, .record = true, .eval_threads = 1};
    prover_stack_config pcfg = {.backend = &bc, .engine = &ec, .charge_params = true,
                                .add_providers = add_registry, .remove_providers = remove_registry,
                                .providers_ctx = &rs, .filecoin = &sc, .pce = cfg->srs_pce != CUZK_PCE_OFF ? &pc : NULL};
    return prover_stack_create(&pcfg, &s->stack, err);
}

cuzk_status cuzk_service_create(const cuzk_server_config *cfg, cuzk_service **out, cuzk_error *err)
{
    *out = NULL;
    cuzk_service *s = calloc(1, sizeof *s);
    if (!s)
        return cuzk_fail(err, CUZK_E_NOMEM, "service: out of memory");
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv, NULL);
    pthread_mutex_init(&s->stage_mu, NULL);
    s->retention_ms = cfg->result_retention_ms;
    s->max_jobs = cfg->max_jobs;
    s->pce_mode = cfg->srs_pce;
    cuzk_status st;
    if (*cfg->journal_dir && (st = cuzk_journal_open(cfg->journal_dir, cfg->journal_max_bytes, &s->journal, err))) {
        cuzk_service_destroy(s);
        return st;
    }
    s->accepting = true;
    s->start_ms = svc_now_ms();
    if ((st = stack_create(s, cfg, err))) {
        cuzk_service_destroy(s);
        return st;
    }
    s->engine = prover_stack_engine(s->stack);
    cuzk_log(CUZK_LOG_INFO, "prover backend: %s", backend_describe(prover_stack_backend(s->stack)));
    if (pthread_create(&s->collector, NULL, collector_main, s)) {
        /* no collector to stop: the stack goes without the drain */
        prover_stack_destroy(s->stack);
        s->stack = NULL;
        s->engine = NULL;
        s->registry = NULL;
        cuzk_service_destroy(s);
        return cuzk_fail(err, CUZK_E_INTERNAL, "service: cannot start the collector thread");
    }
    if (s->journal)
        svc_journal_replay(s);
    *out = s;
    return CUZK_OK;
}

void cuzk_service_destroy(cuzk_service *s)
{
    if (!s)
        return;
    if (s->engine) {
        cuzk_service_stop_accepting(s);
        cuzk_service_drain(s, 0);
        pthread_mutex_lock(&s->mu);
        s->stopping = true;
        pthread_cond_broadcast(&s->cv);
        pthread_mutex_unlock(&s->mu);
        pthread_join(s->collector, NULL);
        cuzk_engine_wait_idle(s->engine, -1, NULL);
    }
    for (size_t b = 0; b < SVC_HASH; b++)
        for (svc_job *j = s->table[b], *n; j; j = n) {
            n = j->hnext;
            release_src(s, j);
            job_free(j);
        }
    /* no job holds a circuit, parameters or a PCE now: the stack goes (its PCEs and
     * parameters back to the budget before the engine, the backend last) */
    prover_stack_destroy(s->stack);
    s->stack = NULL;
    s->engine = NULL;
    s->registry = NULL;
    for (size_t b = 0; b < SVC_STAGE_HASH; b++)
        for (svc_stage *st = s->stages[b], *n; st; st = n) {
            n = st->next;
            free(st);
        }
    free(s->active);
    cuzk_journal_close(s->journal);
    cuzk_metrics_free(&s->metrics);
    pthread_mutex_destroy(&s->stage_mu);
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->cv);
    free(s);
}

void cuzk_service_stop_accepting(cuzk_service *s)
{
    pthread_mutex_lock(&s->mu);
    s->accepting = false;
    pthread_mutex_unlock(&s->mu);
}

bool cuzk_service_healthy(cuzk_service *s)
{
    pthread_mutex_lock(&s->mu);
    bool h = s->accepting;
    pthread_mutex_unlock(&s->mu);
    return h;
}

static void deadline_in(struct timespec *ts, double ms)
{
    clock_gettime(CLOCK_REALTIME, ts);
    long ns = ts->tv_nsec + (long)((ms - (double)(long)(ms / 1e3) * 1e3) * 1e6);
    ts->tv_sec += (time_t)(ms / 1e3) + ns / 1000000000L;
    ts->tv_nsec = ns % 1000000000L;
}

unsigned cuzk_service_drain(cuzk_service *s, uint64_t grace_ms)
{
    double until = svc_now_ms() + (double)grace_ms;
    unsigned cancelled = 0;
    pthread_mutex_lock(&s->mu);
    while ((s->n_active || s->n_submitting) && svc_now_ms() < until) {
        struct timespec ts;
        deadline_in(&ts, 100);
        pthread_cond_timedwait(&s->cv, &s->mu, &ts);
    }
    /* the running partitions see the cancel between MSM chunks, so the jobs settle within
     * about a second of the grace */
    s->draining = true;
    for (size_t i = 0; i < s->n_active; i++)
        if (cuzk_engine_cancel_why(s->engine, s->active[i]->engine_id, "cancelled by shutdown", NULL, NULL) == CUZK_OK)
            cancelled++;
    for (size_t b = 0; b < SVC_HASH; b++)
        for (svc_job *j = s->table[b]; j; j = j->hnext)
            if (j->phase == JOB_SUBMITTING)
                j->cancel_requested = true;
    while (s->n_active || s->n_submitting) {
        struct timespec ts;
        deadline_in(&ts, 100);
        pthread_cond_timedwait(&s->cv, &s->mu, &ts);
        for (size_t i = 0; i < s->n_active; i++) /* late submissions */
            cuzk_engine_cancel_why(s->engine, s->active[i]->engine_id, "cancelled by shutdown", NULL, NULL);
    }
    pthread_mutex_unlock(&s->mu);
    return cancelled;
}

/* ---- SubmitProof ---- */

cuzk_priority svc_map_priority(int p)
{
    switch (p) {
    case CUZK__V1__PRIORITY__LOW: return CUZK_PRIORITY_LOW;
    case CUZK__V1__PRIORITY__HIGH: return CUZK_PRIORITY_HIGH;
    case CUZK__V1__PRIORITY__CRITICAL: return CUZK_PRIORITY_CRITICAL;
    default: return CUZK_PRIORITY_NORMAL;
    }
}

/* Validation of the request's common fields; *ops receives its family. */
static cuzk_rpc_status check_request(cuzk_service *s, const Cuzk__V1__SubmitProofRequest *req,
                                     const svc_job_ops **ops)
{
    size_t id_len = req->request_id ? strlen(req->request_id) : 0;
    if (id_len > CUZK_REQUEST_ID_MAX)
        return svc_fail(GRPC_STATUS_INVALID_ARGUMENT, "request_id is %zu bytes long; at most %d are allowed", id_len,
                        CUZK_REQUEST_ID_MAX);
    int prio = (int)req->priority;
    if (prio < CUZK__V1__PRIORITY__PRIORITY_UNSPECIFIED || prio > CUZK__V1__PRIORITY__CRITICAL)
        return svc_fail(GRPC_STATUS_INVALID_ARGUMENT,
                        "invalid priority: %d (want 0..4: PRIORITY_UNSPECIFIED, LOW, NORMAL, HIGH, CRITICAL)", prio);
    *ops = svc_job_ops_for((int)req->proof_kind);
    if (!*ops)
        return svc_fail(GRPC_STATUS_INVALID_ARGUMENT, "invalid proof_kind: %d", (int)req->proof_kind);
    return (*ops)->check(s, req);
}

/* Undo a SUBMITTING registration. Locked. */
static void drop_submitting(cuzk_service *s, svc_job *job)
{
    unlink_job(s, job);
    job->dropped = true;
    s->n_submitting--;
    pthread_cond_broadcast(&s->cv);
    while (job->waiters)
        pthread_cond_wait(&s->cv, &s->mu);
}

/* Submit `req` or find the job of its request_id; on success *id_out is the job id
 * (malloc'ed) and *queue_pos the number of jobs in the engine before it. */
/* Write the request entry of `job` before anything can run it. */
static cuzk_rpc_status journal_request(cuzk_service *s, const svc_job *job, const Cuzk__V1__SubmitProofRequest *req,
                                       cuzk_priority priority)
{
    Cuzk__V1__SubmitProofRequest copy = *req;
    copy.request_id = job->id; /* a generated UUID too: the replayed job keeps its id */
    size_t n = protobuf_c_message_get_packed_size(&copy.base);
    uint8_t *buf = malloc(n ? n : 1);
    if (!buf)
        return svc_fail(GRPC_STATUS_RESOURCE_EXHAUSTED, "out of memory journaling the request");
    protobuf_c_message_pack(&copy.base, buf);
    bool full;
    cuzk_error e;
    cuzk_status st = cuzk_journal_put_request(s->journal, job->id, (uint32_t)priority, buf, n, &full, &e);
    free(buf);
    if (!st)
        return svc_ok();
    return svc_fail(full ? GRPC_STATUS_RESOURCE_EXHAUSTED : GRPC_STATUS_UNAVAILABLE, "%s", e.msg);
}

const svc_job_ops *svc_job_ops_for(int proof_kind)
{
    if (proof_kind == CUZK__V1__PROOF_KIND__CIRCUIT)
        return &svc_job_circuit_ops;
    if (proof_kind >= CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT && proof_kind <= CUZK__V1__PROOF_KIND__WINNING_POST)
        return &svc_job_filecoin_ops;
    return NULL;
}

void svc_kind_name(const Cuzk__V1__SubmitProofRequest *req, char *out, size_t cap)
{
    const svc_job_ops *ops = svc_job_ops_for((int)req->proof_kind);
    if (ops)
        ops->kind_name(req, out, cap);
    else if (cap)
        *out = 0;
}

bool svc_job_aborted(void *ctx)
{
    svc_abort_ctx *a = ctx;
    pthread_mutex_lock(&a->s->mu);
    bool c = a->job->cancel_requested;
    pthread_mutex_unlock(&a->s->mu);
    return c;
}

cuzk_rpc_status svc_submit_job(cuzk_service *s, const Cuzk__V1__SubmitProofRequest *req, bool journaled,
                               char **id_out, uint32_t *queue_pos)
{
    *id_out = NULL;
    *queue_pos = 0;
    const svc_job_ops *ops = NULL;
    cuzk_rpc_status r = check_request(s, req, &ops);
    if (r.code)
        return r;
    char idbuf[37];
    const char *id = req->request_id;
    if (!id || !*id) {
        uuid_v4(idbuf);
        id = idbuf;
    }
    char kind_name[sizeof ((svc_job *)0)->kind_name];
    ops->kind_name(req, kind_name, sizeof kind_name);
    pthread_mutex_lock(&s->mu);
    svc_job *job;
    for (;;) {
        if (!s->accepting) {
            pthread_mutex_unlock(&s->mu);
            return svc_fail(GRPC_STATUS_UNAVAILABLE, "daemon is shutting down; not accepting new proofs");
        }
        job = find_job(s, id);
        if (!job)
            break;
        if (job->phase == JOB_FINISHED && job->status != CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED) {
            supersede(s, job); /* cancelled or failed: this request runs it again */
            break;
        }
        if (job->phase != JOB_SUBMITTING) { /* idempotent: the existing job, of the same kind */
            if (strcmp(job->kind_name, kind_name)) {
                r = svc_fail(GRPC_STATUS_INVALID_ARGUMENT,
                             "request_id %s is already used by a %s job; this request is a %s proof (use a new "
                             "request_id)", id, job->kind_name, kind_name);
                pthread_mutex_unlock(&s->mu);
                return r;
            }
            *id_out = strdup(job->id);
            pthread_mutex_unlock(&s->mu);
            return *id_out ? svc_ok() : svc_fail(GRPC_STATUS_RESOURCE_EXHAUSTED, "out of memory");
        }
        pthread_cond_wait(&s->cv, &s->mu); /* the first submitter decides */
    }
    if (s->n_active + s->n_submitting >= s->max_jobs) {
        pthread_mutex_unlock(&s->mu);
        return svc_fail(GRPC_STATUS_RESOURCE_EXHAUSTED, "%u unfinished jobs (daemon.max_jobs); retry later", s->max_jobs);
    }
    job = calloc(1, sizeof *job);
    if (!job || !(job->id = strdup(id))) {
        free(job);
        pthread_mutex_unlock(&s->mu);
        return svc_fail(GRPC_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    }
    job->phase = JOB_SUBMITTING;
    memcpy(job->kind_name, kind_name, sizeof job->kind_name);
    size_t h = hash_id(job->id);
    job->hnext = s->table[h];
    s->table[h] = job;
    s->n_submitting++;
    *queue_pos = (uint32_t)s->n_active;
    pthread_mutex_unlock(&s->mu);

    /* Load the circuit (or parameters) and parse the input outside the lock. */
    job->ops = ops;
    r = ops->prepare(s, job, req);
    cuzk_error e;
    cuzk_status st;
    uint64_t eid = 0;
    if (!r.code) {
        cuzk_job_request jr = ops->engine_request(job, req);
        if (s->journal && !journaled)
            r = journal_request(s, job, req, jr.priority);
        if (r.code)
            goto refused;
        pthread_mutex_lock(&s->mu);
        st = cuzk_engine_submit(s->engine, &jr, &eid, &e);
        if (st) {
            pthread_mutex_unlock(&s->mu);
            r = svc_fail(st == CUZK_E_NOMEM ? GRPC_STATUS_RESOURCE_EXHAUSTED
                         : st == CUZK_E_INVALID_ARG ? GRPC_STATUS_INVALID_ARGUMENT
                                                    : GRPC_STATUS_INTERNAL,
                         "%s", e.msg);
        } else if (!active_push(s, job)) {
            cuzk_engine_cancel(s->engine, eid, NULL);
            pthread_mutex_unlock(&s->mu);
            r = svc_fail(GRPC_STATUS_RESOURCE_EXHAUSTED, "out of memory");
            /* the engine job is cancelled; wait for it so its inputs can be freed */
            cuzk_job_result res;
            cuzk_engine_wait(s->engine, eid, -1, &res, NULL);
            cuzk_job_result_free(&res);
        } else {
            /* Registered: the collector takes over (mu is held, so it cannot collect yet). */
            job->engine_id = eid;
            job->phase = JOB_ACTIVE;
            s->n_submitting--;
            if (job->cancel_requested)
                cuzk_engine_cancel(s->engine, eid, NULL);
            *id_out = strdup(job->id);
            pthread_cond_broadcast(&s->cv);
            pthread_mutex_unlock(&s->mu);
            cuzk_log(CUZK_LOG_INFO, "job %s accepted: %s, %u partition(s), engine job %" PRIu64, job->id,
                     job->kind_name, job->num_partitions, eid);
            return *id_out ? svc_ok() : svc_fail(GRPC_STATUS_RESOURCE_EXHAUSTED, "out of memory");
        }
        if (s->journal)
            cuzk_journal_remove(s->journal, job->id);
    }
refused:
    release_src(s, job);
    pthread_mutex_lock(&s->mu);
    drop_submitting(s, job);
    pthread_mutex_unlock(&s->mu);
    job_free(job);
    return r;
}

/* submit_job, with a refusal logged and counted in the metrics. */
static cuzk_rpc_status submit_counted(cuzk_service *s, const Cuzk__V1__SubmitProofRequest *req, char **id_out,
                                      uint32_t *queue_pos)
{
    cuzk_rpc_status r = svc_submit_job(s, req, false, id_out, queue_pos);
    if (r.code) {
        const svc_job_ops *ops = svc_job_ops_for((int)req->proof_kind);
        char kname[65] = "unknown kind";
        if (ops) {
            ops->kind_name(req, kname, sizeof kname);
            if (!*kname)
                snprintf(kname, sizeof kname, "%s", ops->name);
        }
        pthread_mutex_lock(&s->mu);
        cuzk_metrics_refused(&s->metrics, r.code);
        pthread_mutex_unlock(&s->mu);
        cuzk_log(CUZK_LOG_INFO, "job %.*s refused: %.64s: %s", (int)CUZK_REQUEST_ID_MAX,
                 req->request_id && *req->request_id ? req->request_id : "(no request_id)", kname, r.msg);
    }
    return r;
}

cuzk_rpc_status cuzk_service_submit(cuzk_service *s, const Cuzk__V1__SubmitProofRequest *req,
                                    Cuzk__V1__SubmitProofResponse *resp)
{
    char *id;
    uint32_t pos;
    cuzk_rpc_status r = submit_counted(s, req, &id, &pos);
    if (!r.code) {
        resp->job_id = id;
        resp->queue_position = pos;
    }
    return r;
}

void cuzk_service_free_submit(Cuzk__V1__SubmitProofResponse *resp)
{
    if (resp->job_id != protobuf_c_empty_string)
        free(resp->job_id);
    resp->job_id = (char *)protobuf_c_empty_string;
}

/* ---- AwaitProof ---- */

static void fill_result(const svc_job *job, Cuzk__V1__AwaitProofResponse *resp)
{
    resp->status = job->status;
    if (job->proof_len) {
        resp->proof.data = malloc(job->proof_len);
        if (resp->proof.data) {
            memcpy(resp->proof.data, job->proof, job->proof_len);
            resp->proof.len = job->proof_len;
        }
    }
    if (job->error)
        resp->error_message = strdup(job->error);
    if (!resp->error_message)
        resp->error_message = (char *)protobuf_c_empty_string;
    if (job->status == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED) {
        resp->queue_wait_ms = (uint64_t)job->timings.queue_wait_ms;
        resp->synthesis_ms = (uint64_t)job->timings.synthesis_ms;
        resp->gpu_compute_ms = (uint64_t)(job->timings.prove_ms + job->timings.finish_ms);
    }
    resp->total_ms = (uint64_t)job->timings.total_ms;
    resp->srs_load_ms = job->srs_load_ms;
    resp->verified_partitions = job->verified;
}

static cuzk_rpc_status await_id(cuzk_service *s, const char *id, uint64_t timeout_ms, cuzk_abort_fn abort,
                                void *abort_ctx, Cuzk__V1__AwaitProofResponse *resp)
{
    pthread_mutex_lock(&s->mu);
    svc_job *job = find_job(s, id);
    if (!job) {
        pthread_mutex_unlock(&s->mu);
        return svc_fail(GRPC_STATUS_NOT_FOUND, "job not found: %s", id);
    }
    job->waiters++;
    double until = timeout_ms ? svc_now_ms() + (double)timeout_ms : 0;
    bool aborted = false, timed_out = false;
    while (job->phase != JOB_FINISHED) {
        double left = until ? until - svc_now_ms() : 100;
        if (until && left <= 0) {
            timed_out = true;
            break;
        }
        if (abort) {
            pthread_mutex_unlock(&s->mu);
            aborted = abort(abort_ctx);
            pthread_mutex_lock(&s->mu);
            if (aborted)
                break;
        }
        struct timespec ts;
        deadline_in(&ts, left < 100 ? left : 100);
        pthread_cond_timedwait(&s->cv, &s->mu, &ts);
        if (job->dropped)
            break;
    }
    if (job->dropped) { /* its submission failed; the submitter frees it once we leave */
        job->waiters--;
        pthread_cond_broadcast(&s->cv);
        pthread_mutex_unlock(&s->mu);
        return svc_fail(GRPC_STATUS_NOT_FOUND, "job not found: %s (its submission failed)", id);
    }
    job->waiters--;
    cuzk_rpc_status r = svc_ok();
    resp->job_id = strdup(id);
    if (aborted) {
        r = svc_fail(GRPC_STATUS_CANCELLED, "client went away");
    } else if (timed_out) {
        resp->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__TIMEOUT;
        resp->error_message = malloc(96);
        if (resp->error_message)
            snprintf(resp->error_message, 96, "timed out after %" PRIu64 " ms; the job is still running", timeout_ms);
    } else {
        fill_result(job, resp);
    }
    if (!resp->job_id)
        resp->job_id = (char *)protobuf_c_empty_string;
    if (!resp->error_message)
        resp->error_message = (char *)protobuf_c_empty_string;
    pthread_mutex_unlock(&s->mu);
    return r;
}

cuzk_rpc_status cuzk_service_await(cuzk_service *s, const Cuzk__V1__AwaitProofRequest *req, cuzk_abort_fn abort,
                                   void *abort_ctx, Cuzk__V1__AwaitProofResponse *resp)
{
    if (!req->job_id || !*req->job_id)
        return svc_fail(GRPC_STATUS_INVALID_ARGUMENT, "job_id is empty");
    return await_id(s, req->job_id, req->timeout_ms, abort, abort_ctx, resp);
}

void cuzk_service_free_await(Cuzk__V1__AwaitProofResponse *resp)
{
    if (resp->job_id != protobuf_c_empty_string)
        free(resp->job_id);
    if (resp->error_message != protobuf_c_empty_string)
        free(resp->error_message);
    free(resp->proof.data);
    resp->job_id = resp->error_message = (char *)protobuf_c_empty_string;
    resp->proof.data = NULL;
    resp->proof.len = 0;
}

/* ---- Prove ---- */

cuzk_rpc_status cuzk_service_prove(cuzk_service *s, const Cuzk__V1__ProveRequest *req, cuzk_abort_fn abort,
                                   void *abort_ctx, Cuzk__V1__ProveResponse *resp)
{
    if (!req->submit)
        return svc_fail(GRPC_STATUS_INVALID_ARGUMENT, "missing submit field");
    char *id;
    uint32_t pos;
    cuzk_rpc_status r = submit_counted(s, req->submit, &id, &pos);
    if (r.code)
        return r;
    Cuzk__V1__AwaitProofResponse *res = malloc(sizeof *res);
    if (!res) {
        free(id);
        return svc_fail(GRPC_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    }
    cuzk__v1__await_proof_response__init(res);
    r = await_id(s, id, 0, abort, abort_ctx, res);
    free(id);
    if (r.code) {
        cuzk_service_free_await(res);
        free(res);
        return r;
    }
    resp->result = res;
    return r;
}

void cuzk_service_free_prove(Cuzk__V1__ProveResponse *resp)
{
    if (resp->result) {
        cuzk_service_free_await(resp->result);
        free(resp->result);
        resp->result = NULL;
    }
}

/* ---- CancelProof ---- */

cuzk_rpc_status cuzk_service_cancel(cuzk_service *s, const Cuzk__V1__CancelProofRequest *req,
                                    Cuzk__V1__CancelProofResponse *resp)
{
    if (!req->job_id || !*req->job_id)
        return svc_fail(GRPC_STATUS_INVALID_ARGUMENT, "job_id is empty");
    pthread_mutex_lock(&s->mu);
    svc_job *job = find_job(s, req->job_id);
    if (!job) {
        pthread_mutex_unlock(&s->mu);
        return svc_fail(GRPC_STATUS_NOT_FOUND, "job not found: %s", req->job_id);
    }
    resp->was_running = false;
    const char *what = "already finished";
    if (job->phase == JOB_SUBMITTING) {
        job->cancel_requested = true;
        what = "was being submitted";
    } else if (job->phase == JOB_ACTIVE) {
        /* running once a synthesis worker took a partition (GetStatus: synthesizing), also
         * while that partition still waits for memory budget or a permit; the cancel fails
         * when the job already finished or was cancelled: then it was not running */
        cuzk_job_state was = CUZK_JOB_QUEUED;
        bool cancelled =
            cuzk_engine_cancel_why(s->engine, job->engine_id, "cancelled by request", &was, NULL) == CUZK_OK;
        bool started = was == CUZK_JOB_RUNNING;
        resp->was_running = cancelled && started;
        what = !cancelled ? "already finished or cancelled" : started ? "was running" : "was queued";
    }
    pthread_mutex_unlock(&s->mu);
    cuzk_log(CUZK_LOG_INFO, "job %s: cancel requested (%s)", req->job_id, what);
    return svc_ok();
}
