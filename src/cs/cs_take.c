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
    for (uint64_t k = 0; k < r->nnz; k++) {
        cs_var v = r->col[k];
        r->col[k] = CS_VAR_IS_INPUT(v) ? CS_VAR_INDEX(v) : (uint32_t)(ni + CS_VAR_INDEX(v));
    }
    /* Within a row terms were sorted by tagged variable (aux before inputs); sort by column. */
    for (uint64_t row = 0; row < nc; row++) {
        uint64_t lo = rp[row], hi = rp[row + 1];
        for (uint64_t i = lo + 1; i < hi; i++) {
            uint32_t c = r->col[i];
            fr_t v = r->val[i];
            uint64_t j = i;
            while (j > lo && r->col[j - 1] > c) {
                r->col[j] = r->col[j - 1];
                r->val[j] = r->val[j - 1];
                j--;
            }
            r->col[j] = c;
            r->val[j] = v;
        }
    }
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
    if (cs->mode != CS_RECORD || !cs->impl)
        return cuzk_fail(&cs->err, CUZK_E_INVALID_ARG, "cs_take_matrices: cs is not in record mode");
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
    *inputs = cs->impl->vals[0];
    *aux = cs->impl->vals[1];
    *num_inputs = cs->num_inputs;
    *num_aux = cs->num_aux;
    cs->impl->vals[0] = cs->impl->vals[1] = NULL;
    cs->impl->vals_cap[0] = cs->impl->vals_cap[1] = 0;
    return CUZK_OK;
}
