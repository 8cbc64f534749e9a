/* cuzk-bench batch: submit C multi-partition proofs to the engine keeping J in flight,
 * verify every partition proof, and report s/proof, latency percentiles, peak RSS and the
 * peak of every flight counter. --sweep-pw runs one configuration per partition_workers
 * value, each in a fresh child process (so VmHWM is per configuration), plus a "serial"
 * baseline row that proves the same partitions one at a time without the pipeline. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "bench.h"
#include "cs/r1cs.h"
#include "cs/wtns.h"
#include "backends/backends.h"
#include "backends/cpu.h"
#include "engine/builtin/builtin.h"
#include "engine/engine.h"

typedef struct {
    const char *kind; /* "synthetic" or "r1cs" */
    unsigned log_rows, partitions, count, jobs, pw, gw, lookahead, threads, finalizers;
    uint64_t budget; /* 0 = auto */
    const char *r1cs, *zkey, *wtns;
    const char *sweep;
    int json, quiet, abc_pool;
    backend_config backend; /* --backend, --device */
    uint32_t device;
} batch_opts;

/* The backend of o (--backend, --device) with o's threads and workers a device; NULL after a
 * message on failure. */
static backend *open_backend(const batch_opts *o)
{
    backend_config bc = o->backend;
    bc.cpu_threads = o->threads;
    bc.workers_per_device = o->gw;
    backend *b = NULL;
    cuzk_error err = {0};
    if (backend_open(&bc, &b, &err)) {
        fprintf(stderr, "cuzk-bench batch: backend: %s\n", err.msg);
        return NULL;
    }
    if (!o->quiet)
        fprintf(stderr, "cuzk-bench batch: prover backend %s\n", backend_describe(b));
    return b;
}

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

static int circuit_load(circuit_t *c, const batch_opts *o)
{
    cuzk_error err = {0};
    memset(c, 0, sizeof *c);
    c->ctx = c;
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
    fprintf(stderr, "cuzk-bench batch: unknown --kind '%s' (synthetic or r1cs)\n", o->kind);
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

/* Point the circuit's kind at `pool` (NULL: malloc). */
static void use_pool(circuit_t *c, cuzk_abc_pool *pool)
{
    if (c->syn)
        builtin_synthetic_use_pool(c->syn, pool);
    if (c->r1)
        builtin_r1cs_use_pool(c->r1, pool);
}

/* One engine run; returns a JSON object (NULL on failure). */
static json_t *run_engine(const batch_opts *o, circuit_t *c)
{
    backend *bk = open_backend(o);
    if (!bk)
        return NULL;
    cuzk_engine_config cfg;
    cuzk_engine_config_default(&cfg);
    cfg.partition_workers = o->pw;
    cfg.synthesis_lookahead = o->lookahead;
    cfg.gpu_workers_per_device = o->gw;
    cfg.finalizer_threads = o->finalizers;
    cfg.backend = backend_table(bk);
    cfg.abc_pool = o->abc_pool;
    cfg.abc_pool_cfg.idle_ms = 0;
    if (o->budget) {
        cfg.memory_budget_auto = false;
        cfg.memory_budget_bytes = o->budget;
    }
    cuzk_error err = {0};
    cuzk_engine *e;
    if (cuzk_engine_create(&cfg, &e, &err)) {
        fprintf(stderr, "cuzk-bench batch: engine: %s\n", err.msg);
        backend_close(bk);
        return NULL;
    }
    use_pool(c, cuzk_engine_abc_pool(e));
    double *lat = calloc(o->count, sizeof *lat);
    unsigned submitted = 0, done = 0, verified = 0, failed = 0;
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
    /* the pool's figures at the end, then its free buffers given back, after which every
     * counter must be zero */
    cuzk_abc_pool_stats ps = {0};
    if (cuzk_engine_abc_pool(e)) {
        cuzk_abc_pool_stats_get(cuzk_engine_abc_pool(e), &ps);
        cuzk_abc_pool_reclaim(cuzk_engine_abc_pool(e), UINT64_MAX);
    }
    cuzk_counter_value ctr[CUZK_COUNTER_COUNT];
    cuzk_engine_counters(e, ctr);
    cuzk_engine_destroy(e);
    char desc[1024];
    snprintf(desc, sizeof desc, "%s", backend_describe(bk));
    backend_close(bk);
    if (bad || done < o->count) {
        free(lat);
        return NULL;
    }
    qsort(lat, done, sizeof *lat, cmp_double);
    json_t *peaks = json_object(), *end = json_object();
    for (int i = 0; i < CUZK_COUNTER_COUNT; i++) {
        json_object_set_new(peaks, cuzk_counter_name((cuzk_counter_id)i), json_integer(ctr[i].peak));
        json_object_set_new(end, cuzk_counter_name((cuzk_counter_id)i), json_integer(ctr[i].current));
    }
    json_t *j = json_pack("{s:s, s:i, s:i, s:i, s:i, s:i, s:f, s:f, s:f, s:f, s:I, s:i, s:i, s:i, s:I, s:o, s:o}",
                          "mode", "pipeline", "proofs", (int)done, "failed", (int)failed, "partitions",
                          (int)o->partitions, "verified", (int)verified, "jobs_in_flight", (int)o->jobs,
                          "seconds_per_proof", elapsed / done, "elapsed_s", elapsed, "p50_latency_s", percentile(lat, done, 50),
                          "p95_latency_s", percentile(lat, done, 95), "peak_rss_bytes",
                          (json_int_t)bench_peak_rss(), "partition_workers", (int)o->pw, "gpu_workers", (int)o->gw,
                          "channel_capacity", (int)(o->lookahead > o->pw ? o->lookahead : o->pw),
                          "peak_permits_held", (json_int_t)ctr[CUZK_CTR_PERMITS_HELD].peak, "peak_counters", peaks,
                          "counters_at_end", end);
    json_object_set_new(j, "backend", json_string(desc));
    free(lat);
    return j;
}

/* Baseline: the same proofs, one partition at a time, no pipeline (synthesize, prove_start,
 * prove_finish, verify, in sequence, all threads on each step). */
static json_t *run_serial(const batch_opts *o, circuit_t *c)
{
    backend *bk = open_backend(o);
    if (!bk)
        return NULL;
    const cuzk_prover_backend be = *backend_table(bk);
    cuzk_error err = {0};
    atomic_bool cancel = false;
    unsigned verified = 0;
    double *lat = calloc(o->count, sizeof *lat);
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
                free(lat);
                backend_close(bk);
                return NULL;
            }
        }
        lat[j] = bench_now() - tj;
        progress(o, j + 1, o->count);
    }
    double elapsed = bench_now() - t0;
    qsort(lat, o->count, sizeof *lat, cmp_double);
    json_t *r = json_pack("{s:s, s:i, s:i, s:i, s:f, s:f, s:f, s:f, s:I}", "mode", "serial", "proofs", (int)o->count,
                          "partitions", (int)o->partitions, "verified", (int)verified, "seconds_per_proof",
                          elapsed / o->count, "elapsed_s", elapsed, "p50_latency_s", percentile(lat, o->count, 50),
                          "p95_latency_s", percentile(lat, o->count, 95), "peak_rss_bytes",
                          (json_int_t)bench_peak_rss());
    json_object_set_new(r, "backend", json_string(backend_describe(bk)));
    backend_close(bk);
    free(lat);
    return r;
}

/* Run fn in a forked child (fresh VmHWM) and return its JSON result. */
static json_t *in_child(json_t *(*fn)(const batch_opts *, circuit_t *), const batch_opts *o, circuit_t *c)
{
    int fd[2];
    if (pipe(fd) != 0)
        return NULL;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        json_t *j = fn(o, c);
        char *txt = j ? json_dumps(j, JSON_COMPACT) : NULL;
        if (txt && write(fd[1], txt, strlen(txt)) < 0)
            _exit(3);
        _exit(txt ? 0 : 1);
    }
    close(fd[1]);
    if (pid < 0) {
        close(fd[0]);
        return NULL;
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    ssize_t n;
    while ((n = read(fd[0], buf + len, cap - len - 1)) > 0) {
        len += (size_t)n;
        if (len + 1 >= cap)
            buf = realloc(buf, cap *= 2);
    }
    close(fd[0]);
    buf[len] = 0;
    int status;
    waitpid(pid, &status, 0);
    json_t *j = WIFEXITED(status) && WEXITSTATUS(status) == 0 ? json_loads(buf, 0, NULL) : NULL;
    free(buf);
    return j;
}

static void print_row(FILE *out, json_t *r)
{
    char pw[16] = "-";
    json_t *jpw = json_object_get(r, "partition_workers");
    if (jpw)
        snprintf(pw, sizeof pw, "%lld", (long long)json_integer_value(jpw));
    fprintf(out, "%-9s %4s %9.3f %9.3f %9.3f %8.1f   %lld/%lld\n", json_string_value(json_object_get(r, "mode")), pw,
           json_real_value(json_object_get(r, "seconds_per_proof")),
           json_real_value(json_object_get(r, "p50_latency_s")), json_real_value(json_object_get(r, "p95_latency_s")),
           (double)json_integer_value(json_object_get(r, "peak_rss_bytes")) / (1 << 20),
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
    json_t *end = json_object_get(r, "counters_at_end"), *v;
    const char *k;
    json_object_foreach(end, k, v) if (json_integer_value(v) != 0) return 0;
    return 1;
}

static const char USAGE[] =
    "usage: cuzk-bench batch [--kind synthetic|r1cs] [--log-constraints K] [--partitions N] [--count C]\n"
    "                        [-j J] [--partition-workers PW] [--gpu-workers GW] [--lookahead L]\n"
    "                        [--threads T] [--finalizers F] [--budget BYTES] [--sweep-pw 1,2,4,8]\n"
    "                        [--r1cs F --zkey F --wtns F] [--backend auto|cpu|cuda|opencl] [--device N]\n"
    "                        [--abc-pool] [--json] [--quiet]\n"
    "  synthetic: a built-in circuit of 2^K rows (test parameters made at start)\n"
    "  r1cs:      a circom circuit + snarkjs zkey; every partition proves the given witness\n"
    "  --abc-pool: partitions' a/b/c from the engine's reused buffer pool\n";

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

int bench_batch(int argc, char **argv)
{
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    batch_opts o = {"synthetic", 12, 2, 4, 2, 2, 1, 1, ncpu > 0 ? (unsigned)ncpu : 1, 2, 0, NULL, NULL, NULL, NULL,
                    0, 0, 0, {0}, 0};
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
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(USAGE, stdout);
            return 0;
        } else if (!v) {
            fprintf(stderr, "cuzk-bench batch: unknown or incomplete option '%s'\n%s", a, USAGE);
            return 2;
        } else {
            i++;
            if (!strcmp(a, "--kind"))
                o.kind = v;
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
                o.gw = uarg(v, a, 1, 64, &bad);
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
    if (bad)
        return 2;
    circuit_t c;
    if (circuit_load(&c, &o))
        return 2;
    json_t *rows = json_array();
    int rc = 0;
    if (o.sweep) {
        json_t *base = in_child(run_serial, &o, &c);
        if (base)
            json_array_append_new(rows, base);
        else
            rc = 1;
        for (const char *p = o.sweep; *p && !rc;) {
            char *end;
            unsigned long pw = strtoul(p, &end, 10); /* validated by sweep_ok */
            batch_opts oo = o;
            oo.pw = (unsigned)pw;
            json_t *r = in_child(run_engine, &oo, &c);
            if (r)
                json_array_append_new(rows, r);
            else
                rc = 1;
            p = *end == ',' ? end + 1 : end;
        }
    } else {
        json_t *r = run_engine(&o, &c);
        if (r)
            json_array_append_new(rows, r);
        else
            rc = 1;
    }
    FILE *tbl = o.json ? stderr : stdout; /* with --json, stdout carries only the JSON object */
    if (json_array_size(rows) > 0) {
        fprintf(tbl, "%s circuit, 2^%u rows, %u partitions x %u proofs, j=%u, prover threads %u\n", o.kind,
                o.log_rows, o.partitions, o.count, o.jobs, o.threads);
        fprintf(tbl, "%-9s %4s %9s %9s %9s %8s   %s\n", "mode", "pw", "s/proof", "p50 s", "p95 s", "RSS MiB", "verified");
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
