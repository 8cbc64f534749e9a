/* Circuit-specific Groth16 parameters from toxic waste (testing only); contract in
 * groth16.h. Query definitions: docs/formats.md#parameters-params (bellperson form) and snarkjs
 * src/zkey_new.js (snarkjs form: the H query on the odd points of the 2m domain). */
#include <stdlib.h>
#include <string.h>

#include "groth16/fixed_base.h"
#include "groth16/groth16.h"
#include "poly/roots.h"

cuzk_status groth16_toxic_random(groth16_toxic_t *t, cuzk_error *err)
{
    fr_t *v[5] = {&t->tau, &t->alpha, &t->beta, &t->gamma, &t->delta};
    for (int i = 0; i < 5; i += 2) {
        fr_t dummy;
        cuzk_status st = groth16_random_rs(v[i], i + 1 < 5 ? v[i + 1] : &dummy, err);
        if (st)
            return st;
    }
    return CUZK_OK;
}

void groth16_params_free(groth16_params_t *p)
{
    if (!p)
        return;
    free(p->vk.ic);
    free(p->h);
    free(p->l);
    free(p->a);
    free(p->b_g1);
    free(p->b_g2);
    memset(p, 0, sizeof *p);
}

/* L_i(tau) for i < m over <omega>: omega^i (tau^m - 1) / (m (tau - omega^i)). */
static cuzk_status lagrange_at(fr_t *L, const fr_t *tau, unsigned log2_m, poly_roots family)
{
    size_t m = (size_t)1 << log2_m;
    fr_t omega, w = FR_ONE, zt, minv, t;
    cuzk_status st = poly_root_of_unity(&omega, log2_m, family);
    if (st)
        return st;
    fr_t *den = malloc(m * sizeof *den), *scratch = malloc(m * sizeof *scratch);
    if (!den || !scratch) {
        free(den), free(scratch);
        return CUZK_E_NOMEM;
    }
    for (size_t i = 0; i < m; i++) {
        L[i] = w;
        fr_sub(&den[i], tau, &w);
        fr_mul(&w, &w, &omega);
    }
    fr_batch_inv(den, den, scratch, m);
    fr_pow_u64(&zt, tau, m);
    fr_sub(&zt, &zt, &FR_ONE);
    fr_from_u64(&minv, m);
    fr_inv(&minv, &minv);
    fr_mul(&t, &zt, &minv);
    for (size_t i = 0; i < m; i++) {
        fr_mul(&L[i], &L[i], &den[i]);
        fr_mul(&L[i], &L[i], &t);
    }
    free(den);
    free(scratch);
    return CUZK_OK;
}

/* acc[col] += coeff * L[row] over the first rows of a CSR matrix. */
static cuzk_status accumulate(fr_t *acc, const cs_csr *mat, size_t rows, const fr_t *L, size_t nvars,
                              const char *name, cuzk_error *err)
{
    for (size_t i = 0; i < rows; i++)
        for (uint64_t k = mat->row_ptr[i]; k < mat->row_ptr[i + 1]; k++) {
            if (mat->col[k] >= nvars)
                return cuzk_fail(err, CUZK_E_INVALID_ARG, "setup: matrix %s row %zu has column %u >= %zu variables",
                                 name, i, mat->col[k], nvars);
            fr_t t;
            fr_mul(&t, &mat->val[k], &L[i]);
            fr_add(&acc[mat->col[k]], &acc[mat->col[k]], &t);
        }
    return CUZK_OK;
}

/* bitmap of the columns with a non-zero entry in the first rows (plus all inputs when
 * `inputs_set`) */
static uint64_t *density_of(const cs_csr *mat, size_t rows, size_t nvars, size_t inputs_set)
{
    uint64_t *bits = calloc((nvars + 63) / 64 + 1, sizeof *bits);
    if (!bits)
        return NULL;
    for (size_t i = 0; i < inputs_set; i++)
        bits[i / 64] |= 1ULL << (i % 64);
    for (size_t i = 0; i < rows; i++)
        for (uint64_t k = mat->row_ptr[i]; k < mat->row_ptr[i + 1]; k++)
            if (!fr_is_zero(&mat->val[k]))
                bits[mat->col[k] / 64] |= 1ULL << (mat->col[k] % 64);
    return bits;
}

static size_t compact(fr_t *dst, const fr_t *src, const uint64_t *bits, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!bits || (bits[i / 64] >> (i % 64) & 1))
            dst[k++] = src[i];
    return k;
}

typedef struct {
    fr_t *L, *u, *v, *w, *k, *h;
    uint64_t *ad, *bd;
} setup_tmp;

static void tmp_free(setup_tmp *t)
{
    free(t->L), free(t->u), free(t->v), free(t->w), free(t->k), free(t->h);
    free(t->ad), free(t->bd);
}

static cuzk_status h_scalars(fr_t *h, size_t n_h, const groth16_toxic_t *tw, unsigned log2_m, poly_h_form form,
                             const fr_t *dinv)
{
    if (form == POLY_H_BELLPERSON) {
        /* tau^i Z(tau) / delta, i < m - 1 */
        fr_t z, p = FR_ONE;
        fr_pow_u64(&z, &tw->tau, (uint64_t)1 << log2_m);
        fr_sub(&z, &z, &FR_ONE);
        fr_mul(&z, &z, dinv);
        for (size_t i = 0; i < n_h; i++) {
            fr_mul(&h[i], &p, &z);
            fr_mul(&p, &p, &tw->tau);
        }
        return CUZK_OK;
    }
    /* L^(2m)_(2i+1)(tau) / delta, i < m */
    size_t m2 = (size_t)2 << log2_m;
    fr_t *L2 = malloc(m2 * sizeof *L2);
    if (!L2)
        return CUZK_E_NOMEM;
    cuzk_status st = lagrange_at(L2, &tw->tau, log2_m + 1, POLY_ROOTS_SNARKJS);
    for (size_t i = 0; !st && i < n_h; i++)
        fr_mul(&h[i], &L2[2 * i + 1], dinv);
    free(L2);
    return st;
}

cuzk_status groth16_setup(const groth16_circuit_t *circ, const groth16_toxic_t *tw, poly_h_form form,
                          unsigned threads, groth16_params_t *out, uint64_t **a_density, uint64_t **b_density,
                          cuzk_error *err)
{
    memset(out, 0, sizeof *out);
    if (a_density)
        *a_density = NULL;
    if (b_density)
        *b_density = NULL;
    size_t ni = circ->n_inputs, na = circ->n_aux, nv = ni + na, rows = circ->n_constraints + ni;
    if (ni == 0)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "setup: a circuit has at least the input ONE");
    unsigned log2_m = 0;
    while (((size_t)1 << log2_m) < rows)
        log2_m++;
    if (log2_m > POLY_MAX_LOG2)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "setup: %zu rows need a domain of 2^%u > 2^%u", rows, log2_m,
                         POLY_MAX_LOG2);
    size_t m = (size_t)1 << log2_m;
    poly_roots family = form == POLY_H_SNARKJS ? POLY_ROOTS_SNARKJS : POLY_ROOTS_FF;
    bool bp = form == POLY_H_BELLPERSON;

    setup_tmp t = {0};
    size_t n_h = poly_h_len(form, m);
    t.L = malloc(m * sizeof(fr_t));
    t.u = calloc(nv + 1, sizeof(fr_t));
    t.v = calloc(nv + 1, sizeof(fr_t));
    t.w = calloc(nv + 1, sizeof(fr_t));
    t.k = malloc((nv + 1) * sizeof(fr_t));
    t.h = malloc((n_h + 1) * sizeof(fr_t));
    if (!t.L || !t.u || !t.v || !t.w || !t.k || !t.h) {
        tmp_free(&t);
        return cuzk_fail(err, CUZK_E_NOMEM, "setup: out of memory (%zu variables, domain %zu)", nv, m);
    }
    cuzk_status st = lagrange_at(t.L, &tw->tau, log2_m, family);
    if (!st)
        st = accumulate(t.u, circ->a, circ->n_constraints, t.L, nv, "A", err);
    if (!st)
        st = accumulate(t.v, circ->b, circ->n_constraints, t.L, nv, "B", err);
    if (!st)
        st = accumulate(t.w, circ->c, circ->n_constraints, t.L, nv, "C", err);
    if (st) {
        tmp_free(&t);
        return st == CUZK_E_NOMEM ? cuzk_fail(err, st, "setup: out of memory") : st;
    }
    for (size_t i = 0; i < ni; i++) /* input rows: A = input_i */
        fr_add(&t.u[i], &t.u[i], &t.L[circ->n_constraints + i]);

    if (bp) {
        t.ad = density_of(circ->a, circ->n_constraints, nv, ni);
        t.bd = density_of(circ->b, circ->n_constraints, nv, 0);
        if (!t.ad || !t.bd) {
            tmp_free(&t);
            return cuzk_fail(err, CUZK_E_NOMEM, "setup: out of memory");
        }
    }

    /* k_j = beta u_j + alpha v_j + w_j, divided by gamma (inputs) or delta (aux) */
    fr_t ginv, dinv;
    fr_inv(&ginv, &tw->gamma);
    fr_inv(&dinv, &tw->delta);
    for (size_t j = 0; j < nv; j++) {
        fr_t a, b;
        fr_mul(&a, &tw->beta, &t.u[j]);
        fr_mul(&b, &tw->alpha, &t.v[j]);
        fr_add(&a, &a, &b);
        fr_add(&a, &a, &t.w[j]);
        if (bp && j >= ni && fr_is_zero(&a)) {
            tmp_free(&t);
            return cuzk_fail(err, CUZK_E_INVALID_ARG,
                             "setup: aux variable %zu appears in no constraint (its l point would be infinity)",
                             j - ni);
        }
        fr_mul(&t.k[j], &a, j < ni ? &ginv : &dinv);
    }
    st = h_scalars(t.h, n_h, tw, log2_m, form, &dinv);

    g1_affine_t g1;
    g2_affine_t g2;
    g1_generator(&g1);
    g2_generator(&g2);
    out->n_inputs = ni;
    out->n_aux = na;
    out->log2_m = log2_m;
    out->h_form = form;
    out->n_h = n_h;
    out->n_l = na;
    out->vk.n_ic = ni;
    out->vk.ic = malloc(ni * sizeof(g1_affine_t));
    out->h = malloc((n_h + 1) * sizeof(g1_affine_t));
    out->l = malloc((na + 1) * sizeof(g1_affine_t));
    out->a = malloc((nv + 1) * sizeof(g1_affine_t));
    out->b_g1 = malloc((nv + 1) * sizeof(g1_affine_t));
    out->b_g2 = malloc((nv + 1) * sizeof(g2_affine_t));
    if (!st && (!out->vk.ic || !out->h || !out->l || !out->a || !out->b_g1 || !out->b_g2))
        st = CUZK_E_NOMEM;
    fixed_base_g1_table *t1 = NULL;
    fixed_base_g2_table *t2 = NULL;
    if (!st)
        st = fixed_base_g1_new(&t1, &g1, ni + na + n_h + 2 * nv, threads);
    if (!st)
        st = fixed_base_g2_new(&t2, &g2, nv, threads);
    if (!st) {
        fixed_base_g1_mul(t1, out->vk.ic, t.k, ni, threads);
        fixed_base_g1_mul(t1, out->l, t.k + ni, na, threads);
        fixed_base_g1_mul(t1, out->h, t.h, n_h, threads);
        out->n_a = compact(t.k, t.u, t.ad, nv);
        fixed_base_g1_mul(t1, out->a, t.k, out->n_a, threads);
        out->n_b = compact(t.k, t.v, t.bd, nv);
        fixed_base_g1_mul(t1, out->b_g1, t.k, out->n_b, threads);
        fixed_base_g2_mul(t2, out->b_g2, t.k, out->n_b, threads);
    }
    /* verifying key */
    fr_t ks[3] = {tw->alpha, tw->beta, tw->delta};
    g1_affine_t v1[3];
    g2_affine_t v2[3];
    fr_t ks2[3] = {tw->beta, tw->gamma, tw->delta};
    if (!st) {
        fixed_base_g1_mul(t1, v1, ks, 3, 1);
        fixed_base_g2_mul(t2, v2, ks2, 3, 1);
    }
    fixed_base_g1_free(t1);
    fixed_base_g2_free(t2);
    if (st) {
        tmp_free(&t);
        groth16_params_free(out);
        return cuzk_fail(err, st, "setup: %s", st == CUZK_E_NOMEM ? "out of memory" : cuzk_status_name(st));
    }
    out->vk.alpha_g1 = v1[0];
    out->vk.beta_g1 = v1[1];
    out->vk.delta_g1 = v1[2];
    out->vk.beta_g2 = v2[0];
    out->vk.gamma_g2 = v2[1];
    out->vk.delta_g2 = v2[2];
    if (a_density) {
        *a_density = t.ad;
        t.ad = NULL;
    }
    if (b_density) {
        *b_density = t.bd;
        t.bd = NULL;
    }
    tmp_free(&t);
    return CUZK_OK;
}
