/* MSM properties without an external oracle, at sizes the noble oracle cannot afford:
 *
 *   - closed form: with bases [t0 + i*step]G (known discrete logs, msm_testdata.h) the
 *     MSM must equal [sum s_i t_i]G, computed with Fr arithmetic and one scalar
 *     multiplication; scalar patterns: random, boolean, all one, small, all equal, r-1;
 *     dense and density-filtered, plain and witness-aware (whose split by scalar size
 *     is checked against a count of its own); G1 and G2; several plans (thread counts, windows,
 *     chunks), so batches fill, stash, spares, overflow and top-window lanes are all
 *     exercised; bases all equal to +-P, so buckets and running sums double and cancel;
 *   - thread-count independence: bit-identical outputs for 1..4 threads and 1..3 chunks;
 *   - Booth digits recombine to the scalar and stay within msm_window_max_digit;
 *   - plan invariants; n = 0; errors (scalar >= r, density count mismatch, NULLs).
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cpu_select.h"
#include "msm/msm.h"
#include "msm/msm_internal.h"
#include "msm_testdata.h"

enum { PAT_RANDOM, PAT_BOOLEAN, PAT_ONES, PAT_SMALL, PAT_EQUAL, PAT_R_MINUS_1, PAT_BOOL90,
       PAT_MIXED, PAT_COUNT };
static const char *const PAT_NAMES[PAT_COUNT] = {"random", "boolean", "ones",  "small",
                                                  "equal",  "r-1",     "bool90", "mixed"};

static void fill_scalars(uint64_t *s, size_t n, int pat, msm_rng *rng)
{
    uint64_t eq[4];
    msm_rng_scalar(rng, eq);
    for (size_t i = 0; i < n; i++) {
        uint64_t *d = s + 4 * i;
        memset(d, 0, 32);
        switch (pat) {
        case PAT_RANDOM: msm_rng_scalar(rng, d); break;
        case PAT_BOOLEAN: d[0] = msm_rng_next(rng) % 3 == 0; break;
        case PAT_ONES: d[0] = 1; break;
        case PAT_SMALL: d[0] = msm_rng_next(rng) & 0xffff; break;
        case PAT_EQUAL: memcpy(d, eq, 32); break;
        case PAT_BOOL90: /* 90% zeros and ones, the rest random */
            if (msm_rng_next(rng) % 10 == 0)
                msm_rng_scalar(rng, d);
            else
                d[0] = msm_rng_next(rng) & 1;
            break;
        case PAT_MIXED: { /* every size class: 0, 1, 2..64 bits, random */
            uint64_t roll = msm_rng_next(rng) % 8, bits = 2 + msm_rng_next(rng) % 63;
            if (roll < 2)
                d[0] = roll;
            else if (roll < 6)
                d[0] = (msm_rng_next(rng) >> (64 - bits)) | ((uint64_t)1 << (bits - 1));
            else
                msm_rng_scalar(rng, d);
            break;
        }
        default:
            memcpy(d, FR_MODULUS, 32);
            d[0] -= 1;
            break;
        }
    }
}

static uint64_t *random_density(size_t n, msm_rng *rng, size_t *nset)
{
    uint64_t *bm = calloc(n / 64 + 1, sizeof *bm);
    *nset = 0;
    for (size_t i = 0; i < n; i++) {
        if (msm_rng_next(rng) % 4 != 0) {
            bm[i / 64] |= (uint64_t)1 << (i % 64);
            (*nset)++;
        }
    }
    return bm;
}

/* The split of a dense witness-aware MSM: counts by scalar size (no base is at
 * infinity here), and the pattern's expected classes. */
static void check_split(const msm_witness_stats_t *ws, const uint64_t *s, size_t n, int pat)
{
    size_t want[4] = {0}; /* zeros, ones, small, full */
    for (size_t i = 0; i < n; i++) {
        const uint64_t *d = s + 4 * i;
        unsigned bits = msm_scalar_bits(d);
        want[bits <= 1 ? bits : bits <= ws->small_bits ? 2 : 3]++;
    }
    CHECK(ws->zeros == want[0] && ws->ones == want[1] && ws->small == want[2] &&
              ws->full == want[3],
          "%s: split %zu/%zu/%zu/%zu (t=%u), counted %zu/%zu/%zu/%zu", PAT_NAMES[pat],
          ws->zeros, ws->ones, ws->small, ws->full, ws->small_bits, want[0], want[1], want[2],
          want[3]);
    if (pat == PAT_BOOLEAN || pat == PAT_ONES)
        CHECK(ws->small == 0 && ws->full == 0, "%s: values above 1 in the split", PAT_NAMES[pat]);
    if (pat == PAT_SMALL)
        CHECK(ws->full == 0 && ws->small_bits >= 2 && ws->small_bits <= 16,
              "16-bit scalars: split t=%u, %zu full", ws->small_bits, ws->full);
    if (pat == PAT_RANDOM || pat == PAT_EQUAL || pat == PAT_R_MINUS_1)
        CHECK(ws->small == 0, "%s: %zu full-size scalars in the short part", PAT_NAMES[pat],
              ws->small);
}

static const msm_opts_t PLANS[] = {{1, 0, 0, NULL}, {2, 0, 0, NULL}, {3, 11, 2, NULL}, {2, 12, 0, NULL}, {4, 9, 3, NULL}};
#define NPLANS (sizeof PLANS / sizeof PLANS[0])

#define DEFINE_CLOSED_FORM(G)                                                                \
    static void closed_form_##G(size_t n, msm_rng *rng)                                      \
    {                                                                                        \
        fr_t t0, step, e;                                                                    \
        fr_from_u64(&t0, msm_rng_next(rng));                                                 \
        fr_from_u64(&step, msm_rng_next(rng) | 1);                                           \
        G##_affine_t *all = malloc(n * sizeof *all), *compact = malloc(n * sizeof *compact); \
        uint64_t *s = malloc(n * 32);                                                        \
        msm_linear_##G(all, n, &t0, &step);                                                  \
        size_t nset;                                                                         \
        uint64_t *bm = random_density(n, rng, &nset);                                        \
        for (size_t i = 0, k = 0; i < n; i++)                                                \
            if ((bm[i / 64] >> (i % 64)) & 1)                                                \
                compact[k++] = all[i];                                                       \
        for (int pat = 0; pat < PAT_COUNT; pat++) {                                          \
            fill_scalars(s, n, pat, rng);                                                    \
            G##_jac_t want, want_d, got;                                                     \
            msm_expected_log(&e, s, n, NULL, &t0, &step);                                    \
            msm_##G##_from_log(&want, &e);                                                   \
            msm_expected_log(&e, s, n, bm, &t0, &step);                                      \
            msm_##G##_from_log(&want_d, &e);                                                 \
            for (size_t p = 0; p < NPLANS; p++) {                                            \
                cuzk_error err;                                                              \
                cuzk_status st = msm_##G(&got, all, s, n, &PLANS[p], &err);                  \
                CHECK(st == CUZK_OK && G##_jac_eq(&got, &want),                              \
                      #G " n=%zu %s plan %zu: dense != closed form", n, PAT_NAMES[pat], p);  \
                st = msm_##G##_density(&got, compact, nset, bm, s, n, &PLANS[p], &err);      \
                CHECK(st == CUZK_OK && G##_jac_eq(&got, &want_d),                            \
                      #G " n=%zu %s plan %zu: density != closed form", n, PAT_NAMES[pat], p); \
                msm_witness_stats_t ws;                                                      \
                st = msm_##G##_witness(&got, all, n, NULL, s, n, &PLANS[p], &ws, &err);      \
                CHECK(st == CUZK_OK && G##_jac_eq(&got, &want),                              \
                      #G " n=%zu %s plan %zu: witness != closed form", n, PAT_NAMES[pat], p); \
                check_split(&ws, s, n, pat);                                                 \
                st = msm_##G##_witness(&got, compact, nset, bm, s, n, &PLANS[p], NULL, &err); \
                CHECK(st == CUZK_OK && G##_jac_eq(&got, &want_d),                            \
                      #G " n=%zu %s plan %zu: density witness != closed form", n,            \
                      PAT_NAMES[pat], p);                                                    \
            }                                                                                \
        }                                                                                    \
        free(all);                                                                           \
        free(compact);                                                                       \
        free(s);                                                                             \
        free(bm);                                                                            \
    }

DEFINE_CLOSED_FORM(g1)
DEFINE_CLOSED_FORM(g2)

/* n bases t0 G, (t0 + step) G, ... (msm_linear_g1) and n random scalars, malloc'ed into *b, *s. */
static void linear_input(size_t n, uint64_t t0_u, uint64_t step_u, msm_rng *rng, g1_affine_t **b, uint64_t **s)
{
    fr_t t0, step;
    fr_from_u64(&t0, t0_u);
    fr_from_u64(&step, step_u);
    *b = malloc(n * sizeof **b);
    *s = malloc(n * 32);
    msm_linear_g1(*b, n, &t0, &step);
    fill_scalars(*s, n, PAT_RANDOM, rng);
}

static void thread_independence(msm_rng *rng)
{
    const size_t n = 2000;
    g1_affine_t *b;
    uint64_t *s;
    linear_input(n, 3, 11, rng, &b, &s);
    g1_jac_t first, got;
    msm_opts_t o = {1, 0, 1, NULL};
    CHECK(msm_g1(&first, b, s, n, &o, NULL) == CUZK_OK, "msm_g1 failed");
    for (unsigned t = 1; t <= 4; t++) {
        for (unsigned k = 1; k <= 3; k++) {
            msm_opts_t ok = {t, 0, k, NULL};
            CHECK(msm_g1(&got, b, s, n, &ok, NULL) == CUZK_OK &&
                      memcmp(&got, &first, sizeof got) == 0,
                  "threads=%u chunks=%u: output not bit-identical", t, k);
        }
    }
    free(b);
    free(s);
}

/* Cancellation: a set flag (in opts, or bound to the calling thread) ends the MSM with
 * CUZK_E_CANCELLED and leaves `out` untouched; a clear flag changes nothing. */
static void cancellation(msm_rng *rng)
{
    const size_t n = 500;
    g1_affine_t *b;
    uint64_t *s;
    linear_input(n, 5, 7, rng, &b, &s);
    g1_jac_t plain, got, mark;
    memset(&mark, 0xA5, sizeof mark);
    atomic_bool flag;
    atomic_init(&flag, false);
    msm_opts_t o = {2, 0, 0, &flag};
    CHECK(msm_g1(&plain, b, s, n, NULL, NULL) == CUZK_OK, "msm_g1 failed");
    CHECK(msm_g1(&got, b, s, n, &o, NULL) == CUZK_OK && memcmp(&got, &plain, sizeof got) == 0,
          "a clear cancel flag changed the result");
    atomic_store(&flag, true);
    cuzk_error e = {0};
    got = mark;
    CHECK(msm_g1(&got, b, s, n, &o, &e) == CUZK_E_CANCELLED && strstr(e.msg, "cancelled") &&
              memcmp(&got, &mark, sizeof got) == 0,
          "opts.cancel set: want CUZK_E_CANCELLED and out untouched, got '%s'", e.msg);
    const atomic_bool *outer = cuzk_cancel_bind(&flag);
    CHECK(msm_g1(&got, b, s, n, NULL, NULL) == CUZK_E_CANCELLED, "the thread's bound flag is not seen");
    uint64_t density[(500 + 63) / 64];
    memset(density, 0xff, sizeof density);
    CHECK(msm_g1_density(&got, b, n, density, s, n, NULL, NULL) == CUZK_E_CANCELLED,
          "the density MSM does not see the bound flag");
    cuzk_cancel_bind(outer);
    CHECK(msm_g1(&got, b, s, n, NULL, NULL) == CUZK_OK && memcmp(&got, &plain, sizeof got) == 0,
          "after unbinding the MSM runs again");
    free(b);
    free(s);
}

/* All bases +-P (P = [t0]G, odd positions negated): buckets and running sums keep meeting
 * equal and opposite points (doublings, cancellations). Expected: [sum +-s_i t0]G. */
static void equal_and_negated_bases(msm_rng *rng)
{
    const size_t n = 3000;
    fr_t t0, zero = FR_ZERO, e;
    fr_from_u64(&t0, msm_rng_next(rng));
    g1_affine_t *b = malloc(n * sizeof *b);
    uint64_t *s = malloc(n * 32), *signed_s = malloc(n * 32);
    msm_linear_g1(b, n, &t0, &zero);
    for (size_t i = 0; i < n; i++) {
        fr_t f;
        msm_rng_scalar(rng, s + 4 * i);
        if (i % 7 == 3)
            memset(s + 4 * i, 0, 32);
        fr_from_limbs(&f, s + 4 * i);
        if (i & 1) {
            g1_affine_neg(&b[i], &b[i]);
            fr_neg(&f, &f);
        }
        fr_to_limbs(signed_s + 4 * i, &f);
    }
    g1_jac_t want, got;
    msm_expected_log(&e, signed_s, n, NULL, &t0, &zero);
    msm_g1_from_log(&want, &e);
    for (size_t p = 0; p < NPLANS; p++) {
        CHECK(msm_g1(&got, b, s, n, &PLANS[p], NULL) == CUZK_OK && g1_jac_eq(&got, &want),
              "+-P bases plan %zu: MSM != closed form", p);
    }
    /* the same bases with scalars 0 and 1 only: the sum of the ones doubles and cancels */
    for (size_t i = 0; i < n; i++) {
        memset(s + 4 * i, 0, 32);
        s[4 * i] = i % 5 != 2;
        fr_t f;
        fr_from_u64(&f, s[4 * i]);
        if (i & 1)
            fr_neg(&f, &f);
        fr_to_limbs(signed_s + 4 * i, &f);
    }
    msm_expected_log(&e, signed_s, n, NULL, &t0, &zero);
    msm_g1_from_log(&want, &e);
    for (size_t p = 0; p < NPLANS; p++) {
        CHECK(msm_g1_witness(&got, b, n, NULL, s, n, &PLANS[p], NULL, NULL) == CUZK_OK &&
                  g1_jac_eq(&got, &want),
              "+-P bases, boolean scalars, plan %zu: witness MSM != closed form", p);
    }
    free(b);
    free(s);
    free(signed_s);
}

static void booth_digits(msm_rng *rng)
{
    for (int trial = 0; trial < 200; trial++) {
        uint64_t s[4];
        msm_rng_scalar(rng, s);
        if (trial == 0)
            memset(s, 0, sizeof s);
        if (trial == 1) {
            memcpy(s, FR_MODULUS, sizeof s);
            s[0] -= 1;
        }
        fr_t want, acc, d, pw, two_c;
        fr_from_limbs(&want, s);
        for (unsigned c = 1; c <= MSM_MAX_WINDOW_BITS; c++) {
            unsigned windows = (256 + c - 1) / c;
            fr_from_u64(&two_c, (uint64_t)1 << c);
            acc = FR_ZERO;
            pw = FR_ONE;
            bool in_range = true;
            for (unsigned w = 0; w < windows; w++) {
                int32_t dig = msm_booth_digit(s, w, c);
                uint64_t mag = dig < 0 ? (uint64_t)-(int64_t)dig : (uint64_t)dig;
                in_range &= mag <= msm_window_max_digit(c, w);
                fr_from_u64(&d, mag);
                fr_mul(&d, &d, &pw);
                if (dig < 0)
                    fr_sub(&acc, &acc, &d);
                else
                    fr_add(&acc, &acc, &d);
                fr_mul(&pw, &pw, &two_c);
            }
            CHECK(fr_eq(&acc, &want) && in_range, "booth c=%u trial %d: digits do not recombine",
                  c, trial);
        }
        /* short scalars (the witness-aware MSM's short part): s < 2^bits needs only
         * ceil((bits + 1) / c) windows, digits within msm_window_max_digit_bits */
        unsigned bits = 2 + (unsigned)(msm_rng_next(rng) % 100);
        uint64_t t[4] = {0};
        for (unsigned i = 0; i + 1 < bits; i++)
            t[i / 64] |= (msm_rng_next(rng) & 1) << (i % 64);
        t[(bits - 1) / 64] |= (uint64_t)1 << ((bits - 1) % 64);
        fr_from_limbs(&want, t);
        for (unsigned c = 1; c <= MSM_MAX_WINDOW_BITS; c++) {
            unsigned windows = (bits + c) / c;
            fr_from_u64(&two_c, (uint64_t)1 << c);
            acc = FR_ZERO;
            pw = FR_ONE;
            bool in_range = true;
            for (unsigned w = 0; w < windows; w++) {
                int32_t dig = msm_booth_digit(t, w, c);
                uint64_t mag = dig < 0 ? (uint64_t)-(int64_t)dig : (uint64_t)dig;
                in_range &= mag <= msm_window_max_digit_bits(c, w, bits);
                fr_from_u64(&d, mag);
                fr_mul(&d, &d, &pw);
                if (dig < 0)
                    fr_sub(&acc, &acc, &d);
                else
                    fr_add(&acc, &acc, &d);
                fr_mul(&pw, &pw, &two_c);
            }
            CHECK(fr_eq(&acc, &want) && in_range,
                  "booth c=%u bits=%u trial %d: short digits do not recombine", c, bits, trial);
        }
    }
}

static void plans(void)
{
    const size_t sizes[] = {0, 1, 5, 1000, (size_t)1 << 16, (size_t)1 << 22};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        for (unsigned t = 1; t <= 16; t *= 2) {
            msm_opts_t o = {t, 0, 0, NULL};
            msm_plan_t p;
            msm_plan(&p, MSM_G1, sizes[i], &o);
            CHECK(p.window_bits >= 1 && p.window_bits <= MSM_MAX_WINDOW_BITS &&
                      p.windows * p.window_bits >= 256 &&
                      (p.windows - 1) * p.window_bits < 256 && p.chunks >= 1 &&
                      p.threads >= 1 && p.threads <= t,
                  "plan n=%zu t=%u: c=%u windows=%u chunks=%u threads=%u", sizes[i], t,
                  p.window_bits, p.windows, p.chunks, p.threads);
        }
    }
    msm_opts_t o = {3, 7, 5, NULL};
    msm_plan_t p;
    msm_plan(&p, MSM_G2, 100000, &o);
    CHECK(p.window_bits == 7 && p.chunks == 5 && p.threads == 3, "forced plan not honoured");
}

static void errors_and_empty(void)
{
    g1_affine_t b[8];
    uint64_t s[32] = {0};
    g1_generator(&b[0]);
    for (int i = 1; i < 8; i++)
        b[i] = b[0];
    g1_jac_t out, sentinel;
    g1_jac_from_affine(&sentinel, &b[0]);
    cuzk_error err;

    out = sentinel;
    memcpy(s + 4 * 7, FR_MODULUS, 32); /* scalar 7 == r */
    CHECK(msm_g1(&out, b, s, 8, NULL, &err) == CUZK_E_INVALID_ARG &&
              strstr(err.msg, "scalars[7]") && memcmp(&out, &sentinel, sizeof out) == 0,
          "scalar == r accepted or out touched (%s)", err.msg);
    s[4 * 7 + 3] = ~(uint64_t)0;
    CHECK(msm_g1(&out, b, s, 8, NULL, &err) == CUZK_E_INVALID_ARG, "scalar 2^256-1 accepted");
    memset(s, 0, sizeof s);

    uint64_t bm = 0x0f; /* 4 set bits among 8 */
    CHECK(msm_g1_density(&out, b, 5, &bm, s, 8, NULL, &err) == CUZK_E_INVALID_ARG,
          "density count mismatch accepted");
    CHECK(msm_g1_density(&out, b, 4, &bm, s, 8, NULL, &err) == CUZK_OK, "density rejected");
    bm = 0xff00; /* bits >= n are ignored */
    CHECK(msm_g1_density(&out, b, 0, &bm, s, 8, NULL, &err) == CUZK_OK &&
              g1_jac_is_infinity(&out),
          "bits beyond n counted");
    CHECK(msm_g1_density(&out, b, 4, NULL, s, 8, NULL, &err) == CUZK_E_INVALID_ARG,
          "NULL density accepted");
    CHECK(msm_g1(NULL, b, s, 8, NULL, &err) == CUZK_E_INVALID_ARG, "NULL out accepted");
    CHECK(msm_g1(&out, b, NULL, 8, NULL, &err) == CUZK_E_INVALID_ARG, "NULL scalars accepted");
    CHECK(msm_g1(&out, NULL, s, 8, NULL, &err) == CUZK_E_INVALID_ARG, "NULL bases accepted");

    out = sentinel;
    CHECK(msm_g1(&out, NULL, NULL, 0, NULL, &err) == CUZK_OK && g1_jac_is_infinity(&out),
          "n = 0 is not infinity");
    out = sentinel;
    CHECK(msm_g1_density(&out, NULL, 0, NULL, NULL, 0, NULL, &err) == CUZK_OK &&
              g1_jac_is_infinity(&out),
          "density n = 0 is not infinity");
    g2_jac_t out2;
    CHECK(msm_g2(&out2, NULL, NULL, 0, NULL, &err) == CUZK_OK && g2_jac_is_infinity(&out2),
          "g2 n = 0 is not infinity");

    /* witness-aware MSM: the same validation, and a dense call needs nbases == n */
    out = sentinel;
    memcpy(s + 4 * 5, FR_MODULUS, 32);
    CHECK(msm_g1_witness(&out, b, 8, NULL, s, 8, NULL, NULL, &err) == CUZK_E_INVALID_ARG &&
              strstr(err.msg, "scalars[5]") && memcmp(&out, &sentinel, sizeof out) == 0,
          "witness MSM: scalar == r accepted or out touched (%s)", err.msg);
    memset(s, 0, sizeof s);
    CHECK(msm_g1_witness(&out, b, 7, NULL, s, 8, NULL, NULL, &err) == CUZK_E_INVALID_ARG,
          "witness MSM: dense with nbases != n accepted");
    bm = 0x0f;
    CHECK(msm_g1_witness(&out, b, 5, &bm, s, 8, NULL, NULL, &err) == CUZK_E_INVALID_ARG,
          "witness MSM: density count mismatch accepted");
    out = sentinel;
    CHECK(msm_g2_witness(&out2, NULL, 0, NULL, NULL, 0, NULL, NULL, &err) == CUZK_OK &&
              g2_jac_is_infinity(&out2),
          "witness MSM: g2 n = 0 is not infinity");
    s[0] = 1;
    msm_witness_stats_t ws;
    CHECK(msm_g1_witness(&out, b, 8, NULL, s, 8, NULL, &ws, &err) == CUZK_OK &&
              g1_jac_eq(&out, &sentinel) && ws.ones == 1 && ws.zeros == 7,
          "witness MSM: a single one is not the base");
}

int main(void)
{
    check_select_cpu();
    msm_rng rng = {0xC0FFEE1234567ULL};
    booth_digits(&rng);
    plans();
    errors_and_empty();
    thread_independence(&rng);
    cancellation(&rng);
    equal_and_negated_bases(&rng);
    closed_form_g1(2000, &rng);
    closed_form_g1(40, &rng);
    closed_form_g2(150, &rng);
    return check_summary("test_msm_props");
}
