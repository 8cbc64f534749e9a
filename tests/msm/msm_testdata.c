/* Test data for MSM tests and bench (see msm_testdata.h). */
#include "msm_testdata.h"

#include <stdlib.h>
#include <time.h>

uint64_t msm_rng_next(msm_rng *r)
{
    /* xorshift64* (Vigna, "An experimental exploration of Marsaglia's xorshift
     * generators, scrambled", ACM TOMS 2016) */
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 0x2545F4914F6CDD1DULL;
}

void msm_rng_scalar(msm_rng *r, uint64_t out[4])
{
    uint64_t raw[4];
    fr_t f;
    for (int i = 0; i < 4; i++)
        raw[i] = msm_rng_next(r);
    fr_from_limbs_reduce(&f, raw);
    fr_to_limbs(out, &f);
}

#define DEFINE_LINEAR(G)                                                                 \
    void msm_linear_##G(G##_affine_t *bases, size_t n, const fr_t *t0, const fr_t *step) \
    {                                                                                    \
        G##_affine_t gen;                                                                \
        G##_jac_t p, d, *jac = malloc((n ? n : 1) * sizeof *jac);                        \
        G##_generator(&gen);                                                             \
        G##_jac_from_affine(&d, &gen);                                                   \
        G##_mul_fr(&p, &d, t0);                                                          \
        G##_mul_fr(&d, &d, step);                                                        \
        for (size_t i = 0; i < n; i++) {                                                 \
            jac[i] = p;                                                                  \
            G##_add(&p, &p, &d);                                                         \
        }                                                                                \
        G##_batch_to_affine(bases, jac, n);                                              \
        free(jac);                                                                       \
    }                                                                                    \
    void msm_##G##_from_log(G##_jac_t *r, const fr_t *e)                                 \
    {                                                                                    \
        G##_affine_t gen;                                                                \
        G##_jac_t g;                                                                     \
        G##_generator(&gen);                                                             \
        G##_jac_from_affine(&g, &gen);                                                   \
        G##_mul_fr(r, &g, e);                                                            \
    }

DEFINE_LINEAR(g1)
DEFINE_LINEAR(g2)

void msm_expected_log(fr_t *e, const uint64_t *scalars, size_t n, const uint64_t *density,
                      const fr_t *t0, const fr_t *step)
{
    fr_t t = *t0, s, prod;
    *e = FR_ZERO;
    for (size_t i = 0; i < n; i++) {
        if (!density || ((density[i / 64] >> (i % 64)) & 1)) {
            fr_from_limbs(&s, scalars + 4 * i);
            fr_mul(&prod, &s, &t);
            fr_add(e, e, &prod);
        }
        fr_add(&t, &t, step);
    }
}

double msm_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double msm_cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
