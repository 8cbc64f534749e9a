/* PCE recording: a CS_RECORD back end that stores every constraint row in compact CSR
 * (u32 columns, u16 coefficient indices into a dictionary) and hands out a cs_pce.
 * Contracts in pce.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs/cs_internal.h"
#include "cs/pce.h"

#define DICT_SLOTS (2u * CS_PCE_MAX_DICT) /* open addressing, load <= 1/2 */

struct cs_pce_rec {
    uint32_t *row_ptr[3];
    uint64_t rp_cap;
    uint32_t *col[3]; /* tagged variables until cs_take_pce */
    uint16_t *coef[3];
    uint64_t nnz[3], cap[3];
    fr_t *dict;
    uint32_t n_dict;
    uint32_t *slot; /* DICT_SLOTS entries: dictionary index + 1, 0 = empty */
};

void cs_pce_rec_free(cs_pce_rec *r)
{
    if (!r)
        return;
    for (int m = 0; m < 3; m++) {
        free(r->row_ptr[m]);
        free(r->col[m]);
        free(r->coef[m]);
    }
    free(r->dict);
    free(r->slot);
    free(r);
}

static uint32_t slot_of(const fr_t *x)
{
    uint64_t h = x->l[0] ^ (x->l[1] * 0x9e3779b97f4a7c15ull) ^ (x->l[2] * 0xc2b2ae3d27d4eb4full) ^ x->l[3];
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ull;
    return (uint32_t)(h >> 32) & (DICT_SLOTS - 1);
}

/* Dictionary index of x, added when new; -1 when the dictionary is full. */
static int64_t dict_index(cs_pce_rec *r, const fr_t *x)
{
    for (uint32_t s = slot_of(x);; s = (s + 1) & (DICT_SLOTS - 1)) {
        uint32_t e = r->slot[s];
        if (!e) {
            if (r->n_dict >= CS_PCE_MAX_DICT)
                return -1;
            r->dict[r->n_dict] = *x;
            r->slot[s] = ++r->n_dict;
            return r->n_dict - 1;
        }
        if (!memcmp(&r->dict[e - 1], x, sizeof *x))
            return e - 1;
    }
}

/* Reallocate *p to exactly `cap` elements. */
static bool resize(void **p, uint64_t cap, size_t elem)
{
    if (cap > SIZE_MAX / elem)
        return false;
    void *q = realloc(*p, (size_t)cap * elem);
    if (!q)
        return false;
    *p = q;
    return true;
}

/* Capacity for `need` elements: exact when presized (first allocation), else doubling. */
static uint64_t next_cap(uint64_t cap, uint64_t need)
{
    uint64_t c = cap ? cap : 1024;
    while (c < need)
        c *= 2;
    return c;
}

/* Row pointers of all three matrices to `cap` entries. */
static bool resize_rows(cs_pce_rec *r, uint64_t cap)
{
    for (int m = 0; m < 3; m++)
        if (!resize((void **)&r->row_ptr[m], cap, sizeof(uint32_t)))
            return false;
    r->rp_cap = cap;
    return true;
}

/* Entries of matrix m to `cap`. */
static bool resize_entries(cs_pce_rec *r, int m, uint64_t cap)
{
    if (!resize((void **)&r->col[m], cap, sizeof(uint32_t)) || !resize((void **)&r->coef[m], cap, sizeof(uint16_t)))
        return false;
    r->cap[m] = cap;
    return true;
}

cuzk_status cs_init_record_pce(cs_t *cs, const cs_counts *presize)
{
    cuzk_status st = cs_init(cs, CS_RECORD, 0);
    if (st)
        return st;
    cs_pce_rec *r = calloc(1, sizeof *r);
    if (r) {
        r->dict = malloc(CS_PCE_MAX_DICT * sizeof *r->dict);
        r->slot = calloc(DICT_SLOTS, sizeof *r->slot);
    }
    uint64_t rows = presize ? presize->constraints + presize->inputs + 1 : 1024;
    uint64_t nnz[3] = {presize ? presize->nnz_a + presize->inputs : 1024, presize ? presize->nnz_b : 1024,
                       presize ? presize->nnz_c : 1024};
    bool ok = r && r->dict && r->slot && resize_rows(r, rows);
    for (int m = 0; ok && m < 3; m++) {
        ok = resize_entries(r, m, nnz[m] ? nnz[m] : 1);
        if (ok)
            r->row_ptr[m][0] = 0;
    }
    if (!ok) {
        cs_pce_rec_free(r);
        cs_free(cs);
        return cuzk_fail(&cs->err, CUZK_E_NOMEM, "cs_init_record_pce: out of memory for %llu rows and %llu entries",
                         (unsigned long long)rows, (unsigned long long)(nnz[0] + nnz[1] + nnz[2]));
    }
    /* ONE (input 0) and the coefficients every circuit uses come first */
    dict_index(r, &FR_ONE);
    dict_index(r, cs_neg_one());
    cs->impl->pce = r;
    return CUZK_OK;
}

bool cs_pce_record_row(cs_t *cs, cs_lc *lc[3])
{
    cs_pce_rec *r = cs->impl->pce;
    uint64_t row = cs->num_constraints;
    if (row + 2 > r->rp_cap && !resize_rows(r, next_cap(r->rp_cap, row + 2))) {
        cs_set_error(cs, CUZK_E_NOMEM, "cs_enforce: out of memory recording constraint %llu", (unsigned long long)row);
        return false;
    }
    for (int m = 0; m < 3; m++) {
        uint64_t need = r->nnz[m] + lc[m]->n;
        if (need > UINT32_MAX) {
            cs_set_error(cs, CUZK_E_UNSUPPORTED, "cs_enforce: matrix %c has more than 2^32 - 1 entries at constraint %llu "
                         "(too large for a PCE)", "ABC"[m], (unsigned long long)row);
            return false;
        }
        if (need > r->cap[m] && !resize_entries(r, m, next_cap(r->cap[m], need))) {
            cs_set_error(cs, CUZK_E_NOMEM, "cs_enforce: out of memory recording constraint %llu",
                         (unsigned long long)row);
            return false;
        }
        uint32_t *col = r->col[m] + r->nnz[m];
        uint16_t *coef = r->coef[m] + r->nnz[m];
        for (uint32_t i = 0; i < lc[m]->n; i++) {
            const cs_term *t = &lc[m]->t[i];
            int64_t k = dict_index(r, &t->coeff);
            if (k < 0) {
                cs_set_error(cs, CUZK_E_UNSUPPORTED, "cs_enforce: more than %u distinct coefficients at constraint "
                             "%llu (too many for a PCE)", CS_PCE_MAX_DICT, (unsigned long long)row);
                return false;
            }
            col[i] = t->var;
            coef[i] = (uint16_t)k;
        }
        r->nnz[m] = need;
        r->row_ptr[m][row + 1] = (uint32_t)need;
    }
    return true;
}

uint64_t cs_pce_bytes(const cs_counts *c)
{
    uint64_t rows = c->constraints + c->inputs, words = (c->inputs + c->aux) / 64 + 1;
    uint64_t nnz = c->nnz_a + c->inputs + c->nnz_b + c->nnz_c;
    return 3 * (rows + 1) * 4 + nnz * 6 + (uint64_t)CS_PCE_MAX_DICT * sizeof(fr_t) + 2 * words * 8;
}

cuzk_status cs_take_pce(cs_t *cs, const cs_pce_identity *id, cs_pce *out)
{
    memset(out, 0, sizeof *out);
    if (cs->mode != CS_RECORD || !cs->impl || !cs->impl->pce)
        return cuzk_fail(&cs->err, CUZK_E_INVALID_ARG, "cs_take_pce: cs is not a PCE recording");
    if (cs->status != CUZK_OK)
        return cs->status;
    cs_pce_rec *r = cs->impl->pce;
    uint64_t nc = cs->num_constraints, ni = cs->num_inputs, rows = nc + ni;
    if (r->nnz[0] + ni > UINT32_MAX)
        return cuzk_fail(&cs->err, CUZK_E_UNSUPPORTED, "cs_take_pce: matrix A has more than 2^32 - 1 entries");
    /* input rows: A = input_i (coefficient 1, dictionary index 0), B = C = empty */
    if ((rows + 1 > r->rp_cap && !resize_rows(r, rows + 1)) ||
        (r->nnz[0] + ni > r->cap[0] && !resize_entries(r, 0, r->nnz[0] + ni)))
        return cuzk_fail(&cs->err, CUZK_E_NOMEM, "cs_take_pce: out of memory");
    for (uint64_t i = 0; i < ni; i++) {
        r->col[0][r->nnz[0]] = CS_VAR_INPUT | (uint32_t)i;
        r->coef[0][r->nnz[0]] = 0;
        r->nnz[0]++;
        r->row_ptr[0][nc + i + 1] = (uint32_t)r->nnz[0];
        r->row_ptr[1][nc + i + 1] = (uint32_t)r->nnz[1];
        r->row_ptr[2][nc + i + 1] = (uint32_t)r->nnz[2];
    }
    for (int m = 0; m < 3; m++)
        for (uint64_t row = 0; row < rows; row++)
            cs_row_to_columns(r->col[m], r->coef[m], sizeof(uint16_t), r->row_ptr[m][row], r->row_ptr[m][row + 1], ni);
    uint64_t *ad, *bd;
    if (!cs_full_density(cs, &ad, &bd, &out->a_count, &out->b_count))
        return cuzk_fail(&cs->err, CUZK_E_NOMEM, "cs_take_pce: out of memory for density bitmaps");
    fr_t *dict = realloc(r->dict, (r->n_dict ? r->n_dict : 1) * sizeof *dict);
    if (dict)
        r->dict = dict;
    for (int m = 0; m < 3; m++) {
        out->m[m] = (cs_pce_matrix){r->row_ptr[m], r->col[m], r->coef[m], r->nnz[m]};
        out->alloc[m] = r->row_ptr[m];
        out->alloc[3 + m] = r->col[m];
        out->alloc[6 + m] = r->coef[m];
        r->row_ptr[m] = NULL;
        r->col[m] = NULL;
        r->coef[m] = NULL;
    }
    out->dict = r->dict;
    out->n_dict = r->n_dict;
    out->alloc[9] = r->dict;
    r->dict = NULL;
    out->a_density = ad;
    out->b_density = bd;
    out->alloc[10] = ad;
    out->alloc[11] = bd;
    out->rows = rows;
    out->num_constraints = nc;
    out->num_inputs = ni;
    out->num_aux = cs->num_aux;
    if (id)
        out->id = *id;
    return CUZK_OK;
}
