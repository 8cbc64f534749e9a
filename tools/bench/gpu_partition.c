/* cuzk-bench gpu partition: the GPU phases of one 32 GiB PoRep partition's shape on random
 * bases, each beside the CPU code's time for the same work in the same run. The shape at
 * domain 2^N (default 27, the 32 GiB PoRep's: 130,278,869 constraints, 130,169,893 aux, and the
 * reference's PCE densities a_aux 99.7%, b_aux 25.4%, b_input 1 of 328; docs/engine.md):
 *   H:    a, b, c of 2^N elements -> gpu_h_compute (bellperson's 7 transforms: iNTT, coset NTT,
 *         pointwise a b - c, 1/Z, coset iNTT) and gpu_fr_from_mont, then the H MSM over 2^N - 1
 *         points (dense random scalars);
 *   A, B_G1, L: MSMs of 0.96675 / 0.24671 / 0.96983 x 2^N points whose scalars follow the
 *         value split measured on the real 8 MiB PoRep witness (cuzk-bench witness-msm,
 *         partition 0 of shared/fixtures/porep-8MiB-c1.bincode): zeros / ones / full values
 *         A 51.2% / 46.6% / 2.2%, B_G1 46.4% / 45.6% / 8.0%, L 50.8% / 46.2% / 2.9%.
 * One table of 2^N bases serves every MSM (the time of an MSM does not depend on which points
 * it sums; the prover keeps one table per query); the witness scalars are in device memory,
 * as after the prover's upload. The CPU does the same with poly_h_compute, msm_g1 (H) and
 * msm_g1_witness (A, B_G1, L) on --threads threads; --cpu-log M (< N) runs the CPU, and a
 * device check run, at 2^M instead and scales its times by 2^(N - M) (stated in each row).
 * Rows: part_upload_abc, part_h, part_h_msm, part_a, part_b_g1, part_l, part_total (the sum of
 * the device phases h .. l; the upload is apart, as the reference's per-partition figure). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "gpu/msm.h"
#include "gpu_bench.h"
#include "msm/msm.h"
#include "poly/h.h"

static const char USAGE[] =
    "usage: cuzk-bench gpu partition [--log N] [--cpu-log M] [--runtime opencl|cuda] [--device N]\n"
    "                                [--threads N] [--runs N] [--json]\n"
    "  the GPU phases of one 32 GiB PoRep partition's shape at domain 2^N (default 27): H (iNTT,\n"
    "  coset NTT, pointwise, NTT: gpu_h_compute) + the H MSM, and the A / B_G1 / L MSMs at the\n"
    "  PoRep's measured density and 0/1 split, on random bases, each beside the CPU's time\n"
    "  (--threads, default all online CPUs); --cpu-log M < N: the CPU (and a device check run) at\n"
    "  2^M, its times scaled by 2^(N-M). Device times: best of --runs (default 3) after a warm-up.\n"
    "  Memory at N = 27: about 55 GiB of host memory and 38 GiB on the device.\n"
    "  --json as gpu ntt (rows part_upload_abc, part_h, part_h_msm, part_a, part_b_g1, part_l,\n"
    "  part_total; \"cpu_log\" where the CPU ran smaller); exit 1 if a result differs\n";

/* The MSM queries of the shape: points per 2^27, zeros / ones per million. */
static const struct {
    const char *name;
    double frac;
    unsigned zeros_ppm, ones_ppm;
} QUERIES[3] = {
    {"a", 129753620.0 / 134217728.0, 512000, 466000},
    {"b_g1", 33112282.0 / 134217728.0, 464000, 456000},
    {"l", 130169893.0 / 134217728.0, 508000, 462000},
};

enum { R_UP, R_H, R_HMSM, R_A, R_B, R_L, R_TOTAL, R_COUNT };

static void fill_mix(uint64_t *s, size_t n, unsigned zeros_ppm, unsigned ones_ppm, uint64_t *seed)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t roll = bench_rand64(seed) % 1000000;
        if (roll >= zeros_ppm + ones_ppm) {
            bench_random_scalars(s + 4 * i, 1, seed);
        } else {
            memset(s + 4 * i, 0, 32);
            s[4 * i] = roll >= zeros_ppm;
        }
    }
}

typedef struct {
    size_t n, nq[3];
    g1_affine_t *bases;
    fr_t *abc[3];        /* host inputs (the device's are uploaded from pinned copies) */
    uint64_t *wit[3];    /* A, B_G1, L scalars */
    g1_jac_t cpu[4];     /* H, A, B_G1, L results of the CPU */
    uint8_t *cpu_h;      /* the CPU's H, Montgomery form */
} shape;

static void shape_free(shape *s)
{
    free(s->bases);
    for (int i = 0; i < 3; i++)
        free(s->abc[i]), free(s->wit[i]);
    free(s->cpu_h);
    memset(s, 0, sizeof *s);
}

static cuzk_status shape_make(shape *s, unsigned log_n, cuzk_error *err)
{
    memset(s, 0, sizeof *s);
    s->n = (size_t)1 << log_n;
    uint64_t seed = 0x7061727469746e00ULL + log_n;
    size_t npool = s->n < ((size_t)1 << 20) ? s->n : (size_t)1 << 20;
    g1_affine_t *pool = bench_g1_bases(npool, &seed);
    s->bases = malloc(s->n * sizeof *s->bases);
    bool ok = pool && s->bases;
    for (size_t i = 0; ok && i < s->n; i++)
        s->bases[i] = pool[i % npool];
    free(pool);
    for (int i = 0; ok && i < 3; i++) {
        s->abc[i] = malloc(s->n * sizeof(fr_t));
        s->nq[i] = (size_t)(QUERIES[i].frac * (double)s->n);
        s->wit[i] = malloc((s->nq[i] ? s->nq[i] : 1) * 32);
        ok = s->abc[i] && s->wit[i];
        if (ok) {
            bench_random_scalars((uint64_t *)s->abc[i], s->n, &seed); /* < 2^254: valid Montgomery forms */
            fill_mix(s->wit[i], s->nq[i], QUERIES[i].zeros_ppm, QUERIES[i].ones_ppm, &seed);
        }
    }
    if (!ok) {
        shape_free(s);
        return cuzk_fail(err, CUZK_E_NOMEM, "host memory for the 2^%u partition shape", log_n);
    }
    return CUZK_OK;
}

/* The CPU phases on s: times into rows[].cpu_ms, results into s->cpu and s->cpu_h. */
static cuzk_status cpu_phases(shape *s, unsigned log_n, unsigned threads, gpu_bench_row *rows, cuzk_error *err)
{
    size_t n = s->n, bytes = n * sizeof(fr_t);
    fr_t *c[3] = {malloc(bytes), malloc(bytes), malloc(bytes)};
    uint64_t *hs = malloc(bytes);
    cuzk_status st = c[0] && c[1] && c[2] && hs ? CUZK_OK : cuzk_fail(err, CUZK_E_NOMEM, "host memory for the CPU's H");
    for (int i = 0; i < 3 && !st; i++)
        memcpy(c[i], s->abc[i], bytes);
    double t0 = bench_now();
    if (!st)
        st = poly_h_compute(c[0], c[1], c[2], log_n, POLY_H_BELLPERSON, threads, err);
    rows[R_H].cpu_ms = gpu_bench_ms_since(t0);
    if (!st && !(s->cpu_h = malloc(bytes)))
        st = cuzk_fail(err, CUZK_E_NOMEM, "host memory for the CPU's H");
    if (!st) {
        memcpy(s->cpu_h, c[0], bytes);
        for (size_t i = 0; i < n; i++)
            fr_to_limbs(hs + 4 * i, &c[0][i]);
    }
    msm_opts_t o = {.threads = threads};
    t0 = bench_now();
    if (!st)
        st = msm_g1(&s->cpu[0], s->bases, hs, n - 1, &o, err);
    rows[R_HMSM].cpu_ms = gpu_bench_ms_since(t0);
    for (int q = 0; q < 3 && !st; q++) {
        t0 = bench_now();
        st = msm_g1_witness(&s->cpu[1 + q], s->bases, s->nq[q], NULL, s->wit[q], s->nq[q], &o, NULL, err);
        rows[R_A + q].cpu_ms = gpu_bench_ms_since(t0);
    }
    for (int i = 0; i < 3; i++)
        free(c[i]);
    free(hs);
    return st;
}

/* The device phases on s: best times into rows[].gpu_ms; rows[].ok from comparing the first
 * run with the CPU's results when check. */
static cuzk_status gpu_phases(gpu_bench_ctx *b, shape *s, unsigned log_n, bool check, gpu_bench_row *rows,
                              cuzk_error *err)
{
    size_t n = s->n, bytes = n * sizeof(fr_t);
    gpu_host_buffer *pin[3] = {NULL, NULL, NULL};
    gpu_buffer *dv[3] = {NULL, NULL, NULL}, *dw[3] = {NULL, NULL, NULL};
    gpu_msm_bases *db = NULL;
    const gpu_ntt_domain *dom = NULL;
    uint8_t *h = check ? malloc(bytes) : NULL;
    cuzk_status st = check && !h ? cuzk_fail(err, CUZK_E_NOMEM, "host memory for the device's H") : CUZK_OK;
    if (!st)
        st = gpu_ntt_domain_get(b->cache, b->q, POLY_ROOTS_FF, log_n, &dom, err);
    if (!st)
        st = gpu_msm_bases_upload(b->q, s->bases, n, &db, err);
    for (int i = 0; i < 3 && !st; i++) {
        st = gpu_host_alloc(b->dev, bytes, &pin[i], err);
        if (!st)
            st = gpu_buffer_alloc(b->dev, bytes, &dv[i], err);
        if (!st)
            st = gpu_buffer_alloc(b->dev, s->nq[i] ? s->nq[i] * 32 : 32, &dw[i], err);
        if (!st) {
            memcpy(gpu_host_ptr(pin[i]), s->abc[i], bytes);
            st = gpu_upload(b->q, dw[i], 0, s->wit[i], s->nq[i] * 32, err);
        }
    }
    if (!st)
        st = gpu_queue_sync(b->q, err);
    bool ok[R_COUNT];
    for (int i = 0; i < R_COUNT; i++)
        ok[i] = !check, rows[i].gpu_ms = 0;
    for (unsigned r = 0; r < b->runs && !st; r++) {
        double t[R_COUNT] = {0}, t0 = bench_now();
        for (int i = 0; i < 3 && !st; i++)
            st = gpu_upload(b->q, dv[i], 0, gpu_host_ptr(pin[i]), bytes, err);
        if (!st)
            st = gpu_queue_sync(b->q, err);
        t[R_UP] = gpu_bench_ms_since(t0);
        t0 = bench_now();
        if (!st)
            st = gpu_h_compute(b->q, dom, dv[0], dv[1], dv[2], POLY_H_BELLPERSON, err);
        if (!st)
            st = gpu_queue_sync(b->q, err);
        t[R_H] = gpu_bench_ms_since(t0);
        if (!st && check && r == 0) {
            st = gpu_download(b->q, h, dv[0], 0, bytes, err);
            if (!st)
                st = gpu_queue_sync(b->q, err);
            ok[R_H] = ok[R_UP] = !st && !memcmp(h, s->cpu_h, bytes);
        }
        g1_jac_t got[4];
        memset(got, 0, sizeof got);
        t0 = bench_now();
        if (!st)
            st = gpu_fr_from_mont(b->q, dv[0], n, err);
        if (!st)
            st = gpu_msm_g1(b->q, db, 0, dv[0], n - 1, &got[0], err);
        t[R_HMSM] = gpu_bench_ms_since(t0);
        for (int q = 0; q < 3 && !st; q++) {
            t0 = bench_now();
            st = gpu_msm_g1(b->q, db, 0, dw[q], s->nq[q], &got[1 + q], err);
            t[R_A + q] = gpu_bench_ms_since(t0);
        }
        if (!st && check && r == 0)
            for (int q = 0; q < 4; q++)
                ok[R_HMSM + q] = !memcmp(&got[q], &s->cpu[q], sizeof got[q]);
        t[R_TOTAL] = t[R_H] + t[R_HMSM] + t[R_A] + t[R_B] + t[R_L];
        for (int i = 0; i < R_COUNT && !st; i++)
            if (r == 0 || t[i] < rows[i].gpu_ms)
                rows[i].gpu_ms = t[i];
    }
    ok[R_TOTAL] = ok[R_H] && ok[R_HMSM] && ok[R_A] && ok[R_B] && ok[R_L];
    for (int i = 0; i < R_COUNT; i++)
        rows[i].ok = !st && ok[i];
    for (int i = 0; i < 3; i++) {
        gpu_buffer_free(dv[i]);
        gpu_buffer_free(dw[i]);
        gpu_host_free(pin[i]);
    }
    gpu_msm_bases_free(db);
    free(h);
    return st;
}

/* One size: CPU and checked device run at cpu_log, then (if larger) the device alone at log_n. */
static cuzk_status bench_partition(gpu_bench_ctx *b, unsigned log_n, unsigned cpu_log, gpu_bench_row *rows,
                                   cuzk_error *err)
{
    static const char *names[R_COUNT] = {"upload_abc", "h", "h_msm", "a", "b_g1", "l", "total"};
    gpu_bench_row small[R_COUNT];
    memset(small, 0, sizeof small);
    shape s;
    cuzk_status st = shape_make(&s, cpu_log, err);
    if (!st)
        st = cpu_phases(&s, cpu_log, b->threads, small, err);
    if (!st)
        st = gpu_phases(b, &s, cpu_log, true, small, err);
    shape_free(&s);
    for (int i = 0; i < R_COUNT; i++) {
        rows[i] = small[i];
        snprintf(rows[i].name, sizeof rows[i].name, "part_%s_2^%u", names[i], log_n);
        rows[i].log = log_n;
        rows[i].cpu_log = cpu_log;
    }
    rows[R_TOTAL].cpu_ms = small[R_H].cpu_ms + small[R_HMSM].cpu_ms + small[R_A].cpu_ms + small[R_B].cpu_ms +
                           small[R_L].cpu_ms;
    rows[R_UP].cpu_ms = 0; /* no CPU counterpart */
    if (st || cpu_log == log_n)
        return st;
    double scale = (double)((size_t)1 << (log_n - cpu_log));
    for (int i = 0; i < R_COUNT; i++)
        rows[i].cpu_ms *= scale;
    st = shape_make(&s, log_n, err);
    if (!st) {
        gpu_bench_row big[R_COUNT];
        st = gpu_phases(b, &s, log_n, false, big, err);
        for (int i = 0; i < R_COUNT && !st; i++)
            rows[i].gpu_ms = big[i].gpu_ms;
    }
    shape_free(&s);
    return st;
}

int bench_gpu_partition(int argc, char **argv)
{
    gpu_bench_args a = {"27", NULL, NULL, -1, 0, true, -1};
    gpu_bench_ctx b = {0};
    unsigned sizes[8], ns;
    int rc = gpu_bench_parse(argc, argv, "partition", USAGE, &a, &b, sizes, &ns, 28);
    if (!rc && (ns != 1 || sizes[0] < 8 || (a.cpu_log >= 0 && (a.cpu_log < 8 || (unsigned)a.cpu_log > sizes[0])))) {
        fprintf(stderr, "cuzk-bench gpu partition: --log takes one size 8..28 and --cpu-log 8..N\n");
        rc = 2;
    }
    if (rc) {
        gpu_bench_close(&b);
        return rc < 0 ? 0 : rc;
    }
    unsigned log_n = sizes[0], cpu_log = a.cpu_log >= 0 ? (unsigned)a.cpu_log : log_n;
    gpu_bench_row rows[R_COUNT];
    cuzk_error err = {0};
    cuzk_status st = bench_partition(&b, log_n < 10 ? log_n : 10, log_n < 10 ? log_n : 10, rows, &err); /* warm-up */
    if (!st)
        st = bench_partition(&b, log_n, cpu_log, rows, &err);
    if (st)
        fprintf(stderr, "cuzk-bench gpu partition: %s\n", err.msg);
    return gpu_bench_report(&a, &b, rows, st ? 0 : R_COUNT, st ? 2 : 0);
}
