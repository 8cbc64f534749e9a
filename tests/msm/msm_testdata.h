/* Test data for MSM tests and the MSM bench, built with the curve and field layers.
 *
 * Linear bases: base i = [t0 + i*step]G (G the group generator), made by repeated
 * Jacobian addition and one batch conversion to affine, so n bases cost n additions
 * instead of n scalar multiplications. Because the discrete logs t_i are known, the MSM
 * of any scalars has the closed form [sum s_i t_i mod r]G (msm_expected_*), an
 * independent check that needs one scalar multiplication.
 *
 * Scalars come from a fixed-seed xorshift64* generator; every scalar is < r.
 */
#ifndef CUZK_TESTS_MSM_TESTDATA_H
#define CUZK_TESTS_MSM_TESTDATA_H

#include <stddef.h>
#include <stdint.h>

#include "curve/curve.h"
#include "field/fr.h"

typedef struct { uint64_t s; } msm_rng;

uint64_t msm_rng_next(msm_rng *r);
/* A uniform canonical scalar < r (4 little-endian limbs). */
void msm_rng_scalar(msm_rng *r, uint64_t out[4]);

/* bases[i] = [t0 + i*step]G for i < n (t0, step in Fr, Montgomery form). */
void msm_linear_g1(g1_affine_t *bases, size_t n, const fr_t *t0, const fr_t *step);
void msm_linear_g2(g2_affine_t *bases, size_t n, const fr_t *t0, const fr_t *step);

/* e = sum over i < n with (density == NULL or bit i set) of s_i * (t0 + i*step). */
void msm_expected_log(fr_t *e, const uint64_t *scalars, size_t n, const uint64_t *density,
                      const fr_t *t0, const fr_t *step);

/* [e]G as a Jacobian point. */
void msm_g1_from_log(g1_jac_t *r, const fr_t *e);
void msm_g2_from_log(g2_jac_t *r, const fr_t *e);

/* Monotonic wall-clock seconds, and CPU seconds used by the whole process. */
double msm_now(void);
double msm_cpu_now(void);

#endif
