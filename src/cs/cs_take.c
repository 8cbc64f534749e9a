/* Moving results out of a cs: recorded CSR matrices and witnesses. Contracts in cs.h. */
#include <stdlib.h>
#include <string.h>

#include "cs/cs.h"
#include "cs/cs_internal.h"

void cs_matrices_free(cs_matrices *m)
{
    cs_csr *x[3] = {&m->a, &m->b, &m->c};
    for (int i = 0; i < 3; i++) {
        free(x[i]->row_ptr);
        free(x[i]->col);
        free(x[i]->val);
    }
    memset(m, 0, sizeof *m);
}

/* Reverse elements [lo, hi) of col and of the payload array alongside. */
static void reverse(uint32_t *col, uint8_t *payload, size_t psize, uint64_t lo, uint64_t hi)
{
    uint8_t tmp[64];
    while (hi > lo + 1) {
        hi--;
        uint32_t c = col[lo];
        col[lo] = col[hi];
        col[hi] = c;
        memcpy(tmp, payload + lo * psize, psize);
        memcpy(payload + lo * psize, payload + hi * psize, psize);
        memcpy(payload + hi * psize, tmp, psize);
        lo++;
    }
}

void cs_row_to_columns(uint32_t *col, void *payload, size_t psize, uint64_t lo, uint64_t hi, uint64_t num_inputs)
{
    uint64_t first_input = hi;
    for (uint64_t k = lo; k < hi; k++) {
        cs_var v = col[k];
        if (CS_VAR_IS_INPUT(v) && first_input == hi)
            first_input = k;
        col[k] = CS_VAR_IS_INPUT(v) ? CS_VAR_INDEX(v) : (uint32_t)(num_inputs + CS_VAR_INDEX(v));
    }
    if (first_input == lo || first_input == hi)
        return;
    /* rotate [lo, first_input) | [first_input, hi) by three reversals */
    reverse(col, payload, psize, lo, first_input);
    reverse(col, payload, psize, first_input, hi);
    reverse(col, payload, psize, lo, hi);
}

uint64_t cs_popcount_bits(const uint64_t *w, uint64_t n)
{
    uint64_t c = 0;
    if (!w)
        return 0;
    for (uint64_t i = 0; i < n / 64; i++)
        c += (uint64_t)__builtin_popcountll(w[i]);
    if (n % 64)
        c += (uint64_t)__builtin_popcountll(w[n / 64] & ((1ull << (n % 64)) - 1));
    return c;
}

bool cs_full_density(const cs_t *cs, uint64_t **a, uint64_t **b, uint64_t *a_count, uint64_t *b_count)
{
    const cs_impl *im = cs->impl;
    uint64_t ni = cs->num_inputs, na = cs->num_aux, words = (ni + na) / 64 + 1;
    uint64_t *ad = calloc(words, sizeof *ad), *bd = calloc(words, sizeof *bd);
    if (!ad || !bd) {
        free(ad);
        free(bd);
        return false;
    }
    for (uint64_t i = 0; i < ni; i++)
        ad[i / 64] |= 1ull << (i % 64);
    cs_bits_copy(ad, ni, im->dens[D_A_AUX], na);
    cs_bits_copy(bd, 0, im->dens[D_B_IN], ni);
    cs_bits_copy(bd, ni, im->dens[D_B_AUX], na);
    *a = ad;
    *b = bd;
    *a_count = cs_popcount_bits(ad, words * 64);
    *b_count = cs_popcount_bits(bd, words * 64);
    return true;
}

/* Append the input rows, remap tagged variables to assignment columns, hand over. */
static cuzk_status finish_matrix(cs_t *cs, rec_matrix *r, cs_csr *out, bool add_inputs)
{
    uint64_t nc = cs->num_constraints, ni = cs->num_inputs, rows = nc + ni;
    uint64_t nnz = r->nnz + (add_inputs ? ni : 0);
    uint64_t *rp = realloc(r->row_ptr, (rows + 1) * sizeof *rp);
    if (!rp)
        return CUZK_E_NOMEM;
    r->row_ptr = rp;
    uint64_t ccap = r->col_cap, vcap = r->val_cap;
    if (nnz > ccap) {
        cs_var *c = realloc(r->col, nnz * sizeof *c);
        if (!c)
            return CUZK_E_NOMEM;
        r->col = c;
        r->col_cap = nnz;
    }
    if (nnz > vcap) {
        fr_t *v = realloc(r->val, nnz * sizeof *v);
        if (!v)
            return CUZK_E_NOMEM;
        r->val = v;
        r->val_cap = nnz;
    }
    for (uint64_t row = 0; row < nc; row++)
        cs_row_to_columns(r->col, r->val, sizeof *r->val, rp[row], rp[row + 1], ni);
    uint64_t k = r->nnz;
    for (uint64_t i = 0; i < ni; i++) {
        if (add_inputs) {
            r->col[k] = (uint32_t)i;
            r->val[k] = FR_ONE;
            k++;
        }
        rp[nc + i + 1] = k;
    }
    out->rows = rows;
    out->cols = ni + cs->num_aux;
    out->row_ptr = rp;
    out->col = r->col;
    out->val = r->val;
    memset(r, 0, sizeof *r);
    return CUZK_OK;
}

cuzk_status cs_take_matrices(cs_t *cs, cs_matrices *m)
{
    memset(m, 0, sizeof *m);
    if (cs->mode != CS_RECORD || !cs->impl || cs->impl->pce)
        return cuzk_fail(&cs->err, CUZK_E_INVALID_ARG, "cs_take_matrices: cs is not in (full) record mode");
    if (cs->status != CUZK_OK)
        return cs->status;
    cs_csr *out[3] = {&m->a, &m->b, &m->c};
    for (int i = 0; i < 3; i++) {
        if (finish_matrix(cs, &cs->impl->rec[i], out[i], i == 0) != CUZK_OK) {
            cs_matrices_free(m);
            cs_set_error(cs, CUZK_E_NOMEM, "cs_take_matrices: out of memory");
            return cs->status;
        }
    }
    m->num_constraints = cs->num_constraints;
    m->num_inputs = cs->num_inputs;
    m->num_aux = cs->num_aux;
    return CUZK_OK;
}

cuzk_status cs_take_witness(cs_t *cs, fr_t **inputs, uint64_t *num_inputs, fr_t **aux,
                            uint64_t *num_aux)
{
    *inputs = *aux = NULL;
    *num_inputs = *num_aux = 0;
    if (!cs_has_values(cs) || !cs->impl)
        return cuzk_fail(&cs->err, CUZK_E_INVALID_ARG, "cs_take_witness: cs holds no values");
    if (cs->status != CUZK_OK)
        return cs->status;
    if (!cs_unpack_values(cs))
        return cuzk_fail(&cs->err, CUZK_E_NOMEM, "cs_take_witness: out of memory");
    *inputs = cs->impl->vals[0];
    *aux = cs->impl->vals[1];
    *num_inputs = cs->num_inputs;
    *num_aux = cs->num_aux;
    cs->impl->vals[0] = cs->impl->vals[1] = NULL;
    cs->impl->vals_cap[0] = cs->impl->vals_cap[1] = 0;
    return CUZK_OK;
}
