/* CS_PROVE: bellperson's ProvingAssignment (bellperson src/groth16/prover/mod.rs): values, the
 * per-row evaluations a_i = A·w, b_i = B·w, c_i = C·w and the A/B densities, laid out the
 * way groth16_prove_start reads them; and the shared witness buffer [inputs | aux] that
 * CS_PROVE and a presized CS_WITNESS write into. Contracts in cs.h. */
#include <stdlib.h>
#include <string.h>

#include "cs/cs.h"
#include "cs/cs_internal.h"

static fr_t *alloc_fr(uint64_t n)
{
    if (n > SIZE_MAX / sizeof(fr_t))
        return NULL;
    return malloc((size_t)(n ? n : 1) * sizeof(fr_t));
}

cuzk_status cs_prove_presize(cs_t *cs, const cs_prove_hint *hint)
{
    cs_impl *im = cs->impl;
    if (hint->rows && cs->mode == CS_PROVE && hint->abc_alloc) {
        fr_t *r = hint->rows <= SIZE_MAX / (3 * sizeof(fr_t))
                      ? hint->abc_alloc->get(hint->abc_alloc->ctx, (size_t)hint->rows * 3 * sizeof(fr_t))
                      : NULL;
        if (!r)
            return cuzk_fail(&cs->err, CUZK_E_NOMEM, "cs_init_prove: no a/b/c region of %llu rows",
                             (unsigned long long)hint->rows);
        im->abc_region = r;
        im->abc_alloc = hint->abc_alloc;
        for (int m = 0; m < 3; m++)
            im->abc[m] = r + (size_t)m * hint->rows;
        im->abc_cap = hint->rows;
    } else if (hint->rows && cs->mode == CS_PROVE) {
        for (int m = 0; m < 3; m++) {
            im->abc[m] = alloc_fr(hint->rows);
            if (!im->abc[m])
                return cuzk_fail(&cs->err, CUZK_E_NOMEM, "cs_init_prove: out of memory for a/b/c of %llu rows",
                                 (unsigned long long)hint->rows);
        }
        im->abc_cap = hint->rows;
    }
    if (im->compact) {
        /* inputs in an array of their own, aux compact */
        if ((hint->inputs && !cs_grow((void **)&im->vals[0], &im->vals_cap[0], hint->inputs, sizeof(fr_t))) ||
            !cs_witness_reserve(&im->aux, hint->aux, 0))
            return cuzk_fail(&cs->err, CUZK_E_NOMEM, "cs_init: out of memory for a witness of %llu values",
                             (unsigned long long)(hint->inputs + hint->aux));
    } else if (hint->inputs && hint->aux) {
        im->wbuf = alloc_fr(hint->inputs + hint->aux);
        if (!im->wbuf)
            return cuzk_fail(&cs->err, CUZK_E_NOMEM, "cs_init_prove: out of memory for a witness of %llu values",
                             (unsigned long long)(hint->inputs + hint->aux));
        im->packed = true;
        im->vals[0] = im->wbuf;
        im->vals_cap[0] = hint->inputs;
        im->vals[1] = im->wbuf + hint->inputs;
        im->vals_cap[1] = hint->aux;
    }
    if (cs->mode != CS_PROVE)
        return CUZK_OK;
    /* density bitmaps sized once (they otherwise double as variables are allocated) */
    uint64_t words[3] = {hint->aux / 64 + 1, hint->aux / 64 + 1, hint->inputs / 64 + 1};
    for (int d = 0; d < 3; d++) {
        if (!cs_grow((void **)&im->dens[d], &im->dens_words[d], words[d], sizeof(uint64_t)))
            return cuzk_fail(&cs->err, CUZK_E_NOMEM, "cs_init_prove: out of memory for density bitmaps");
        memset(im->dens[d], 0, im->dens_words[d] * sizeof(uint64_t));
    }
    return CUZK_OK;
}

/* Move inputs and aux out of the shared buffer into arrays of their own (a hint was too
 * small); the copies keep the current capacities. */
static bool unpack(cs_t *cs)
{
    cs_impl *im = cs->impl;
    fr_t *in = alloc_fr(im->vals_cap[0]), *aux = alloc_fr(im->vals_cap[1]);
    if (!in || !aux) {
        free(in);
        free(aux);
        return false;
    }
    memcpy(in, im->vals[0], cs->num_inputs * sizeof(fr_t));
    memcpy(aux, im->vals[1], cs->num_aux * sizeof(fr_t));
    free(im->wbuf);
    im->wbuf = NULL;
    im->packed = false;
    im->vals[0] = in;
    im->vals[1] = aux;
    return true;
}

/* Move the witness out as one [inputs | aux] array (the shared buffer when there is one: no
 * copy when the hint was exact) and leave the cs without values; NULL when out of memory
 * (the cs keeps its values). */
static fr_t *take_values(cs_t *cs)
{
    cs_impl *im = cs->impl;
    uint64_t ni = cs->num_inputs, na = cs->num_aux;
    fr_t *w;
    cs_sync_aux(cs);
    if (im->compact) {
        if (!(w = alloc_fr(ni + na)))
            return NULL;
        memcpy(w, im->vals[0], ni * sizeof(fr_t));
        cs_witness_expand(&im->aux, w + ni);
        cs_witness_free(&im->aux);
        free(im->vals[0]);
    } else if (im->packed) {
        if (im->vals_cap[0] != ni)
            memmove(im->wbuf + ni, im->vals[1], na * sizeof(fr_t));
        w = im->wbuf;
        im->wbuf = NULL;
        im->packed = false;
    } else {
        w = alloc_fr(ni + na);
        if (!w)
            return NULL;
        memcpy(w, im->vals[0], ni * sizeof(fr_t));
        memcpy(w + ni, im->vals[1], na * sizeof(fr_t));
        free(im->vals[0]);
        free(im->vals[1]);
    }
    im->vals[0] = im->vals[1] = NULL;
    im->vals_cap[0] = im->vals_cap[1] = 0;
    memset(&cs->fast, 0, sizeof cs->fast); /* the values are gone */
    return w;
}

bool cs_reserve_value(cs_t *cs, int kind, uint64_t need)
{
    cs_impl *im = cs->impl;
    if (need <= im->vals_cap[kind])
        return true;
    if (im->packed && !unpack(cs))
        return false;
    return cs_grow((void **)&im->vals[kind], &im->vals_cap[kind], need, sizeof(fr_t));
}

/* Σ coeff·value over a normalised LC. Most terms need no multiplication: Filecoin
 * witnesses are mostly bits (a zero value is skipped, a value of one adds the coefficient)
 * and most coefficients are 1 or -1. */
static inline bool limbs_zero(const fr_t *a) { return !(a->l[0] | a->l[1] | a->l[2] | a->l[3]); }
static inline bool limbs_eq(const fr_t *a, const fr_t *b)
{
    return !((a->l[0] ^ b->l[0]) | (a->l[1] ^ b->l[1]) | (a->l[2] ^ b->l[2]) | (a->l[3] ^ b->l[3]));
}

static void eval(const cs_impl *im, const cs_lc *lc, const fr_t *neg_one, fr_t *out)
{
    fr_t acc = FR_ZERO, t;
    for (uint32_t i = 0; i < lc->n; i++) {
        const cs_term *term = &lc->t[i];
        const fr_t *x = cs_val(im, term->var);
        if (limbs_zero(x))
            continue;
        if (limbs_eq(&term->coeff, &FR_ONE)) {
            fr_add(&acc, &acc, x);
        } else if (limbs_eq(&term->coeff, neg_one)) {
            fr_sub(&acc, &acc, x);
        } else if (limbs_eq(x, &FR_ONE)) {
            fr_add(&acc, &acc, &term->coeff);
        } else {
            fr_mul(&t, x, &term->coeff);
            fr_add(&acc, &acc, &t);
        }
    }
    *out = acc;
}

bool cs_prove_row(cs_t *cs, cs_lc *lc[3], const fr_t *ev)
{
    cs_impl *im = cs->impl;
    uint64_t row = cs->num_constraints;
    if (row >= im->abc_cap && im->abc_region) {
        cs_set_error(cs, CUZK_E_INVALID_ARG, "cs_enforce: constraint %llu is beyond the a/b/c region's %llu rows",
                     (unsigned long long)row, (unsigned long long)im->abc_cap);
        return false;
    }
    if (row >= im->abc_cap) {
        uint64_t cap = im->abc_cap;
        for (int m = 0; m < 3; m++) {
            uint64_t c = cap;
            if (!cs_grow((void **)&im->abc[m], &c, row + 1, sizeof(fr_t))) {
                cs_set_error(cs, CUZK_E_NOMEM, "cs_enforce: out of memory for the evaluation of constraint %llu",
                             (unsigned long long)row);
                return false;
            }
            if (m == 2)
                im->abc_cap = c;
        }
        cs_fast_refresh(cs);
    }
    fr_t *a = &im->abc[0][row], *b = &im->abc[1][row], *c = &im->abc[2][row];
    if (ev) {
        *a = ev[0];
        *b = ev[1];
        *c = ev[2];
    } else {
        const fr_t *neg_one = cs_neg_one();
        eval(im, lc[0], neg_one, a);
        eval(im, lc[1], neg_one, b);
        eval(im, lc[2], neg_one, c);
    }
    if (cs->flags & CS_VERIFY_ROWS)
        cs_row_verify(cs, row);
    return true;
}

void cs_row_verify(cs_t *cs, uint64_t row)
{
    cs_impl *im = cs->impl;
    if (im->failed)
        return;
    fr_t ab;
    fr_mul(&ab, &im->abc[0][row], &im->abc[1][row]);
    if (!fr_eq(&ab, &im->abc[2][row])) {
        im->failed = true;
        im->fail_index = row;
        strcpy(im->fail_name, "(unnamed)");
    }
}

void cs_assignment_free(cs_assignment *as)
{
    if (!as)
        return;
    if (as->abc_region) {
        as->abc_alloc->put(as->abc_alloc->ctx, as->abc_region);
    } else {
        free(as->a);
        free(as->b);
        free(as->c);
    }
    free(as->w);
    free(as->a_density);
    free(as->b_density);
    free(as->inputs);
    cs_witness_free(&as->aux);
    memset(as, 0, sizeof *as);
}

cuzk_status cs_take_assignment(cs_t *cs, uint64_t rows, cs_assignment *out)
{
    memset(out, 0, sizeof *out);
    if (cs->mode != CS_PROVE || !cs->impl)
        return cuzk_fail(&cs->err, CUZK_E_INVALID_ARG, "cs_take_assignment: cs is not in prove mode");
    if (cs->status != CUZK_OK)
        return cs->status;
    cs_impl *im = cs->impl;
    uint64_t nc = cs->num_constraints, ni = cs->num_inputs, na = cs->num_aux, nv = ni + na;
#if defined(__SSE2__)
    _mm_sfence(); /* the rows streamed by cs_row_push, before a, b, c leave this thread */
#endif
    cs_sync_aux(cs);
    if (im->failed)
        return cuzk_fail(&cs->err, CUZK_E_INVALID_ARG,
                         "the witness does not satisfy constraint %llu of %llu", (unsigned long long)im->fail_index,
                         (unsigned long long)nc);
    if (rows < nc + ni)
        return cuzk_fail(&cs->err, CUZK_E_INVALID_ARG,
                         "cs_take_assignment: %llu rows requested for %llu constraints + %llu inputs",
                         (unsigned long long)rows, (unsigned long long)nc, (unsigned long long)ni);
    if (im->abc_region && im->abc_cap < rows)
        return cuzk_fail(&cs->err, CUZK_E_INVALID_ARG,
                         "cs_take_assignment: %llu rows requested of an a/b/c region of %llu",
                         (unsigned long long)rows, (unsigned long long)im->abc_cap);
    /* a, b, c: grow to `rows` (no-op with an exact hint), input rows, zero tail */
    for (int m = 0; m < 3; m++) {
        if (im->abc_cap < rows) {
            fr_t *p = realloc(im->abc[m], (size_t)rows * sizeof(fr_t));
            if (!p)
                return cuzk_fail(&cs->err, CUZK_E_NOMEM, "cs_take_assignment: out of memory for %llu rows",
                                 (unsigned long long)rows);
            im->abc[m] = p;
        }
    }
    if (im->abc_cap < rows)
        im->abc_cap = rows;
    for (uint64_t i = 0; i < ni; i++) {
        im->abc[0][nc + i] = im->vals[0][i];
        im->abc[1][nc + i] = FR_ZERO;
        im->abc[2][nc + i] = FR_ZERO;
    }
    for (int m = 0; m < 3; m++)
        memset(im->abc[m] + nc + ni, 0, (size_t)(rows - nc - ni) * sizeof(fr_t));
    uint64_t *ad, *bd, a_count, b_count;
    if (!cs_full_density(cs, &ad, &bd, &a_count, &b_count))
        return cuzk_fail(&cs->err, CUZK_E_NOMEM, "cs_take_assignment: out of memory for density bitmaps");
    /* witness: [inputs | aux], or the inputs and the compact aux */
    fr_t *w = NULL;
    if (im->compact) {
        cs_witness_shrink(&im->aux);
        out->inputs = im->vals[0];
        out->aux = im->aux;
        memset(&im->aux, 0, sizeof im->aux);
        im->vals[0] = NULL;
        im->vals_cap[0] = 0;
    } else if (!(w = take_values(cs))) {
        free(ad);
        free(bd);
        return cuzk_fail(&cs->err, CUZK_E_NOMEM, "cs_take_assignment: out of memory for %llu witness values",
                         (unsigned long long)nv);
    }

    out->a = im->abc[0];
    out->b = im->abc[1];
    out->c = im->abc[2];
    out->abc_region = im->abc_region;
    out->abc_alloc = im->abc_alloc;
    out->rows = rows;
    out->w = w;
    out->num_constraints = nc;
    out->num_inputs = ni;
    out->num_aux = na;
    out->a_density = ad;
    out->b_density = bd;
    out->a_count = a_count;
    out->b_count = b_count;
    /* ownership moved: the cs keeps nothing the caller now frees */
    for (int m = 0; m < 3; m++)
        im->abc[m] = NULL;
    im->abc_region = NULL;
    im->abc_cap = 0;
    memset(&cs->fast, 0, sizeof cs->fast);
    return CUZK_OK;
}

cuzk_status cs_take_witness_packed(cs_t *cs, fr_t **w, uint64_t *num_inputs, uint64_t *num_aux)
{
    *w = NULL;
    *num_inputs = *num_aux = 0;
    if (!cs_has_values(cs) || !cs->impl)
        return cuzk_fail(&cs->err, CUZK_E_INVALID_ARG, "cs_take_witness_packed: cs holds no values");
    if (cs->status != CUZK_OK)
        return cs->status;
    uint64_t ni = cs->num_inputs, na = cs->num_aux;
    if (!(*w = take_values(cs)))
        return cuzk_fail(&cs->err, CUZK_E_NOMEM, "cs_take_witness_packed: out of memory for %llu witness values",
                         (unsigned long long)(ni + na));
    *num_inputs = ni;
    *num_aux = na;
    return CUZK_OK;
}

bool cs_unpack_values(cs_t *cs)
{
    cs_impl *im = cs->impl;
    cs_sync_aux(cs);
    if (im->compact) { /* aux into a plain array (cs_take_witness's layout) */
        fr_t *aux = alloc_fr(cs->num_aux);
        if (!aux)
            return false;
        cs_witness_expand(&im->aux, aux);
        cs_witness_free(&im->aux);
        im->compact = false;
        im->vals[1] = aux;
        im->vals_cap[1] = cs->num_aux;
        cs_fast_refresh(cs);
        return true;
    }
    return !im->packed || unpack(cs);
}

cuzk_status cs_take_witness_compact(cs_t *cs, fr_t **inputs, uint64_t *num_inputs, cs_witness *aux)
{
    *inputs = NULL;
    *num_inputs = 0;
    memset(aux, 0, sizeof *aux);
    if (!cs_has_values(cs) || !cs->impl || !cs->impl->compact)
        return cuzk_fail(&cs->err, CUZK_E_INVALID_ARG, "cs_take_witness_compact: cs has no compact values");
    if (cs->status != CUZK_OK)
        return cs->status;
    cs_impl *im = cs->impl;
    cs_sync_aux(cs);
    cs_witness_shrink(&im->aux);
    *inputs = im->vals[0];
    *num_inputs = cs->num_inputs;
    *aux = im->aux;
    memset(&im->aux, 0, sizeof im->aux);
    im->vals[0] = NULL;
    im->vals_cap[0] = 0;
    memset(&cs->fast, 0, sizeof cs->fast);
    return CUZK_OK;
}
