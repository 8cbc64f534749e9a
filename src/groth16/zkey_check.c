/* zkey diagnostics; contracts in zkey_check.h. */
#include "groth16/zkey_check.h"

#include <stdlib.h>
#include <string.h>

#include "cs/spmv.h"
#include "curve/pairing.h"
#include "groth16/groth16.h"
#include "msm/msm.h"

/* x[i] = rho^i for i < n, rho uniform in Fr. */
static cuzk_status random_powers(fr_t *x, size_t n, cuzk_error *err)
{
    fr_t rho, unused;
    cuzk_status st = groth16_random_rs(&rho, &unused, err);
    if (st)
        return st;
    fr_from_u64(&x[0], 1);
    for (size_t i = 1; i < n; i++)
        fr_mul(&x[i], &x[i - 1], &rho);
    return CUZK_OK;
}

cuzk_status zkey_check_r1cs(const zkey_t *z, const r1cs_t *r, const char *r1cs_name, cuzk_error *err)
{
    const char *who = "the zkey was made for another circuit than";
    if (z->n_vars != r->n_wires)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "%s %s: the zkey has %u signals, the circuit %u wires", who,
                         r1cs_name, z->n_vars, r->n_wires);
    if (z->n_public != r1cs_n_public(r))
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "%s %s: the zkey has %u public signals, the circuit %u", who,
                         r1cs_name, z->n_public, r1cs_n_public(r));
    uint64_t rows = (uint64_t)r->n_constraints + z->n_public + 1;
    if (rows > z->domain_size)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "%s %s: %llu rows do not fit the zkey's domain of %u", who, r1cs_name,
                         (unsigned long long)rows, z->domain_size);
    size_t m = z->domain_size;
    fr_t *x = malloc(z->n_vars * sizeof *x), *kz = malloc(2 * m * sizeof *kz), *kr = malloc(2 * m * sizeof *kr);
    cuzk_status st = x && kz && kr ? random_powers(x, z->n_vars, err)
                                   : cuzk_fail(err, CUZK_E_NOMEM, "out of memory comparing the zkey with %s", r1cs_name);
    if (!st) {
        /* rows of A then B: from the zkey's coefficients ... */
        memset(kz, 0, 2 * m * sizeof *kz);
        for (uint32_t i = 0; i < z->n_coefs; i++) {
            const zkey_coef *k = &z->coefs[i];
            fr_t t;
            fr_mul(&t, &k->value, &x[k->signal]);
            fr_add(&kz[k->matrix * m + k->constraint], &kz[k->matrix * m + k->constraint], &t);
        }
        /* ... and from the circuit, plus snarkjs's input rows */
        memset(kr, 0, 2 * m * sizeof *kr);
        st = cs_spmv_abc(kr, kr + m, NULL, &r->a, &r->b, NULL, x, r->n_wires, 0, err);
        for (uint32_t s = 0; s <= z->n_public; s++)
            kr[r->n_constraints + s] = x[s];
    }
    for (size_t i = 0; !st && i < 2 * m; i++)
        if (!fr_eq(&kz[i], &kr[i]))
            st = cuzk_fail(err, CUZK_E_INVALID_ARG, "%s %s: its %s coefficients differ in row %zu%s", who, r1cs_name,
                           i < m ? "A" : "B", i % m, i % m >= r->n_constraints ? " (an input row)" : "");
    free(x);
    free(kz);
    free(kr);
    return st;
}

/* e(p1, G2) == e(G1, p2), as e(p1, G2) * e(-G1, p2) == 1. */
static bool same_scalar(const g1_affine_t *p1, const g2_affine_t *p2)
{
    g1_affine_t p[2];
    g2_affine_t g2;
    g2_prepared_t *q = malloc(2 * sizeof *q);
    if (!q)
        return true; /* cannot tell: do not blame the key */
    p[0] = *p1;
    g1_generator(&p[1]);
    g1_affine_neg(&p[1], &p[1]);
    g2_generator(&g2);
    pairing_prepare_g2_once(&q[0], &g2);
    pairing_prepare_g2_once(&q[1], p2);
    const g2_prepared_t *qs[2] = {&q[0], &q[1]};
    bool ok = pairing_product_is_one(p, qs, 2);
    free(q);
    return ok;
}

cuzk_status zkey_check_points(const zkey_t *z, unsigned threads, cuzk_error *err)
{
    const char *bad = "the proving key is inconsistent:";
    if (!same_scalar(&z->beta1, &z->beta2))
        return cuzk_fail(err, CUZK_E_VERIFY_FAILED, "%s beta1 and beta2 are not the same scalar", bad);
    if (!same_scalar(&z->delta1, &z->delta2))
        return cuzk_fail(err, CUZK_E_VERIFY_FAILED, "%s delta1 and delta2 are not the same scalar", bad);
    size_t n = z->n_vars;
    fr_t *x = malloc(n * sizeof *x);
    uint64_t *scalars = malloc(n * MSM_SCALAR_LIMBS * sizeof *scalars);
    cuzk_status st = x && scalars ? random_powers(x, n, err)
                                  : cuzk_fail(err, CUZK_E_NOMEM, "out of memory checking the proving key");
    for (size_t i = 0; !st && i < n; i++)
        fr_to_limbs(scalars + i * MSM_SCALAR_LIMBS, &x[i]);
    free(x);
    g1_jac_t s1;
    g2_jac_t s2;
    msm_opts_t opts = {.threads = threads};
    if (!st)
        st = msm_g1(&s1, z->b1, scalars, n, &opts, err);
    if (!st)
        st = msm_g2(&s2, z->b2, scalars, n, &opts, err);
    free(scalars);
    if (st)
        return st;
    g1_affine_t a1;
    g2_affine_t a2;
    g1_affine_from_jac(&a1, &s1);
    g2_affine_from_jac(&a2, &s2);
    if (!same_scalar(&a1, &a2))
        return cuzk_fail(err, CUZK_E_VERIFY_FAILED,
                         "%s its B points in G1 (section 6) and in G2 (section 7) are not the same B_i(tau) for every "
                         "signal (a wrong point in the key or in the powers of tau it was made from)",
                         bad);
    return CUZK_OK;
}
