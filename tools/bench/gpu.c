/* cuzk-bench gpu ntt | msm: the device NTT and H polynomial (src/gpu/ntt.h) beside the CPU's
 * (src/poly), and the device G1 MSM (src/gpu/msm.h) beside the CPU's (src/msm), in the same
 * run, at chosen sizes, each device result checked byte for byte against the CPU's.
 * tests/gpu/device-check.sh collects their JSON rows. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "gpu_bench.h"
#include "gpu/msm.h"
#include "gpu/ntt.h"
#include "msm/msm.h"
#include "poly/h.h"
#include "poly/ntt.h"

static const char USAGE_NTT[] =
    "usage: cuzk-bench gpu ntt [--log N[,N...]] [--runtime opencl|cuda] [--device N] [--threads N]\n"
    "                          [--runs N] [--json]\n"
    "  per size 2^N (default 24,27): one forward NTT and the whole bellperson H polynomial\n"
    "  (7 transforms, a b - c, 1/Z) on the device and with the CPU code on --threads threads\n"
    "  (default: all online CPUs), plus the upload of a, b, c from pinned memory; device time is\n"
    "  the best of --runs (default 3) after a warm-up, from launch to completion, data resident;\n"
    "  every device result is compared with the CPU's bytes (\"ok\"). Device: the first CUDA\n"
    "  device, else the first OpenCL device, unless --runtime / --device say otherwise.\n"
    "  --json: the table goes to stderr, stdout carries {\"device\",\"rows\":[{\"name\",\"log\",\n"
    "  \"gpu_ms\",\"cpu_ms\",\"speedup\",\"ok\"}],\"peak_rss_bytes\"}; exit 1 if a result differs\n";
static const char USAGE_MSM[] =
    "usage: cuzk-bench gpu msm [--log N[,N...]] [--mix random|filecoin] [--runtime opencl|cuda] [--device N]\n"
    "                          [--threads N] [--runs N] [--json]\n"
    "  per size 2^N (default 20): one G1 MSM on the device (gpu_msm_g1: bases resident, scalars in\n"
    "  device memory) and with the CPU code on --threads threads (default: all online CPUs) --\n"
    "  msm_g1 for --mix random (canonical scalars < 2^254), msm_g1_witness for --mix filecoin (90%\n"
    "  zeros and ones, the rest random; the CPU's witness-aware path); plus the base upload.\n"
    "  Bases: running sums of random points, a pool of at most 2^20 repeated beyond that. Device\n"
    "  time is the best of --runs (default 3) after a warm-up; the device result is compared with\n"
    "  the CPU's bytes (\"ok\"). Device choice and --json as for gpu ntt: stdout carries\n"
    "  {\"device\",\"rows\":[{\"name\",\"log\",\"gpu_ms\",\"cpu_ms\",\"speedup\",\"ok\"}],\"peak_rss_bytes\"}\n";
static const char USAGE[] =
    "usage: cuzk-bench gpu ntt|msm|partition [options] (gpu ntt --help, gpu msm --help, gpu partition --help)\n";

static cuzk_status open_device(const char *runtime, int index, gpu_bench_ctx *b, cuzk_error *err)
{
    for (int rt = GPU_RUNTIME_CUDA; rt >= 0; rt--) { /* CUDA first */
        if (runtime && strcmp(runtime, gpu_runtime_name((gpu_runtime)rt)))
            continue;
        gpu_report r;
        if (gpu_discover((gpu_runtime)rt, &r, err))
            return err->code;
        size_t nd = r.ndevices;
        gpu_report_free(&r);
        if (nd == 0 || (index >= 0 && (size_t)index >= nd))
            continue;
        cuzk_status st = gpu_device_open((gpu_runtime)rt, index >= 0 ? (unsigned)index : 0, NULL, &b->dev, err);
        if (!st)
            st = gpu_queue_create(b->dev, &b->q, err);
        if (!st)
            st = gpu_ntt_cache_create(b->dev, &b->cache, err);
        return st;
    }
    return cuzk_fail(err, CUZK_E_UNSUPPORTED, "no %s device%s (cuzk gpu-info lists what this binary sees)",
                     runtime ? runtime : "GPU", index >= 0 ? " with that index" : "");
}

/* canonical values < 2^254 < r: valid Montgomery forms, no conversion needed */
static void fill(fr_t *v, size_t n, uint64_t *seed)
{
    for (size_t i = 0; i < n; i++) {
        for (int j = 0; j < 4; j++)
            v[i].l[j] = bench_rand64(seed);
        v[i].l[3] &= 0x3fffffffffffffffULL;
    }
}

double gpu_bench_ms_since(double t0)
{
    return (bench_now() - t0) * 1e3;
}

/* One size: rows ntt, h, upload. Host memory: a, b, c (pinned), their CPU copies and one result. */
static cuzk_status bench_size(gpu_bench_ctx *b, unsigned log_n, gpu_bench_row *rows, size_t *nrows, cuzk_error *err)
{
    size_t n = (size_t)1 << log_n, bytes = n * sizeof(fr_t);
    gpu_host_buffer *pin[3] = {NULL, NULL, NULL};
    fr_t *host[3], *ref[3] = {NULL, NULL, NULL}, *out = malloc(bytes);
    gpu_buffer *dv[3] = {NULL, NULL, NULL};
    const gpu_ntt_domain *dom;
    cuzk_status st = gpu_ntt_domain_get(b->cache, b->q, POLY_ROOTS_FF, log_n, &dom, err);
    uint64_t seed = 0x62656e63685f6e74ULL + log_n;
    for (int i = 0; i < 3 && !st; i++) {
        st = gpu_host_alloc(b->dev, bytes, &pin[i], err);
        if (!st)
            st = gpu_buffer_alloc(b->dev, bytes, &dv[i], err);
        ref[i] = malloc(bytes);
        if (!st && (!ref[i] || !out))
            st = cuzk_fail(err, CUZK_E_NOMEM, "host memory for 2^%u elements", log_n);
        if (!st) {
            host[i] = gpu_host_ptr(pin[i]);
            fill(host[i], n, &seed);
        }
    }
    gpu_bench_row *nt = &rows[(*nrows)++], *h = &rows[(*nrows)++], *up = &rows[(*nrows)++];
    snprintf(nt->name, sizeof nt->name, "ntt_2^%u", log_n);
    snprintf(h->name, sizeof h->name, "h_bellperson_2^%u", log_n);
    snprintf(up->name, sizeof up->name, "upload_abc_2^%u", log_n);
    nt->log = h->log = up->log = log_n;

    /* forward NTT: CPU on a copy; device on the uploaded vector, the first run checked */
    if (!st) {
        memcpy(ref[0], host[0], bytes);
        double t0 = bench_now();
        st = poly_ntt(ref[0], log_n, POLY_ROOTS_FF, b->threads, err);
        nt->cpu_ms = gpu_bench_ms_since(t0);
    }
    if (!st)
        st = gpu_upload(b->q, dv[0], 0, host[0], bytes, err);
    if (!st)
        st = gpu_queue_sync(b->q, err);
    for (unsigned r = 0; r < b->runs && !st; r++) {
        double t0 = bench_now();
        st = gpu_ntt(b->q, dom, dv[0], GPU_NTT_FORWARD, err);
        if (!st)
            st = gpu_queue_sync(b->q, err);
        double ms = gpu_bench_ms_since(t0);
        if (r == 0) {
            if (!st)
                st = gpu_download(b->q, out, dv[0], 0, bytes, err);
            if (!st)
                st = gpu_queue_sync(b->q, err);
            nt->ok = !st && !memcmp(out, ref[0], bytes);
        }
        if (r == 0 || ms < nt->gpu_ms)
            nt->gpu_ms = ms;
    }

    /* H: CPU on copies; device from fresh uploads each run (upload timed apart), last run checked */
    if (!st) {
        for (int i = 0; i < 3; i++)
            memcpy(ref[i], host[i], bytes);
        double t0 = bench_now();
        st = poly_h_compute(ref[0], ref[1], ref[2], log_n, POLY_H_BELLPERSON, b->threads, err);
        h->cpu_ms = gpu_bench_ms_since(t0);
    }
    for (unsigned r = 0; r < b->runs && !st; r++) {
        double t0 = bench_now();
        for (int i = 0; i < 3 && !st; i++)
            st = gpu_upload(b->q, dv[i], 0, host[i], bytes, err);
        if (!st)
            st = gpu_queue_sync(b->q, err);
        double ums = gpu_bench_ms_since(t0);
        if (r == 0 || ums < up->gpu_ms)
            up->gpu_ms = ums;
        t0 = bench_now();
        if (!st)
            st = gpu_h_compute(b->q, dom, dv[0], dv[1], dv[2], POLY_H_BELLPERSON, err);
        if (!st)
            st = gpu_queue_sync(b->q, err);
        double ms = gpu_bench_ms_since(t0);
        if (r == 0 || ms < h->gpu_ms)
            h->gpu_ms = ms;
    }
    if (!st)
        st = gpu_download(b->q, out, dv[0], 0, bytes, err);
    if (!st)
        st = gpu_queue_sync(b->q, err);
    h->ok = !st && !memcmp(out, ref[0], bytes);
    up->ok = h->ok;
    up->cpu_ms = 0; /* no CPU counterpart */
    for (int i = 0; i < 3; i++) {
        gpu_buffer_free(dv[i]);
        gpu_host_free(pin[i]);
        free(ref[i]);
    }
    free(out);
    return st;
}

int gpu_bench_parse(int argc, char **argv, const char *cmd, const char *usage, gpu_bench_args *a, gpu_bench_ctx *b,
                    unsigned *sizes, unsigned *ns, unsigned max_log)
{
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    b->threads = ncpu > 0 ? (unsigned)ncpu : 1;
    b->runs = 3;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
            fputs(usage, stdout);
            return -1;
        } else if (!strcmp(o, "--json")) {
            a->json = 1;
        } else if (v && !strcmp(o, "--log")) {
            a->logs = argv[++i];
        } else if (v && !strcmp(o, "--runtime")) {
            a->runtime = argv[++i];
        } else if (v && !strcmp(o, "--device")) {
            a->device = atoi(argv[++i]);
        } else if (v && !strcmp(o, "--threads")) {
            b->threads = (unsigned)atoi(argv[++i]);
        } else if (v && !strcmp(o, "--runs")) {
            b->runs = (unsigned)atoi(argv[++i]);
        } else if (v && a->mix && !strcmp(o, "--mix")) {
            a->mix = argv[++i];
        } else if (v && a->partition && !strcmp(o, "--cpu-log")) {
            a->cpu_log = atoi(argv[++i]);
        } else {
            fprintf(stderr, "cuzk-bench gpu %s: unknown or incomplete option '%s'\n%s", cmd, o, usage);
            return 2;
        }
    }
    *ns = 0;
    for (const char *p = a->logs; *p && *ns < 8;) {
        char *end;
        long l = strtol(p, &end, 10);
        if (end == p || l < 0 || l > (long)max_log) {
            fprintf(stderr, "cuzk-bench gpu %s: --log wants sizes 0..%u separated by commas, got '%s'\n", cmd,
                    max_log, a->logs);
            return 2;
        }
        sizes[(*ns)++] = (unsigned)l;
        p = *end == ',' ? end + 1 : end;
    }
    if (b->threads == 0 || b->runs == 0) {
        fprintf(stderr, "cuzk-bench gpu %s: --threads and --runs must be at least 1\n", cmd);
        return 2;
    }
    cuzk_error err = {0};
    if (open_device(a->runtime, a->device, b, &err)) {
        fprintf(stderr, "cuzk-bench gpu %s: %s\n", cmd, err.msg);
        return 2;
    }
    fprintf(a->json ? stderr : stdout, "device %s (program built in %.2f s); CPU: %u threads\n",
            gpu_device_label(b->dev), gpu_device_build_seconds(b->dev), b->threads);
    return 0;
}

void gpu_bench_close(gpu_bench_ctx *b)
{
    gpu_ntt_cache_free(b->cache);
    gpu_queue_destroy(b->q);
    gpu_device_close(b->dev);
}

int gpu_bench_report(const gpu_bench_args *a, gpu_bench_ctx *b, const gpu_bench_row *rows, size_t nrows, int rc)
{
    FILE *out = a->json ? stderr : stdout;
    json_t *j = json_object(), *jr = json_array();
    fprintf(out, "%-22s %12s %12s %9s %s\n", "", "gpu ms", "cpu ms", "speedup", "matches CPU");
    for (size_t i = 0; i < nrows; i++) {
        const gpu_bench_row *r = &rows[i];
        double sp = r->cpu_ms > 0 && r->gpu_ms > 0 ? r->cpu_ms / r->gpu_ms : 0;
        fprintf(out, "%-22s %12.2f %12.2f %9.2f %s", r->name, r->gpu_ms, r->cpu_ms, sp, r->ok ? "yes" : "NO");
        if (r->cpu_log && r->cpu_log < r->log)
            fprintf(out, "  (CPU at 2^%u, scaled; checked at 2^%u)", r->cpu_log, r->cpu_log);
        fputc('\n', out);
        if (!r->ok && !rc)
            rc = 1;
        json_t *o = json_object();
        json_object_set_new(o, "name", json_string(r->name));
        json_object_set_new(o, "log", json_integer(r->log));
        json_object_set_new(o, "gpu_ms", json_real(r->gpu_ms));
        json_object_set_new(o, "cpu_ms", r->cpu_ms > 0 ? json_real(r->cpu_ms) : json_null());
        json_object_set_new(o, "speedup", sp > 0 ? json_real(sp) : json_null());
        json_object_set_new(o, "ok", json_boolean(r->ok));
        if (r->cpu_log && r->cpu_log < r->log)
            json_object_set_new(o, "cpu_log", json_integer(r->cpu_log));
        json_array_append_new(jr, o);
    }
    json_object_set_new(j, "device", json_string(gpu_device_label(b->dev)));
    json_object_set_new(j, "cpu_threads", json_integer(b->threads));
    json_object_set_new(j, "rows", jr);
    json_object_set_new(j, "peak_rss_bytes", json_integer((json_int_t)bench_peak_rss()));
    if (a->json) {
        char *txt = json_dumps(j, JSON_COMPACT);
        if (txt)
            printf("%s\n", txt);
        else
            rc = 2, fprintf(stderr, "cuzk-bench gpu: out of memory for the JSON text\n");
        free(txt);
    }
    json_decref(j);
    gpu_bench_close(b);
    return rc;
}

static int bench_gpu_ntt(int argc, char **argv)
{
    gpu_bench_args a = {"24,27", NULL, NULL, -1, 0, false, -1};
    gpu_bench_ctx b = {0};
    unsigned sizes[8], ns;
    int rc = gpu_bench_parse(argc, argv, "ntt", USAGE_NTT, &a, &b, sizes, &ns, POLY_MAX_LOG2);
    if (rc) {
        gpu_bench_close(&b);
        return rc < 0 ? 0 : rc;
    }
    /* warm-up: first launches (JIT / kernel builds) and small tables */
    gpu_bench_row rows[3 * 8 + 3];
    memset(rows, 0, sizeof rows); /* cpu_log and anything a size leaves unset */
    size_t nrows = 0;
    cuzk_error err = {0};
    cuzk_status st = bench_size(&b, 10, rows, &nrows, &err);
    nrows = 0;
    for (unsigned i = 0; i < ns && !st; i++)
        st = bench_size(&b, sizes[i], rows, &nrows, &err);
    if (st)
        fprintf(stderr, "cuzk-bench gpu ntt: %s\n", err.msg);
    return gpu_bench_report(&a, &b, rows, nrows, st ? 2 : 0);
}

#define MSM_BENCH_POOL ((size_t)1 << 20)

/* One MSM size: rows msm_<mix>_2^N (device scalars, bases resident) and upload_bases_2^N. */
static cuzk_status bench_msm_size(gpu_bench_ctx *b, unsigned log_n, bool filecoin, gpu_bench_row *rows, size_t *nrows,
                                  cuzk_error *err)
{
    size_t n = (size_t)1 << log_n, npool = n < MSM_BENCH_POOL ? n : MSM_BENCH_POOL;
    uint64_t seed = 0x62656e63686d736dULL + log_n;
    g1_affine_t *pool = bench_g1_bases(npool, &seed), *bases = n == npool ? pool : malloc(n * sizeof *bases);
    uint64_t *s = malloc(n * 4 * sizeof *s);
    gpu_bench_row *m = &rows[(*nrows)++], *up = &rows[(*nrows)++];
    snprintf(m->name, sizeof m->name, "msm_%s_2^%u", filecoin ? "filecoin" : "random", log_n);
    snprintf(up->name, sizeof up->name, "upload_bases_2^%u", log_n);
    m->log = up->log = log_n;
    if (!pool || !bases || !s) {
        if (bases != pool)
            free(bases);
        free(pool);
        free(s);
        return cuzk_fail(err, CUZK_E_NOMEM, "host memory for 2^%u bases and scalars", log_n);
    }
    for (size_t i = npool; i < n; i++)
        bases[i] = pool[i % npool];
    if (filecoin)
        bench_bool90_scalars(s, n, &seed);
    else
        bench_random_scalars(s, n, &seed);

    g1_jac_t want, got;
    msm_opts_t o = {.threads = b->threads};
    double t0 = bench_now();
    cuzk_status st = filecoin ? msm_g1_witness(&want, bases, n, NULL, s, n, &o, NULL, err)
                              : msm_g1(&want, bases, s, n, &o, err);
    m->cpu_ms = gpu_bench_ms_since(t0);

    gpu_msm_bases *db = NULL;
    gpu_buffer *ds = NULL;
    if (!st) {
        t0 = bench_now();
        st = gpu_msm_bases_upload(b->q, bases, n, &db, err);
        up->gpu_ms = gpu_bench_ms_since(t0);
    }
    if (!st)
        st = gpu_buffer_alloc(b->dev, n * 32, &ds, err);
    if (!st)
        st = gpu_upload(b->q, ds, 0, s, n * 32, err);
    if (!st)
        st = gpu_queue_sync(b->q, err);
    for (unsigned r = 0; r < b->runs && !st; r++) {
        memset(&got, 0, sizeof got);
        t0 = bench_now();
        st = gpu_msm_g1(b->q, db, 0, ds, n, &got, err);
        double ms = gpu_bench_ms_since(t0);
        if (r == 0)
            m->ok = !st && !memcmp(&got, &want, sizeof got);
        if (r == 0 || ms < m->gpu_ms)
            m->gpu_ms = ms;
    }
    up->ok = m->ok;
    up->cpu_ms = 0; /* no CPU counterpart */
    gpu_buffer_free(ds);
    gpu_msm_bases_free(db);
    if (bases != pool)
        free(bases);
    free(pool);
    free(s);
    return st;
}

static int bench_gpu_msm(int argc, char **argv)
{
    gpu_bench_args a = {"20", NULL, "random", -1, 0, false, -1};
    gpu_bench_ctx b = {0};
    unsigned sizes[8], ns;
    int rc = gpu_bench_parse(argc, argv, "msm", USAGE_MSM, &a, &b, sizes, &ns, 28);
    if (!rc && strcmp(a.mix, "random") && strcmp(a.mix, "filecoin")) {
        fprintf(stderr, "cuzk-bench gpu msm: --mix wants random or filecoin, got '%s'\n", a.mix);
        rc = 2;
    }
    if (rc) {
        gpu_bench_close(&b);
        return rc < 0 ? 0 : rc;
    }
    bool filecoin = !strcmp(a.mix, "filecoin");
    gpu_bench_row rows[2 * 8 + 2];
    memset(rows, 0, sizeof rows); /* cpu_log and anything a size leaves unset */
    size_t nrows = 0;
    cuzk_error err = {0};
    cuzk_status st = bench_msm_size(&b, 10, filecoin, rows, &nrows, &err); /* warm-up */
    nrows = 0;
    for (unsigned i = 0; i < ns && !st; i++)
        st = bench_msm_size(&b, sizes[i], filecoin, rows, &nrows, &err);
    if (st)
        fprintf(stderr, "cuzk-bench gpu msm: %s\n", err.msg);
    return gpu_bench_report(&a, &b, rows, nrows, st ? 2 : 0);
}

int bench_gpu(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "ntt"))
        return bench_gpu_ntt(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "msm"))
        return bench_gpu_msm(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "partition"))
        return bench_gpu_partition(argc - 1, argv + 1);
    bool help = argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"));
    fputs(USAGE, help ? stdout : stderr);
    return help ? 0 : 2;
}
