/* cuzk-bench batch: submit C multi-partition proofs to the engine keeping J in flight,
 * verify every partition proof, and report s/proof, latency percentiles, peak RSS, the
 * peak of every flight counter, the a/b/c pool's figures and the memory model's peak RSS
 * beside the measured one. --sweep-pw runs one configuration per partition_workers value,
 * each in a fresh process (cuzk-bench executed again with --row: its peak RSS is the
 * child's own, from getrusage, counted from its first proof on), plus a "serial" baseline row that proves the same
 * partitions one at a time without the pipeline. Kinds: the built-in synthetic circuit, a
 * circom circuit, and real Filecoin proofs (batch_fc.h), those optionally synthesized through
 * their PCE (--pce). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "batch_fc.h"
#include "bench.h"
#include "cs/r1cs.h"
#include "cs/wtns.h"
#include "kinds/builtin/builtin.h"
#include "prover/stack.h"

typedef struct {
    const char *kind; /* "synthetic" or "r1cs" */
    unsigned log_rows, partitions, count, jobs, pw, gw, lookahead, threads, finalizers;
    uint64_t budget; /* 0 = auto */
    const char *r1cs, *zkey, *wtns;
    const char *sweep;
    int json, quiet, abc_pool, pce;
    backend_config backend; /* --backend, --device */
    uint32_t device;
    batch_fc_opts fc;  /* the Filecoin kinds' inputs */
    const char *row;   /* --row serial|pipeline: this process is one row of a parent's sweep */
    uint64_t rss_start; /* VmRSS when the command started */
} batch_opts;

typedef struct {
    const cuzk_circuit_kind *kind;
    const void *params;
    const cuzk_verify_hook *hook;
    const void *(*input)(void *ctx, unsigned job); /* kind_input of job i */
    void *ctx;
    builtin_synthetic *syn;
    builtin_r1cs *r1;
    r1cs_t r1cs;
    zkey_t zkey;
    wtns_t w;
    const fr_t **wits;
    builtin_r1cs_input r1in;
    builtin_synthetic_input *synin;
    batch_fc fc;          /* fc.job set for the Filecoin kinds */
    uint64_t model_base;  /* the memory model's resident bytes before any partition */
    uint64_t stack_rss;   /* what opening the row's proving stack added to the RSS */
} circuit_t;

static const void *synthetic_input(void *ctx, unsigned job)
{
    circuit_t *c = ctx;
    return &c->synin[job];
}

static const void *r1cs_input(void *ctx, unsigned job)
{
    circuit_t *c = ctx;
    (void)job;
    return &c->r1in;
}

static const void *fc_input(void *ctx, unsigned job)
{
    circuit_t *c = ctx;
    (void)job;
    return c->fc.job; /* the same request every time */
}

/* Load o's Filecoin request into c over the stack's parameters; sets o->partitions to the
 * request's. The memory model's base: the process before loading plus the parameters' whole
 * point cache (mapped, faulted in by the first proof's MSMs). */
static int circuit_load_fc(circuit_t *c, batch_opts *o, fc_srs *srs)
{
    o->fc.type = batch_fc_type(o->kind);
    if (!o->quiet)
        fprintf(stderr, "loading the %s request and its parameters ...\n", o->kind);
    if (batch_fc_load(&c->fc, &o->fc, srs))
        return -1;
    o->partitions = fc_job_partitions(c->fc.job);
    c->kind = fc_job_kind(c->fc.job);
    c->params = fc_job_params(c->fc.job);
    c->hook = fc_job_verify_hook(c->fc.job);
    c->input = fc_input;
    c->model_base = o->rss_start + c->fc.params_bytes;
    return 0;
}

static int circuit_load_builtin(circuit_t *c, const batch_opts *o)
{
    cuzk_error err = {0};
    if (!strcmp(o->kind, "synthetic")) {
        if (!o->quiet)
            fprintf(stderr, "setting up the synthetic circuit (2^%u rows, test parameters) ...\n", o->log_rows);
        if (builtin_synthetic_create(o->log_rows, o->threads, &c->syn, &err)) {
            fprintf(stderr, "cuzk-bench batch: %s\n", err.msg);
            return -1;
        }
        c->kind = builtin_synthetic_kind(c->syn);
        c->params = builtin_synthetic_params(c->syn);
        c->hook = builtin_synthetic_verify_hook(c->syn);
        c->synin = calloc(o->count, sizeof *c->synin);
        for (unsigned i = 0; i < o->count; i++)
            c->synin[i].seed = 1000003ULL * (i + 1);
        c->input = synthetic_input;
        return 0;
    }
    if (!strcmp(o->kind, "r1cs")) {
        if (!o->r1cs || !o->zkey || !o->wtns) {
            fprintf(stderr, "cuzk-bench batch: --kind r1cs needs --r1cs, --zkey and --wtns\n");
            return -1;
        }
        cuzk_status st = r1cs_read_file(&c->r1cs, o->r1cs, &err);
        if (!st)
            st = zkey_read_file(&c->zkey, o->zkey, 0, &err);
        if (!st)
            st = wtns_read_file(&c->w, o->wtns, &err);
        if (!st)
            st = wtns_check_count(&c->w, c->r1cs.n_wires, o->r1cs, &err);
        if (!st)
            st = builtin_r1cs_create(&c->r1cs, &c->zkey, &c->r1, &err);
        if (st) {
            fprintf(stderr, "cuzk-bench batch: %s\n", err.msg);
            return -1;
        }
        c->wits = malloc(o->partitions * sizeof *c->wits);
        for (unsigned i = 0; i < o->partitions; i++)
            c->wits[i] = c->w.w; /* every partition proves the same witness */
        c->r1in = (builtin_r1cs_input){c->wits, o->partitions};
        c->kind = builtin_r1cs_kind(c->r1);
        c->params = builtin_r1cs_params(c->r1);
        c->hook = builtin_r1cs_verify_hook(c->r1);
        c->input = r1cs_input;
        return 0;
    }
    fprintf(stderr, "cuzk-bench batch: unknown --kind '%s' (synthetic, r1cs, porep, window-post, winning-post or snap)\n",
            o->kind);
    return -1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Nearest-rank percentile of n sorted values (n >= 1). */
static double percentile(const double *v, size_t n, double pct)
{
    size_t rank = (size_t)(pct / 100.0 * (double)n + 0.999999);
    return v[rank == 0 ? 0 : (rank > n ? n : rank) - 1];
}

static void progress(const batch_opts *o, unsigned done, unsigned total)
{
    if (o->quiet || !isatty(STDERR_FILENO))
        return;
    int width = 30, fill = total ? (int)(width * (double)done / total) : width;
    fprintf(stderr, "\r[%.*s%*s] %u/%u proofs", fill, "##############################", width - fill, "", done,
            total);
    if (done == total)
        fputc('\n', stderr);
}

/* The row's peak RSS counts from here, when its first proof is about to start: the load
 * before it (parameters read, a missing point cache built, a PCE recorded, a synthetic
 * circuit's test parameters made) keeps what it holds but not its transient peak, which the
 * row reports apart ("load_peak_rss_bytes"). *reset: whether the kernel took the reset. */
static uint64_t peak_rss_restart(bool *reset)
{
    uint64_t load_peak = bench_peak_rss();
    *reset = bench_reset_peak_rss();
    return load_peak;
}

/* The row's peak RSS fields (peak_rss_bytes: since peak_rss_restart, or since the process
 * started where the reset was refused). */
static void set_peak_rss(json_t *row, uint64_t load_peak, bool reset)
{
    json_object_set_new(row, "peak_rss_bytes", json_integer((json_int_t)bench_peak_rss()));
    json_object_set_new(row, "load_peak_rss_bytes", json_integer((json_int_t)load_peak));
    json_object_set_new(row, "peak_rss_reset", json_boolean(reset));
}

/* Point the circuit's kind at `pool` (NULL: malloc). */
static void use_pool(circuit_t *c, cuzk_abc_pool *pool)
{
    if (c->syn)
        builtin_synthetic_use_pool(c->syn, pool);
    if (c->r1)
        builtin_r1cs_use_pool(c->r1, pool);
    if (c->fc.job)
        fc_job_use_abc_pool(c->fc.job, pool);
}

/* The memory model's peak RSS of a row (JSON object), from the pipeline's bounds
 * (docs/engine.md#backpressure): at most pw partitions synthesizing or awaiting send (the
 * permits), the channel's capacity queued and one a prover worker proving hold a/b/c and
 * their witness (the kind's synthesized working set), the proving ones also the prover's
 * (its expected working set); up to one a finalizer pending finish holds the expected set
 * less a/b/c; never more partitions than the jobs in flight have. serial: one partition at
 * a time, proving. Pool buffers are within these a/b/c shares. The kind's figures are those
 * without the safety margin its budget reservation adds (kind.h expected_bytes and
 * synthesized_bytes; partition_reserved_bytes the reservation), of direct synthesis; a
 * partition through the PCE holds no more. Beside them: the base (the process before the
 * proofs, with the Filecoin parameters' whole point cache), stack: what opening the row's
 * proving stack added to the RSS (the backend's runtime: an OpenCL platform probe maps a
 * compiler; the engine's threads), standing: what the backend holds for the engine's
 * lifetime (a GPU backend's pinned staging), pce: the PCE's mapped file (--pce; read whole
 * by every partition's products). Measured against the row's peak RSS from its first proof
 * on (peak_rss_restart). */
static json_t *memory_model(const batch_opts *o, circuit_t *c, int serial, uint64_t standing, uint64_t pce)
{
    cuzk_partition_estimate est = {0};
    cuzk_error err = {0};
    if (c->kind->estimate(c->kind->ctx, c->input(c, 0), &est, &err))
        return json_pack("{s:s}", "error", err.msg);
    uint64_t in_flight = (uint64_t)o->partitions * (o->jobs < o->count ? o->jobs : o->count);
    uint64_t cap = o->lookahead > o->pw ? o->lookahead : o->pw;
    uint64_t whole = serial ? 1 : o->pw + cap + o->gw;
    whole = whole < in_flight ? whole : in_flight;
    uint64_t proving = serial ? 1 : o->gw < whole ? o->gw : whole;
    uint64_t pending = serial ? 0 : o->finalizers;
    pending = pending < in_flight - whole ? pending : in_flight - whole;
    uint64_t part = est.expected_bytes ? est.expected_bytes : est.total_bytes;
    uint64_t synth = est.synthesized_bytes ? est.synthesized_bytes : est.total_bytes;
    uint64_t peak = c->model_base + c->stack_rss + standing + pce + proving * part + (whole - proving) * synth +
                    pending * (part - est.abc_bytes);
    return json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "base_bytes",
                     (json_int_t)c->model_base, "stack_bytes", (json_int_t)c->stack_rss, "standing_bytes",
                     (json_int_t)standing, "pce_bytes", (json_int_t)pce, "partition_bytes", (json_int_t)part,
                     "partition_synthesized_bytes", (json_int_t)synth, "partition_reserved_bytes",
                     (json_int_t)est.total_bytes, "partition_abc_bytes", (json_int_t)est.abc_bytes,
                     "whole_partitions", (json_int_t)whole, "proving_partitions", (json_int_t)proving,
                     "pending_partitions", (json_int_t)pending, "peak_rss_bytes", (json_int_t)peak);
}

/* The row's proving stack (prover/stack.h): o's backend (--backend, --device; o's threads, o's
 * gpu workers a device); for a pipeline row (serial 0) the engine (o's partition workers,
 * lookahead, gpu workers, finalizers, --abc-pool, --budget); for the Filecoin kinds their
 * parameters, not charged to the budget (the memory model counts them in its base), and
 * with --pce the PCE cache, not in the background (batch_fc_use_pce), charged to the
 * engine's budget. NULL after a message. */
static prover_stack *stack_open(const batch_opts *o, int serial)
{
    backend_config bc = o->backend;
    bc.cpu_threads = o->threads;
    bc.workers_per_device = o->gw;
    cuzk_engine_config ec;
    cuzk_engine_config_default(&ec);
    ec.partition_workers = o->pw;
    ec.synthesis_lookahead = o->lookahead;
    ec.gpu_workers_per_device = o->gw;
    ec.finalizer_threads = o->finalizers;
    ec.abc_pool = o->abc_pool;
    ec.abc_pool_cfg.idle_ms = 0;
    if (o->budget) {
        ec.memory_budget_auto = false;
        ec.memory_budget_bytes = o->budget;
    }
    fc_srs_config sc;
    batch_fc_srs_config(&o->fc, o->threads, &sc);
    pce_cache_config pc = {.background = false, .record = true, .eval_threads = 1};
    prover_stack_config cfg = {.backend = &bc, .engine = serial ? NULL : &ec,
                               .filecoin = batch_fc_type(o->kind) ? &sc : NULL, .pce = o->pce ? &pc : NULL};
    prover_stack *st = NULL;
    cuzk_error err = {0};
    if (prover_stack_create(&cfg, &st, &err)) {
        fprintf(stderr, "cuzk-bench batch: %s\n", err.msg);
        return NULL;
    }
    if (!o->quiet)
        fprintf(stderr, "cuzk-bench batch: prover backend %s\n", backend_describe(prover_stack_backend(st)));
    return st;
}

/* One engine run on the stack's engine; returns a JSON object (NULL on failure). */
static json_t *run_engine(const batch_opts *o, circuit_t *c, prover_stack *st)
{
    cuzk_error err = {0};
    cuzk_engine *e = prover_stack_engine(st);
    use_pool(c, cuzk_engine_abc_pool(e));
    /* charged by the backend from create to destroy (engine/backend.h attach: a GPU
     * backend's pinned staging); the only bytes the budget may hold at the end */
    cuzk_counter_value ctr0[CUZK_COUNTER_COUNT];
    cuzk_engine_counters(e, ctr0);
    const uint64_t standing = (uint64_t)ctr0[CUZK_CTR_MEMORY_USED_BYTES].current;
    if (o->pce && batch_fc_use_pce(&c->fc, prover_stack_pce(st))) {
        json_decref(batch_fc_pce_stop(&c->fc));
        return NULL;
    }
    double *lat = calloc(o->count, sizeof *lat);
    unsigned submitted = 0, done = 0, verified = 0, failed = 0;
    bool reset;
    uint64_t load_peak = peak_rss_restart(&reset);
    double t0 = bench_now();
    int bad = 0;
    while (done < o->count && !bad) {
        while (submitted < o->count && submitted - done < o->jobs) {
            cuzk_job_request req = {c->kind, c->input(c, submitted), c->params, o->partitions,
                                    CUZK_PRIORITY_NORMAL, c->hook};
            uint64_t id;
            if (cuzk_engine_submit(e, &req, &id, &err)) {
                fprintf(stderr, "cuzk-bench batch: submit: %s\n", err.msg);
                bad = 1;
                break;
            }
            submitted++;
        }
        uint64_t id;
        if (bad || cuzk_engine_wait_any(e, -1, &id, &err))
            break;
        cuzk_job_result res;
        if (cuzk_engine_wait(e, id, -1, &res, &err))
            break;
        if (res.state != CUZK_JOB_DONE) {
            fprintf(stderr, "cuzk-bench batch: job %lu %s: %s\n", (unsigned long)id, cuzk_job_state_name(res.state),
                    res.error.msg);
            failed++;
        }
        verified += res.verified_partitions;
        lat[done++] = res.timings.total_ms / 1e3;
        cuzk_job_result_free(&res);
        progress(o, done, o->count);
    }
    double elapsed = bench_now() - t0;
    cuzk_engine_wait_idle(e, 60000, &err);
    /* the PCE's figures, then its mapping's charge returned to the budget */
    json_t *pce = batch_fc_pce_stop(&c->fc);
    /* the pool's figures at the end, then its free buffers given back, after which every
     * counter must be zero */
    cuzk_abc_pool_stats ps = {0};
    if (cuzk_engine_abc_pool(e)) {
        cuzk_abc_pool_stats_get(cuzk_engine_abc_pool(e), &ps);
        cuzk_abc_pool_reclaim(cuzk_engine_abc_pool(e), UINT64_MAX);
    }
    cuzk_counter_value ctr[CUZK_COUNTER_COUNT];
    cuzk_engine_counters(e, ctr);
    if (bad || done < o->count) {
        json_decref(pce);
        free(lat);
        return NULL;
    }
    qsort(lat, done, sizeof *lat, cmp_double);
    json_t *peaks = json_object(), *end = json_object();
    for (int i = 0; i < CUZK_COUNTER_COUNT; i++) {
        json_object_set_new(peaks, cuzk_counter_name((cuzk_counter_id)i), json_integer(ctr[i].peak));
        json_object_set_new(end, cuzk_counter_name((cuzk_counter_id)i), json_integer(ctr[i].current));
    }
    json_t *j = json_pack("{s:s, s:i, s:i, s:i, s:i, s:i, s:f, s:f, s:f, s:f, s:i, s:i, s:i, s:I, s:o, s:o}",
                          "mode", "pipeline", "proofs", (int)done, "failed", (int)failed, "partitions",
                          (int)o->partitions, "verified", (int)verified, "jobs_in_flight", (int)o->jobs,
                          "seconds_per_proof", elapsed / done, "elapsed_s", elapsed, "p50_latency_s", percentile(lat, done, 50),
                          "p95_latency_s", percentile(lat, done, 95), "partition_workers", (int)o->pw, "gpu_workers", (int)o->gw,
                          "channel_capacity", (int)(o->lookahead > o->pw ? o->lookahead : o->pw),
                          "peak_permits_held", (json_int_t)ctr[CUZK_CTR_PERMITS_HELD].peak, "peak_counters", peaks,
                          "counters_at_end", end);
    set_peak_rss(j, load_peak, reset);
    json_object_set_new(j, "standing_bytes", json_integer((json_int_t)standing));
    json_object_set_new(j, "backend", json_string(backend_describe(prover_stack_backend(st))));
    json_object_set_new(j, "abc_pool", json_pack("{s:b, s:I, s:I, s:I, s:I, s:I}", "on", o->abc_pool, "peak_total_bytes",
                                                 (json_int_t)ctr[CUZK_CTR_POOL_TOTAL_BYTES].peak, "peak_in_use_bytes",
                                                 (json_int_t)ctr[CUZK_CTR_POOL_IN_USE_BYTES].peak, "created",
                                                 (json_int_t)ps.created, "reused", (json_int_t)ps.reused,
                                                 "hugepage_refused", (json_int_t)ps.hugepage_refused));
    uint64_t pce_bytes = (uint64_t)json_integer_value(json_object_get(pce, "mapped_bytes"));
    json_object_set_new(j, "model", memory_model(o, c, 0, standing, pce_bytes));
    json_object_set_new(j, "pce", pce);
    free(lat);
    return j;
}

/* Baseline: the same proofs, one partition at a time, no pipeline (synthesize, prove_start,
 * prove_finish, verify, in sequence, all threads on each step). */
static json_t *run_serial(const batch_opts *o, circuit_t *c, prover_stack *st)
{
    backend *bk = prover_stack_backend(st);
    const cuzk_prover_backend be = *backend_table(bk);
    cuzk_error err = {0};
    atomic_bool cancel = false;
    unsigned verified = 0;
    if (o->pce && batch_fc_use_pce(&c->fc, prover_stack_pce(st))) {
        json_decref(batch_fc_pce_stop(&c->fc));
        return NULL;
    }
    double *lat = calloc(o->count, sizeof *lat);
    bool reset;
    uint64_t load_peak = peak_rss_restart(&reset);
    double t0 = bench_now();
    for (unsigned j = 0; j < o->count; j++) {
        double tj = bench_now();
        const void *in = c->input(c, j);
        for (unsigned p = 0; p < o->partitions; p++) {
            void *as = NULL, *pending = NULL;
            uint8_t proof[CUZK_PROOF_BYTES];
            cuzk_status st = c->kind->synthesize(c->kind->ctx, in, p, &cancel, &as, &err);
            if (!st)
                st = be.prove_start(be.ctx, 0, c->params, as, NULL, &pending, &err);
            if (as)
                c->kind->release_abc(c->kind->ctx, as);
            if (!st)
                st = be.prove_finish(be.ctx, pending, proof, &err);
            if (as)
                c->kind->free_assignment(c->kind->ctx, as);
            if (!st && c->hook->verify(c->hook->ctx, in, c->params, p, proof, &err) == CUZK_OK)
                verified++;
            if (st) {
                fprintf(stderr, "cuzk-bench batch: serial: %s\n", err.msg);
                json_decref(batch_fc_pce_stop(&c->fc));
                free(lat);
                return NULL;
            }
        }
        lat[j] = bench_now() - tj;
        progress(o, j + 1, o->count);
    }
    double elapsed = bench_now() - t0;
    qsort(lat, o->count, sizeof *lat, cmp_double);
    json_t *r = json_pack("{s:s, s:i, s:i, s:i, s:f, s:f, s:f, s:f}", "mode", "serial", "proofs", (int)o->count,
                          "partitions", (int)o->partitions, "verified", (int)verified, "seconds_per_proof",
                          elapsed / o->count, "elapsed_s", elapsed, "p50_latency_s", percentile(lat, o->count, 50),
                          "p95_latency_s", percentile(lat, o->count, 95));
    set_peak_rss(r, load_peak, reset);
    json_object_set_new(r, "backend", json_string(backend_describe(bk)));
    json_t *pce = batch_fc_pce_stop(&c->fc);
    json_object_set_new(r, "model", memory_model(o, c, 1, 0,
                                                 (uint64_t)json_integer_value(json_object_get(pce, "mapped_bytes"))));
    json_object_set_new(r, "pce", pce);
    free(lat);
    return r;
}

/* The command line of this batch (for --row children). */
static int g_argc;
static char **g_argv;

/* Run one row in a fresh process: this program executed again with the same options plus
 * --row MODE --partition-workers PW; its stdout carries the row's JSON. The row's peak RSS
 * is the child's maximum resident set (getrusage through wait4, which counts from the
 * child's peak_rss_restart as VmHWM does), replacing its own VmHWM reading. NULL when the
 * child fails. */
static json_t *in_child(const char *mode, unsigned pw)
{
    int fd[2];
    if (pipe(fd) != 0)
        return NULL;
    char pwbuf[16];
    snprintf(pwbuf, sizeof pwbuf, "%u", pw);
    char **av = calloc((size_t)g_argc + 8, sizeof *av);
    if (!av) {
        close(fd[0]), close(fd[1]);
        return NULL;
    }
    int n = 0;
    av[n++] = "cuzk-bench";
    for (int i = 0; i < g_argc; i++)
        av[n++] = g_argv[i];
    av[n++] = "--row";
    av[n++] = (char *)mode;
    av[n++] = "--partition-workers";
    av[n++] = pwbuf;
    av[n] = NULL;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        if (dup2(fd[1], STDOUT_FILENO) < 0)
            _exit(3);
        close(fd[1]);
        execv("/proc/self/exe", av);
        fprintf(stderr, "cuzk-bench batch: exec /proc/self/exe: %s\n", strerror(errno));
        _exit(3);
    }
    free(av);
    close(fd[1]);
    if (pid < 0) {
        close(fd[0]);
        return NULL;
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    ssize_t got;
    while ((got = read(fd[0], buf + len, cap - len - 1)) > 0) {
        len += (size_t)got;
        if (len + 1 >= cap)
            buf = realloc(buf, cap *= 2);
    }
    close(fd[0]);
    buf[len] = 0;
    int status;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    pid_t w;
    while ((w = wait4(pid, &status, 0, &ru)) < 0 && errno == EINTR)
        ;
    json_t *j = w == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? json_loads(buf, 0, NULL) : NULL;
    free(buf);
    if (j) {
        json_object_set(j, "vm_hwm_bytes", json_object_get(j, "peak_rss_bytes"));
        json_object_set_new(j, "peak_rss_bytes", json_integer((json_int_t)ru.ru_maxrss * 1024));
    }
    return j;
}

static void print_row(FILE *out, json_t *r)
{
    char pw[16] = "-";
    json_t *jpw = json_object_get(r, "partition_workers");
    if (jpw)
        snprintf(pw, sizeof pw, "%lld", (long long)json_integer_value(jpw));
    fprintf(out, "%-9s %4s %9.3f %9.3f %9.3f %8.1f %9.1f   %lld/%lld\n", json_string_value(json_object_get(r, "mode")),
            pw, json_real_value(json_object_get(r, "seconds_per_proof")),
            json_real_value(json_object_get(r, "p50_latency_s")), json_real_value(json_object_get(r, "p95_latency_s")),
            (double)json_integer_value(json_object_get(r, "peak_rss_bytes")) / (1 << 20),
            (double)json_integer_value(json_object_get(json_object_get(r, "model"), "peak_rss_bytes")) / (1 << 20),
           (long long)json_integer_value(json_object_get(r, "verified")),
           (long long)(json_integer_value(json_object_get(r, "proofs")) *
                       json_integer_value(json_object_get(r, "partitions"))));
}

/* A row is healthy when every partition proof verified and (pipeline rows) every flight
 * counter returned to zero. */
static int row_ok(json_t *r)
{
    long long want = json_integer_value(json_object_get(r, "proofs")) *
                     json_integer_value(json_object_get(r, "partitions"));
    if (json_integer_value(json_object_get(r, "verified")) != want)
        return 0;
    /* every counter back at zero, but the budget's bytes: the backend's standing charge */
    json_int_t standing = json_integer_value(json_object_get(r, "standing_bytes"));
    json_t *end = json_object_get(r, "counters_at_end"), *v;
    const char *k;
    json_object_foreach(end, k, v) if (json_integer_value(v) != (strcmp(k, "memory_used_bytes") ? 0 : standing)) return 0;
    return 1;
}

static const char USAGE[] =
    "usage: cuzk-bench batch [--kind synthetic|r1cs|porep|window-post|winning-post|snap] [--log-constraints K]\n"
    "                        [--partitions N] [--count C] [-j J] [--partition-workers PW] [--gpu-workers GW]\n"
    "                        [--lookahead L] [--threads T] [--finalizers F] [--budget BYTES] [--sweep-pw 1,2,4,8]\n"
    "                        [--r1cs F --zkey F --wtns F] [--backend auto|cpu|cuda|opencl] [--device N]\n"
    "                        [--c1 FILE | --vanilla FILE...] [--param-cache DIR] [--cache-dir DIR]\n"
    "                        [--registered-proof ID] [--miner ACTOR] [--randomness HEX] [--partition K]\n"
    "                        [--comm-r-old HEX --comm-r-new HEX --comm-d-new HEX] [--abc-pool] [--pce]\n"
    "                        [--json] [--quiet]\n"
    "  synthetic: a built-in circuit of 2^K rows (test parameters made at start)\n"
    "  r1cs:      a circom circuit + snarkjs zkey; every partition proves the given witness\n"
    "  porep:     the C2 of a C1 output (--c1; any wire form), its partitions as the job's\n"
    "  window-post, winning-post, snap: vanilla proof files (--vanilla, each bincode or a JSON\n"
    "             list of base64 blobs, repeatable) with the public side as for cuzk post / snap\n"
    "  Filecoin parameters: the official v28 files in --param-cache (default as cuzk c2)\n"
    "  --sweep-pw: a serial row and one row per PW, each in a fresh process (peak RSS its own)\n"
    "  --abc-pool: partitions' a/b/c from the engine's reused buffer pool\n"
    "  --pce:      Filecoin kinds: synthesis through the PCE in --cache-dir, recorded there by the\n"
    "              first row when missing (as the daemon's [srs] pce), ready before any proof is timed\n"
    "  every row shows the memory model's peak RSS beside the measured one (\"model\")\n";

/* A byte count: digits with an optional KiB/MiB/GiB/TiB suffix, >= 1. */
static uint64_t size_arg(const char *v, const char *name, int *bad)
{
    static const struct {
        const char *suffix;
        unsigned shift;
    } units[] = {{"", 0}, {"KiB", 10}, {"MiB", 20}, {"GiB", 30}, {"TiB", 40}};
    char *end;
    errno = 0;
    unsigned long long x = (v[0] >= '0' && v[0] <= '9') ? strtoull(v, &end, 10) : 0;
    for (size_t i = 0; x && errno == 0 && i < sizeof units / sizeof units[0]; i++)
        if (!strcmp(end, units[i].suffix) && x <= (UINT64_MAX >> units[i].shift))
            return (uint64_t)x << units[i].shift;
    fprintf(stderr, "cuzk-bench batch: %s needs a positive byte count (optionally with KiB/MiB/GiB/TiB), got '%s'\n",
            name, v);
    *bad = 1;
    return 0;
}

/* Validate a --sweep-pw list ("1,2,4,8": integers in 1..1024) before anything runs. */
static int sweep_ok(const char *list)
{
    const char *p = list;
    if (!*p)
        return 0;
    while (*p) {
        char *end;
        unsigned long pw = strtoul(p, &end, 10);
        if (end == p || pw < 1 || pw > 1024 || (*end && *end != ','))
            return 0;
        p = *end == ',' ? end + 1 : end;
        if (*end == ',' && !*p)
            return 0;
    }
    return 1;
}

static unsigned uarg(const char *v, const char *name, unsigned lo, unsigned hi, int *bad)
{
    char *end;
    unsigned long x = v ? strtoul(v, &end, 10) : 0;
    if (!v || *end || x < lo || x > hi) {
        fprintf(stderr, "cuzk-bench batch: %s needs an integer in %u..%u\n", name, lo, hi);
        *bad = 1;
    }
    return (unsigned)x;
}

/* 64-bit option value; *bad after a message. */
static uint64_t u64arg(const char *v, const char *name, int *bad)
{
    char *end = NULL;
    errno = 0;
    unsigned long long x = v && v[0] >= '0' && v[0] <= '9' ? strtoull(v, &end, 10) : 0;
    if (!end || *end || errno) {
        fprintf(stderr, "cuzk-bench batch: %s needs a non-negative integer, got '%s'\n", name, v ? v : "");
        *bad = 1;
    }
    return (uint64_t)x;
}

/* The options of a Filecoin kind (1: taken with its value, 0: not one of them). */
static int fc_flag(batch_fc_opts *fc, const char *a, const char *v, int *bad)
{
    if (!strcmp(a, "--c1") || !strcmp(a, "--vanilla")) {
        if (fc->nfiles == sizeof fc->files / sizeof fc->files[0]) {
            fprintf(stderr, "cuzk-bench batch: too many input files\n");
            *bad = 1;
        } else {
            fc->files[fc->nfiles++] = v;
        }
    } else if (!strcmp(a, "--param-cache")) {
        fc->param_cache = v;
    } else if (!strcmp(a, "--cache-dir")) {
        fc->cache_dir = v;
    } else if (!strcmp(a, "--registered-proof")) {
        fc->registered_proof = u64arg(v, a, bad);
    } else if (!strcmp(a, "--miner")) {
        fc->miner = u64arg(v, a, bad);
        fc->has_miner = 1;
    } else if (!strcmp(a, "--randomness")) {
        fc->randomness = v;
    } else if (!strcmp(a, "--partition")) {
        fc->partition = uarg(v, a, 0, 1u << 20, bad);
    } else if (!strcmp(a, "--comm-r-old")) {
        fc->comm_r_old = v;
    } else if (!strcmp(a, "--comm-r-new")) {
        fc->comm_r_new = v;
    } else if (!strcmp(a, "--comm-d-new")) {
        fc->comm_d_new = v;
    } else {
        return 0;
    }
    return 1;
}

/* One row (serial 1: the serial baseline, else the pipeline) in this process: the circuit
 * and the row's proving stack, the row, then both freed. The built-in circuits are made
 * before the stack (the memory model's base is the process holding them, without the
 * stack: the model adds what opening the stack added, stack_bytes), the Filecoin request
 * after it (its parameters come from the stack). Returns the row's JSON; NULL after a
 * message, *load_failed set when the circuit could not be loaded. */
static json_t *row(batch_opts *o, int serial, int *load_failed)
{
    circuit_t c;
    memset(&c, 0, sizeof c);
    c.ctx = &c;
    int fc = batch_fc_type(o->kind) != 0;
    *load_failed = !fc && circuit_load_builtin(&c, o);
    if (*load_failed)
        return NULL;
    uint64_t rss0 = bench_rss();
    if (!fc)
        c.model_base = rss0;
    prover_stack *st = stack_open(o, serial);
    uint64_t rss1 = bench_rss();
    c.stack_rss = rss1 > rss0 ? rss1 - rss0 : 0;
    json_t *r = NULL;
    if (st && fc)
        *load_failed = circuit_load_fc(&c, o, prover_stack_fc_srs(st));
    if (st && !*load_failed)
        r = serial ? run_serial(o, &c, st) : run_engine(o, &c, st);
    batch_fc_free(&c.fc); /* the job's parameters go back before the stack goes */
    prover_stack_destroy(st);
    return r;
}

/* --row MODE: this process is one row of a sweep; print its JSON on stdout. */
static int run_row(batch_opts *o)
{
    int load_failed;
    json_t *r = row(o, !strcmp(o->row, "serial"), &load_failed);
    if (load_failed)
        return 2;
    if (!r)
        return 1;
    char *txt = json_dumps(r, JSON_COMPACT);
    printf("%s\n", txt);
    free(txt);
    json_decref(r);
    return 0;
}

int bench_batch(int argc, char **argv)
{
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    static batch_opts o; /* large (the input file list); one per process */
    memset(&o, 0, sizeof o);
    o.kind = "synthetic";
    o.log_rows = 12, o.partitions = 2, o.count = 4, o.jobs = 2, o.pw = 2, o.gw = 1, o.lookahead = 1;
    o.threads = ncpu > 0 ? (unsigned)ncpu : 1;
    o.finalizers = 2;
    o.rss_start = bench_rss();
    g_argc = argc, g_argv = argv;
    backend_config_default(&o.backend);
    int bad = 0;
    for (int i = 1; i < argc && !bad; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        cuzk_error be;
        int taken = backend_config_flag(&o.backend, &o.device, a, v, &be);
        if (taken < 0) {
            fprintf(stderr, "cuzk-bench batch: %s\n%s", be.msg, USAGE);
            return 2;
        }
        if (taken) {
            i++;
            continue;
        }
        if (!strcmp(a, "--json"))
            o.json = 1;
        else if (!strcmp(a, "--quiet"))
            o.quiet = 1;
        else if (!strcmp(a, "--abc-pool"))
            o.abc_pool = 1;
        else if (!strcmp(a, "--pce"))
            o.pce = 1;
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(USAGE, stdout);
            return 0;
        } else if (!v) {
            fprintf(stderr, "cuzk-bench batch: unknown or incomplete option '%s'\n%s", a, USAGE);
            return 2;
        } else {
            i++;
            if (fc_flag(&o.fc, a, v, &bad))
                continue;
            if (!strcmp(a, "--kind"))
                o.kind = v;
            else if (!strcmp(a, "--row") && (!strcmp(v, "serial") || !strcmp(v, "pipeline")))
                o.row = v;
            else if (!strcmp(a, "--log-constraints"))
                o.log_rows = uarg(v, a, 2, 26, &bad);
            else if (!strcmp(a, "--partitions"))
                o.partitions = uarg(v, a, 1, 1000, &bad);
            else if (!strcmp(a, "--count"))
                o.count = uarg(v, a, 1, 100000, &bad);
            else if (!strcmp(a, "-j"))
                o.jobs = uarg(v, a, 1, 10000, &bad);
            else if (!strcmp(a, "--partition-workers"))
                o.pw = uarg(v, a, 1, 1024, &bad);
            else if (!strcmp(a, "--gpu-workers"))
                o.gw = uarg(v, a, 1, CUZK_ENGINE_MAX_GPU_WORKERS_PER_DEVICE, &bad);
            else if (!strcmp(a, "--lookahead"))
                o.lookahead = uarg(v, a, 0, 1024, &bad);
            else if (!strcmp(a, "--threads"))
                o.threads = uarg(v, a, 1, 1024, &bad);
            else if (!strcmp(a, "--finalizers"))
                o.finalizers = uarg(v, a, 1, 64, &bad);
            else if (!strcmp(a, "--budget"))
                o.budget = size_arg(v, a, &bad);
            else if (!strcmp(a, "--sweep-pw"))
                o.sweep = v;
            else if (!strcmp(a, "--r1cs"))
                o.r1cs = v;
            else if (!strcmp(a, "--zkey"))
                o.zkey = v;
            else if (!strcmp(a, "--wtns"))
                o.wtns = v;
            else {
                fprintf(stderr, "cuzk-bench batch: unknown option '%s'\n%s", a, USAGE);
                return 2;
            }
        }
    }
    if (!bad && o.sweep && !sweep_ok(o.sweep)) {
        fprintf(stderr, "cuzk-bench batch: --sweep-pw needs a comma-separated list of integers in 1..1024, got '%s'\n",
                o.sweep);
        bad = 1;
    }
    if (!bad && o.pce && !batch_fc_type(o.kind)) {
        fprintf(stderr, "cuzk-bench batch: --pce is for the Filecoin kinds (porep, window-post, winning-post, snap), not '%s'\n",
                o.kind);
        bad = 1;
    }
    if (bad)
        return 2;
    if (o.row)
        return run_row(&o);
    json_t *rows = json_array();
    int rc = 0;
    if (o.sweep) { /* every row in a process of its own, which loads the circuit itself */
        json_t *base = in_child("serial", o.pw);
        if (base)
            json_array_append_new(rows, base);
        else
            rc = 1;
        for (const char *p = o.sweep; *p && !rc;) {
            char *end;
            unsigned long pw = strtoul(p, &end, 10); /* validated by sweep_ok */
            json_t *r = in_child("pipeline", (unsigned)pw);
            if (r)
                json_array_append_new(rows, r);
            else
                rc = 1;
            p = *end == ',' ? end + 1 : end;
        }
    } else {
        int load_failed;
        json_t *r = row(&o, 0, &load_failed);
        if (load_failed) {
            json_decref(rows);
            return 2;
        }
        if (r)
            json_array_append_new(rows, r);
        else
            rc = 1;
    }
    FILE *tbl = o.json ? stderr : stdout; /* with --json, stdout carries only the JSON object */
    if (json_array_size(rows) > 0) {
        long long parts = json_integer_value(json_object_get(json_array_get(rows, 0), "partitions"));
        if (batch_fc_type(o.kind))
            fprintf(tbl, "%s proof of %s, %lld partitions x %u proofs, j=%u, prover threads %u, a/b/c pool %s, PCE %s\n",
                    o.kind, o.fc.nfiles ? o.fc.files[0] : "-", parts, o.count, o.jobs, o.threads,
                    o.abc_pool ? "on" : "off", o.pce ? "on" : "off");
        else
            fprintf(tbl, "%s circuit, 2^%u rows, %lld partitions x %u proofs, j=%u, prover threads %u, a/b/c pool %s\n",
                    o.kind, o.log_rows, parts, o.count, o.jobs, o.threads, o.abc_pool ? "on" : "off");
        fprintf(tbl, "%-9s %4s %9s %9s %9s %8s %9s   %s\n", "mode", "pw", "s/proof", "p50 s", "p95 s", "RSS MiB",
                "model MiB", "verified");
    }
    size_t i;
    json_t *r;
    json_array_foreach(rows, i, r)
    {
        print_row(tbl, r);
        if (!row_ok(r)) {
            fprintf(stderr, "cuzk-bench batch: %s row: not every proof verified or counters not at zero\n",
                    json_string_value(json_object_get(r, "mode")));
            rc = rc ? rc : 1;
        }
    }
    json_t *out = NULL;
    if (json_array_size(rows) == 1) {
        out = json_incref(json_array_get(rows, 0));
    } else if (json_array_size(rows) > 1) {
        json_t *serial = json_array_get(rows, 0);
        double base = json_real_value(json_object_get(serial, "seconds_per_proof")), best = 0;
        json_array_foreach(rows, i, r) if (i > 0)
        {
            double s = json_real_value(json_object_get(r, "seconds_per_proof"));
            if (best == 0 || s < best)
                best = s;
        }
        fprintf(tbl, "best pipeline speedup over serial: %.2fx\n", best > 0 ? base / best : 0);
        out = json_pack("{s:O, s:f}", "sweep", rows, "best_speedup_vs_serial", best > 0 ? base / best : 0);
    }
    if (o.json && out) {
        char *txt = json_dumps(out, JSON_COMPACT);
        printf("%s\n", txt);
        free(txt);
    }
    json_decref(out);
    json_decref(rows);
    return rc;
}
