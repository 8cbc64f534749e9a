/* Groth16 verification with a prepared verifying key; contracts in groth16.h. */
#include <stdlib.h>

#include "groth16/groth16.h"
#include "msm/msm.h"

void groth16_prepare_vk(groth16_pvk_t *pvk, const groth16_vk_t *vk)
{
    pvk->vk = vk;
    g1_affine_t neg_alpha;
    g2_prepared_t beta;
    g1_affine_neg(&neg_alpha, &vk->alpha_g1);
    pairing_prepare_g2_once(&beta, &vk->beta_g2);
    const g2_prepared_t *q[1] = {&beta};
    pairing_miller_loop(&pvk->miller_neg_alpha_beta, &neg_alpha, q, 1);
    pairing_prepare_g2(&pvk->gamma_g2, &vk->gamma_g2);
    pairing_prepare_g2(&pvk->delta_g2, &vk->delta_g2);
}

static cuzk_status check_point_g1(const g1_affine_t *p, const char *name, cuzk_error *err)
{
    if (!g1_affine_is_on_curve(p))
        return cuzk_fail(err, CUZK_E_POINT_NOT_ON_CURVE, "proof.%s is not on the G1 curve", name);
    if (!g1_affine_in_subgroup(p))
        return cuzk_fail(err, CUZK_E_POINT_NOT_IN_SUBGROUP, "proof.%s is not in the G1 subgroup", name);
    return CUZK_OK;
}

/* acc = ic_0 + sum_i x_i ic_{i+1}, as one single-threaded MSM (verification runs on many
 * finalizer threads at once: no thread of its own). */
static cuzk_status input_combination(g1_jac_t *acc, const groth16_vk_t *vk, const fr_t *inputs, size_t n,
                                     cuzk_error *err)
{
    g1_jac_from_affine(acc, &vk->ic[0]);
    if (n == 0)
        return CUZK_OK;
    uint64_t *scalars = malloc(n * MSM_SCALAR_LIMBS * sizeof *scalars);
    if (!scalars)
        return cuzk_fail(err, CUZK_E_NOMEM, "groth16_verify: out of memory for %zu input scalars", n);
    for (size_t i = 0; i < n; i++)
        fr_to_limbs(scalars + MSM_SCALAR_LIMBS * i, &inputs[i]);
    g1_jac_t sum;
    msm_opts_t opts = {.threads = 1};
    cuzk_status st = msm_g1(&sum, vk->ic + 1, scalars, n, &opts, err);
    free(scalars);
    if (!st)
        g1_add(acc, acc, &sum);
    return st;
}

cuzk_status groth16_verify(const groth16_pvk_t *pvk, const fr_t *inputs, size_t n, const groth16_proof_t *proof,
                           cuzk_error *err)
{
    const groth16_vk_t *vk = pvk->vk;
    if (n + 1 != vk->n_ic)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "verifying key expects %zu public inputs, got %zu",
                         vk->n_ic - 1, n);
    cuzk_status st = check_point_g1(&proof->a, "A", err);
    if (!st)
        st = check_point_g1(&proof->c, "C", err);
    if (st)
        return st;
    if (!g2_affine_is_on_curve(&proof->b))
        return cuzk_fail(err, CUZK_E_POINT_NOT_ON_CURVE, "proof.B is not on the G2 curve");
    if (!g2_affine_in_subgroup(&proof->b))
        return cuzk_fail(err, CUZK_E_POINT_NOT_IN_SUBGROUP, "proof.B is not in the G2 subgroup");

    g1_jac_t acc;
    if ((st = input_combination(&acc, vk, inputs, n, err)))
        return st;
    /* e(A, B) e(-alpha, beta) e(-IC, gamma) e(-C, delta) == 1, the (-alpha, beta) Miller
     * value prepared with the key */
    g1_affine_t p[3];
    g2_prepared_t b_prep;
    pairing_prepare_g2_once(&b_prep, &proof->b);
    const g2_prepared_t *q[3] = {&b_prep, &pvk->gamma_g2, &pvk->delta_g2};
    p[0] = proof->a;
    g1_affine_from_jac(&p[1], &acc);
    g1_affine_neg(&p[1], &p[1]);
    g1_affine_neg(&p[2], &proof->c);
    fp12_t f, e;
    pairing_miller_loop(&f, p, q, 3);
    fp12_mul(&f, &f, &pvk->miller_neg_alpha_beta);
    pairing_final_exp(&e, &f);
    if (!fp12_is_one(&e))
        return cuzk_fail(err, CUZK_E_VERIFY_FAILED, "proof does not verify");
    return CUZK_OK;
}
