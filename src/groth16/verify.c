/* Groth16 verification with a prepared verifying key; contracts in groth16.h. */
#include "groth16/groth16.h"

void groth16_prepare_vk(groth16_pvk_t *pvk, const groth16_vk_t *vk)
{
    pvk->vk = vk;
    g1_affine_neg(&pvk->neg_alpha_g1, &vk->alpha_g1);
    pairing_prepare_g2(&pvk->beta_g2, &vk->beta_g2);
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

    /* IC = ic_0 + sum x_i ic_i */
    g1_jac_t acc, t;
    g1_jac_from_affine(&acc, &vk->ic[0]);
    for (size_t i = 0; i < n; i++) {
        g1_jac_from_affine(&t, &vk->ic[i + 1]);
        g1_mul_fr(&t, &t, &inputs[i]);
        g1_add(&acc, &acc, &t);
    }
    /* e(A, B) e(-alpha, beta) e(-IC, gamma) e(-C, delta) == 1 */
    g1_affine_t p[4];
    g2_prepared_t b_prep;
    pairing_prepare_g2(&b_prep, &proof->b);
    const g2_prepared_t *q[4] = {&b_prep, &pvk->beta_g2, &pvk->gamma_g2, &pvk->delta_g2};
    p[0] = proof->a;
    p[1] = pvk->neg_alpha_g1;
    g1_affine_from_jac(&p[2], &acc);
    g1_affine_neg(&p[2], &p[2]);
    g1_affine_neg(&p[3], &proof->c);
    if (!pairing_product_is_one(p, q, 4))
        return cuzk_fail(err, CUZK_E_VERIFY_FAILED, "proof does not verify");
    return CUZK_OK;
}
