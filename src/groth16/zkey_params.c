/* zkey <-> prover bridges; contracts in zkey_params.h. */
#include "groth16/zkey_params.h"

#include <string.h>

void groth16_params_from_zkey(groth16_params_t *out, const zkey_t *z)
{
    memset(out, 0, sizeof *out);
    out->vk.alpha_g1 = z->alpha1;
    out->vk.beta_g1 = z->beta1;
    out->vk.delta_g1 = z->delta1;
    out->vk.beta_g2 = z->beta2;
    out->vk.gamma_g2 = z->gamma2;
    out->vk.delta_g2 = z->delta2;
    out->vk.ic = z->ic;
    out->vk.n_ic = (size_t)z->n_public + 1;
    out->n_inputs = (size_t)z->n_public + 1;
    out->n_aux = (size_t)z->n_vars - out->n_inputs;
    unsigned k = 0;
    while ((1u << k) < z->domain_size)
        k++;
    out->log2_m = k;
    out->h_form = POLY_H_SNARKJS;
    out->h = z->h;
    out->n_h = z->domain_size;
    out->l = z->c;
    out->n_l = out->n_aux;
    out->a = z->a;
    out->n_a = z->n_vars;
    out->b_g1 = z->b1;
    out->b_g2 = z->b2;
    out->n_b = z->n_vars;
}

void groth16_zkey_abc(const zkey_t *z, const fr_t *w, fr_t *a, fr_t *b, fr_t *c)
{
    memset(a, 0, z->domain_size * sizeof *a);
    memset(b, 0, z->domain_size * sizeof *b);
    for (uint32_t i = 0; i < z->n_coefs; i++) {
        const zkey_coef *k = &z->coefs[i];
        fr_t *dst = k->matrix ? b : a, t;
        fr_mul(&t, &k->value, &w[k->signal]);
        fr_add(&dst[k->constraint], &dst[k->constraint], &t);
    }
    for (uint32_t i = 0; i < z->domain_size; i++)
        fr_mul(&c[i], &a[i], &b[i]);
}

static uint64_t nnz_rows(const cs_csr *m, size_t rows)
{
    return m->row_ptr[rows] - m->row_ptr[0];
}

static uint32_t put_coefs(zkey_coef *dst, const cs_csr *m, size_t rows, uint32_t matrix)
{
    uint32_t k = 0;
    for (size_t i = 0; i < rows; i++)
        for (uint64_t e = m->row_ptr[i]; e < m->row_ptr[i + 1]; e++)
            dst[k++] = (zkey_coef){matrix, (uint32_t)i, m->col[e], m->val[e]};
    return k;
}

cuzk_status groth16_zkey_from_setup(zkey_t *out, const groth16_params_t *pk, const groth16_circuit_t *circ,
                                    cuzk_error *err)
{
    memset(out, 0, sizeof *out);
    size_t nv = pk->n_inputs + pk->n_aux;
    if (pk->h_form != POLY_H_SNARKJS || pk->n_a != nv || pk->n_b != nv)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "zkey: the proving key is not in the snarkjs form");
    uint64_t ncoef = nnz_rows(circ->a, circ->n_constraints) + nnz_rows(circ->b, circ->n_constraints) + pk->n_inputs;
    if (nv > UINT32_MAX || ncoef > UINT32_MAX || pk->log2_m > 31)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "zkey: circuit too large for the format (%zu variables)", nv);
    cuzk_status st = zkey_alloc(out, (uint32_t)nv, (uint32_t)(pk->n_inputs - 1), 1u << pk->log2_m,
                                (uint32_t)ncoef, err);
    if (st)
        return st;
    out->alpha1 = pk->vk.alpha_g1;
    out->beta1 = pk->vk.beta_g1;
    out->delta1 = pk->vk.delta_g1;
    out->beta2 = pk->vk.beta_g2;
    out->gamma2 = pk->vk.gamma_g2;
    out->delta2 = pk->vk.delta_g2;
    memcpy(out->ic, pk->vk.ic, pk->n_inputs * sizeof *out->ic);
    memcpy(out->a, pk->a, nv * sizeof *out->a);
    memcpy(out->b1, pk->b_g1, nv * sizeof *out->b1);
    memcpy(out->b2, pk->b_g2, nv * sizeof *out->b2);
    memcpy(out->c, pk->l, pk->n_aux * sizeof *out->c);
    memcpy(out->h, pk->h, pk->n_h * sizeof *out->h);
    uint32_t k = put_coefs(out->coefs, circ->a, circ->n_constraints, 0);
    for (size_t s = 0; s < pk->n_inputs; s++)
        out->coefs[k++] = (zkey_coef){0, (uint32_t)(circ->n_constraints + s), (uint32_t)s, FR_ONE};
    put_coefs(out->coefs + k, circ->b, circ->n_constraints, 1);
    return CUZK_OK;
}
