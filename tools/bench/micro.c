/* cuzk-bench micro: per-operation timings of the proving core (issue 2's table).
 * Times are the minimum over repetitions (noisy shared machines: compare ratios within
 * one run). The CPU back end is the one CUZK_CPU selects (field/cpu.h; reported as
 * "cpu_backend"), so one run per back end compares them. MSM_SCALARS (comma list, default
 * "random,bool90") picks the G1 MSM rows: random scalars through msm_g1, and/or the
 * boolean-heavy case through the prover's witness-aware MSM (msm_g1_witness): 90% of the
 * scalars 0 or 1 (half each), the rest random. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "backends/backends.h"
#include "gpu/msm.h"
#include "bench.h"
#include "curve/pairing.h"
#include "field/cpu.h"
#include "groth16/groth16.h"
#include "msm/msm.h"
#include "poly/ntt.h"

/* ns per dependent multiplication a = a * b (min of 5 runs of 2M). */
#define TIME_MUL(name, T, mul, from_u64, is_zero)                                             \
    static double name(void)                                                                  \
    {                                                                                         \
        T a, b;                                                                               \
        from_u64(&a, 3);                                                                      \
        from_u64(&b, 0x123456789abcdefULL);                                                   \
        double best = 1e9;                                                                    \
        for (int rep = 0; rep < 5; rep++) {                                                   \
            const int N = 2000000;                                                            \
            double t = bench_now();                                                           \
            for (int i = 0; i < N; i++)                                                       \
                mul(&a, &a, &b);                                                              \
            double d = (bench_now() - t) / N;                                                 \
            best = d < best ? d : best;                                                       \
        }                                                                                     \
        if (is_zero(&a)) /* keep the chain observable */                                      \
            puts("");                                                                         \
        return best * 1e9;                                                                    \
    }
TIME_MUL(time_fp_mul, fp_t, fp_mul, fp_from_u64, fp_is_zero)
TIME_MUL(time_fr_mul, fr_t, fr_mul, fr_from_u64, fr_is_zero)

static double time_g1_madd(const g1_affine_t *bases)
{
    double best = 1e9;
    g1_jac_t acc;
    g1_jac_from_affine(&acc, &bases[0]);
    for (int rep = 0; rep < 5; rep++) {
        const int N = 50000;
        double t = bench_now();
        for (int i = 0; i < N; i++)
            g1_add_mixed(&acc, &acc, &bases[1 + (i & 1023)]);
        double d = (bench_now() - t) / N;
        best = d < best ? d : best;
    }
    return best * 1e9;
}

/* ms of one MSM (witness-aware when `witness`), min over `reps` runs */
#define TIME_MSM(G)                                                                           \
    static double time_msm_##G(const G##_affine_t *b, const uint64_t *s, size_t n, unsigned threads, \
                               int reps, int witness)                                         \
    {                                                                                         \
        double best = 1e30;                                                                   \
        msm_opts_t o = {.threads = threads};                                                  \
        for (int r = 0; r < reps; r++) {                                                      \
            G##_jac_t out;                                                                    \
            double t = bench_now();                                                           \
            if (witness)                                                                      \
                msm_##G##_witness(&out, b, n, NULL, s, n, &o, NULL, NULL);                    \
            else                                                                              \
                msm_##G(&out, b, s, n, &o, NULL);                                             \
            double d = bench_now() - t;                                                       \
            best = d < best ? d : best;                                                       \
        }                                                                                     \
        return best * 1e3;                                                                    \
    }
TIME_MSM(g1)
TIME_MSM(g2)

/* ms of one device G1 MSM (gpu_msm_g1_host: host scalars, bases resident), min over `reps`
 * runs; *same: its result equals the CPU's. -1 on a device error (printed). */
static double time_gpu_msm(gpu_queue *q, const gpu_msm_bases *bases, const g1_affine_t *b, const uint64_t *s,
                           size_t n, int reps, bool *same)
{
    double best = 1e30;
    g1_jac_t got, want;
    cuzk_error err = {0};
    for (int r = 0; r < reps; r++) {
        double t = bench_now();
        if (gpu_msm_g1_host(q, bases, 0, (const uint8_t *)s, n, &got, &err)) {
            fprintf(stderr, "cuzk-bench micro: device MSM: %s\n", err.msg);
            return -1;
        }
        double d = bench_now() - t;
        best = d < best ? d : best;
    }
    msm_opts_t o = {.threads = 0};
    msm_g1(&want, b, s, n, &o, NULL);
    g1_affine_t ga, wa;
    g1_affine_from_jac(&ga, &got);
    g1_affine_from_jac(&wa, &want);
    *same = !memcmp(&ga, &wa, sizeof ga);
    return best * 1e3;
}

static double time_ntt(unsigned log2_n, unsigned threads, int reps)
{
    size_t n = (size_t)1 << log2_n;
    fr_t *v = malloc(n * sizeof *v);
    for (size_t i = 0; i < n; i++)
        fr_from_u64(&v[i], i * 0x9e3779b97f4a7c15ULL);
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        double t = bench_now();
        poly_ntt(v, log2_n, POLY_ROOTS_FF, threads, NULL);
        double d = bench_now() - t;
        best = d < best ? d : best;
    }
    free(v);
    return best * 1e3;
}

/* Pairing rows: us per call, minimum over `reps` calls (each timed alone). */
typedef struct {
    double pairing, ml1, ml3, final_exp, check4, verify1, verify328;
} pairing_times_t;

#define TIME_MIN(best, reps, stmt)                                                           \
    do {                                                                                      \
        (best) = 1e30;                                                                        \
        for (int r_ = 0; r_ < (reps); r_++) {                                                 \
            double t_ = bench_now();                                                          \
            stmt;                                                                             \
            t_ = bench_now() - t_;                                                            \
            (best) = t_ < (best) ? t_ : (best);                                               \
        }                                                                                     \
        (best) *= 1e6;                                                                        \
    } while (0)

static fr_t random_fr(uint64_t *seed)
{
    uint64_t l[4];
    fr_t r;
    bench_random_scalars(l, 1, seed);
    (void)fr_from_limbs(&r, l); /* < 2^254 < r */
    return r;
}

/* k times the generator, affine */
#define POINT_OF(G)                                                                           \
    static G##_affine_t G##_of(const fr_t *k)                                                 \
    {                                                                                         \
        G##_affine_t g, r;                                                                    \
        G##_jac_t j;                                                                          \
        G##_generator(&g);                                                                    \
        G##_jac_from_affine(&j, &g);                                                          \
        G##_mul_fr(&j, &j, k);                                                                \
        G##_affine_from_jac(&r, &j);                                                          \
        return r;                                                                             \
    }
POINT_OF(g1)
POINT_OF(g2)

/* A verifying key with n public inputs and a valid proof for random inputs, built from
 * known discrete logs: with A = a G1, B = b G2 and IC = ic G1 (ic = k_0 + sum x_i k_i),
 * C = (a b - alpha beta - ic gamma) / delta G1 satisfies e(A, B) = e(alpha, beta)
 * e(IC, gamma) e(C, delta). Returns false on allocation failure. */
static bool verify_instance(groth16_vk_t *vk, groth16_proof_t *proof, fr_t *x, size_t n, uint64_t *seed)
{
    fr_t alpha = random_fr(seed), beta = random_fr(seed), gamma = random_fr(seed), delta = random_fr(seed);
    fr_t a = random_fr(seed), b = random_fr(seed), ic = random_fr(seed), t, u;
    vk->ic = malloc((n + 1) * sizeof *vk->ic);
    if (!vk->ic)
        return false;
    vk->n_ic = n + 1;
    vk->ic[0] = g1_of(&ic);
    for (size_t i = 0; i < n; i++) {
        fr_t k = random_fr(seed);
        x[i] = random_fr(seed);
        vk->ic[i + 1] = g1_of(&k);
        fr_mul(&t, &x[i], &k);
        fr_add(&ic, &ic, &t);
    }
    vk->alpha_g1 = g1_of(&alpha);
    vk->beta_g1 = g1_of(&beta);
    vk->delta_g1 = g1_of(&delta);
    vk->beta_g2 = g2_of(&beta);
    vk->gamma_g2 = g2_of(&gamma);
    vk->delta_g2 = g2_of(&delta);
    fr_mul(&t, &a, &b);
    fr_mul(&u, &alpha, &beta);
    fr_sub(&t, &t, &u);
    fr_mul(&u, &ic, &gamma);
    fr_sub(&t, &t, &u);
    fr_inv(&u, &delta);
    fr_mul(&t, &t, &u);
    proof->a = g1_of(&a);
    proof->b = g2_of(&b);
    proof->c = g1_of(&t);
    return true;
}

/* us of one Groth16 verification with n public inputs (-1 on allocation failure or if the
 * instance does not verify) */
static double time_groth16_verify(size_t n, int reps, uint64_t *seed)
{
    groth16_vk_t vk;
    groth16_proof_t proof;
    fr_t *x = malloc((n ? n : 1) * sizeof *x);
    groth16_pvk_t *pvk = malloc(sizeof *pvk);
    double best = -1;
    if (x && pvk && verify_instance(&vk, &proof, x, n, seed)) {
        groth16_prepare_vk(pvk, &vk);
        cuzk_status st = CUZK_OK;
        TIME_MIN(best, reps, st |= groth16_verify(pvk, x, n, &proof, NULL));
        if (st != CUZK_OK)
            best = -1;
        free(vk.ic);
    }
    free(x);
    free(pvk);
    return best;
}

static void time_pairing(pairing_times_t *pt, int reps, uint64_t *seed)
{
    g1_affine_t p[4];
    g2_affine_t q[4];
    g2_prepared_t *prep = malloc(5 * sizeof *prep);
    if (!prep) {
        memset(pt, 0, sizeof *pt);
        return;
    }
    for (int i = 0; i < 4; i++) {
        fr_t k = random_fr(seed);
        p[i] = g1_of(&k);
        q[i] = g2_of(&k);
        pairing_prepare_g2(&prep[i], &q[i]);
    }
    const g2_prepared_t *qs[4] = {&prep[0], &prep[1], &prep[2], &prep[3]};
    fp12_t e, f;
    volatile bool sink = false;
    TIME_MIN(pt->pairing, reps, pairing(&e, &p[0], &q[0]));
    TIME_MIN(pt->ml1, reps, pairing_miller_loop(&f, p, qs, 1));
    TIME_MIN(pt->ml3, reps, pairing_miller_loop(&f, p + 1, qs + 1, 3));
    TIME_MIN(pt->final_exp, reps, pairing_final_exp(&e, &f));
    /* as groth16_verify: B prepared per proof, the key's three points prepared once */
    const g2_prepared_t *q4[4] = {&prep[4], qs[1], qs[2], qs[3]};
    TIME_MIN(pt->check4, reps, pairing_prepare_g2_once(&prep[4], &q[0]); sink = pairing_product_is_one(p, q4, 4));
    (void)sink;
    free(prep);
    pt->verify1 = time_groth16_verify(1, reps, seed);
    pt->verify328 = time_groth16_verify(328, reps < 5 ? reps : 5, seed);
}

int bench_micro(int argc, char **argv)
{
    int quick = 0, json = 0;
    backend_config bc;
    backend_config_default(&bc);
    bc.kind = BACKEND_CPU;
    uint32_t device = 0;
    for (int i = 1; i < argc; i++) {
        cuzk_error be;
        int taken = backend_config_flag(&bc, &device, argv[i], i + 1 < argc ? argv[i + 1] : NULL, &be);
        if (taken < 0) {
            fprintf(stderr, "cuzk-bench micro: %s\n", be.msg);
            return 2;
        }
        if (taken) {
            i++;
            continue;
        }
        if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (!strcmp(argv[i], "--json"))
            json = 1;
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            puts("usage: cuzk-bench micro [--quick] [--json] [--backend auto|cpu|cuda|opencl] [--device N]\n"
                 "  per-operation timings (1 and 2 threads); --quick caps sizes at 2^16;\n"
                 "  --backend (default cpu: none): also the G1 MSM rows on that backend's device, beside the\n"
                 "  CPU's in the same run, each result checked against the CPU's (keys gpu_msm_g1*);\n"
                 "  --json: the table goes to stderr and stdout carries one JSON object\n"
                 "environment: CUZK_CPU=portable|adx|ifma (the back end measured, reported as\n"
                 "  cpu_backend); MSM_SCALARS=random,bool90 (default both): G1 MSM rows with random\n"
                 "  scalars (msm_g1) and/or 90% zeros and ones, the rest random, through the\n"
                 "  witness-aware MSM (keys msm_g1_bool90_*)");
            return 0;
        } else {
            fprintf(stderr, "cuzk-bench micro: unknown option '%s' (use --quick, --json, --backend, --device)\n",
                    argv[i]);
            return 2;
        }
    }
    FILE *out = json ? stderr : stdout; /* with --json, stdout carries only the JSON object */
    const char *sets = getenv("MSM_SCALARS") && *getenv("MSM_SCALARS") ? getenv("MSM_SCALARS") : "random,bool90";
    int want_random = strstr(sets, "random") != NULL, want_bool90 = strstr(sets, "bool90") != NULL;
    if (!want_random && !want_bool90) {
        fprintf(stderr, "cuzk-bench micro: MSM_SCALARS='%s' names neither random nor bool90\n", sets);
        return 2;
    }
    const char *cpu = cuzk_cpu_name(cuzk_cpu_active());
    uint64_t seed = 42;
    unsigned max_log = quick ? 16 : 20;
    size_t nmax = (size_t)1 << max_log;
    json_t *j = json_object();
    fprintf(out, "cuzk-bench micro (%s build, %s CPU back end%s)\n", fp_backend_name(), cpu, quick ? ", quick" : "");
    fprintf(out, "preparing %zu G1 bases ...\n", nmax);
    fflush(out);
    g1_affine_t *b1 = bench_g1_bases(nmax, &seed);
    g2_affine_t *b2 = bench_g2_bases((size_t)1 << 16, &seed);
    uint64_t *s = malloc(nmax * 4 * sizeof *s), *sb = malloc(nmax * 4 * sizeof *sb);
    bench_random_scalars(s, nmax, &seed);
    bench_bool90_scalars(sb, nmax, &seed);

    double fpm = time_fp_mul(), frm = time_fr_mul(), madd = time_g1_madd(b1);
    fprintf(out, "%-28s %10.1f ns/op\n%-28s %10.1f ns/op\n%-28s %10.1f ns/op\n", "Fp mul", fpm, "Fr mul", frm,
           "G1 mixed add", madd);
    json_object_set_new(j, "fp_mul_ns", json_real(fpm));
    json_object_set_new(j, "fr_mul_ns", json_real(frm));
    json_object_set_new(j, "g1_madd_ns", json_real(madd));
    fflush(out);

    for (unsigned lg = 16; lg <= max_log; lg += 2) {
        for (unsigned t = 1; t <= 2; t++) {
            for (int bool90 = 0; bool90 <= 1; bool90++) {
                if (bool90 ? !want_bool90 : !want_random)
                    continue;
                double ms = time_msm_g1(b1, bool90 ? sb : s, (size_t)1 << lg, t, lg >= 20 ? 1 : 3, bool90);
                fprintf(out, "G1 MSM%s 2^%-2u  %u thread%s %10.1f ms  %8.1f ns/point\n", bool90 ? " bool90" : "       ",
                        lg, t, t > 1 ? "s" : " ", ms, ms * 1e6 / (double)((size_t)1 << lg));
                char key[64];
                snprintf(key, sizeof key, "msm_g1%s_2p%u_t%u_ms", bool90 ? "_bool90" : "", lg, t);
                json_object_set_new(j, key, json_real(ms));
                fflush(out);
            }
        }
    }
    for (unsigned t = 1; t <= 2; t++) {
        double ms = time_msm_g2(b2, s, (size_t)1 << 16, t, quick ? 1 : 3, 0);
        fprintf(out, "G2 MSM        2^16  %u thread%s %10.1f ms  %8.1f ns/point\n", t, t > 1 ? "s" : " ", ms,
               ms * 1e6 / 65536.0);
        char key[64];
        snprintf(key, sizeof key, "msm_g2_2p16_t%u_ms", t);
        json_object_set_new(j, key, json_real(ms));
        fflush(out);
    }
    backend *gb = NULL;
    cuzk_error gerr = {0};
    if (bc.kind != BACKEND_CPU && backend_open(&bc, &gb, &gerr)) {
        fprintf(stderr, "cuzk-bench micro: backend: %s\n", gerr.msg);
        return 2;
    }
    gpu_device *gdev = gb ? backend_gpu_device(gb, 0) : NULL;
    if (gb && !gdev)
        fprintf(out, "backend %s: no device, no device rows\n", backend_describe(gb));
    if (gdev) {
        gpu_queue *q = NULL;
        gpu_msm_bases *gbases = NULL;
        if (gpu_queue_create(gdev, &q, &gerr) || gpu_msm_bases_upload(q, b1, nmax, &gbases, &gerr)) {
            fprintf(stderr, "cuzk-bench micro: %s\n", gerr.msg);
        } else {
            json_object_set_new(j, "gpu_device", json_string(gpu_device_label(gdev)));
            for (unsigned lg = 16; lg <= max_log; lg += 2)
                for (int bool90 = 0; bool90 <= 1; bool90++) {
                    if (bool90 ? !want_bool90 : !want_random)
                        continue;
                    bool same = false;
                    double ms = time_gpu_msm(q, gbases, b1, bool90 ? sb : s, (size_t)1 << lg, lg >= 20 ? 1 : 3, &same);
                    if (ms < 0)
                        break;
                    fprintf(out, "GPU G1 MSM%s 2^%-2u %-20.20s %10.1f ms  %8.1f ns/point%s\n", bool90 ? " bool90" : "",
                            lg, gpu_device_label(gdev), ms, ms * 1e6 / (double)((size_t)1 << lg),
                            same ? "" : "  RESULT DIFFERS FROM THE CPU'S");
                    char key[64];
                    snprintf(key, sizeof key, "gpu_msm_g1%s_2p%u_ms", bool90 ? "_bool90" : "", lg);
                    json_object_set_new(j, key, json_real(ms));
                    snprintf(key, sizeof key, "gpu_msm_g1%s_2p%u_same", bool90 ? "_bool90" : "", lg);
                    json_object_set_new(j, key, json_boolean(same));
                    fflush(out);
                }
        }
        gpu_msm_bases_free(gbases);
        gpu_queue_destroy(q);
    }
    backend_close(gb);
    unsigned ntt_max = quick ? 16 : 22;
    for (unsigned lg = quick ? 16 : 20; lg <= ntt_max; lg += 2)
        for (unsigned t = 1; t <= 2; t++) {
            double ms = time_ntt(lg, t, 3);
            fprintf(out, "NTT 2^%-2u     %u thread%s     %10.1f ms\n", lg, t, t > 1 ? "s" : " ", ms);
            char key[64];
            snprintf(key, sizeof key, "ntt_2p%u_t%u_ms", lg, t);
            json_object_set_new(j, key, json_real(ms));
            fflush(out);
        }
    pairing_times_t pt;
    time_pairing(&pt, quick ? 5 : 20, &seed);
    const struct {
        const char *label, *key;
        double us;
    } prows[] = {
        {"pairing", "pairing_us", pt.pairing},
        {"Miller loop, 1 pair", "miller_loop_1_us", pt.ml1},
        {"Miller loop, 3 pairs", "miller_loop_3_us", pt.ml3},
        {"final exponentiation", "final_exp_us", pt.final_exp},
        {"pairing check, 4 pairs", "pairing_check_4_us", pt.check4},
        {"Groth16 verify, 1 input", "groth16_verify_1_us", pt.verify1},
        {"Groth16 verify, 328 inputs", "groth16_verify_328_us", pt.verify328},
    };
    for (size_t i = 0; i < sizeof prows / sizeof prows[0]; i++) {
        fprintf(out, "%-28s %10.1f us\n", prows[i].label, prows[i].us);
        json_object_set_new(j, prows[i].key, json_real(prows[i].us));
    }
    json_object_set_new(j, "field_backend", json_string(fp_backend_name()));
    json_object_set_new(j, "cpu_backend", json_string(cpu));
    json_object_set_new(j, "msm_scalars", json_string(sets));
    json_object_set_new(j, "quick", json_boolean(quick));
    if (json) {
        char *txt = json_dumps(j, JSON_COMPACT);
        printf("%s\n", txt);
        free(txt);
    }
    json_decref(j);
    free(b1);
    free(b2);
    free(s);
    free(sb);
    return 0;
}
