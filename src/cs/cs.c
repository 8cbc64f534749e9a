/* Constraint-system core and the shape / record / witness / check back ends. Contracts in
 * cs.h; model from bellperson's ProvingAssignment and TestConstraintSystem (bellperson
 * src/groth16/prover/mod.rs). */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cancel.h"
#include "cs/cs.h"
#include "cs/cs_internal.h"

void cs_set_error(cs_t *cs, cuzk_status code, const char *fmt, ...)
{
    if (cs->status != CUZK_OK)
        return;
    memset(&cs->fast, 0, sizeof cs->fast); /* every later call takes the general path, a no-op */
    cs->status = code;
    cs->err.code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cs->err.msg, sizeof cs->err.msg, fmt, ap);
    va_end(ap);
}

void cs_fast_refresh(cs_t *cs)
{
    cs_impl *im = cs->impl;
    cs_fast *f = &cs->fast;
    memset(f, 0, sizeof *f);
    if (cs->status != CUZK_OK || !im)
        return;
    bool values = cs_has_values(cs);
    if (!values || im->compact) {
        /* the rest of the current word: a new word (bitmap words, compact rank) is set up by
         * the general path */
        uint64_t end = (cs->num_aux + 63) & ~63ull;
        f->alloc_end = end < CS_MAX_VARS ? end : CS_MAX_VARS;
        f->ones = values ? im->aux.ones : NULL;
    }
    if (cs->mode == CS_PROVE && im->abc[0]) {
        bool aligned = true; /* for the streaming stores (cs_store_stream) */
        for (int m = 0; m < 3; m++) {
            f->abc[m] = im->abc[m];
            f->dens[m] = im->dens[m];
            aligned = aligned && ((uintptr_t)im->abc[m] & 15) == 0;
        }
        f->rows_end = aligned ? im->abc_cap : 0;
    }
}

void cs_row_fail(cs_t *cs)
{
    cs_set_error(cs, CUZK_E_INVALID_ARG, "cs_enforce: constraint %llu uses an unallocated variable",
                 (unsigned long long)cs->num_constraints);
}

bool cs_grow(void **p, uint64_t *cap, uint64_t need, size_t elem)
{
    if (need <= *cap)
        return true;
    uint64_t c = *cap ? *cap : 1024;
    while (c < need)
        c *= 2;
    void *q = realloc(*p, c * elem);
    if (!q)
        return false;
    *p = q;
    *cap = c;
    return true;
}

static cuzk_status init_impl(cs_t *cs, cs_mode mode, unsigned flags, const cs_prove_hint *hint)
{
    memset(cs, 0, sizeof *cs);
    if (mode > CS_PROVE)
        return cuzk_fail(&cs->err, CUZK_E_INVALID_ARG, "cs_init: mode %d unknown", (int)mode);
    if ((flags & CS_COMPACT_AUX) && mode != CS_WITNESS && mode != CS_PROVE)
        return cuzk_fail(&cs->err, CUZK_E_INVALID_ARG, "cs_init: CS_COMPACT_AUX needs CS_WITNESS or CS_PROVE");
    cs->mode = mode;
    cs->flags = flags;
    if (mode == CS_RECORD || mode == CS_PROVE)
        cs->flags |= CS_TRACK_DENSITY;
    cs->impl = calloc(1, sizeof *cs->impl);
    if (!cs->impl)
        return cuzk_fail(&cs->err, CUZK_E_NOMEM, "cs_init: out of memory");
    cs->impl->compact = (flags & CS_COMPACT_AUX) != 0;
    if (mode == CS_RECORD) {
        for (int m = 0; m < 3; m++) {
            rec_matrix *r = &cs->impl->rec[m];
            if (!cs_grow((void **)&r->row_ptr, &r->rows_cap, 1, sizeof *r->row_ptr)) {
                cs_free(cs);
                return cuzk_fail(&cs->err, CUZK_E_NOMEM, "cs_init: out of memory");
            }
            r->row_ptr[0] = 0;
        }
    }
    if ((mode == CS_PROVE || mode == CS_WITNESS) && hint && cs_prove_presize(cs, hint) != CUZK_OK) {
        cuzk_error e = cs->err;
        cs_free(cs);
        cs->err = e;
        return e.code;
    }
    cs_alloc_input(cs, &FR_ONE);
    cs_fast_refresh(cs);
    return cs->status;
}

cuzk_status cs_init(cs_t *cs, cs_mode mode, unsigned flags)
{
    return init_impl(cs, mode, flags, NULL);
}

cuzk_status cs_init_prove(cs_t *cs, const cs_prove_hint *hint, unsigned flags)
{
    return init_impl(cs, CS_PROVE, flags, hint);
}

cuzk_status cs_init_witness(cs_t *cs, const cs_prove_hint *hint, unsigned flags)
{
    return init_impl(cs, CS_WITNESS, flags & CS_COMPACT_AUX, hint);
}

void cs_free(cs_t *cs)
{
    cs_impl *im = cs->impl;
    if (!im)
        return;
    for (int i = 0; i < 3; i++) {
        free(im->dens[i]);
        free(im->rec[i].row_ptr);
        free(im->rec[i].col);
        free(im->rec[i].val);
    }
    if (im->abc_region)
        im->abc_alloc->put(im->abc_alloc->ctx, im->abc_region);
    else
        for (int i = 0; i < 3; i++)
            free(im->abc[i]);
    cs_pce_rec_free(im->pce);
    cs_witness_free(&im->aux);
    if (im->packed) {
        free(im->wbuf);
    } else {
        free(im->vals[0]);
        free(im->vals[1]);
    }
    free(im);
    cs->impl = NULL;
}

static cs_var alloc_kind(cs_t *cs, const fr_t *value, int kind)
{
    uint64_t *count = kind ? &cs->num_aux : &cs->num_inputs;
    if (cs->status != CUZK_OK)
        return CS_ONE;
    if (*count >= CS_MAX_VARS) {
        cs_set_error(cs, CUZK_E_INVALID_ARG, "cs_alloc: more than %u variables", CS_MAX_VARS);
        return CS_ONE;
    }
    /* a chunk boundary (never on the inline path of cs_alloc_bit, which stays inside a
     * 64-variable word): the synthesis ends early once the thread's cancel flag is set */
    if ((*count & 0xffff) == 0 && *count && cuzk_cancel_requested()) {
        cs_set_error(cs, CUZK_E_CANCELLED, "cs_alloc: cancelled at %s variable %llu", kind ? "aux" : "input",
                     (unsigned long long)*count);
        return CS_ONE;
    }
    cs_impl *im = cs->impl;
    if (cs_has_values(cs)) {
        if (!value) {
            cs_set_error(cs, CUZK_E_INVALID_ARG, "cs_alloc: %s variable %llu has no value",
                         kind ? "aux" : "input", (unsigned long long)*count);
            return CS_ONE;
        }
        if (kind && im->compact)
            im->aux.n = *count; /* cs_alloc_bit appends without counting there */
        bool ok = kind && im->compact ? cs_witness_push(&im->aux, value) : cs_reserve_value(cs, kind, *count + 1);
        if (!ok) {
            cs_set_error(cs, CUZK_E_NOMEM, "cs_alloc: out of memory at variable %llu",
                         (unsigned long long)*count);
            return CS_ONE;
        }
        if (!(kind && im->compact))
            im->vals[kind][*count] = *value;
    }
    if ((cs->flags & CS_TRACK_DENSITY) && (*count & 63) == 0) { /* a new bitmap word */
        int lo = kind ? D_A_AUX : D_B_IN, hi = kind ? D_B_AUX : D_B_IN;
        uint64_t words = *count / 64 + 1;
        for (int d = lo; d <= hi; d++) {
            uint64_t cap = im->dens_words[d];
            if (!cs_grow((void **)&im->dens[d], &im->dens_words[d], words, sizeof(uint64_t))) {
                cs_set_error(cs, CUZK_E_NOMEM, "cs_alloc: out of memory (density)");
                return CS_ONE;
            }
            if (im->dens_words[d] > cap)
                memset(im->dens[d] + cap, 0, (im->dens_words[d] - cap) * sizeof(uint64_t));
        }
    }
    cs_var v = (cs_var)*count | (kind ? 0 : CS_VAR_INPUT);
    /* a new word may have moved the bitmaps (their growth is at word starts) and opens the
     * inline path over the rest of the word */
    if ((*count)++ % 64 == 0)
        cs_fast_refresh(cs);
    return v;
}

cs_var cs_alloc(cs_t *cs, const fr_t *value)
{
    return alloc_kind(cs, value, 1);
}

cs_var cs_alloc_input(cs_t *cs, const fr_t *value)
{
    return alloc_kind(cs, value, 0);
}

cs_var cs_alloc_bits(cs_t *cs, uint64_t v, unsigned n)
{
    cs_var first = (cs_var)cs->num_aux;
    while (n && cs->status == CUZK_OK) {
        uint64_t at = cs->num_aux, room = cs->fast.alloc_end > at ? cs->fast.alloc_end - at : 0;
        if (!room) { /* a new word (or no inline path): one bit the general way */
            cs_alloc_bit(cs, v & 1);
            v >>= 1;
            n--;
            continue;
        }
        unsigned k = room < n ? (unsigned)room : n;
        uint64_t bits = k < 64 ? v & ((1ull << k) - 1) : v;
        if (cs->fast.ones)
            cs->fast.ones[at >> 6] |= bits << (at & 63);
        cs->num_aux = at + k;
        v = k < 64 ? v >> k : 0;
        n -= k;
    }
    return cs->status == CUZK_OK ? first : CS_ONE;
}

const fr_t *cs_value(const cs_t *cs, cs_var v)
{
    if (!cs_has_values(cs) || !cs->impl)
        return NULL;
    uint64_t i = CS_VAR_INDEX(v);
    if (i >= (CS_VAR_IS_INPUT(v) ? cs->num_inputs : cs->num_aux))
        return NULL;
    return cs_val(cs->impl, v);
}

/* Check that every variable of lc is allocated and, for A (is_b 0) and B (1), mark the
 * variables in the density bitmaps in the same pass (is_b -1: check only). False at the
 * first unallocated variable (bits marked before it stay: the cs then fails). */
static bool mark_density(cs_t *cs, const cs_lc *lc, int is_b)
{
    cs_impl *im = cs->impl;
    for (uint32_t i = 0; i < lc->n; i++) {
        cs_var v = lc->t[i].var;
        bool in = CS_VAR_IS_INPUT(v);
        uint64_t idx = CS_VAR_INDEX(v);
        if (idx >= (in ? cs->num_inputs : cs->num_aux))
            return false;
        int d = is_b < 0 ? -1 : in ? (is_b ? D_B_IN : -1) : (is_b ? D_B_AUX : D_A_AUX);
        if (d < 0)
            continue;
        im->dens[d][idx >> 6] |= 1ull << (idx & 63);
    }
    return true;
}

static bool record_all(cs_t *cs, cs_lc *lc[3])
{
    cs_impl *im = cs->impl;
    uint64_t row = cs->num_constraints;
    for (int m = 0; m < 3; m++) {
        rec_matrix *r = &im->rec[m];
        uint64_t need = r->nnz + lc[m]->n;
        if (!cs_grow((void **)&r->row_ptr, &r->rows_cap, row + 2, sizeof *r->row_ptr))
            return false;
        if (!cs_grow((void **)&r->col, &r->col_cap, need, sizeof *r->col) ||
            !cs_grow((void **)&r->val, &r->val_cap, need, sizeof *r->val))
            return false;
        for (uint32_t i = 0; i < lc[m]->n; i++) {
            r->col[r->nnz + i] = lc[m]->t[i].var;
            r->val[r->nnz + i] = lc[m]->t[i].coeff;
        }
        r->nnz = need;
        r->row_ptr[row + 1] = need;
    }
    return true;
}

static void eval_lc(const cs_impl *im, const cs_lc *lc, fr_t *out)
{
    *out = FR_ZERO;
    fr_t t;
    for (uint32_t i = 0; i < lc->n; i++) {
        const fr_t *x = cs_val(im, lc->t[i].var);
        fr_mul(&t, x, &lc->t[i].coeff);
        fr_add(out, out, &t);
    }
}

static bool lc_vars_valid(const cs_t *cs, const cs_lc *lc)
{
    for (uint32_t i = 0; i < lc->n; i++) {
        cs_var v = lc->t[i].var;
        uint64_t lim = CS_VAR_IS_INPUT(v) ? cs->num_inputs : cs->num_aux;
        if (CS_VAR_INDEX(v) >= lim)
            return false;
    }
    return true;
}

/* Evaluate the row; it fails when a * b != c or when a known evaluation (ev, may be NULL)
 * differs from the LC's. */
static void check_row(cs_t *cs, const char *name, cs_lc *lc[3], const fr_t *ev)
{
    cs_impl *im = cs->impl;
    if (im->failed)
        return;
    fr_t v[3], ab;
    for (int m = 0; m < 3; m++)
        eval_lc(im, lc[m], &v[m]);
    fr_mul(&ab, &v[0], &v[1]);
    bool known_ok = !ev || (fr_eq(&ev[0], &v[0]) && fr_eq(&ev[1], &v[1]) && fr_eq(&ev[2], &v[2]));
    if (fr_eq(&ab, &v[2]) && known_ok)
        return;
    im->failed = true;
    im->fail_index = cs->num_constraints;
    snprintf(im->fail_name, sizeof im->fail_name, "%s%s%s%s", im->ns, im->ns[0] ? "/" : "",
             name ? name : "(unnamed)", known_ok ? "" : " (a given evaluation differs from its LC's)");
}

void cs_enforce(cs_t *cs, const char *name, cs_lc *a, cs_lc *b, cs_lc *c)
{
    cs_enforce_values(cs, name, a, b, c, NULL);
}

void cs_enforce_values(cs_t *cs, const char *name, cs_lc *a, cs_lc *b, cs_lc *c, const fr_t ev[3])
{
    if (cs->status != CUZK_OK || cs->mode == CS_WITNESS)
        return;
    cs_lc *lc[3] = {a, b, c};
    for (int m = 0; m < 3; m++) {
        if (lc[m]->failed) {
            cs_set_error(cs, CUZK_E_NOMEM, "cs_enforce: linear combination of constraint %llu "
                         "could not grow", (unsigned long long)cs->num_constraints);
            return;
        }
        cs_lc_normalize(lc[m]);
        cs->nnz[m] += lc[m]->n;
    }
    if ((cs->flags & CS_TRACK_DENSITY) &&
        (!mark_density(cs, a, 0) || !mark_density(cs, b, 1) || !mark_density(cs, c, -1))) {
        cs_set_error(cs, CUZK_E_INVALID_ARG, "cs_enforce: constraint %llu uses an "
                     "unallocated variable", (unsigned long long)cs->num_constraints);
        return;
    }
    if (cs->mode == CS_RECORD && (cs->impl->pce ? !cs_pce_record_row(cs, lc) : !record_all(cs, lc))) {
        cs_set_error(cs, CUZK_E_NOMEM, "cs_enforce: out of memory recording constraint %llu",
                     (unsigned long long)cs->num_constraints);
        return;
    }
    if (cs->mode == CS_PROVE) {
        if (!cs_prove_row(cs, lc, ev))
            return; /* error recorded */
    } else if (cs->mode == CS_CHECK) {
        for (int m = 0; m < 3; m++) {
            if (!lc_vars_valid(cs, lc[m])) {
                cs_set_error(cs, CUZK_E_INVALID_ARG, "cs_enforce: constraint %llu uses an "
                             "unallocated variable", (unsigned long long)cs->num_constraints);
                return;
            }
        }
        check_row(cs, name, lc, ev);
    }
    cs->num_constraints++;
}

void cs_ns_push(cs_t *cs, const char *fmt, ...)
{
    if (cs->mode != CS_CHECK || !cs->impl)
        return;
    cs_impl *im = cs->impl;
    if (im->ns_depth >= NS_DEPTH) {
        im->ns_overflow++;
        return;
    }
    size_t len = strlen(im->ns);
    im->ns_len[im->ns_depth++] = (uint32_t)len;
    if (len && len + 1 < NS_MAX)
        im->ns[len++] = '/';
    va_list ap;
    va_start(ap, fmt);
    if (len < NS_MAX)
        vsnprintf(im->ns + len, NS_MAX - len, fmt, ap);
    va_end(ap);
}

void cs_ns_pop(cs_t *cs)
{
    if (cs->mode != CS_CHECK || !cs->impl)
        return;
    cs_impl *im = cs->impl;
    if (im->ns_overflow) {
        im->ns_overflow--;
        return;
    }
    if (im->ns_depth == 0)
        return;
    im->ns[im->ns_len[--im->ns_depth]] = 0;
}

void cs_get_counts(const cs_t *cs, cs_counts *out)
{
    memset(out, 0, sizeof *out);
    out->constraints = cs->num_constraints;
    out->inputs = cs->num_inputs;
    out->aux = cs->num_aux;
    out->nnz_a = cs->nnz[0];
    out->nnz_b = cs->nnz[1];
    out->nnz_c = cs->nnz[2];
    if (cs->impl && (cs->flags & CS_TRACK_DENSITY)) {
        const cs_impl *im = cs->impl;
        out->a_aux_density = cs_popcount_bits(im->dens[D_A_AUX], cs->num_aux);
        out->b_aux_density = cs_popcount_bits(im->dens[D_B_AUX], cs->num_aux);
        out->b_input_density = cs_popcount_bits(im->dens[D_B_IN], cs->num_inputs);
    }
}

bool cs_check_satisfied(const cs_t *cs, uint64_t *index, char *name, size_t cap)
{
    if (!cs->impl || !cs->impl->failed)
        return true;
    if (index)
        *index = cs->impl->fail_index;
    if (name && cap)
        snprintf(name, cap, "%s", cs->impl->fail_name);
    return false;
}
